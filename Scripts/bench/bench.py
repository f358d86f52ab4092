#!/usr/bin/env python3
"""`make bench`: Magpie next to its peers, each in its own process, same run.

Every engine speaks the protocol of CONTRACT.md (`TASK LISTFILE REPS
WARMUP`, one JSON line per image); libjpeg-turbo's own tjbench is run where
it applies. Figures are images per second from the median of REPS timed
runs, and ratios against the named peer measured in this same run, so the
machine's speed cancels out. Writes bench/results.json and bench/results.md.
"""
import argparse
import datetime
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
    for name in sorted(os.listdir(KODAK)) if os.path.isdir(KODAK) else []:
        files["kodak/" + name] = os.path.join(KODAK, name)
    return files


def run_protocol(command, task, paths, reps, warmup):
    """Runs one engine on a list; returns ({path: median ms}, meta, skips)."""
    listfile = os.path.join(WORK, f"list-{task}-{abs(hash(tuple(paths)))}.txt")
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
    ap.add_argument("--only", help="run only cases whose id contains this")
    a = ap.parse_args()

    files = corpus()
    py = sys.executable
    here = os.path.dirname(os.path.abspath(__file__))
    engines = {
        "magpie": [a.magpie, "bench"],
        "pillow": [py, os.path.join(here, "peer_pillow.py")],
        "pyvips": [py, os.path.join(here, "peer_pyvips.py")],
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
    results = []
    for cid, title, task, paths, names, (target_peers, target_ratio) in cases:
        if a.only and a.only not in cid:
            continue
        row = {"id": cid, "title": title, "task": task, "files": [os.path.relpath(p, ROOT) for p in paths],
               "ms": {}, "images_per_s": {}, "skips": {}}
        for name in names:
            try:
                if name.startswith("tjbench"):
                    scale = "1/8" if name == "tjbench-1/8" else None
                    total = sum(tjbench(p, scale) for p in paths)
                else:
                    medians, meta, skips = run_protocol(engines[name], task, paths, a.reps, a.warmup)
                    if skips or len(medians) != len(paths):
                        row["skips"][name] = skips
                        continue
                    total = sum(medians.values())
                row["ms"][name] = round(total / len(paths), 3)
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

    caching = [] if a.only and a.only not in "caching" else cache_benches(a.magpie, files)
    network = [] if a.only and a.only not in "network" else network_bench.run(a.magpie)
    record = {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "machine": {"cpu": cpu_name(), "cores": os.cpu_count(), "python": platform.python_version()},
        "reps": a.reps, "warmup": a.warmup, "results": results, "caching": caching, "network": network,
    }
    out_dir = os.path.join(ROOT, "bench")
    with open(os.path.join(out_dir, "results.json"), "w") as f:
        json.dump(record, f, indent=2)
        f.write("\n")
    text = markdown(results) + ("\n" + caching_markdown(caching) if caching else "")
    text += "\n" + network_bench.markdown(network) if network else ""
    with open(os.path.join(out_dir, "results.md"), "w") as f:
        f.write(text)
    print("\n" + text)
    print(f"wrote {os.path.relpath(os.path.join(out_dir, 'results.json'), ROOT)} and results.md")


def cache_benches(magpie, files):
    """The caching micro-benchmarks, each against its baseline in-process."""
    thumb = os.path.join(WORK, "thumb-256.jpg")
    if not os.path.exists(thumb):
        subprocess.run([magpie, "convert", files["photo-1200x800.jpg"], thumb, "--process", "downsample(256x256)"],
                       check=True, capture_output=True)
    rows = []
    for args in (["memory"], ["disk", "--thumbnail", thumb], ["clean", "--files", "100000"]):
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
    lines = ["| work | Magpie | Pillow | pyvips | tjbench | Magpie vs target | target |",
             "| --- | ---: | ---: | ---: | ---: | ---: | --- |"]
    for r in results:
        ips = r["images_per_s"]
        tj = ips.get("tjbench", ips.get("tjbench-1/8"))
        cell = lambda v: f"{v:.1f}/s" if v else "–"
        ratio = f"{r['ratio']:.2f}x" if r["ratio"] else "–"
        mark = "" if r["meets_target"] else " (missed)"
        peers = " / ".join(r["target"]["peers"])
        target = f">= {r['target']['min_ratio']}x {peers}" if r["target"]["min_ratio"] else f"none (vs {peers})"
        lines.append(f"| {r['title']} | {cell(ips.get('magpie'))} | {cell(ips.get('pillow'))} | "
                     f"{cell(ips.get('pyvips'))} | {cell(tj)} | {ratio}{mark} | {target} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
