#!/usr/bin/env python3
"""The colour-management cost of `make bench` (issue 13, item 7).

Decodes the benchmark corpus's 4000x3000 baseline JPEG (bench.py builds it
in bench/work) through `magpie bench decode` twice: as it is (untagged) and
with a Display P3 profile in an APP2 marker (the committed fixture
Tests/MagpieTests/Fixtures/color/p3.icc, written by lcms2), the coded data
byte for byte the same, so the difference is the conversion to sRGB alone.
The two take turns for ROUNDS rounds and each keeps its fastest. Target:
the tagged decode within 1.15x of the untagged one.

Run alone: Scripts/bench/color_bench.py [--magpie PATH] [--rounds N]
Used by bench.py through run().
"""
import argparse
import json
import os
import statistics
import struct
import subprocess

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
WORK = os.path.join(ROOT, "bench", "work")
PROFILE = os.path.join(ROOT, "Tests", "MagpieTests", "Fixtures", "color", "p3.icc")
TARGET = 1.15


def tagged_copy(source):
    """`source` with the P3 profile in one APP2 marker after SOI."""
    path = os.path.join(WORK, "photo-4000x3000-p3.jpg")
    with open(source, "rb") as f:
        jpeg = f.read()
    with open(PROFILE, "rb") as f:
        icc = f.read()
    marker = b"\xff\xe2" + struct.pack(">H", 2 + 14 + len(icc)) + b"ICC_PROFILE\0\x01\x01" + icc
    with open(path + ".tmp", "wb") as f:
        f.write(jpeg[:2] + marker + jpeg[2:])
    os.replace(path + ".tmp", path)
    return path


def median_ms(magpie, path, reps, warmup):
    listfile = os.path.join(WORK, "list-color-" + os.path.basename(path) + ".txt")
    with open(listfile, "w") as f:
        f.write(path + "\n")
    out = subprocess.run([magpie, "bench", "decode", listfile, str(reps), str(warmup)], capture_output=True,
                         text=True, timeout=1200, check=True)
    for line in out.stdout.splitlines():
        record = json.loads(line)
        if "ms" in record:
            return statistics.median(record["ms"])
    raise RuntimeError("magpie bench printed no timing for " + path)


def run(magpie, source=None, rounds=3, reps=15, warmup=3):
    """One row: the untagged and P3-tagged decode times and their ratio."""
    source = source or os.path.join(WORK, "photo-4000x3000.jpg")
    tagged = tagged_copy(source)
    best = {"untagged": None, "p3": None}
    for _ in range(rounds):
        for name, path in (("untagged", source), ("p3", tagged)):
            ms = median_ms(magpie, path, reps, warmup)
            best[name] = ms if best[name] is None else min(best[name], ms)
    ratio = round(best["p3"] / best["untagged"], 3)
    return [{"id": "color-p3-decode", "untagged_ms": round(best["untagged"], 2), "p3_ms": round(best["p3"], 2),
             "ratio": ratio, "target_max_ratio": TARGET, "meets_target": ratio <= TARGET}]


def markdown(rows):
    """The section bench.py appends to results.md."""
    if not rows:
        return ""
    lines = ["Colour management: JPEG decode 4000x3000 to sRGB, Display P3-tagged against untagged "
             f"(aim: at most {TARGET}x)", "",
             "| case | untagged | P3-tagged | ratio | meets |", "| --- | ---: | ---: | ---: | --- |"]
    for r in rows:
        lines.append(f"| {r['id']} | {r['untagged_ms']} ms | {r['p3_ms']} ms | {r['ratio']}x | "
                     f"{'yes' if r['meets_target'] else 'no'} |")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--magpie", default=os.path.join(ROOT, ".build", "release", "magpie"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--reps", type=int, default=15)
    a = ap.parse_args()
    rows = run(a.magpie, rounds=a.rounds, reps=a.reps)
    print(markdown(rows))


if __name__ == "__main__":
    main()
