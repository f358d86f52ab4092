#!/usr/bin/env python3
"""Runs a test command with a deadline, and says what hung if it passes it.

    Scripts/test-watchdog.py --limit SECONDS [--report DIR] -- COMMAND...

`make test` and `make sanitize` run `swift test` through it. The command's
output (stdout and stderr together) passes through line by line, and the
Swift Testing lines say which tests started and which ended. Past the limit
the watchdog:

  1. writes every thread's backtrace (gdb, when installed) to
     DIR/backtrace.txt and prints the frames in Magpie's own code;
  2. prints the tests that started and never ended, last, so that the tail
     of a CI log names them;
  3. kills the command's whole process group (the servers its tests
     started go with it) and exits 124.

A CI job that stops a hung run from outside keeps only the tail of what was
printed and loses whatever the test process still buffered; this keeps the
run inside the job's time and the answer in the tail.
"""

import argparse
import os
import re
import signal
import subprocess
import sys
import threading
import time

ESCAPE = re.compile(r"\x1b\[[0-9;]*m")
STARTED = re.compile(r"^\S+ Test (.+?) started\.$")
ENDED = re.compile(r"^\S+ Test (.+?) (?:passed|failed|skipped)\b")


# Frames of threads that wait for work by design.
IDLE = ("CurlLoop", "acceptLoop", "EventLoop", "waitReadable")


class Progress:
    """The tests that started and have not ended, in the order they started."""

    def __init__(self):
        self.lock = threading.Lock()
        self.running = {}

    def see(self, line):
        line = ESCAPE.sub("", line)
        # Parameterised cases print "Test case passing ..."; their test
        # prints its own start and end lines.
        if line.startswith(("◇ Test case", "✔ Test case", "✘ Test case")):
            return
        with self.lock:
            started = STARTED.match(line)
            if started and started.group(1) != "run":
                self.running[started.group(1)] = time.monotonic()
                return
            ended = ENDED.match(line)
            if ended:
                self.running.pop(ended.group(1), None)

    def still_running(self):
        with self.lock:
            now = time.monotonic()
            return [(name, now - since) for name, since in self.running.items()]


def backtraces(pid, report):
    """Every thread of `pid` as gdb sees it, into report/backtrace.txt; the
    frames in Magpie's own code as lines to print."""
    if not shutil_which("gdb"):
        return ["(no gdb: no backtraces)"]
    os.makedirs(report, exist_ok=True)
    path = os.path.join(report, "backtrace.txt")
    try:
        result = subprocess.run(
            ["gdb", "-p", str(pid), "-batch", "-ex", "thread apply all bt 40"],
            capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        return ["(gdb ran over 120 s)"]
    with open(path, "w") as out:
        out.write(result.stdout)
        out.write(result.stderr)
    threads, current = [], None
    for line in result.stdout.splitlines():
        if line.startswith("Thread "):
            current = (line[:120], [])
            threads.append(current)
        elif current is not None and "Magpie" in line and " in " in line:
            frame = line.split(" in ", 1)[1]
            where = frame.rsplit(" at ", 1)[1] if " at " in frame else ""
            current[1].append(f"    {frame.split(' ', 1)[0][:90]} at {os.path.basename(where)}")
    kept = []
    # Threads with no frame of ours say nothing, nor those idle in a loop
    # that waits for work by design; the rest, three frames each.
    for header, frames in threads:
        if frames and not any(idle in frame for frame in frames for idle in IDLE):
            kept += [header] + frames[:3]
    return [f"(all threads: {path})"] + kept[:60]


def shutil_which(name):
    for folder in os.environ.get("PATH", "/usr/bin:/bin").split(":"):
        candidate = os.path.join(folder, name)
        if os.access(candidate, os.X_OK):
            return candidate
    return None


def test_process(group):
    """The test bundle's pid in the group (swift test runs it as a child)."""
    found = None
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as cmdline:
                command = cmdline.read()
        except OSError:
            continue
        if int(fields[2]) == group and b".xctest" in command:
            found = int(entry)
    return found


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--limit", type=float, required=True, help="seconds")
    parser.add_argument("--report", default=".build/artifacts/test-hang")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command")

    progress = Progress()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    timed_out = threading.Event()
    reported = threading.Event()

    def watch():
        try:
            child.wait(timeout=args.limit)
            return
        except subprocess.TimeoutExpired:
            pass
        timed_out.set()
        # Read before gdb stops the process: a test may end meanwhile.
        running = progress.still_running()
        lines = [f"test-watchdog: the run passed its limit of {args.limit:.0f} s"]
        pid = test_process(child.pid) or child.pid
        lines += backtraces(pid, args.report)
        lines.append(f"test-watchdog: {len(running)} test(s) started and never ended:")
        lines += [f"  {name} (running {seconds:.0f} s)" for name, seconds in running]
        sys.stdout.write("\n".join(lines) + "\n")
        sys.stdout.flush()
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        reported.set()
        # A process that left the group may still hold the output pipe
        # open; the reading loop would never end.
        time.sleep(10)
        os._exit(124)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    for raw in child.stdout:
        line = raw.decode("utf-8", "replace").rstrip("\n")
        progress.see(line)
        sys.stdout.write(line + "\n")
        sys.stdout.flush()
    status = child.wait()
    if timed_out.is_set():
        reported.wait()
        return 124
    watcher.join()
    return status if status >= 0 else 128 - status


if __name__ == "__main__":
    sys.exit(main())
