#!/usr/bin/env python3
"""Runs the release `magpie decode` on every file of a hostile corpus.

    run_hostile_corpus.py [--count N] [--seed S] [--corpus DIR] [--json FILE]
                          [--magpie PATH] [--jobs J] [--time-limit S] [--rss-limit-mb M]

Makes a fresh corpus with make_hostile_corpus.py (unless --corpus names an
existing one), then decodes each file in its own `magpie decode FILE --out
DIR` process, at most --time-limit seconds of wall time (default 5) and
--rss-limit-mb of peak resident memory (default 256, read from the kernel's
rusage of that process). A file fails the run when magpie dies by a signal,
runs past the time limit, goes over the memory limit, or exits with anything
but 0 (decoded) or 1 with the contract's one-line typed error,
`magpie: error: decode PATH: <code>: <reason>`, where <code> is a
MagpieError code. Prints a summary (files per format and outcome, slowest
file, largest RSS) and writes it as JSON (--json). Exit 0 when no file
failed, 1 otherwise.
"""
import argparse, collections, concurrent.futures, json, os, re, shutil, signal, subprocess, sys, tempfile, threading, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
CODES = {"unsupported format", "corrupt data", "truncated data", "image too large", "limit exceeded",
         "invalid argument", "file system"}
# The codec libraries as Debian builds them print their own diagnostics to
# stderr before magpie's line (libjxl its JXL_FAILURE trail, dav1d "Error
# parsing OBU data"): lines not starting "magpie:" are tolerated and
# counted; there must still be exactly one magpie line, the typed error.
LIBRARY_NOISE = re.compile(r"^(?!magpie:)")
ERROR_LINE = re.compile(r"^magpie: error: decode (?P<path>.+?): (?P<code>[a-z ]+): (?P<reason>.+)$")


