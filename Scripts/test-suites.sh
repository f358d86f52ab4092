#!/usr/bin/env bash
# Runs the core test suite (`swift test --skip-build`) as three processes, each
# under Scripts/test-watchdog.py:
#
#   Scripts/test-suites.sh LIMIT REPORT_DIR [swift test options...]
#
# 1. everything but the HTTP server's suites and the busy-pool suite;
# 2. the HTTP server's suites (HTTPServerTests, Serve*Tests) alone;
# 3. the busy-pool suite (DataLoaderTests.BusyPool) alone: it fills GCD's
#    global pool with blocked jobs on purpose, and Swift's tasks share that
#    pool, so in a process with other tests it stalled them all (ten
#    animation and pipeline tests ran past their 60 s limits in one run).
#
# Why apart: those suites run an HTTPServer in the test process, whose
# handlers are tasks on Swift's shared cooperative threads (two on a
# two-core machine), and ask it over a socket with a deadline. In one
# process with the other thousand tests, whose decodes and pixel
# comparisons keep those threads busy for seconds at a time, a handler
# waited behind them past the client's 60 s deadline (seen on a fresh
# two-core machine: every test in the run took about 75 s). `magpie serve`
# owns its process's threads; so do these tests now.
#
# LIMIT: seconds per process before the watchdog stops it and names the
# tests still running (REPORT_DIR/main, REPORT_DIR/servers hold the
# backtraces). Both processes run even when the first fails; the exit
# status is the first failure's.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
swift=${SWIFT:-swift}
limit=${1:?usage: test-suites.sh LIMIT REPORT_DIR [swift test options...]}
report=${2:?usage: test-suites.sh LIMIT REPORT_DIR [swift test options...]}
shift 2
# Code that asks for the default cache folder (the documentation's
# snippets do, as a new user's app would) writes under the run's own.
export XDG_CACHE_HOME="$report/xdg-cache"
rm -rf "$XDG_CACHE_HOME" && mkdir -p "$XDG_CACHE_HOME"
servers='MagpieTests\.(HTTPServer|Serve[A-Za-z]*)Tests'
watchdog=(python3 "$root/Scripts/test-watchdog.py" --limit "$limit")
status=0
busy='MagpieTests\.DataLoaderTests/BusyPool'
"${watchdog[@]}" --report "$report/main" -- "$swift" test --skip-build "$@" --skip "$servers" --skip "$busy" ||
  status=$?
"${watchdog[@]}" --report "$report/servers" -- "$swift" test --skip-build "$@" --filter "$servers" || {
  code=$?
  [[ $status -ne 0 ]] || status=$code
}
"${watchdog[@]}" --report "$report/busy" -- "$swift" test --skip-build "$@" --filter "$busy" || {
  code=$?
  [[ $status -ne 0 ]] || status=$code
}
exit "$status"
