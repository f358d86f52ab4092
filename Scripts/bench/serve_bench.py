#!/usr/bin/env python3
"""`magpie serve` against thumbor 7.8 under wrk (issue 38), for `make bench`.

The servers, each started fresh for every run (so nothing is cached from an
earlier run and the peak RSS is the run's own):

- magpie serve (the release binary): --unsafe --allow-private-sources,
  --concurrency = the cores it may use, no --cache-dir (memory tier only).
- thumbor 7.8 (PyPI, the bench venv): one process (tornado: one event loop,
  so one core; thumbor's own default, ENGINE_THREADPOOL_SIZE 0), the PIL
  engine, its default HTTP loader (tornado's simple client; pycurl is not
  needed), no detectors, QUALITY 80, AUTO_WEBP off, PROGRESSIVE_JPEG off
  (Magpie writes baseline JPEG; thumbor still Huffman-optimises, which it
  always does), originals not stored (STORAGE no_storage: Magpie keeps no
  sources either). Warm runs add RESULT_STORAGE file_storage in a temporary
  folder, with RESULT_STORAGE_STORES_UNSAFE (unsigned URLs are otherwise
  never stored).

The origin: nginx (Scripts/origin/nginx-origin.sh --bench) serving a corpus
of JPEG photos made here from fixed seeds (Scripts/samples/make_samples.py,
as bench.py's corpus is): 40 of 1600x1200 and 4 of 4000x3000, quality 85,
kept in bench/work/serve-corpus.

The load: wrk, CONNECTIONS connections over WRK_THREADS threads for
SECONDS, with a Lua script that walks a list of paths (thread i takes
entries i, i + threads, ...), counts non-2xx answers and prints its figures
as JSON. Each path is one image at one size, alternately fit and fill:
magpie `rs:fit:W:H/q:80/f:jpg` and `rs:fill:W:H/q:80/f:jpg`, thumbor
`fit-in/WxH` and `WxH` (thumbor's plain WxH fills and crops from the
centre; smart cropping is off).

- cold: every request is a cache miss. The list has one path per request
  and never repeats (heights vary, fit 300x225-624 and fill 190-209 x
  140-159: each image gives 800 URLs, 35,200 in all), and the run fails if
  wrk reaches its end. Magpie's /metrics must show no hit and a miss per
  request; thumbor has no result storage in these runs, so it transforms
  every request by construction.
- warm: 88 URLs (each image at fit 300x300 and fill 200x150), requested
  once each in a warm-up pass, then over and over by wrk: Magpie's memory
  tier against thumbor's file result storage. Magpie's /metrics must show
  88 misses and a hit for every timed request; thumbor's result storage must
  hold 88 files after the warm-up.
- cores: "all" leaves the server on every core (Magpie --concurrency =
  cores; thumbor is one process whatever the cores); "1 core" pins the
  server with `taskset -c 0` (Magpie --concurrency 1). nginx and wrk are
  always pinned to the other cores (on 2 cores: core 1), so in the
  all-cores rows the server shares that core with them.

Recorded per run: requests/s (completed requests over wrk's duration),
p50 and p99 latency (wrk's), errors (socket connect/read/write/timeout and
non-2xx; a run is valid only when all are 0), the server's peak RSS
(VmHWM from /proc/PID/status after the run, before SIGTERM: the whole
process's high-water mark, warm-up included), its CPU seconds during the
timed part (utime + stime from /proc/PID/stat), and the 1-minute load
average just before (the machine is shared). Rows run in ROUNDS rounds,
each round every row once, servers alternating; each row keeps its fastest
valid round (as bench.py does, so load drifting on a shared machine does
not favour whoever ran in a quiet moment) and lists every round.

Run alone: .venv/bin/python Scripts/bench/serve_bench.py [--magpie PATH]
[--seconds 15] [--connections 8] [--rounds 1]; writes
bench/work/serve-results.json and .md. Used by bench.py through run().
"""
import argparse
import datetime
import io
import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import network_bench  # noqa: E402

