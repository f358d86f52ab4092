#!/usr/bin/env python3
"""Pillow speaking `magpie bench`'s protocol: TASK LISTFILE REPS WARMUP.

decode: every frame to RGBA in memory; thumb: draft() + thumbnail(LANCZOS)
into 256x256 (Pillow's own recipe, reducing_gap 2.0); webp: encode quality 80;
decode-scaled: draft() at 1/8 for JPEG (Pillow's shrink-on-load), full decode
otherwise. Magpie's additions: thumb-batch (the whole list thumbnailed in a
process pool of one worker per core; one line, times for the whole list) and
process:SPEC (image loaded once, then each `--process` step done the way a
Pillow user would, timed).
"""
import io
import json
import multiprocessing
import os
import sys
import time

import PIL
from PIL import Image, ImageChops, ImageDraw, ImageFilter, ImageSequence, features

try:  # HEIC: Pillow has no HEVC decoder; pillow-heif (libheif + libde265) opens it.
    import pillow_heif

    pillow_heif.register_heif_opener()
except ImportError:
    pillow_heif = None


def decode(path):
    with open(path, "rb") as f:
        im = Image.open(io.BytesIO(f.read()))
        size = im.size
        for frame in ImageSequence.Iterator(im):
            frame.convert("RGBA").load()
        return size


def decode_scaled(path):
    with open(path, "rb") as f:
        im = Image.open(io.BytesIO(f.read()))
        if im.format == "JPEG":
            im.draft("RGB", ((im.width + 7) // 8, (im.height + 7) // 8))
        out = im.convert("RGBA")
        out.load()
        return out.size


def thumb(path):
    with open(path, "rb") as f:
        im = Image.open(io.BytesIO(f.read()))
        im.draft("RGB", (256, 256))
        im.thumbnail((256, 256), Image.LANCZOS)
        im.load()
        return im.size


def parse_spec(spec):
    """`name(a,b)|name2` -> [(name, [args])]."""
    steps = []
    for part in spec.split("|"):
        part = part.strip()
        name, _, rest = part.partition("(")
        args = [a.strip() for a in rest.rstrip(")").split(",")] if rest else []
        steps.append((name, args))
    return steps


def size_arg(text):
    w, h = text.lower().split("x")
    return int(w), int(h)


def apply_step(im, name, args):
    """One `--process` step the way a Pillow user writes it."""
    if name in ("downsample", "resize"):
        box = size_arg(args[0])
        mode = args[1] if len(args) > 1 else "fit"
        if name == "downsample":
            out = im.copy()
            out.thumbnail(box, Image.LANCZOS)
            return out
        if mode == "stretch":
            return im.resize(box, Image.LANCZOS)
        if mode == "fill":
            from PIL import ImageOps
            return ImageOps.fit(im, box, Image.LANCZOS)
        scale = min(box[0] / im.width, box[1] / im.height)
        return im.resize((max(1, round(im.width * scale)), max(1, round(im.height * scale))), Image.LANCZOS)
    if name == "crop":
        w, h = size_arg(args[0])
        w, h = min(w, im.width), min(h, im.height)
        x, y = (im.width - w) // 2, (im.height - h) // 2
        return im.crop((x, y, x + w, y + h))
    if name == "blur":
        return im.filter(ImageFilter.GaussianBlur(float(args[0])))
    if name == "round":
        radius = float(args[0])
        mask = Image.new("L", im.size, 0)
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, im.width - 1, im.height - 1), radius=radius, fill=255)
        out = im.convert("RGBA")
        out.putalpha(ImageChops.multiply(out.getchannel("A"), mask))
        return out
    if name == "tint":
        h = args[0].lstrip("#")
        colour = tuple(int(h[i:i + 2], 16) for i in range(0, 6, 2))
        rgb = im.convert("RGB")
        tinted = ImageChops.multiply(rgb, Image.new("RGB", im.size, colour))
        if im.mode == "RGBA":
            tinted.putalpha(im.getchannel("A"))
        return tinted
    if name == "grayscale":
        return im.convert("LA" if im.mode == "RGBA" else "L")
    if name == "rotate":
        turn = {"90": Image.ROTATE_270, "180": Image.ROTATE_180, "270": Image.ROTATE_90}[args[0]]
        return im.transpose(turn)
    if name == "flip":
        return im.transpose(Image.FLIP_LEFT_RIGHT if args[0] == "h" else Image.FLIP_TOP_BOTTOM)
    raise ValueError(f"unknown step {name}")


def process(im, steps):
    for name, args in steps:
        im = apply_step(im, name, args)
    im.load()
    return im.size


def timed(run, reps, warmup):
    size = None
    for _ in range(warmup):
        size = run()
    ms = []
    for _ in range(reps):
        t = time.perf_counter()
        size = run()
        ms.append((time.perf_counter() - t) * 1000)
    return ms, size


def batch(listfile, paths, reps, warmup):
    with multiprocessing.Pool(os.cpu_count()) as pool:
        ms, _ = timed(lambda: pool.map(thumb, paths, chunksize=1), reps, warmup)
    print(json.dumps({"path": listfile, "ms": ms, "out": [len(paths), 0]}), flush=True)


def main():
    task, listfile, reps, warmup = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    print(json.dumps({"meta": {"pillow": PIL.__version__, "libjpeg": features.version("jpg"),
                               "zlib": features.version("zlib"), "libwebp": features.version("webp"),
                               "pillow_heif": pillow_heif.__version__ if pillow_heif else None}}))
    if task == "noop":
        return
    paths = [l.strip() for l in open(listfile) if l.strip()]
    if task == "thumb-batch":
        return batch(listfile, paths, reps, warmup)
    for path in paths:
        try:
            if task == "decode":
                run = lambda: decode(path)
            elif task == "decode-scaled":
                run = lambda: decode_scaled(path)
            elif task == "thumb":
                run = lambda: thumb(path)
            elif task.startswith("process:"):
                steps = parse_spec(task[len("process:"):])
                source = Image.open(path)
                source.load()
                run = lambda: process(source, steps)
            elif task == "webp":
                im = Image.open(path)
                alpha = im.mode in ("RGBA", "LA") or "transparency" in im.info
                im = im.convert("RGBA" if alpha else "RGB")

                def run():
                    buf = io.BytesIO()
                    im.save(buf, "WEBP", quality=80)
                    return im.size
            else:
                print(json.dumps({"path": path, "skip": f"unknown task {task}"}))
                continue
            size = None
            for _ in range(warmup):
                size = run()
            ms = []
            for _ in range(reps):
                t = time.perf_counter()
                size = run()
                ms.append((time.perf_counter() - t) * 1000)
            print(json.dumps({"path": path, "ms": ms, "out": list(size)}), flush=True)
        except Exception as e:  # a format Pillow lacks is a skip, not a crash
            print(json.dumps({"path": path, "skip": str(e)}), flush=True)


if __name__ == "__main__":
    main()
