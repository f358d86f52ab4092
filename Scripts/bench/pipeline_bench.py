#!/usr/bin/env python3
"""The full pipeline, Magpie next to aiohttp + Pillow, against a local nginx.

Both download a list of still images (the bundled samples, each URL made
distinct with a query string so nothing is served from a cache), decode,
make a thumbnail that fits 256x256, and store it on disk:

- Magpie: `magpie prefetch LIST --concurrency 6 --process downsample(256x256)`
  into a fresh cache folder (download, decode-time shrink, Lanczos, disk
  cache with atomic writes).
- Peer: aiohttp with 6 connections, Pillow's draft() + thumbnail(LANCZOS)
  in a process pool of one worker per core (Pillow holds the GIL), each
  thumbnail saved in its source format under a SHA-256 file name, with the
  settings Magpie's DefaultCacheSerializer uses (JPEG quality 90, which
  Magpie writes 4:4:4; WebP quality 90; PNG zlib level 1), so both do the
  same work.

Each engine is timed as a whole process, start to exit, median of rounds
taken in turn, with its CPU seconds (user + system, its pool's workers
included) per image. Run by bench.py; `--peer LIST OUT CONCURRENCY` is the peer.
"""
import asyncio
import hashlib
import io
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import network_bench  # noqa: E402

ROOT = network_bench.ROOT
WORK = network_bench.WORK


def thumbnail(job):
    """Pillow's recipe, in a worker process."""
    from PIL import Image

    url, body, out = job
    im = Image.open(io.BytesIO(body))
    fmt = im.format
    im.draft("RGB", (256, 256))
    im.thumbnail((256, 256), Image.LANCZOS)
    path = os.path.join(out, hashlib.sha256(url.encode()).hexdigest())
    buf = io.BytesIO()
    if fmt == "JPEG":
        im.convert("RGB").save(buf, "JPEG", quality=90, subsampling=0)
    elif fmt == "WEBP":
        im.save(buf, "WEBP", quality=90)
    elif fmt == "PNG":
        im.save(buf, "PNG", compress_level=1)
    else:
        im.save(buf, fmt)
    with open(path + ".tmp", "wb") as f:
        f.write(buf.getvalue())
    os.replace(path + ".tmp", path)
    return im.size


def peer(listfile, out, concurrency):
    import aiohttp
    from concurrent.futures import ProcessPoolExecutor

    urls = [line.strip() for line in open(listfile) if line.strip()]
    pool = ProcessPoolExecutor(os.cpu_count())

    async def main():
        loop = asyncio.get_running_loop()
        connector = aiohttp.TCPConnector(limit=concurrency)
        pending = []
        async with aiohttp.ClientSession(connector=connector) as session:
            queue = list(reversed(urls))

            async def worker():
                while queue:
                    url = queue.pop()
                    async with session.get(url) as response:
                        response.raise_for_status()
                        body = await response.read()
                    pending.append(loop.run_in_executor(pool, thumbnail, (url, body, out)))

            await asyncio.gather(*(worker() for _ in range(concurrency)))
            await asyncio.gather(*pending)

    asyncio.run(main())
    pool.shutdown()


def run(magpie, copies=20, concurrency=6, rounds=5):
    samples = network_bench.SAMPLES
    names = sorted(n for n in os.listdir(samples)
                   if n.lower().endswith(network_bench.IMAGE_EXTENSIONS) and not n.startswith("pan-"))
    rows = []
    with network_bench.Nginx(samples) as nginx:
        urls = [f"http://127.0.0.1:{nginx.port}/{name}?copy={i}" for i in range(copies) for name in names]
        listfile = os.path.join(WORK, "pipeline-urls.txt")
        with open(listfile, "w") as f:
            f.write("\n".join(urls) + "\n")

        def magpie_engine(out):
            return [magpie, "prefetch", listfile, "--concurrency", str(concurrency), "--process",
                    "downsample(256x256)", "--cache-dir", out]

        def peer_engine(out):
            return [sys.executable, os.path.abspath(__file__), "--peer", listfile, out, str(concurrency)]

        engines = [("magpie", magpie_engine), ("aiohttp + Pillow", peer_engine)]
        timings = {name: [] for name, _ in engines}
        cpu = {name: [] for name, _ in engines}
        errors = {}
        for round_number in range(rounds + 1):
            for name, engine in engines:
                if name in errors:
                    continue
                out = tempfile.mkdtemp(prefix="magpie-pipeline-")
                try:
                    done, seconds, cpu_seconds = network_bench.timed(engine(out))
                    if done.returncode != 0:
                        raise RuntimeError((done.stderr.strip() or done.stdout.strip())[-300:])
                    stored = len([f for f in os.listdir(out) if not f.startswith(".")])
                    if stored < len(urls):
                        raise RuntimeError(f"stored {stored} thumbnails of {len(urls)}")
                    if round_number > 0:
                        timings[name].append(seconds)
                        cpu[name].append(cpu_seconds)
                except Exception as e:
                    errors[name] = str(e)
                finally:
                    shutil.rmtree(out, ignore_errors=True)
        for name, _ in engines:
            row = {"engine": name, "images": len(urls), "concurrency": concurrency}
            if name in errors:
                row["error"] = errors[name]
            else:
                seconds = statistics.median(timings[name])
                row.update(seconds=round(seconds, 3), images_per_s=round(len(urls) / seconds, 1),
                           cpu_ms_per_image=round(statistics.median(cpu[name]) * 1000 / len(urls), 2))
            rows.append(row)
            print(json.dumps(row), flush=True)
    peer_rate = next((r.get("images_per_s") for r in rows if r["engine"] != "magpie"), None)
    for row in rows:
        if peer_rate and row.get("images_per_s"):
            row["vs_peer"] = round(row["images_per_s"] / peer_rate, 2)
    return rows


def markdown(rows):
    if not rows:
        return ""
    lines = [f"Full pipeline: download, decode, 256 px thumbnail, disk store; {rows[0]['images']} still images "
             f"from a local nginx, {rows[0]['concurrency']} downloads at once (aim: Magpie >= 2.5x the peer)", "",
             "| engine | wall time | images/s | CPU ms per image | vs aiohttp + Pillow |",
             "| --- | ---: | ---: | ---: | ---: |"]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['engine']} | failed: {r['error'][:80]} | | | |")
        else:
            lines.append(f"| {r['engine']} | {r['seconds']:.2f} s | {r['images_per_s']:.1f} | "
                         f"{r['cpu_ms_per_image']:.1f} | {r.get('vs_peer', 0):.2f}x |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--peer":
        peer(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        rows = run(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "release", "magpie"))
        print(markdown(rows))