ROOT = network_bench.ROOT
WORK = network_bench.WORK
CORPUS = os.path.join(WORK, "serve-corpus")
sys.path.insert(0, os.path.join(ROOT, "Scripts", "samples"))

# The aims: Magpie's requests/s over thumbor's.
AIMS = {"cold": 3.0, "warm": 10.0}
WARM_SIZES = {"fit": (300, 300), "fill": (200, 150)}


def corpus():
    """Builds (once) the photos the origin serves; returns their names."""
    import make_samples
    os.makedirs(CORPUS, exist_ok=True)
    specs = [(f"photo-{i:02d}-1600x1200.jpg", 300 + i, 1600, 1200) for i in range(40)]
    specs += [(f"photo-{i:02d}-4000x3000.jpg", 400 + i, 4000, 3000) for i in range(4)]
    for name, seed, w, h in specs:
        path = os.path.join(CORPUS, name)
        if not os.path.exists(path):
            # The scene follows the seed: landscapes, flowers and cities.
            make_samples.render(seed, w, h).save(path + ".tmp", format="JPEG", quality=85)
            os.replace(path + ".tmp", path)
    return [name for name, _, _, _ in specs]


def magpie_path(kind, w, h, origin, name):
    return f"/unsafe/rs:{kind}:{w}:{h}/q:80/f:jpg/plain/http://127.0.0.1:{origin}/{name}"


def thumbor_path(kind, w, h, origin, name):
    return f"/unsafe/{'fit-in/' if kind == 'fit' else ''}{w}x{h}/127.0.0.1:{origin}/{name}"


