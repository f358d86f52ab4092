#!/usr/bin/env python3
"""`make bench`: Magpie next to its peers, each in its own process, same run.

Every engine speaks the protocol of CONTRACT.md (`TASK LISTFILE REPS
WARMUP`, one JSON line per image); libjpeg-turbo's own tjbench is run where
it applies. Figures are images per second from the median of REPS timed
runs; engines take ROUNDS turns per case and each keeps its fastest round,
so load drifting on a shared machine does not favour whoever ran in the
quiet moment. Ratios are against the named peer measured in this same run,
so the machine's speed cancels out. Also: thumbnails of a mixed corpus on
all cores at once, and the peak memory of thumbnailing a 10000x10000 JPEG;
and the sections of the files imported below, `magpie serve` against
thumbor under wrk among them (serve_bench.py).
Writes bench/results.json and bench/results.md.
"""
import argparse
import datetime
import glob
import json
import os
import platform
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "Scripts", "samples"))
import make_samples  # noqa: E402
import network_bench  # noqa: E402  (beside this file)
import pipeline_bench  # noqa: E402
import animation_bench  # noqa: E402
import color_bench  # noqa: E402
import redis_bench  # noqa: E402
import serve_bench  # noqa: E402

WORK = os.path.join(ROOT, "bench", "work")
KODAK = os.path.normpath(os.path.join(ROOT, "..", "shared", "testdata", "kodak"))


def corpus():
    """Builds (once) the benchmark images; returns name -> absolute path."""
    os.makedirs(WORK, exist_ok=True)
    files = {}

    def make(name, builder):
        path = os.path.join(WORK, name)
        if not os.path.exists(path):
            builder(path + ".tmp")
            os.replace(path + ".tmp", path)
        files[name] = path

    from PIL import Image

    def photo(w, h, seed, **save):
        def build(path):
            img = make_samples.render(seed, w, h, make_samples.landscape)
            fmt = save.pop("format")
            img.save(path, format=fmt, **save)
            save["format"] = fmt
        return build

    make("photo-4000x3000.jpg", photo(4000, 3000, 11, format="JPEG", quality=90))
    make("photo-4000x3000-progressive.jpg", photo(4000, 3000, 11, format="JPEG", quality=90, progressive=True))
    make("photo-1200x800.jpg", photo(1200, 800, 12, format="JPEG", quality=85))
    make("photo-1200x800-progressive.jpg", photo(1200, 800, 12, format="JPEG", quality=85, progressive=True))
    make("photo-1024x768.png", photo(1024, 768, 13, format="PNG"))

    def rgba_png(path):
        img = make_samples.with_alpha(make_samples.render(14, 1024, 1024, make_samples.flowers), None)
        img.save(path, format="PNG")
    make("cutout-1024x1024.png", rgba_png)
    make("photo-1024x768.webp", photo(1024, 768, 15, format="WEBP", quality=80))

    def lossless_webp(path):
        img = make_samples.with_alpha(make_samples.render(16, 1024, 768, make_samples.city), None)
        img.save(path, format="WEBP", lossless=True)
    make("cutout-1024x768-lossless.webp", lossless_webp)

    def gif(path):
        frames = make_samples.animation(17, 400, 300, 30)
        frames[0].save(path, format="GIF", save_all=True, append_images=frames[1:], duration=50, loop=0)
    make("pan-400x300-30f.gif", gif)

    def anim_webp(path):
        frames = make_samples.animation(18, 400, 300, 30)
        frames[0].save(path, format="WEBP", save_all=True, append_images=frames[1:], duration=50, loop=0, quality=80)
    make("pan-400x300-30f.webp", anim_webp)
    make("huge-10000x10000.jpg", huge_jpeg)

    # AVIF photos: the bundled sample JPEGs and the large photo, encoded
    # once by libavif's avifenc (aom, 4:2:0 as the JPEGs are, quantizers
    # 20-30, about quality 60-70).
    def avif(source, speed):
        def build(path):
            subprocess.run(["avifenc", "-j", "all", "-s", str(speed), "--min", "20", "--max", "30", source, path + ".avif"],
                           check=True, stdout=subprocess.DEVNULL)
            os.replace(path + ".avif", path)
        return build
    for i in range(6):
        make(f"sample-{i:02d}.avif", avif(os.path.join(ROOT, "samples", f"photo-{i:02d}.jpg"), 6))
    make("photo-4000x3000.avif", avif(files["photo-4000x3000.jpg"], 8))
    for name in sorted(os.listdir(KODAK)) if os.path.isdir(KODAK) else []:
        files["kodak/" + name] = os.path.join(KODAK, name)
    heic_corpus(files, make)
    core_format_corpus(files, make)
    return files