def run_one(magpie, path, out_dir, time_limit, extra):
    start = time.monotonic()
    proc = subprocess.Popen([magpie, "decode", path, "--out", out_dir] + extra,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    timed_out = threading.Event()

    def kill():
        timed_out.set()
        proc.kill()
    timer = threading.Timer(time_limit, kill)
    timer.start()
    stderr = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    timer.cancel()
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - start
    # Linux reports ru_maxrss in KiB.
    return {"wall_s": round(wall, 3), "cpu_s": round(usage.ru_utime + usage.ru_stime, 3),
            "rss_mb": round(usage.ru_maxrss / 1024, 1), "rc": proc.returncode, "timed_out": timed_out.is_set(),
            "stderr": stderr.decode("utf-8", "replace").strip()}


def classify(result, rss_limit):
    """(outcome, problem): outcome is 'decoded', 'error: <code>' or 'failure'."""
    if result["timed_out"]: return "failure", "timeout"
    if result["rc"] < 0: return "failure", f"signal {signal.Signals(-result['rc']).name}"
    if result["rss_mb"] > rss_limit: return "failure", f"rss {result['rss_mb']} MB"
    if result["rc"] == 0: return "decoded", None
    lines = [line for line in result["stderr"].splitlines() if not LIBRARY_NOISE.match(line)]
    result["library_noise"] = len(result["stderr"].splitlines()) - len(lines)
    match = ERROR_LINE.match(lines[0]) if len(lines) == 1 else None
    if result["rc"] == 1 and match and match["code"] in CODES: return "error: " + match["code"], None
    return "failure", f"exit {result['rc']} with stderr {result['stderr'][:300]!r}"


def commit():
    """The checkout's short commit, for the report; "unknown" outside git."""
    try:
        return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"

def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--count", type=int, default=300)
    p.add_argument("--seed", type=int)
    p.add_argument("--corpus")
    p.add_argument("--json", default=os.path.join(ROOT, ".build", "hostile-summary.json"))
    p.add_argument("--magpie", default=os.path.join(ROOT, ".build", "release", "magpie"))
    p.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 2)))
    p.add_argument("--time-limit", type=float, default=5.0)
    p.add_argument("--rss-limit-mb", type=float, default=256.0)
    # The decode limits the corpus is made around and magpie runs with. At
    # the library's 100-megapixel and 256 MiB defaults one valid frame or
    # animation is up to 400 MB, over the 256 MB the run allows, so the run
    # decodes within 24 MP and 128 MiB (a 24 MP frame is 96 MB, and twice
    # that while EXIF orientation turns it); the frame count and the decode time
    # limit stay at the library's defaults (10,000 frames, 10 s: a file
    # that only stops at that time limit fails the 5 s wall limit).
    p.add_argument("--max-pixels", type=int, default=24_000_000)
    p.add_argument("--max-bytes", type=int, default=128 << 20)
    p.add_argument("--max-frames", type=int, default=10_000)
    p.add_argument("--keep", action="store_true", help="keep the corpus and outputs")
    a = p.parse_args()
    if not os.access(a.magpie, os.X_OK):
        sys.exit(f"run_hostile_corpus: no magpie at {a.magpie}; build it with swift build -c release --product magpie")
    work = tempfile.mkdtemp(prefix="magpie-hostile-")
    corpus = a.corpus or os.path.join(work, "corpus")
    if not a.corpus:
        command = [sys.executable, os.path.join(HERE, "make_hostile_corpus.py"), corpus, "--count", str(a.count),
                   "--max-pixels", str(a.max_pixels), "--max-frames", str(a.max_frames)]
        if a.seed is not None: command += ["--seed", str(a.seed)]
        subprocess.run(command, check=True)
    with open(os.path.join(corpus, "manifest.json")) as f: manifest = json.load(f)
    extra = ["--max-pixels", str(a.max_pixels), "--max-frames", str(a.max_frames), "--max-bytes", str(a.max_bytes)]
    entries = manifest["files"]
    outcomes = collections.defaultdict(collections.Counter)
    failures, records = [], []
    started = time.monotonic()

    def work_on(entry):
        out_dir = os.path.join(work, "out", entry["name"])
        os.makedirs(out_dir)
        result = run_one(a.magpie, os.path.join(corpus, entry["name"]), out_dir, a.time_limit, extra)
        shutil.rmtree(out_dir, ignore_errors=True)
        return entry, result

    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        for entry, result in pool.map(work_on, entries):
            outcome, problem = classify(result, a.rss_limit_mb)
            outcomes[entry["format"]][outcome] += 1
            record = {**entry, **{k: result[k] for k in ("wall_s", "cpu_s", "rss_mb", "rc")}, "outcome": outcome,
                      "library_noise": result.get("library_noise", 0)}
            records.append(record)
            if problem:
                failures.append({**record, "problem": problem, "stderr": result["stderr"][:500]})
    # A machine shared with builds can stall a process for seconds (the
    # first big run saw valid files time out on 0.04 s of CPU): a file that
    # timed out is run once more, alone, and both runs are reported; a slow
    # decoder times out again.
    retried = []
    for failure in [f for f in failures if f["problem"] == "timeout"]:
        entry = next(e for e in entries if e["name"] == failure["name"])
        _, again = work_on(entry)
        outcome, problem = classify(again, a.rss_limit_mb)
        retried.append({"name": entry["name"], "first_wall_s": failure["wall_s"], "first_cpu_s": failure["cpu_s"],
                        "retry_wall_s": again["wall_s"], "retry_cpu_s": again["cpu_s"], "retry_outcome": outcome})
        if problem is None:
            failures.remove(failure)
            record = next(r for r in records if r["name"] == entry["name"])
            outcomes[entry["format"]][record["outcome"]] -= 1
            outcomes[entry["format"]][outcome] += 1
            record.update(outcome=outcome, wall_s=again["wall_s"], cpu_s=again["cpu_s"], rss_mb=again["rss_mb"])
    for counts in outcomes.values():
        for key in [k for k, v in counts.items() if v == 0]: del counts[key]
    slowest = max(records, key=lambda r: r["wall_s"])
    largest = max(records, key=lambda r: r["rss_mb"])
    summary = {
        "seed": manifest["seed"], "files": len(records), "failures": len(failures), "commit": commit(),
        "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "elapsed_s": round(time.monotonic() - started, 1), "jobs": a.jobs,
        "limits": {"time_s": a.time_limit, "rss_mb": a.rss_limit_mb, "max_pixels": a.max_pixels,
                   "max_frames": a.max_frames, "max_bytes": a.max_bytes},
        "by_format": {fmt: dict(sorted(c.items())) for fmt, c in sorted(outcomes.items())},
        "by_outcome": dict(sorted(collections.Counter(r["outcome"] for r in records).items())),
        "timeouts_retried": retried,
        "files_with_library_stderr": sum(1 for r in records if r["library_noise"]),
        "slowest": {k: slowest[k] for k in ("name", "mutation", "wall_s", "cpu_s")},
        "largest_rss": {k: largest[k] for k in ("name", "mutation", "rss_mb")},
        "failure_list": failures,
    }
    os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
    with open(a.json, "w") as f: json.dump(summary, f, indent=1)
    print(f"hostile corpus: {len(records)} files, seed {manifest['seed']}, {summary['elapsed_s']} s")
    for fmt, counts in summary["by_format"].items():
        print(f"  {fmt:5} " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    print(f"  slowest {slowest['name']} ({slowest['mutation']}): {slowest['wall_s']} s wall, {slowest['cpu_s']} s cpu")
    print(f"  largest RSS {largest['name']} ({largest['mutation']}): {largest['rss_mb']} MB")
    for retry in retried:
        print(f"  retried {retry['name']}: {retry['first_wall_s']} s wall ({retry['first_cpu_s']} s cpu) timed out, "
              f"then {retry['retry_wall_s']} s wall: {retry['retry_outcome']}")
    for failure in failures:
        print(f"  FAILED {failure['name']} ({failure['source']}, {failure['mutation']}): {failure['problem']}")
    print(f"  summary: {a.json}" + (f"; corpus kept in {corpus}" if a.keep or failures else ""))
    if not (a.keep or failures): shutil.rmtree(work, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
