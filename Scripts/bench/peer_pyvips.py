#!/usr/bin/env python3
"""pyvips (libvips) speaking `magpie bench`'s protocol: TASK LISTFILE REPS WARMUP.

decode: all pages to RGBA in memory; thumb: Image.thumbnail_buffer(256,
height=256) (libvips's shrink-on-load recipe); webp: webpsave_buffer Q=80;
decode-scaled: shrink=8 on load for JPEG, full decode otherwise. The libvips
operation cache is off so every run does the work. Magpie's additions:
thumb-batch (the whole list thumbnailed by one thread per core; libvips
releases the GIL; one line, times for the whole list) and process:SPEC
(image loaded into memory once, then each step with the libvips operation
a user would pick, evaluated into memory, timed; steps libvips lacks a
one-call operation for are skipped).
"""
import concurrent.futures
import json
import os
import sys
import time

import pyvips

pyvips.cache_set_max(0)


def to_rgba(im):
    if im.bands == 1:
        im = im.colourspace("srgb")
    if not im.hasalpha():
        im = im.bandjoin(255)
    return im


def decode(path):
    with open(path, "rb") as f:
        data = f.read()
    # Only the multi-page loaders take n=-1 (all frames).
    pages = {"n": -1} if data[:3] == b"GIF" or data[8:12] == b"WEBP" else {}
    im = pyvips.Image.new_from_buffer(data, "", access="sequential", **pages)
    to_rgba(im).write_to_memory()
    return [im.width, im.get("page-height") if im.get_typeof("page-height") else im.height]


def decode_scaled(path):
    with open(path, "rb") as f:
        data = f.read()
    shrink = {"shrink": 8} if data[:2] == b"\xff\xd8" else {}
    loader = pyvips.Image.new_from_buffer(data, "", access="sequential", **shrink)
    to_rgba(loader).write_to_memory()
    return [loader.width, loader.height]


def thumb(path):
    with open(path, "rb") as f:
        data = f.read()
    im = pyvips.Image.thumbnail_buffer(data, 256, height=256)
    im.write_to_memory()
    return [im.width, im.height]


def apply_step(im, name, args):
    if name in ("downsample", "resize"):
        w, h = (int(v) for v in args[0].lower().split("x"))
        mode = args[1] if len(args) > 1 else "fit"
        if name == "resize" and mode == "stretch":
            return im.resize(w / im.width, vscale=h / im.height, kernel="lanczos3")
        if name == "resize" and mode == "fill":
            return im.thumbnail_image(w, height=h, crop="centre")
        scale = min(w / im.width, h / im.height)
        return im.resize(scale, kernel="lanczos3") if name == "resize" or scale < 1 else im
    if name == "crop":
        w, h = (min(int(v), s) for v, s in zip(args[0].lower().split("x"), (im.width, im.height)))
        return im.crop((im.width - w) // 2, (im.height - h) // 2, w, h)
    if name == "blur":
        return im.gaussblur(float(args[0]))
    if name == "tint":
        hexa = args[0].lstrip("#")
        factors = [int(hexa[i:i + 2], 16) / 255 for i in range(0, 6, 2)]
        return (im * (factors + [1] * (im.bands - 3))).cast("uchar")
    if name == "grayscale":
        return im.colourspace("b-w")
    if name == "rotate":
        return {"90": im.rot90, "180": im.rot180, "270": im.rot270}[args[0]]()
    if name == "flip":
        return im.fliphor() if args[0] == "h" else im.flipver()
    raise ValueError(f"no single libvips operation for {name}")


def process(im, steps):
    for name, args in steps:
        im = apply_step(im, name, args)
    im.write_to_memory()
    return [im.width, im.height]


def batch(listfile, paths, reps, warmup):
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count()) as pool:
        run = lambda: list(pool.map(thumb, paths))
        for _ in range(warmup):
            run()
        ms = []
        for _ in range(reps):
            t = time.perf_counter()
            run()
            ms.append((time.perf_counter() - t) * 1000)
    print(json.dumps({"path": listfile, "ms": ms, "out": [len(paths), 0]}), flush=True)


def main():
    task, listfile, reps, warmup = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    print(json.dumps({"meta": {"pyvips": pyvips.__version__,
                               "libvips": f"{pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}"}}))
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
                steps = []
                for part in task[len("process:"):].split("|"):
                    name, _, rest = part.strip().partition("(")
                    steps.append((name, [a.strip() for a in rest.rstrip(")").split(",")] if rest else []))
                source = pyvips.Image.new_from_file(path).copy_memory()
                run = lambda: process(source, steps)
            elif task == "webp":
                im = pyvips.Image.new_from_file(path)
                im = im.copy_memory()

                def run():
                    im.webpsave_buffer(Q=80)
                    return [im.width, im.height]
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
            print(json.dumps({"path": path, "ms": ms, "out": size}), flush=True)
        except Exception as e:
            print(json.dumps({"path": path, "skip": str(e).splitlines()[0] if str(e) else repr(e)}), flush=True)


if __name__ == "__main__":
    main()