def core_format_corpus(files, make):
    """BMP and ICO written by Pillow from the PNG photo and cutout: a 24-bit
    photo, a 32-bit cutout (BI_RGB, its fourth byte alpha), and a favicon of
    six sizes up to 256 as PNG entries and as 32-bit BMP entries."""
    from PIL import Image

    def convert(source, mode, fmt, **save):
        def build(path):
            Image.open(files[source]).convert(mode).save(path, format=fmt, **save)
        return build
    sizes = [(16, 16), (32, 32), (48, 48), (64, 64), (128, 128), (256, 256)]
    make("photo-1024x768.bmp", convert("photo-1024x768.png", "RGB", "BMP"))
    make("cutout-1024x1024.bmp", convert("cutout-1024x1024.png", "RGBA", "BMP"))
    make("favicon-256.ico", convert("cutout-1024x1024.png", "RGBA", "ICO", sizes=sizes))
    make("favicon-256-bmp.ico", convert("cutout-1024x1024.png", "RGBA", "ICO", sizes=sizes, bitmap_format="bmp"))
    make("illustration-1600x1200.svg", illustration_svg)
    make("photo-1024x768-lzw.tif", convert("photo-1024x768.png", "RGB", "TIFF", compression="tiff_lzw"))
    make("photo-1024x768-jpeg.tif", convert("photo-1024x768.png", "RGB", "TIFF", compression="jpeg", quality=90))
    make("document-a4.pdf", document_pdf)


def document_pdf(path, seed=22, shapes=600):
    """A one-page A4 PDF (595x842 pt) of 600 filled and stroked Bezier
    shapes and a grid of rules: a vector chart or drawing page, no fonts."""
    import random
    sys.path.insert(0, os.path.join(ROOT, "Scripts", "fixtures"))
    import make_pdf_fixtures
    rng = random.Random(seed)
    ops = ["1 1 1 rg 0 0 595 842 re f", "0.8 0.8 0.85 RG 0.5 w"]
    ops += [f"0 {y} m 595 {y} l S" for y in range(0, 842, 12)]
    for _ in range(shapes):
        x, y, r = rng.uniform(0, 595), rng.uniform(0, 842), rng.uniform(10, 80)
        pts = " ".join(f"{x + rng.uniform(-r, r):.1f} {y + rng.uniform(-r, r):.1f}" for _ in range(3))
        ops.append(f"{rng.random():.2f} {rng.random():.2f} {rng.random():.2f} rg "
                   f"{rng.random():.2f} {rng.random():.2f} {rng.random():.2f} RG {rng.uniform(0.3, 2):.1f} w "
                   f"{x:.1f} {y:.1f} m {pts} c h B")
    with open(path, "wb") as f:
        f.write(make_pdf_fixtures.pdf([(595, 842, "\n".join(ops).encode(), "")]))


def illustration_svg(path, seed=21, shapes=400):
    """An SVG illustration of 1600x1200 CSS pixels: 400 curved, gradient-
    filled and translucent shapes, the work of a detailed logo or chart."""
    import random
    rng = random.Random(seed)
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200" viewBox="0 0 1600 1200"><defs>']
    for i in range(8):
        parts.append(f'<linearGradient id="g{i}" x1="0" y1="0" x2="1" y2="1">'
                     f'<stop offset="0" stop-color="#{rng.randrange(1 << 24):06x}"/>'
                     f'<stop offset="1" stop-color="#{rng.randrange(1 << 24):06x}" stop-opacity="0.6"/></linearGradient>')
    parts.append('</defs><rect width="1600" height="1200" fill="#f4f1ea"/>')
    for _ in range(shapes):
        x, y, r = rng.uniform(0, 1600), rng.uniform(0, 1200), rng.uniform(20, 160)
        d = f"M{x:.1f} {y:.1f} " + " ".join(
            f"C{x + rng.uniform(-r, r):.1f} {y + rng.uniform(-r, r):.1f} {x + rng.uniform(-r, r):.1f} "
            f"{y + rng.uniform(-r, r):.1f} {x + rng.uniform(-r, r):.1f} {y + rng.uniform(-r, r):.1f}" for _ in range(3)) + " Z"
        fill = f"url(#g{rng.randrange(8)})" if rng.random() < 0.5 else f"#{rng.randrange(1 << 24):06x}"
        parts.append(f'<path d="{d}" fill="{fill}" fill-opacity="{rng.uniform(0.4, 1):.2f}" stroke="#222" '
                     f'stroke-width="{rng.uniform(0.5, 3):.1f}"/>')
    parts.append("</svg>")
    with open(path, "w") as f:
        f.write("".join(parts))


def core_format_cases(files):
    """BMP and ICO rows, against Pillow (libvips reads neither without its
    ImageMagick loader, so pyvips reports a skip)."""
    engines = ["magpie", "pillow", "pyvips"]
    target = (["pillow", "pyvips"], 1.0)
    return [
        ("bmp-decode-rgb", "BMP decode 1024x768 24-bit", "decode", [files["photo-1024x768.bmp"]], engines, target),
        ("bmp-decode-rgba", "BMP decode 1024x1024 32-bit", "decode", [files["cutout-1024x1024.bmp"]], engines, target),
        ("thumb-bmp", "Thumbnail 1024x768 24-bit BMP to 256x192", "thumb", [files["photo-1024x768.bmp"]], engines,
         target),
        ("ico-decode", "ICO decode, largest of 6 entries (256 px PNG)", "decode", [files["favicon-256.ico"]], engines,
         target),
        ("ico-decode-bmp", "ICO decode, largest of 6 entries (256 px 32-bit BMP)", "decode",
         [files["favicon-256-bmp.ico"]], engines, target),
        ("thumb-ico", "Thumbnail ICO (6 PNG entries) to 256 px", "thumb", [files["favicon-256.ico"]], engines, target),
    ]


