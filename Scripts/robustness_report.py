#!/usr/bin/env python3
"""Writes docs/robustness.md from the records the robustness runs leave.

    python3 Scripts/robustness_report.py [--out docs/robustness.md]

`make robustness-report` runs it. Its inputs, each written by a run and
committed with it (a section says so when its record is missing):

- docs/fuzz/runs.tsv: one line per harness run of `make fuzz`
  (Scripts/fuzz.sh); the report totals time, executions and crashes per
  harness over every run.
- Tests/MagpieTests/Fixtures/fuzz/NAME/: the inputs fuzzing found, each
  replayed by FuzzRegressionTests; docs/fuzz/findings.tsv says what each
  finding was and how it was resolved (kept by hand as they are fixed).
- docs/robustness/hostile-corpus.json: the last `make hostile` run
  (Scripts/hostile/run_hostile_corpus.py).
- docs/robustness/hostile-origins.jsonl: each hostile-origin case's
  outcome per loader, one JSON line each, written by the hostile-origin
  tests when MAGPIE_ROBUSTNESS_RECORD names the file (`make
  robustness-record`).
- docs/robustness/sanitizer-thread.json, sanitizer-address.json: the last
  `make sanitize` runs (Scripts/sanitize.sh).
- Tests/MagpieTests/Fixtures/hostile/: decoder bugs the hostile folder
  found, each with its regression test.
"""
import argparse, collections, csv, json, os, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "docs", "robustness")
# A harness counts as fuzzed enough once its runs add up to this.
ENOUGH_SECONDS = 600


