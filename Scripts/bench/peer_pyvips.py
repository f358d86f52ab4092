#!/usr/bin/env python3
"""pyvips (libvips) speaking `magpie bench`'s protocol: TASK LISTFILE REPS WARMUP.

decode: all pages to RGBA in memory; thumb: Image.thumbnail_buffer(256,
height=256) (libvips's shrink-on-load recipe); webp: webpsave_buffer Q=80;
decode-scaled: shrink=8 on load for JPEG, full decode otherwise. The libvips
operation cache is off so every run does the work.
"""
import json
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


def main():
    task, listfile, reps, warmup = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    print(json.dumps({"meta": {"pyvips": pyvips.__version__,
                               "libvips": f"{pyvips.version(0)}.{pyvips.version(1)}.{pyvips.version(2)}"}}))
    if task == "noop":
        return
    paths = [l.strip() for l in open(listfile) if l.strip()]
    for path in paths:
        try:
            if task == "decode":
                run = lambda: decode(path)
            elif task == "decode-scaled":
                run = lambda: decode_scaled(path)
            elif task == "thumb":
                run = lambda: thumb(path)
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
