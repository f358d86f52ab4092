#!/usr/bin/env python3
"""Opens the built DocC site in headless Chromium and checks that its pages
render: the page's title, DocC's navigation, a code block, and no console
message at all (Chromium's log gives every console message one level, so
an error cannot be told from a log line: the pages are expected to print
nothing). Serves .build/docs on 127.0.0.1 at a free port for the run.

    check_site.py [--site .build/docs] [--out .build/artifacts/docs]

Writes a screenshot per page and report.json into --out; exits 1 when a
check fails, naming it.
"""
import argparse
import functools
import http.server
import json
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import threading

# (name, path under the site, the title the page must have)
PAGES = [
    ("landing", "Magpie/documentation/magpie", "Magpie"),
    ("getting-started", "Magpie/documentation/magpie/gettingstarted", "Getting Started"),
    ("gtk-views", "MagpieGTK/documentation/magpiegtk/loadingintoviews", "Loading Images into GTK Views"),
    ("serve-behind-nginx", "MagpieServer/documentation/magpieserver/servingbehindnginx",
     "Running magpie serve Behind nginx"),
    ("image-manager", "Magpie/documentation/magpie/imagemanager", "ImageManager"),
]


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def check_page(chromium, base, name, path, title, out, profile):
    shot = out / f"{name}.png"
    run = subprocess.run(
        [chromium, "--headless=new", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
         "--window-size=1280,900", "--virtual-time-budget=15000", "--enable-logging=stderr", "--v=0",
         "--dump-dom", f"--screenshot={shot}", f"{base}/{path}"],
        capture_output=True, text=True, timeout=120)
    dom = run.stdout
    console = [line for line in run.stderr.splitlines() if ":CONSOLE" in line]
    found = re.search(r"<title>([^<]*)</title>", dom)
    result = {
        "name": name, "path": path, "status": run.returncode,
        "title": found.group(1) if found else None,
        "navigation": 'class="navigator"' in dom and "documentation-nav" in dom,
        "codeBlocks": len(re.findall(r"<pre\b", dom)),
        "console": console,
        "screenshot": str(shot) if shot.exists() else None,
    }
    problems = []
    if run.returncode != 0:
        problems.append(f"chromium exited {run.returncode}")
    if result["title"] != f"{title} | Documentation":
        problems.append(f"title {result['title']!r}, not {title!r}")
    if not result["navigation"]:
        problems.append("no DocC navigation in the page")
    if result["codeBlocks"] == 0:
        problems.append("no code block")
    if console:
        problems.append(f"console messages: {console}")
    if not result["screenshot"]:
        problems.append("no screenshot")
    result["problems"] = problems
    return result


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--site", default=".build/docs")
    parser.add_argument("--out", default=".build/artifacts/docs")
    args = parser.parse_args()
    site, out = pathlib.Path(args.site).resolve(), pathlib.Path(args.out).resolve()
    chromium = shutil.which("chromium")
    if not chromium:
        sys.exit("docs: chromium is not installed (make test-deps, or apt-get install chromium)")
    for _, path, _ in PAGES:
        if not (site / path.split("/")[0] / "index.html").exists():
            sys.exit(f"docs: no site at {site / path.split('/')[0]}: run make docs first")
    out.mkdir(parents=True, exist_ok=True)
    handler = functools.partial(QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with tempfile.TemporaryDirectory() as work:
            results = [check_page(chromium, base, name, path, title, out, pathlib.Path(work) / name)
                       for name, path, title in PAGES]
    finally:
        server.shutdown()
    (out / "report.json").write_text(json.dumps(results, indent=2))
    failed = [r for r in results if r["problems"]]
    for r in results:
        state = "; ".join(r["problems"]) or "ok"
        print(f"docs: {r['path']}: {r['title']!r}, {r['codeBlocks']} code blocks: {state}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
