#!/usr/bin/env python3
"""The data-loader benchmark of `make bench` (issue 4, item 10a).

For each of two sets of images, starts a local nginx
(Scripts/origin/nginx-origin.sh --bench) serving them, writes a list of
REQUESTS URLs cycling over them, and fetches the list 6 at a time with each
engine, in the same run:

- magpie loader-bench --loader curl        (an ImageDownloader over CurlDataLoader)
- magpie loader-bench --loader urlsession  (an ImageDownloader over URLSessionDataLoader)
- curl --parallel --parallel-max 6         (bodies to /dev/null)
- Python aiohttp                           (bodies read into memory)

The sets: the bundled samples (33 files, about 180 KB each: the cost per
request shows), the benchmark corpus bench.py builds in bench/work
(about 1.1 MB each: bandwidth shows; the issue's reference figures, 3,100
requests/s at 2.8 GB/s, are of this size), and both mixed (every file,
a few KB to several MB, listed about 1,600 times in all). Every request
has a URL of its own (a query nginx ignores), so no engine shares a
transfer between repeats.

The engines run in rounds, each engine once per round (a first round
warms up, then REPS timed rounds); the row keeps the median. Every engine
is timed around its whole process, start-up included (issue 16: curl's
start-up is a few milliseconds, Magpie's and Python's more), and its CPU
seconds (user + system, from the child's rusage) are reported per GB
moved. Magpie and aiohttp also time themselves (first request to last
byte), kept as self_timed_seconds. Magpie and aiohttp read each whole
body into memory (`DataLoading.data(for:)`, `response.read()`); curl
writes its bodies to /dev/null.

Run alone: Scripts/bench/network_bench.py [--magpie PATH] [--requests N]
Used by bench.py through run().
"""
import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ORIGIN = os.path.join(ROOT, "Scripts", "origin", "nginx-origin.sh")
SAMPLES = os.path.join(ROOT, "samples")
WORK = os.path.join(ROOT, "bench", "work")
IMAGE_EXTENSIONS = (".jpg", ".jpeg", ".png", ".gif", ".webp")