def tiff_cases(files):
    """TIFF rows: libtiff in Magpie, Pillow and pyvips."""
    engines = ["magpie", "pillow", "pyvips"]
    target = (["pillow", "pyvips"], 1.0)
    lzw, jpeg = [files["photo-1024x768-lzw.tif"]], [files["photo-1024x768-jpeg.tif"]]
    return [
        ("tiff-decode-lzw", "TIFF decode 1024x768 RGB, LZW", "decode", lzw, engines, target),
        ("tiff-decode-jpeg", "TIFF decode 1024x768 YCbCr, JPEG", "decode", jpeg, engines, target),
        ("thumb-tiff", "Thumbnail 1024x768 LZW TIFF to 256x192", "thumb", lzw, engines, target),
    ]


def svg_cases(files):
    """SVG rows: librsvg in Magpie and in pyvips (Pillow has no SVG reader);
    and the thumbnail drawn at 256 px against Magpie drawing the SVG at its
    own size and shrinking that (the "tjbench" column), which it must beat
    twice over."""
    svg = [files["illustration-1600x1200.svg"]]
    engines = ["magpie", "pillow", "pyvips"]
    return [
        ("svg-decode", "SVG render at its 1600x1200 (400 shapes)", "decode", svg, engines, (["pillow", "pyvips"], 1.0)),
        ("thumb-svg", "Thumbnail 1600x1200 SVG to 256x192", "thumb", svg, engines, (["pillow", "pyvips"], 1.0)),
        ("thumb-svg-vs-shrink", "SVG thumbnail drawn at 256x192 vs drawn at 1600x1200 and shrunk", "thumb", svg,
         ["magpie", "magpie-unscaled"], (["magpie-unscaled"], 2.0)),
    ]


def pdf_cases(files):
    """PDF rows: poppler in Magpie against PyMuPDF (MuPDF; Pillow reads no
    PDF and the pyvips wheel has no PDF loader, so both report a skip); and
    the thumbnail drawn at 256 px against Magpie drawing the page at 72 dpi
    and shrinking that."""
    pdf = [files["document-a4.pdf"]]
    engines = ["magpie", "pillow", "pyvips", "pymupdf"]
    return [
        ("pdf-decode", "PDF page at 72 dpi (A4, 595x842, 600 shapes; other: PyMuPDF)", "decode", pdf, engines,
         (["pymupdf"], 1.0)),
        ("thumb-pdf", "Thumbnail A4 PDF page to 181x256 (other: PyMuPDF)", "thumb", pdf, engines, (["pymupdf"], 1.0)),
        ("thumb-pdf-vs-shrink", "PDF thumbnail drawn at 181x256 vs drawn at 72 dpi and shrunk", "thumb", pdf,
         ["magpie", "magpie-unscaled"], (["magpie-unscaled"], 2.0)),
    ]


def heic_corpus(files, make):
    """HEIC photos: the first four samples/*.jpg through heif-enc (x265,
    quality 80), with the 320-px thumbnail phones store and without one."""
    os.makedirs(os.path.join(WORK, "heic"), exist_ok=True)
    for jpg in sorted(glob.glob(os.path.join(ROOT, "samples", "photo-*.jpg")))[:4]:
        stem = os.path.splitext(os.path.basename(jpg))[0]
        for suffix, flags in (("", ["-t", "320"]), ("-nothumb", [])):
            def build(path, jpg=jpg, flags=flags):
                subprocess.run(["heif-enc", "-q", "80", *flags, jpg, "-o", path], check=True, capture_output=True)
            make(f"heic/{stem}{suffix}.heic", build)


def heic_cases(files):
    """HEIC rows: Magpie (libheif + libde265) against pillow-heif (PyPI's
    libheif + libde265, through peer_pillow.py) and pyvips (whose wheel's
    libheif has no HEVC decoder, so it reports a skip)."""
    thumbed = [p for n, p in sorted(files.items()) if n.startswith("heic/") and "-nothumb" not in n]
    plain = [p for n, p in sorted(files.items()) if n.endswith("-nothumb.heic")]
    engines = ["magpie", "pillow", "pyvips"]
    return [
        ("heic-decode", "HEIC decode to RGBA (4 photos, 1024-1600 px)", "decode", plain, engines,
         (["pillow", "pyvips"], 1.0)),
        ("thumb-heic", "Thumbnail HEIC photos to 256 px (320-px thumbnail stored)", "thumb", thumbed, engines,
         (["pillow", "pyvips"], 1.0)),
        ("thumb-heic-nothumb", "Thumbnail HEIC photos to 256 px (no thumbnail stored)", "thumb", plain, engines,
         (["pillow", "pyvips"], 1.0)),
    ]