def load_json(name):
    path = os.path.join(DATA, name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def fuzz_section():
    path = os.path.join(ROOT, "docs", "fuzz", "runs.tsv")
    lines = ["## Fuzzing", ""]
    if not os.path.exists(path):
        return lines + ["No fuzz run is recorded (docs/fuzz/runs.tsv is missing).", ""]
    totals = collections.OrderedDict()
    with open(path) as f:
        for row in csv.DictReader(f, delimiter="\t"):
            t = totals.setdefault(row["harness"], {"runs": 0, "seconds": 0, "execs": 0, "crashes": 0,
                                                   "files": 0, "bytes": 0, "last": ""})
            t["runs"] += 1
            t["seconds"] += int(row["seconds"] or 0)
            t["execs"] += int(row["execs"] or 0)
            t["crashes"] += int(row["crashes"] or 0)
            t["files"], t["bytes"] = int(row["corpus_files"] or 0), int(row["corpus_bytes"] or 0)
            t["last"] = row["date"]
    found = os.path.join(ROOT, "Tests", "MagpieTests", "Fixtures", "fuzz")
    kept = {name: len(os.listdir(os.path.join(found, name)))
            for name in (os.listdir(found) if os.path.isdir(found) else [])}
    lines += [
        "libFuzzer with AddressSanitizer over each harness of MagpieFuzzHarnesses (`make fuzz`, "
        "docs/fuzzing.md). Totals over every recorded run (docs/fuzz/runs.tsv); the corpus is the "
        "one the last run left.", "",
        "| harness | runs | seconds in total | executions | corpus files | corpus bytes | crashes found | "
        "kept as regression inputs | last run |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    short = []
    for name, t in totals.items():
        lines.append(f"| {name} | {t['runs']} | {t['seconds']} | {t['execs']:,} | {t['files']} | "
                     f"{t['bytes']:,} | {t['crashes']} | {kept.get(name, 0)} | {t['last']} |")
        if t["seconds"] < ENOUGH_SECONDS:
            short.append(f"{name} ({t['seconds']} s)")
    lines.append("")
    if short:
        lines.append(f"Under {ENOUGH_SECONDS // 60} minutes in total so far: " + ", ".join(short) + ".")
    else:
        lines.append(f"Every harness has run at least {ENOUGH_SECONDS // 60} minutes in total.")
    lines.append("")
    findings = os.path.join(ROOT, "docs", "fuzz", "findings.tsv")
    if os.path.exists(findings):
        with open(findings) as f:
            rows = list(csv.DictReader(f, delimiter="\t"))
        lines += ["What the crashes were (docs/fuzz/findings.tsv):", "",
                  "| date | harness | finding | resolution |", "|---|---|---|---|"]
        lines += [f"| {r['date']} | {r['harness']} | {r['finding']} | {r['resolution']} |" for r in rows]
        lines.append("")
    return lines


def hostile_corpus_section():
    lines = ["## The hostile image folder", ""]
    summary = load_json("hostile-corpus.json")
    if summary is None:
        return lines + ["No run is recorded (docs/robustness/hostile-corpus.json is missing).", ""]
    limits = summary["limits"]
    lines += [
        f"`make hostile` ({summary.get('date', 'undated')}, commit {summary.get('commit', 'unknown')}): "
        f"{summary['files']} files made by Scripts/hostile/make_hostile_corpus.py "
        f"(seed {summary['seed']}) from the test fixtures: valid copies, truncations at random offsets, "
        "random byte flips, and headers rewritten to declare sizes near and over every limit. Each went "
        f"through the release `magpie decode` in a process of its own, limited to {limits['time_s']} s "
        f"and {limits['rss_mb']} MB (decode limits {limits['max_pixels']:,} pixels, "
        f"{limits['max_frames']:,} frames, {limits['max_bytes']:,} bytes of frames).", "",
        f"**Failures: {summary['failures']}** (a signal, a timeout, memory over the limit, or an "
        "exit without one typed error line).", "",
        "| format | outcomes |", "|---|---|"]
    for fmt, counts in summary["by_format"].items():
        lines.append(f"| {fmt} | " + ", ".join(f"{k} {v}" for k, v in counts.items()) + " |")
    slow, big = summary["slowest"], summary["largest_rss"]
    lines += ["", f"Slowest file: {slow['name']} ({slow['mutation']}), {slow['wall_s']} s. "
              f"Largest resident memory: {big['name']} ({big['mutation']}), {big['rss_mb']} MB. "
              f"Whole run: {summary['elapsed_s']} s.", ""]
    fixed = os.path.join(ROOT, "Tests", "MagpieTests", "Fixtures", "hostile")
    if os.path.isdir(fixed):
        names = sorted(os.listdir(fixed))
        lines += ["Inputs that found a bug, kept with a regression test (Fixtures/hostile): "
                  + ", ".join(f"`{n}`" for n in names) + ".", ""]
    return lines


def hostile_origin_section():
    lines = ["## Hostile origins", ""]
    path = os.path.join(DATA, "hostile-origins.jsonl")
    if not os.path.exists(path):
        return lines + ["No run is recorded (docs/robustness/hostile-origins.jsonl is missing).", ""]
    with open(path) as f:
        record = {"cases": [json.loads(line) for line in f if line.strip()],
                  "date": time.strftime("%Y-%m-%d", time.gmtime(os.path.getmtime(path)))}
    loaders = sorted({r["loader"] for r in record["cases"]})
    lines += [
        "Each case of the hostile-origin tests (DataLoaderHostileTests, and the self-signed and expired certificates "
        "against nginx in DataLoaderNginxTests) through each loader, with the outcome the loader "
        "ended with. The tests also run each case through the whole pipeline with a disk cache "
        "that must stay empty, and check every error's code and reason, its time and its size. "
        f"Recorded {record['date']}.", "",
        "| case | " + " | ".join(loaders) + " |", "|---|" + "---|" * len(loaders)]
    by_case = collections.OrderedDict()
    for r in record["cases"]:
        by_case.setdefault(r["case"], {})[r["loader"]] = r
    for case, per_loader in by_case.items():
        cells = []
        for loader in loaders:
            r = per_loader.get(loader)
            outcome = r["outcome"].replace("|", "/") if r else ""
            cells.append("—" if r is None else f"{outcome} ({r['seconds']:.2f} s)")
        lines.append(f"| {case} | " + " | ".join(cells) + " |")
    lines.append("")
    return lines


def sanitizer_section():
    lines = ["## Sanitizers", ""]
    rows = []
    for mode in ("thread", "address"):
        summary = load_json(f"sanitizer-{mode}.json")
        if summary is None:
            rows.append(f"| {mode} | no run recorded | | | |")
        else:
            rows.append(f"| {mode} | {summary['tests']} | {summary['seconds']} | {summary['reports']} | "
                        f"{summary['date']} ({summary['commit']}) |")
    lines += ["`make sanitize` (Scripts/sanitize.sh; `.ci/run` runs it): the whole core suite under "
              "ThreadSanitizer and under AddressSanitizer, each in its own build; any report fails it.", "",
              "| sanitizer | tests | seconds | reports | run |", "|---|---:|---:|---:|---|"] + rows + [""]
    return lines


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", default=os.path.join(ROOT, "docs", "robustness.md"))
    a = parser.parse_args()
    lines = ["# Robustness report", "",
             "What Magpie's robustness runs tried and what came of it. Generated by "
             "Scripts/robustness_report.py from the runs' records (`make robustness-report`); do not "
             "edit by hand.", ""]
    lines += fuzz_section() + hostile_corpus_section() + hostile_origin_section() + sanitizer_section()
    with open(a.out, "w") as f:
        f.write("\n".join(lines).rstrip() + "\n")
    print(f"robustness report: {os.path.relpath(a.out, ROOT)}")


if __name__ == "__main__":
    main()