class Nginx:
    """nginx-origin.sh as a context manager: the port while it runs."""

    def __init__(self, root, prefix=()):
        self.root = root
        self.prefix = list(prefix)  # e.g. taskset -c 1: nginx and its workers on those cores

    def __enter__(self):
        self.process = subprocess.Popen(self.prefix + ["bash", ORIGIN, self.root, "--bench"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        port = self.process.stdout.readline().strip()
        if not port.isdigit():
            self.process.stdin.close()
            raise RuntimeError("nginx-origin.sh did not start: " + self.process.stderr.read().strip())
        self.process.stdout.readline()  # the work folder
        self.port = int(port)
        return self

    def __exit__(self, *exc):
        self.process.stdin.close()  # the script stops nginx when its stdin closes
        self.process.wait(timeout=30)


def timed(command):
    """Runs `command` to its end: the result, its wall time as a whole
    process (start-up included) and the CPU seconds (user + system) it and
    its children used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    out = subprocess.run(command, capture_output=True, text=True, timeout=600)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return out, seconds, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def aiohttp_fetch(listfile, concurrency):
    """The aiohttp engine, in its own process: prints seconds and bytes."""
    import aiohttp

    urls = [line.strip() for line in open(listfile) if line.strip()]

    async def main():
        total = 0
        connector = aiohttp.TCPConnector(limit=concurrency)
        async with aiohttp.ClientSession(connector=connector) as session:
            queue = list(reversed(urls))

            async def worker():
                nonlocal total
                while queue:
                    url = queue.pop()
                    async with session.get(url) as response:
                        response.raise_for_status()
                        body = await response.read()
                    total += len(body)

            start = time.perf_counter()
            await asyncio.gather(*(worker() for _ in range(concurrency)))
            return time.perf_counter() - start, total

    seconds, total = asyncio.run(main())
    print(json.dumps({"seconds": seconds, "bytes": total}))


def images_in(folder):
    """The image files directly in `folder`, sorted."""
    if not os.path.isdir(folder):
        return []
    return sorted(n for n in os.listdir(folder)
                  if n.lower().endswith(IMAGE_EXTENSIONS) and os.path.isfile(os.path.join(folder, n)))


def mixed_folder():
    """A folder of links to every image of both sets: photos, PNGs, GIFs and
    WebPs from a few KB to several MB (the issue's mixed set, from what a
    clone has)."""
    folder = os.path.join(WORK, "network-mixed")
    os.makedirs(folder, exist_ok=True)
    for source in (SAMPLES, WORK):
        for name in images_in(source):
            link = os.path.join(folder, name)
            if not os.path.lexists(link):
                os.symlink(os.path.join(source, name), link)
    return folder


def run(magpie, requests=4000, concurrency=6, reps=5):
    """Runs the four engines on each set; returns one row per set and engine."""
    sets = [("small files (bundled samples)", SAMPLES, requests)]
    if images_in(WORK):
        sets.append(("large files (benchmark corpus)", WORK, requests * 3 // 4))
        mixed = mixed_folder()
        # Every file, listed as many times as makes about 1,600 requests.
        files = len(images_in(mixed))
        sets.append(("mixed (every file of both, listed several times)", mixed, files * -(-1600 // files)))
    rows = []
    for label, folder, count in sets:
        rows += run_set(magpie, label, folder, count, concurrency, reps)
    return rows


def run_set(magpie, label, samples, requests, concurrency, reps):
    """Runs the four engines on the images of one folder."""
    names = sorted(n for n in os.listdir(samples) if n.lower().endswith(IMAGE_EXTENSIONS))
    sizes = {n: os.path.getsize(os.path.join(samples, n)) for n in names}
    os.makedirs(WORK, exist_ok=True)
    rows = []
    with Nginx(samples) as nginx:
        # Each request a URL of its own (nginx ignores the query), so no
        # engine can share one transfer between repeats of a file.
        urls = [f"http://127.0.0.1:{nginx.port}/{names[i % len(names)]}?{i}" for i in range(requests)]
        expected_bytes = sum(sizes[names[i % len(names)]] for i in range(requests))
        listfile = os.path.join(WORK, f"network-urls-{len(names)}.txt")
        with open(listfile, "w") as f:
            f.write("\n".join(urls) + "\n")
        curl_config = os.path.join(WORK, f"network-urls-{len(names)}.curl")
        with open(curl_config, "w") as f:
            for url in urls:
                f.write(f'url = "{url}"\noutput = "/dev/null"\n')

        def magpie_engine(loader):
            def go():
                out, seconds, cpu = timed([magpie, "loader-bench", listfile, "--concurrency", str(concurrency),
                                           "--loader", loader])
                if out.returncode != 0:
                    raise RuntimeError(out.stderr.strip() or out.stdout.strip())
                record = json.loads(out.stdout)
                return {"seconds": seconds, "cpu_seconds": cpu, "self_seconds": record["seconds"],
                        "bytes": record["bytes"]}
            return go

        def curl_engine():
            out, seconds, cpu = timed(["curl", "-s", "-f", "--parallel", "--parallel-max", str(concurrency),
                                       "-K", curl_config])
            if out.returncode != 0:
                raise RuntimeError(f"curl exited {out.returncode}: {out.stderr.strip()}")
            return {"seconds": seconds, "cpu_seconds": cpu, "bytes": expected_bytes}

        def aiohttp_engine():
            out, seconds, cpu = timed([sys.executable, os.path.abspath(__file__), "--aiohttp", listfile,
                                       str(concurrency)])
            if out.returncode != 0:
                raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr.strip() else "failed")
            record = json.loads(out.stdout)
            return {"seconds": seconds, "cpu_seconds": cpu, "self_seconds": record["seconds"],
                    "bytes": record["bytes"]}

        engines = [("magpie (curl loader)", magpie_engine("curl")),
                   ("magpie (URLSession loader)", magpie_engine("urlsession")),
                   ("curl --parallel", curl_engine), ("aiohttp", aiohttp_engine)]
        # Rounds, each running every engine once, so that a machine whose
        # load changes during the run weighs on all engines alike.
        timings = {name: [] for name, _ in engines}
        cpu = {name: [] for name, _ in engines}
        own = {name: [] for name, _ in engines}
        errors = {}
        for round_number in range(reps + 1):
            for name, engine in engines:
                if name in errors:
                    continue
                try:
                    result = engine()
                    if result["bytes"] != expected_bytes:
                        raise RuntimeError(f"got {result['bytes']} bytes, expected {expected_bytes}")
                    if round_number > 0:  # the first round warms up
                        timings[name].append(result["seconds"])
                        cpu[name].append(result["cpu_seconds"])
                        if "self_seconds" in result:
                            own[name].append(result["self_seconds"])
                except Exception as e:  # a broken engine is reported, not fatal
                    errors[name] = str(e)[:300]
        for name, _ in engines:
            row = {"set": label, "engine": name, "requests": requests, "concurrency": concurrency,
                   "average_bytes": expected_bytes // requests}
            if name in errors:
                row["error"] = errors[name]
            else:
                seconds = statistics.median(timings[name])
                row.update(seconds=round(seconds, 4), requests_per_s=round(requests / seconds, 1),
                           mb_per_s=round(expected_bytes / 1e6 / seconds, 1),
                           seconds_range=[round(min(timings[name]), 4), round(max(timings[name]), 4)],
                           rounds=[round(t, 4) for t in timings[name]],
                           cpu_seconds=round(statistics.median(cpu[name]), 4),
                           cpu_seconds_per_gb=round(statistics.median(cpu[name]) / (expected_bytes / 1e9), 3))
                if own[name]:
                    row["self_timed_seconds"] = round(statistics.median(own[name]), 4)
            rows.append(row)
            print(json.dumps(row), flush=True)
    curl_seconds = next((r.get("seconds") for r in rows if r["engine"] == "curl --parallel"), None)
    for row in rows:
        if curl_seconds and row.get("seconds"):
            row["wall_vs_curl"] = round(row["seconds"] / curl_seconds, 2)
    return rows


def markdown(rows):
    """The section bench.py appends to results.md."""
    if not rows:
        return ""
    first = rows[0]
    lines = [f"Data loaders: requests to a local nginx, {first['concurrency']} at a time, every URL "
             "its own (aim: Magpie within 1.10x of curl's wall time and faster than aiohttp on each set; "
             "every engine timed as a whole process; median of the rounds, every round listed). "
             "Magpie hands the whole list to an ImageDownloader at once, as curl --parallel takes its "
             "list; aiohttp runs 6 workers.", "",
             "| images | engine | wall time | requests/s | MB/s | CPU s per GB | wall time vs curl | rounds (s) |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |"]
    for r in rows:
        images = f"{r['set']}: {r['requests']:,} requests, {r['average_bytes'] / 1e3:,.0f} KB average"
        if "error" in r:
            lines.append(f"| {images} | {r['engine']} | failed: {r['error'][:80]} | | | | | |")
            continue
        ratio = f"{r['wall_vs_curl']:.2f}x" if r.get("wall_vs_curl") else "–"
        rounds = ", ".join(f"{t:.3f}" for t in r.get("rounds", []))
        lines.append(f"| {images} | {r['engine']} | {r['seconds']:.3f} s | {r['requests_per_s']:,.0f} | "
                     f"{r['mb_per_s']:,.0f} | {r['cpu_seconds_per_gb']:.2f} | {ratio} | {rounds} |")
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--aiohttp":
        aiohttp_fetch(sys.argv[2], int(sys.argv[3]))
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("--magpie", default=os.path.join(ROOT, ".build", "release", "magpie"))
    ap.add_argument("--requests", type=int, default=4000)
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    print(markdown(run(a.magpie, requests=a.requests, reps=a.reps)))


if __name__ == "__main__":
    main()