def huge_jpeg(path, side=10000):
    """A 10000x10000 baseline JPEG streamed through cjpeg, so that no
    process ever holds its 300 MB of pixels (Pillow's fallback does)."""
    header = f"P6\n{side} {side}\n255\n".encode()
    try:
        with subprocess.Popen(["cjpeg", "-quality", "85", "-outfile", path], stdin=subprocess.PIPE) as cjpeg:
            cjpeg.stdin.write(header)
            for band in range(0, side, 40):
                row = bytearray(side * 3)
                for x in range(side):
                    row[x * 3] = (x // 40) & 0xFF
                    row[x * 3 + 1] = (band // 40) & 0xFF
                    row[x * 3 + 2] = (x // 64 + band // 13) & 0xFF
                cjpeg.stdin.write(bytes(row) * min(40, side - band))
            cjpeg.stdin.close()
        if cjpeg.returncode == 0:
            return
    except FileNotFoundError:
        pass
    from PIL import Image
    Image.effect_noise((side, side), 40).convert("RGB").save(path, format="JPEG", quality=85)


def run_protocol(command, task, paths, reps, warmup):
    """Runs one engine on a list; returns ({path: median ms}, meta, skips)."""
    listfile = os.path.join(WORK, f"list-{task.replace('/', '_').replace(':', '_')}-{abs(hash(tuple(paths)))}.txt")
    with open(listfile, "w") as f:
        f.write("\n".join(paths) + "\n")
    out = subprocess.run(command + [task, listfile, str(reps), str(warmup)],
                         capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        raise RuntimeError(f"{command[-1]} {task} failed: {out.stderr.strip()}")
    medians, meta, skips = {}, {}, {}
    for line in out.stdout.splitlines():
        record = json.loads(line)
        if "meta" in record:
            meta = record["meta"]
        elif "skip" in record:
            skips[record["path"]] = record["skip"]
        else:
            medians[record["path"]] = statistics.median(record["ms"])
    return medians, meta, skips


def tjbench(path, scale=None, seconds=2.0):
    """Median-free but steady: tjbench's own frames per second over `seconds`."""
    cmd = ["tjbench", path, "-rgbx", "-nowrite", "-benchtime", str(seconds), "-warmup", "0.5"]
    if scale:
        cmd += ["-scale", scale]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=600).stdout
    m = re.search(r"Decompress\s*-->\s*Frame rate:\s*([0-9.]+)", out)
    if not m:
        raise RuntimeError(f"could not read tjbench output: {out[-400:]}")
    return 1000.0 / float(m.group(1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--magpie", default=os.path.join(ROOT, ".build", "release", "magpie"))
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=3,
                    help="times each engine is run per case, in turns; its fastest round counts")
    ap.add_argument("--only", help="run only cases whose id contains this")
    ap.add_argument("--serve-seconds", type=int, default=15, help="wrk's duration per magpie serve/thumbor run")
    ap.add_argument("--serve-rounds", type=int, default=2, help="rounds of the magpie serve/thumbor runs")
    a = ap.parse_args()

    files = corpus()
    py = sys.executable
    here = os.path.dirname(os.path.abspath(__file__))
    engines = {
        "magpie": [a.magpie, "bench"],
        # Magpie on one core: its processors split rows across the cores
        # and libwebp takes a helper thread when a core idles, while Pillow
        # and tjbench run one thread; this column sets like against like.
        "magpie-1core": ["taskset", "-c", "0", a.magpie, "bench"],
        "pillow": [py, os.path.join(here, "peer_pillow.py")],
        "pyvips": [py, os.path.join(here, "peer_pyvips.py")],
        "pymupdf": [py, os.path.join(here, "peer_pymupdf.py")],
        # Magpie with no decode-time size: `thumb` becomes `thumb-unscaled`.
        "magpie-unscaled": [a.magpie, "bench"],
    }
    kodak = [p for n, p in files.items() if n.startswith("kodak/")]
    # id, title, task, files, engines, target: (peers, minimum ratio) where
    # the ratio is Magpie's images/s over the best of the named peers.
    cases = [
        ("jpeg-decode", "JPEG decode 4000x3000 to RGBA", "decode", [files["photo-4000x3000.jpg"]],
         ["magpie", "pillow", "pyvips", "tjbench"], (["tjbench"], 0.9)),
        ("jpeg-decode-1/8", "JPEG decode at 1/8 scale (500x375)", "decode-scaled", [files["photo-4000x3000.jpg"]],
         ["magpie", "pillow", "pyvips", "tjbench-1/8"], (["tjbench-1/8"], 0.9)),
        ("png-decode-rgba", "PNG decode 1024x1024 RGBA", "decode", [files["cutout-1024x1024.png"]],
         ["magpie", "pillow", "pyvips"], (["pillow", "pyvips"], 1.0)),
        ("png-decode-rgb", "PNG decode 768x512 RGB (Kodak, 4 files)", "decode", kodak,
         ["magpie", "pillow", "pyvips"], (["pillow", "pyvips"], 1.0)),
        ("gif-decode", "GIF decode 400x300, 30 frames", "decode", [files["pan-400x300-30f.gif"]],
         ["magpie", "pillow", "pyvips"], (["pillow", "pyvips"], 1.0)),
        ("webp-decode-lossy", "WebP decode 1024x768 lossy", "decode", [files["photo-1024x768.webp"]],
         ["magpie", "pillow", "pyvips"], (["pillow", "pyvips"], 1.0)),
        ("webp-decode-lossless", "WebP decode 1024x768 lossless RGBA", "decode",
         [files["cutout-1024x768-lossless.webp"]], ["magpie", "pillow", "pyvips"], (["pillow", "pyvips"], 1.0)),
        ("webp-decode-animated", "WebP decode 400x300, 30 frames", "decode", [files["pan-400x300-30f.webp"]],
         ["magpie", "pillow", "pyvips"], (["pillow", "pyvips"], 1.0)),
        # Encoding has no target: it is reported next to the peers only.
        ("webp-encode", "WebP encode 1024x768 quality 80", "webp", [files["photo-1024x768.png"]],
         ["magpie", "pillow", "pyvips"], (["pillow", "pyvips"], None)),
    ]
    # Thumbnails (fit 256x256, from the file's bytes): baseline JPEG against
    # libjpeg-turbo decoding alone at the scale the thumbnail decodes at,
    # progressive JPEG against the faster peer, the rest likewise.
    thumbs = [
        ("thumb-jpeg-large", "Thumbnail 4000x3000 baseline JPEG to 256x192", "photo-4000x3000.jpg",
         ["tjbench-1/8"], (["tjbench-1/8"], 0.9)),
        ("thumb-jpeg-large-progressive", "Thumbnail 4000x3000 progressive JPEG to 256x192",
         "photo-4000x3000-progressive.jpg", ["tjbench-1/8"], (["pillow", "pyvips"], 4.0)),
        ("thumb-jpeg-medium", "Thumbnail 1200x800 baseline JPEG to 256x171", "photo-1200x800.jpg",
         ["tjbench-1/4"], (["tjbench-1/4"], 0.9)),
        # Issue 16's aim for the medium progressive file: 2.5x the faster peer
        # (its decode is most of the work at this size; 4.0x holds for 4000x3000).
        ("thumb-jpeg-medium-progressive", "Thumbnail 1200x800 progressive JPEG to 256x171",
         "photo-1200x800-progressive.jpg", ["tjbench-1/4"], (["pillow", "pyvips"], 2.5)),
        ("thumb-png-rgba", "Thumbnail 1024x1024 RGBA PNG to 256x256", "cutout-1024x1024.png", [],
         (["pillow", "pyvips"], 1.0)),
        ("thumb-png-rgb", "Thumbnail 1024x768 RGB PNG to 256x192", "photo-1024x768.png", [],
         (["pillow", "pyvips"], 1.0)),
        ("thumb-webp-lossy", "Thumbnail 1024x768 lossy WebP to 256x192", "photo-1024x768.webp", [],
         (["pillow", "pyvips"], 1.0)),
        ("thumb-webp-lossless", "Thumbnail 1024x768 lossless RGBA WebP to 256x192", "cutout-1024x768-lossless.webp",
         [], (["pillow", "pyvips"], 1.0)),
        ("thumb-gif", "Thumbnail 400x300 GIF (first of 30 frames) to 256x192", "pan-400x300-30f.gif", [],
         (["pillow", "pyvips"], 1.0)),
    ]
    for cid, title, name, extra, target in thumbs:
        cases.append((cid, title, "thumb", [files[name]], ["magpie", "pillow", "pyvips"] + extra, target))
    # AVIF (libavif in Magpie and Pillow; libheif's AVIF reader in pyvips):
    # decode and thumbnail, against the faster peer.
    avif_samples = [files[f"sample-{i:02d}.avif"] for i in range(6)]
    for cid, title, task, paths in [
        ("avif-decode", "AVIF decode, 6 sample photos (720-1600 px)", "decode", avif_samples),
        ("avif-decode-large", "AVIF decode 4000x3000", "decode", [files["photo-4000x3000.avif"]]),
        ("thumb-avif", "Thumbnail AVIF sample photos to 256 px", "thumb", avif_samples),
        ("thumb-avif-large", "Thumbnail 4000x3000 AVIF to 256x192", "thumb", [files["photo-4000x3000.avif"]]),
    ]:
        cases.append((cid, title, task, paths, ["magpie", "pillow", "pyvips"], (["pillow", "pyvips"], 1.0)))
    cases += heic_cases(files)
    cases += core_format_cases(files)
    cases += tiff_cases(files)
    cases += svg_cases(files)
    cases += pdf_cases(files)
    # Processors on a decoded 1024x1024 RGBA image, pixels to pixels, each
    # against the way a Pillow user does the same (peer_pillow.py), and
    # pyvips where libvips has one operation for it. Target: faster than
    # Pillow.
    cutout = files["cutout-1024x1024.png"]
    for cid, title, spec in [
        ("blur-10", "Gaussian blur radius 10 (Pillow GaussianBlur(10))", "blur(10)"),
        ("round-64", "Round corners, radius 64 (Pillow rounded_rectangle mask)", "round(64)"),
        ("resize-fit", "Resize 1024x1024 to 512x512, Lanczos", "resize(512x512)"),
        ("resize-fill", "Resize to fill 300x200, Lanczos (Pillow ImageOps.fit)", "resize(300x200,fill)"),
        ("downsample", "Downsample decoded 1024x1024 to 256x256 (Pillow thumbnail)", "downsample(256x256)"),
        ("crop", "Crop 512x512 from the centre", "crop(512x512)"),
        ("rotate-90", "Rotate 90 degrees (Pillow transpose)", "rotate(90)"),
        ("flip-h", "Flip left to right", "flip(h)"),
        ("grayscale", "Grayscale, alpha kept (Pillow convert LA)", "grayscale"),
        ("tint", "Tint #FF8040 (Pillow ImageChops.multiply)", "tint(#FF8040)"),
    ]:
        peers = ["magpie", "pillow"] if cid == "round-64" else ["magpie", "pillow", "pyvips"]
        cases.append((cid, f"{title}, 1024x1024 RGBA", f"process:{spec}", [cutout], peers, (["pillow"], 1.0)))
    # Every case that times Magpie also times it on one core, right after.
    cases = [(cid, title, task, paths,
              [n for name in names for n in ([name, "magpie-1core"] if name == "magpie" else [name])], target)
             for cid, title, task, paths, names, target in cases]
    results = []
    for cid, title, task, paths, names, (target_peers, target_ratio) in cases:
        if a.only and a.only not in cid:
            continue
        row = {"id": cid, "title": title, "task": task, "files": [os.path.relpath(p, ROOT) for p in paths],
               "ms": {}, "images_per_s": {}, "skips": {}}
        # Engines take turns, `rounds` times, and each keeps its fastest
        # round: on a shared machine the load drifts, and a peer timed in a
        # quiet moment must not be set against Magpie timed in a busy one.
        for _ in range(a.rounds):
            for name in names:
                if name in row["skips"]:
                    continue
                try:
                    if name.startswith("tjbench"):
                        scale = name.split("-", 1)[1] if "-" in name else None
                        total = sum(tjbench(p, scale) for p in paths)
                    else:
                        run_task = "thumb-unscaled" if name == "magpie-unscaled" and task == "thumb" else task
                        medians, meta, skips = run_protocol(engines[name], run_task, paths, a.reps, a.warmup)
                        if skips or len(medians) != len(paths):
                            row["skips"][name] = skips
                            continue
                        total = sum(medians.values())
                    ms = round(total / len(paths), 3)
                    if name not in row["ms"] or ms < row["ms"][name]:
                        row["ms"][name] = ms
                        row["images_per_s"][name] = round(1000.0 * len(paths) / total, 2)
                except Exception as e:  # a broken peer is reported, not fatal
                    row["skips"][name] = str(e)
        best = max((row["images_per_s"].get(p, 0) for p in target_peers), default=0)
        mine = row["images_per_s"].get("magpie")
        row["target"] = {"peers": target_peers, "min_ratio": target_ratio}
        row["ratio"] = round(mine / best, 3) if mine and best else None
        row["meets_target"] = target_ratio is None or bool(row["ratio"] is not None and row["ratio"] >= target_ratio)
        results.append(row)
        print(format_row(row), flush=True)

    batch = [] if a.only and a.only not in "batch" else batch_bench(engines, files, max(3, a.reps // 3))
    memory = [] if a.only and a.only not in "memory" else memory_bench(engines, files["huge-10000x10000.jpg"])
    caching = [] if a.only and a.only not in "caching" else cache_benches(a.magpie, files)
    network = [] if a.only and a.only not in "network" else network_bench.run(a.magpie)
    pipeline = [] if a.only and a.only not in "pipeline" else pipeline_bench.run(a.magpie)
    animation = [] if a.only and a.only not in "animation" else animation_bench.run(a.magpie, sys.executable)
    color = [] if a.only and a.only not in "color" else color_bench.run(a.magpie, files["photo-4000x3000.jpg"])
    redis = [] if a.only and a.only not in "redis" else redis_bench.run(a.magpie)
    serve = [] if a.only and a.only not in "serve" else serve_section(a)
    record = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": {"cpu": cpu_name(), "cores": os.cpu_count(), "python": platform.python_version()},
        "reps": a.reps, "warmup": a.warmup, "rounds": a.rounds, "results": results, "batch": batch, "memory": memory,
        "caching": caching, "network": network, "pipeline": pipeline, "animation": animation, "color": color,
        "redis": redis, "serve": serve,
    }
    out_dir = os.path.join(ROOT, "bench")
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump(record, f, indent=2)
        f.write("\n")
    text = markdown(results)
    text += "\n" + batch_markdown(batch) if batch else ""
    text += "\n" + memory_markdown(memory) if memory else ""
    text += "\n" + caching_markdown(caching) if caching else ""
    text += "\n" + network_bench.markdown(network) if network else ""
    text += "\n" + pipeline_bench.markdown(pipeline) if pipeline else ""
    text += "\n" + animation_bench.markdown(animation) if animation else ""
    text += "\n" + color_bench.markdown(color) if color else ""
    text += "\n" + redis_bench.markdown(redis) if redis_bench.markdown(redis) else ""
    text += "\n" + serve_bench.markdown(serve) if serve_bench.markdown(serve) else ""
    with open(os.path.join(out_dir, "results.md"), "w") as f:
        f.write(text)
    print("\n" + text)
    print(f"wrote {os.path.relpath(os.path.join(out_dir, 'results.json'), ROOT)} and results.md")


def serve_section(a):
    """magpie serve against thumbor under wrk (serve_bench.py); a failure
    (thumbor or wrk missing) is a row saying so, not the end of the run."""
    try:
        return serve_bench.run(a.magpie, seconds=a.serve_seconds, rounds=a.serve_rounds)
    except Exception as e:
        print(f"serve: failed: {e}", flush=True)
        return [{"error": str(e)[:400]}]


def batch_bench(engines, files, reps):
    """Images per second thumbnailing a mixed corpus on all cores: Magpie
    with a thread per core, Pillow in a process pool, pyvips with a thread
    per core (libvips releases the GIL and threads inside, too)."""
    names = ["photo-4000x3000.jpg", "photo-4000x3000-progressive.jpg", "photo-1200x800.jpg",
             "photo-1200x800-progressive.jpg", "cutout-1024x1024.png", "photo-1024x768.png", "photo-1024x768.webp",
             "cutout-1024x768-lossless.webp", "pan-400x300-30f.gif"]
    paths = [files[n] for n in names] + [p for n, p in sorted(files.items()) if n.startswith("kodak/")]
    rows = []
    for name in ["magpie", "pillow", "pyvips"]:
        row = {"engine": name, "images": len(paths), "cores": os.cpu_count()}
        try:
            listfile = os.path.join(WORK, "list-batch.txt")
            with open(listfile, "w") as f:
                f.write("\n".join(paths) + "\n")
            out = subprocess.run(engines[name] + ["thumb-batch", listfile, str(reps), "1"], capture_output=True,
                                 text=True, timeout=3600)
            records = [json.loads(l) for l in out.stdout.splitlines() if l.strip()]
            timed = [r for r in records if "ms" in r]
            if out.returncode != 0 or not timed:
                raise RuntimeError((out.stderr.strip() or str(records))[-300:])
            ms = statistics.median(timed[0]["ms"])
            row.update({"ms": round(ms, 2), "images_per_s": round(1000.0 * len(paths) / ms, 2)})
        except Exception as e:
            row["error"] = str(e)
        rows.append(row)
        print(f"batch {name}: {row.get('images_per_s', row.get('error'))} images/s", flush=True)
    return rows


def batch_markdown(rows):
    lines = [f"| batch thumbnails ({rows[0]['images']} mixed images, {rows[0]['cores']} cores) | images/s | ms per pass |",
             "| --- | ---: | ---: |"]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['engine']} | failed: {r['error'][:60]} | |")
        else:
            lines.append(f"| {r['engine']} | {r['images_per_s']:.1f} | {r['ms']:.1f} |")
    return "\n".join(lines) + "\n"


def peak_rss_kb(command):
    """Runs `command` under GNU time and returns its peak resident set size
    in KB. (Not os.wait4: a child forked from this Python process keeps
    the parent's high-water mark across exec, so every figure would start
    at this process's own size.)"""
    out = subprocess.run(["/usr/bin/time", "-f", "maxrss=%M"] + command, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, timeout=600)
    if out.returncode != 0:
        raise RuntimeError(f"{command[0]} exited {out.returncode}: {out.stderr[-300:]}")
    return int(re.findall(r"maxrss=(\d+)", out.stderr)[-1])


def memory_bench(engines, huge):
    """Peak RSS thumbnailing a 10000x10000 JPEG once, and its growth over
    the same process doing nothing (task noop), for every engine."""
    listfile = os.path.join(WORK, "list-huge.txt")
    with open(listfile, "w") as f:
        f.write(huge + "\n")
    rows = []
    for name in ["magpie", "pillow", "pyvips"]:
        row = {"engine": name}
        try:
            idle = min(peak_rss_kb(engines[name] + ["noop", listfile, "0", "0"]) for _ in range(3))
            peak = min(peak_rss_kb(engines[name] + ["thumb", listfile, "1", "0"]) for _ in range(3))
            row.update({"idle_mb": round(idle / 1024, 1), "peak_mb": round(peak / 1024, 1),
                        "growth_mb": round((peak - idle) / 1024, 1)})
        except Exception as e:
            row["error"] = str(e)
        rows.append(row)
        print(f"memory {name}: {row}", flush=True)
    magpie = next((r for r in rows if r["engine"] == "magpie" and "peak_mb" in r), None)
    pillow = next((r for r in rows if r["engine"] == "pillow" and "growth_mb" in r), None)
    for r in rows:
        if r is magpie:
            r["meets_target"] = r["peak_mb"] < 64 and (pillow is None or r["growth_mb"] <= pillow["growth_mb"])
    return rows


def memory_markdown(rows):
    lines = ["| thumbnail of a 10000x10000 JPEG | idle RSS | peak RSS | growth | target |",
             "| --- | ---: | ---: | ---: | --- |"]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['engine']} | failed: {r['error'][:60]} | | | |")
            continue
        target = ""
        if r["engine"] == "magpie":
            target = "peak < 64 MB, growth <= Pillow's" + ("" if r.get("meets_target") else " (missed)")
        lines.append(f"| {r['engine']} | {r['idle_mb']:.1f} MB | {r['peak_mb']:.1f} MB | {r['growth_mb']:.1f} MB | "
                     f"{target} |")
    return "\n".join(lines) + "\n"


def cache_benches(magpie, files):
    """The caching micro-benchmarks, each against its baseline in-process."""
    thumb = os.path.join(WORK, "thumb-256.jpg")
    if not os.path.exists(thumb):
        subprocess.run([magpie, "convert", files["photo-1200x800.jpg"], thumb, "--process", "downsample(256x256)"],
                       check=True, capture_output=True)
    rows = []
    for args in (["memory"], ["manager"], ["engine"], ["disk", "--thumbnail", thumb], ["clean", "--files", "100000"]):
        out = subprocess.run([magpie, "cache-bench"] + args, capture_output=True, text=True, timeout=1800)
        if out.returncode != 0:
            rows.append({"bench": args[0], "error": out.stderr.strip()})
            continue
        for line in out.stdout.splitlines():
            rows.append(json.loads(line))
            print(line, flush=True)
    return rows


def caching_markdown(rows):
    lines = ["| cache work | Magpie | baseline (same process) | ratio | target |",
             "| --- | ---: | ---: | ---: | --- |"]
    for r in rows:
        if r.get("bench") == "memory-cache-hits":
            lines.append(f"| memory-cache hit, {r['threads']} thread{'s' if r['threads'] > 1 else ''} | "
                         f"{r['magpie_per_s'] / 1e6:.2f} M/s | {r['locked_dictionary_per_s'] / 1e6:.2f} M/s "
                         f"(locked Dictionary) | {r['ratio']:.2f}x | >= 0.5x |")
        elif r.get("bench") == "manager-memory-hits":
            if "image_task_ns" in r:
                lines.append(f"| memory hit through imageTask(with:), image awaited | {r['image_task_ns']:.0f} ns | "
                             f"{r['memory_cache_ns']:.0f} ns (bare MemoryCache hit) | – | <= 400 ns |")
            lines.append(f"| memory hit through ImageManager, async API | {r['async_api_ns']:.0f} ns | "
                         f"{r['memory_cache_ns']:.0f} ns (bare MemoryCache hit) | – | – |")
            lines.append(f"| memory hit through ImageManager, completion API | {r['completion_api_ns']:.0f} ns | "
                         f"{r['memory_cache_ns']:.0f} ns (bare MemoryCache hit) | – | – |")
        elif r.get("bench") == "engine-ownership":
            rounds = lambda key: " / ".join(f"{v:.1f}" for v in r[key])
            lines.append(f"| engine bookkeeping under one lock (used) vs a global actor: one load, "
                         f"{r['subscribers']} subscribers, {r['events']} progress events from a loader thread, "
                         f"median of {r['rounds']} rounds of {r['loads']:,} (lock: {rounds('lock_rounds_us')} µs; "
                         f"actor: {rounds('actor_rounds_us')} µs) | {r['lock_us_per_load']:.1f} µs | "
                         f"{r['actor_us_per_load']:.1f} µs (global actor) | {r['actor_over_lock']:.2f}x | – |")
            lines.append(f"| one progress event to 3 subscribers, from the loader thread, lock vs actor | "
                         f"{r['lock_ns_per_event']:.0f} ns | {r['actor_ns_per_event']:.0f} ns (global actor) | "
                         f"{r['event_actor_over_lock']:.2f}x | – |")
        elif r.get("bench") == "disk-cache-hit":
            lines.append(f"| disk-cache hit, 256 px JPEG ({r['bytes']} B) | {r['magpie_ms']:.3f} ms | "
                         f"{r['raw_read_decode_ms']:.3f} ms (read + decode) | {r['ratio']:.2f}x | >= 0.8x |")
        elif r.get("bench") == "disk-cache-clean":
            lines.append(f"| clean() over {r['files']:,} files ({r['expired']:,} expired, {r['evicted']:,} "
                         f"evicted) | {r['ms']:.0f} ms | – | – | – |")
        else:
            lines.append(f"| {r.get('bench')} | failed: {r.get('error', '')[:80]} | | | |")
    return "\n".join(lines) + "\n"


def cpu_name():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def format_row(row):
    parts = [f"{k} {v:.1f}/s" for k, v in row["images_per_s"].items()]
    ratio = f"{row['ratio']:.2f}x" if row["ratio"] else "n/a"
    return f"{row['id']:<22} {', '.join(parts)}  -> {ratio} of {'/'.join(row['target']['peers'])}"


def markdown(results):
    lines = ["| work | Magpie | Magpie, 1 core | Pillow | pyvips | tjbench, or other | Magpie vs target | target |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for r in results:
        ips = r["images_per_s"]
        tj = next((v for k, v in ips.items() if k.startswith("tjbench") or k in ("magpie-unscaled", "pymupdf")), None)
        cell = lambda v: f"{v:.1f}/s" if v else "–"
        ratio = f"{r['ratio']:.2f}x" if r["ratio"] else "–"
        mark = "" if r["meets_target"] else " (missed)"
        peers = " / ".join(r["target"]["peers"])
        target = f">= {r['target']['min_ratio']}x {peers}" if r["target"]["min_ratio"] else f"none (vs {peers})"
        lines.append(f"| {r['title']} | {cell(ips.get('magpie'))} | {cell(ips.get('magpie-1core'))} | "
                     f"{cell(ips.get('pillow'))} | "
                     f"{cell(ips.get('pyvips'))} | {cell(tj)} | {ratio}{mark} | {target} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
