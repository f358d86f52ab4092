#!/usr/bin/env python3
"""PyMuPDF (MuPDF) speaking `magpie bench`'s protocol for PDFs: TASK
LISTFILE REPS WARMUP.

The PDF peer: Pillow reads no PDF and the pyvips wheel has no PDF loader,
while PyMuPDF is what Python services use to draw PDF pages. decode: the
first page at 72 dpi to RGBA in memory (on white, as Magpie draws it);
thumb: the first page drawn fitted into 256x256. Other tasks and non-PDF
files are skipped.
"""
import json
import sys
import time

import pymupdf


def page(path):
    with open(path, "rb") as f:
        document = pymupdf.open(stream=f.read(), filetype="pdf")
    return document, document[0]


def decode(path):
    document, first = page(path)
    pixmap = first.get_pixmap(alpha=True)
    pixmap.samples  # RGBA bytes in memory
    document.close()
    return [pixmap.width, pixmap.height]


def thumb(path):
    document, first = page(path)
    scale = min(256 / first.rect.width, 256 / first.rect.height)
    pixmap = first.get_pixmap(matrix=pymupdf.Matrix(scale, scale), alpha=True)
    pixmap.samples
    document.close()
    return [pixmap.width, pixmap.height]


def main():
    task, listfile, reps, warmup = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    print(json.dumps({"meta": {"pymupdf": pymupdf.VersionBind, "mupdf": pymupdf.VersionFitz}}), flush=True)
    with open(listfile) as f:
        paths = [line.strip() for line in f if line.strip()]
    run = {"decode": decode, "thumb": thumb}.get(task)
    for path in paths:
        if run is None or not path.endswith(".pdf"):
            print(json.dumps({"path": path, "skip": f"{task} of {path} is not a PDF task"}), flush=True)
            continue
        try:
            for _ in range(warmup):
                run(path)
            ms, size = [], None
            for _ in range(reps):
                start = time.perf_counter()
                size = run(path)
                ms.append((time.perf_counter() - start) * 1000)
            print(json.dumps({"path": path, "ms": ms, "out": size}), flush=True)
        except Exception as e:  # a file the peer cannot read is a skip
            print(json.dumps({"path": path, "skip": str(e).splitlines()[0] if str(e) else repr(e)}), flush=True)


if __name__ == "__main__":
    main()
