#!/usr/bin/env python3
"""Pillow speaking `magpie bench`'s protocol: TASK LISTFILE REPS WARMUP.

decode: every frame to RGBA in memory; thumb: draft() + thumbnail(LANCZOS)
into 256x256 (Pillow's own recipe, reducing_gap 2.0); webp: encode quality 80;
decode-scaled: draft() at 1/8 for JPEG (Pillow's shrink-on-load), full decode
otherwise.
"""
import io
import json
import sys
import time

import PIL
from PIL import Image, ImageSequence, features


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


def main():
    task, listfile, reps, warmup = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    print(json.dumps({"meta": {"pillow": PIL.__version__, "libjpeg": features.version("jpg"),
                               "zlib": features.version("zlib"), "libwebp": features.version("webp")}}))
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