def url_lists(names, origin):
    """(kind, w, h, name) lists: cold (35,200 distinct, images rotating
    fastest so that concurrent requests fetch different sources) and warm
    (88)."""
    cold = []
    for k in range(800):
        for j, name in enumerate(names):
            n = k // 2
            if (j + k) % 2 == 0:
                cold.append(("fit", 300, 225 + n, name))
            else:
                cold.append(("fill", 190 + n % 20, 140 + n // 20, name))
    warm = [(kind, *WARM_SIZES[kind], name) for name in names for kind in ("fit", "fill")]
    return cold, warm


WRK_SCRIPT = r"""
-- Generated by Scripts/bench/serve_bench.py.
local paths = {}
for line in io.lines("@LIST@") do paths[#paths + 1] = line end
local threads = {}
local nthreads = @THREADS@
function setup(thread)
  thread:set("id", #threads)
  threads[#threads + 1] = thread
end
function init(args)
  idx = id
  issued = 0
  bad = 0
  wrapped = 0
end
function request()
  if idx >= #paths then wrapped = 1 end
  local path = paths[(idx % #paths) + 1]
  idx = idx + nthreads
  issued = issued + 1
  return wrk.format("GET", path)
end
function response(status, headers, body)
  if status < 200 or status > 299 then bad = bad + 1 end
end
function done(summary, latency, requests)
  local issued, bad, wrapped = 0, 0, 0
  for _, t in ipairs(threads) do
    issued = issued + t:get("issued")
    bad = bad + t:get("bad")
    wrapped = wrapped + t:get("wrapped")
  end
  local e = summary.errors
  io.write(string.format('WRKJSON {"requests": %d, "duration_us": %d, "bytes": %d, "connect": %d, "read": %d, ' ..
    '"write": %d, "status": %d, "timeout": %d, "p50_us": %d, "p90_us": %d, "p99_us": %d, "max_us": %d, ' ..
    '"mean_us": %.1f, "issued": %d, "non2xx": %d, "wrapped": %d, "paths": %d}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean,
    issued, bad, wrapped, #paths))
end
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port, path, timeout=60):
    """GET http://127.0.0.1:PORT/PATH: (status, body)."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def proc_status(pid, field):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return None


def machine_idle():
    """(idle + iowait, total) jiffies of all cores, from /proc/stat."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    return values[3] + values[4], sum(values)


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Server:
    """One server process, started fresh: .port, .pid, stop() -> exit code."""

    def __init__(self, command, log, ready):
        self.command = command
        self.log_path = log
        self.log = open(log, "w")
        self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self.log,
                                        text=True)
        self.pid = self.process.pid
        try:
            self.port = ready(self)
        except Exception:
            self.stop()
            raise

    def log_tail(self):
        self.log.flush()
        with open(self.log_path) as f:
            return f.read()[-600:].strip()

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=40)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()
        return self.process.returncode


def start_magpie(magpie, cores, pin, folder):
    command = pin + [magpie, "serve", "--port", "0", "--unsafe", "--allow-private-sources",
                     "--concurrency", str(cores), "--quality", "80"]

    def ready(server):
        line = server.process.stdout.readline()
        if not line.startswith("listening on http://127.0.0.1:"):
            raise RuntimeError(f"magpie serve did not start: {line!r} {server.log_tail()}")
        return int(line.strip().rsplit(":", 1)[1])
    return Server(command, os.path.join(folder, "magpie.log"), ready)


def thumbor_config(folder, warm):
    lines = [
        "LOADER = 'thumbor.loaders.http_loader'",
        "STORAGE = 'thumbor.storages.no_storage'",
        "ENGINE = 'thumbor.engines.pil'",
        "DETECTORS = []",
        "ALLOW_UNSAFE_URL = True",
        "QUALITY = 80",
        "AUTO_WEBP = False",
        "PROGRESSIVE_JPEG = False",
    ]
    if warm:
        lines += ["RESULT_STORAGE = 'thumbor.result_storages.file_storage'",
                  f"RESULT_STORAGE_FILE_STORAGE_ROOT_PATH = {os.path.join(folder, 'result-storage')!r}",
                  "RESULT_STORAGE_STORES_UNSAFE = True",
                  "RESULT_STORAGE_EXPIRATION_SECONDS = 0"]
    path = os.path.join(folder, "thumbor.conf")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def thumbor_binary():
    return os.path.join(os.path.dirname(sys.executable), "thumbor")


def start_thumbor(pin, folder, warm):
    port = free_port()
    command = pin + [thumbor_binary(), "--ip", "127.0.0.1", "--port", str(port),
                     "--conf", thumbor_config(folder, warm), "--log-level", "error"]

    def ready(server):
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if server.process.poll() is not None:
                raise RuntimeError(f"thumbor exited {server.process.returncode}: {server.log_tail()}")
            try:
                if get(port, "/healthcheck", timeout=2)[0] == 200:
                    return port
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError("thumbor did not answer /healthcheck in 60 s")
    return Server(command, os.path.join(folder, "thumbor.log"), ready)


def magpie_metrics(port):
    """Magpie's /metrics: result-cache hits (all tiers) and misses, the
    responses by status, and each stage's seconds and count."""
    status, body = get(port, "/metrics")
    hits = misses = 0
    statuses, stages = {}, {}
    for line in body.decode().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        name, value = line.rsplit(" ", 1)
        if name.startswith("magpie_serve_cache_hits_total"):
            hits += int(float(value))
        elif name.startswith("magpie_serve_cache_misses_total"):
            misses += int(float(value))
        elif name.startswith("magpie_serve_requests_total{"):
            code = name.split('status="', 1)[1].split('"', 1)[0]
            statuses[code] = statuses.get(code, 0) + int(float(value))
        elif name.startswith("magpie_serve_stage_seconds_"):
            stage = name.split('stage="', 1)[1].split('"', 1)[0]
            stages.setdefault(stage, {})["sum" if "_sum{" in name else "count"] = float(value)
    return {"hits": hits, "misses": misses, "statuses": statuses,
            "stage_mean_ms": {k: round(1000 * v["sum"] / v["count"], 3) for k, v in stages.items()
                              if v.get("count")}}


def sanity_check(magpie, origin, names):
    """Both servers answer one fit and one fill URL with a JPEG of the
    expected size (and Magpie a baseline one); raises otherwise."""
    from PIL import Image
    folder = tempfile.mkdtemp(prefix="magpie-serve-sanity-")
    checks = []
    try:
        for server_name in ("magpie", "thumbor"):
            server = start_magpie(magpie, 1, [], folder) if server_name == "magpie" else \
                start_thumbor([], folder, False)
            try:
                for kind, w, h, name, expected in [("fit", 300, 300, names[0], (300, 225)),
                                                   ("fill", 200, 150, names[0], (200, 150)),
                                                   ("fit", 300, 300, names[-1], (300, 225))]:
                    path = (magpie_path if server_name == "magpie" else thumbor_path)(kind, w, h, origin, name)
                    status, body = get(server.port, path)
                    if status != 200:
                        raise RuntimeError(f"{server_name} {path}: HTTP {status}: {body[:200]!r}")
                    image = Image.open(io.BytesIO(body))
                    image.load()
                    got = {"server": server_name, "path": path, "format": image.format, "size": list(image.size),
                           "bytes": len(body), "progressive": bool(image.info.get("progressive"))}
                    checks.append(got)
                    print(f"serve sanity: {json.dumps(got)}", flush=True)
                    if image.format != "JPEG" or image.size != expected:
                        raise RuntimeError(f"{server_name} {path}: got {image.format} {image.size}, "
                                           f"expected JPEG {expected}")
            finally:
                server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return checks


def one_run(magpie, server_name, cache, cores, origin, lists, seconds, connections, wrk_threads, load_cpus):
    """Starts a fresh server, warms it when `cache` is warm, runs wrk;
    returns the run's record."""
    pin = ["taskset", "-c", "0"] if cores == 1 else []
    concurrency = cores if cores == 1 else os.cpu_count()
    folder = tempfile.mkdtemp(prefix=f"magpie-serve-bench-{server_name}-")
    record = {"server": server_name, "cache": cache, "cores": "1" if cores == 1 else "all"}
    try:
        entries = lists[cache]
        make_path = magpie_path if server_name == "magpie" else thumbor_path
        paths = [make_path(kind, w, h, origin, name) for kind, w, h, name in entries]
        listfile = os.path.join(folder, "paths.txt")
        with open(listfile, "w") as f:
            f.write("\n".join(paths) + "\n")
        script = os.path.join(folder, "rotate.lua")
        with open(script, "w") as f:
            f.write(WRK_SCRIPT.replace("@LIST@", listfile).replace("@THREADS@", str(wrk_threads)))
        if server_name == "magpie":
            server = start_magpie(magpie, concurrency, pin, folder)
            record["command"] = " ".join(server.command)
        else:
            server = start_thumbor(pin, folder, cache == "warm")
            record["command"] = " ".join(server.command)
            with open(os.path.join(folder, "thumbor.conf")) as f:
                record["thumbor_conf"] = f.read().strip().splitlines()
        try:
            if cache == "warm":
                for path in paths:
                    status, body = get(server.port, path)
                    if status != 200:
                        raise RuntimeError(f"warm-up {path}: HTTP {status}: {body[:200]!r}")
                if server_name == "magpie":
                    record["after_warmup"] = magpie_metrics(server.port)
                else:
                    stored = 0
                    for _ in range(50):  # thumbor may write its result a moment after answering
                        stored = sum(len(files) for _, _, files in os.walk(os.path.join(folder, "result-storage")))
                        if stored >= len(paths):
                            break
                        time.sleep(0.1)
                    record["result_storage_files"] = stored
                    if stored < len(paths):
                        raise RuntimeError(f"thumbor's result storage holds {stored} files after warming "
                                           f"{len(paths)} URLs")
            record["load_before"] = round(os.getloadavg()[0], 2)
            cpu_before = cpu_seconds(server.pid)
            wrk = ["taskset", "-c", load_cpus, "wrk", "-t", str(wrk_threads), "-c", str(connections),
                   "-d", f"{seconds}s", "--timeout", "30s", "--latency", "-s", script,
                   f"http://127.0.0.1:{server.port}"]
            record["wrk_command"] = " ".join(wrk)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            idle_before = machine_idle()
            out = subprocess.run(wrk, capture_output=True, text=True, timeout=seconds + 120)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            idle_after = machine_idle()
            # Cores left idle during the run: near 0 with others' work on a shared machine.
            record["idle_cores"] = round(os.cpu_count() * (idle_after[0] - idle_before[0]) /
                                         max(1, idle_after[1] - idle_before[1]), 2)
            wrk_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            record["server_cpu_s"] = round(cpu_seconds(server.pid) - cpu_before, 2)
            record["peak_rss_mb"] = round(proc_status(server.pid, "VmHWM") / 1024, 1)
            lines = [l for l in out.stdout.splitlines() if l.startswith("WRKJSON ")]
            if out.returncode != 0 or not lines:
                raise RuntimeError(f"wrk exited {out.returncode}: {(out.stderr or out.stdout)[-400:]}")
            w = json.loads(lines[-1][len("WRKJSON "):])
            record["wrk"] = w
            if server_name == "magpie":
                # Cumulative, warm-up included; /metrics itself is not counted
                # until it has answered.
                record["metrics"] = magpie_metrics(server.port)
        finally:
            record["exit_code"] = server.stop()
        seconds_run = w["duration_us"] / 1e6
        # wrk's own "status" count (>= 400) is part of non2xx, counted by the script.
        errors = {k: w[k] for k in ("connect", "read", "write", "timeout", "non2xx")}
        record.update(requests=w["requests"], seconds=round(seconds_run, 2),
                      requests_per_s=round(w["requests"] / seconds_run, 1),
                      p50_ms=round(w["p50_us"] / 1000, 1), p99_ms=round(w["p99_us"] / 1000, 1),
                      errors=errors, urls=len(paths),
                      # Busy share of a core: is the client (wrk, on the load core) or the server the limit?
                      wrk_cpu_share=round(wrk_cpu / seconds_run, 2),
                      server_cpu_share=round(record["server_cpu_s"] / seconds_run, 2))
        record["cpu_ms_per_request"] = round(1000 * record["server_cpu_s"] / w["requests"], 3) if w["requests"] else None
        problems = [f"{k} errors: {v}" for k, v in errors.items() if v]
        if w["requests"] == 0:
            problems.append("no request completed")
        if cache == "cold" and w["wrapped"]:
            problems.append("the cold list ran out: URLs repeated")
        if server_name == "magpie":
            m = record["metrics"]
            if cache == "cold" and (m["hits"] or m["misses"] < w["requests"]):
                problems.append(f"not all misses: {m['hits']} hits, {m['misses']} misses")
            if cache == "warm" and (m["misses"] != len(paths) or m["hits"] < w["requests"]):
                problems.append(f"not all hits: {m['hits']} hits, {m['misses']} misses")
            if set(m["statuses"]) - {"200"}:
                problems.append(f"statuses {m['statuses']}")
        if record["exit_code"] != 0:
            problems.append(f"exit code {record['exit_code']} on SIGTERM")
        record["valid"] = not problems
        if problems:
            record["problems"] = problems
    except Exception as e:  # a broken run is reported, not fatal
        record["valid"] = False
        record["problems"] = [str(e)[:400]]
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return record


def run(magpie, seconds=15, connections=8, wrk_threads=2, rounds=2):
    """Every (server, cache, cores) row, ROUNDS times; returns the rows
    (best valid round each, every round listed) and the ratio rows."""
    names = corpus()
    cpus = os.cpu_count()
    load_cpus = f"1-{cpus - 1}" if cpus > 2 else "1"
    if not os.path.exists(thumbor_binary()):
        raise RuntimeError(f"no thumbor at {thumbor_binary()} (pip install 'thumbor==7.8.*' into the bench venv)")
    version = subprocess.run([thumbor_binary(), "--version"], capture_output=True, text=True).stdout.strip()
    with network_bench.Nginx(CORPUS, prefix=["taskset", "-c", load_cpus]) as nginx:
        sanity = sanity_check(magpie, nginx.port, names)
        cold, warm = url_lists(names, nginx.port)
        lists = {"cold": cold, "warm": warm}
        keys = [(cores, cache, server) for cores in (cpus, 1) for cache in ("cold", "warm")
                for server in ("magpie", "thumbor")]
        runs = {key: [] for key in keys}
        for round_number in range(rounds):
            for cores, cache, server in keys:
                record = one_run(magpie, server, cache, cores, nginx.port, lists, seconds, connections, wrk_threads,
                                 load_cpus)
                record["round"] = round_number + 1
                runs[(cores, cache, server)].append(record)
                print("serve " + json.dumps({k: record.get(k) for k in (
                    "server", "cache", "cores", "round", "load_before", "requests_per_s", "p50_ms", "p99_ms",
                    "peak_rss_mb", "cpu_ms_per_request", "server_cpu_share", "wrk_cpu_share", "idle_cores", "errors", "valid",
                    "problems")}), flush=True)
    rows = []
    for (cores, cache, server), records in runs.items():
        valid = [r for r in records if r["valid"]]
        best = max(valid, key=lambda r: r["requests_per_s"]) if valid else records[-1]
        row = dict(best)
        row.update(cpus=cpus, concurrency=connections, wrk_threads=wrk_threads, seconds_asked=seconds,
                   thumbor_version=version,
                   rounds=[{k: r.get(k) for k in ("round", "load_before", "requests_per_s", "p50_ms", "p99_ms",
                                                  "peak_rss_mb", "valid")} for r in records])
        rows.append(row)
    ratios = []
    for cores in ("all", "1"):
        for cache in ("cold", "warm"):
            m = next(r for r in rows if r["server"] == "magpie" and r["cache"] == cache and r["cores"] == cores)
            t = next(r for r in rows if r["server"] == "thumbor" and r["cache"] == cache and r["cores"] == cores)
            ratio = {"ratio": True, "cache": cache, "cores": cores, "aim": AIMS[cache],
                     "valid": bool(m["valid"] and t["valid"])}
            if ratio["valid"]:
                ratio.update(rps=round(m["requests_per_s"] / t["requests_per_s"], 2),
                             p99=round(m["p99_ms"] / t["p99_ms"], 3),
                             rss=round(m["peak_rss_mb"] / t["peak_rss_mb"], 2),
                             # Load-independent: on a contended core CFS gives a
                             # many-threaded server more of it than a one-threaded one.
                             cpu_efficiency=round(t["cpu_ms_per_request"] / m["cpu_ms_per_request"], 2))
                ratio["meets_aim"] = ratio["rps"] >= AIMS[cache]
            ratios.append(ratio)
    return rows + ratios + [{"sanity": sanity}]


def markdown(rows):
    """The section bench.py appends to results.md."""
    table = [r for r in rows if "server" in r]
    ratios = [r for r in rows if r.get("ratio")]
    failed = next((r["error"] for r in rows if "error" in r), None)
    if failed:
        return f"magpie serve against thumbor: failed: {failed}\n"
    if not table:
        return ""
    first = table[0]
    out = [f"magpie serve against {first.get('thumbor_version') or 'thumbor'} (issue 38): wrk "
           f"(-t {first['wrk_threads']} -c {first['concurrency']} -d {first['seconds_asked']}s --latency, pinned "
           f"with nginx to the cores other than 0) on a local nginx origin of 44 JPEG photos (40 of 1600x1200, 4 of "
           f"4000x3000), half fit 300 px, half fill 200x150, JPEG quality 80 out. Cold: every request a distinct URL "
           f"and a cache miss (Magpie's /metrics checked). Warm: 88 URLs warmed once, then repeated (Magpie's memory "
           f"tier, thumbor's file result storage). Cores: all {first['cpus']} (Magpie --concurrency "
           f"{first['cpus']}; thumbor is one process, one core) or 1 (server under taskset -c 0, Magpie "
           f"--concurrency 1). Every run a fresh server; peak RSS is its VmHWM after the run. Rows keep the fastest "
           f"valid round; a row is valid only with 0 socket errors and 0 non-2xx. Load: 1-minute load average "
           f"just before the run; idle cores: left idle during it (the machine is shared). Server CPU per request "
           f"(utime + stime of the server process over the timed part) is the load-independent comparison: on a "
           f"contended core the scheduler gives Magpie's several threads more of it than thumbor's one.", "",
           "| server | cache | cores | requests/s | p50 | p99 | errors | peak RSS | server CPU ms/request | "
           "server / wrk CPU (cores busy) | idle cores | load | rounds (requests/s) |",
           "| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for r in table:
        rounds = ", ".join(f"{x['requests_per_s']:.0f}" if x.get("requests_per_s") else "failed"
                           for x in r.get("rounds", []))
        if not r.get("requests_per_s") or not r.get("valid"):
            why = "; ".join(r.get("problems", []))[:120]
            out.append(f"| {r['server']} | {r['cache']} | {r['cores']} | invalid: {why} | | | | | | | | "
                       f"{r.get('load_before', '–')} | {rounds} |")
            continue
        out.append(f"| {r['server']} | {r['cache']} | {r['cores']} | {r['requests_per_s']:,.1f} | "
                   f"{r['p50_ms']:.1f} ms | {r['p99_ms']:.1f} ms | {sum(r['errors'].values())} | "
                   f"{r['peak_rss_mb']:.1f} MB | {r['cpu_ms_per_request']:.3f} | "
                   f"{r['server_cpu_share']:.2f} / {r['wrk_cpu_share']:.2f} | {r['idle_cores']:.2f} | "
                   f"{r['load_before']:.2f} | {rounds} |")
    out += ["", "| Magpie / thumbor | cores | requests/s (aim) | p99 (lower is better) | peak RSS (lower is better) | "
                "server CPU per request, thumbor's / Magpie's |",
            "| --- | --- | ---: | ---: | ---: | ---: |"]
    for r in ratios:
        if not r["valid"]:
            out.append(f"| {r['cache']} | {r['cores']} | no valid pair | | | |")
            continue
        mark = "" if r["meets_aim"] else " (missed)"
        out.append(f"| {r['cache']} | {r['cores']} | {r['rps']:.2f}x (>= {r['aim']:.0f}x){mark} | "
                   f"{r['p99']:.3f}x | {r['rss']:.2f}x | {r['cpu_efficiency']:.2f}x |")
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--magpie", default=os.path.join(ROOT, ".build", "release", "magpie"))
    ap.add_argument("--seconds", type=int, default=15, help="wrk's duration per run")
    ap.add_argument("--connections", type=int, default=8, help="wrk -c")
    ap.add_argument("--threads", type=int, default=2, help="wrk -t")
    ap.add_argument("--rounds", type=int, default=1)
    a = ap.parse_args()
    rows = run(os.path.abspath(a.magpie), seconds=a.seconds, connections=a.connections, wrk_threads=a.threads,
               rounds=a.rounds)
    record = {"date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "cores": os.cpu_count(), "serve": rows}
    os.makedirs(WORK, exist_ok=True)
    with open(os.path.join(WORK, "serve-results.json"), "w") as f:
        json.dump(record, f, indent=2)
        f.write("\n")
    text = markdown(rows)
    with open(os.path.join(WORK, "serve-results.md"), "w") as f:
        f.write(text)
    print("\n" + text)
    print("wrote bench/work/serve-results.json and serve-results.md")


if __name__ == "__main__":
    main()
