#!/usr/bin/env bash
# Runs the whole suite under a sanitizer; `make sanitize` calls it once
# with `thread` (ThreadSanitizer) and once with `address`
# (AddressSanitizer, with LeakSanitizer's exit-time leak check off, below).
#
#   Scripts/sanitize.sh thread|address
#
# Each sanitizer builds the debug configuration the tests use, in a
# scratch folder of its own (.build-tsan, .build-asan). An optimised
# ThreadSanitizer build (-c release -Xswiftc -enable-testing) ran the suite
# five times faster (213 s against 1,173 s) but reported every image handed
# from a WorkLimiter's dispatch queue to the awaiting task through a checked
# continuation (16 reports, all that one hand-off; none in the debug
# build): until that is understood, the debug build is the one that
# decides.
#
# The sanitizer writes each process's reports to a file of its own under
# $scratch/reports (log_path), so reports from the helper processes the
# tests start (magpie, magpie-cache-probe), whose stderr the tests read,
# are caught too and do not disturb those tests. Any report file fails the
# run; reports do not stop it (halt_on_error=0 for TSan; ASan stops the
# process it found a fault in, which fails that test), so one run lists
# them all. .tsan-suppressions, when present, names reports inside the
# toolchain's own libraries, each with why it is not a race of ours.
#
# A one-line summary (sanitizer, tests, seconds, reports) goes to
# docs/robustness/sanitizer-MODE.json for Scripts/robustness_report.py.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mode=${1:?usage: Scripts/sanitize.sh thread|address}
swift=${SWIFT:-swift}
case "$mode" in
  thread)
    scratch=${TSAN_SCRATCH:-.build-tsan}
    reports=$root/$scratch/reports
    options="halt_on_error=0 log_path=$reports/report"
    if [[ -f .tsan-suppressions ]]; then
      options="$options suppressions=$root/.tsan-suppressions"
    fi
    export TSAN_OPTIONS="$options ${TSAN_OPTIONS:-}"
    marker="WARNING: ThreadSanitizer"
    ;;
  address)
    scratch=${ASAN_SCRATCH:-.build-asan}
    reports=$root/$scratch/reports
    # detect_leaks=0: the Swift runtime and Foundation keep caches and
    # singletons alive until exit on purpose, and LeakSanitizer's exit-time
    # scan reports them from every process the tests start. Memory growth
    # is what the peak-memory tests and the gallery's soak measure.
    export ASAN_OPTIONS="detect_leaks=0 log_path=$reports/report ${ASAN_OPTIONS:-}"
    marker="ERROR: AddressSanitizer"
    ;;
  *)
    echo "sanitize: unknown sanitizer '$mode' (thread or address)" >&2
    exit 2
    ;;
esac
summary=$root/docs/robustness/sanitizer-$mode.json
rm -rf "$reports"
mkdir -p "$reports" "$(dirname "$summary")"
# MAGPIE_SANITIZED: the library's wall-clock decode limit defaults to
# minutes, not seconds, in these slow builds (DecodeOptions+Limits.swift).
flags=(--sanitize="$mode" --scratch-path "$scratch" -Xswiftc -DMAGPIE_SANITIZED)
# shellcheck disable=SC2086 # SWIFT_FLAGS is a list of flags.
"$swift" build --build-tests "${flags[@]}" ${SWIFT_FLAGS:-}
started=$(date +%s)
commit=$(git rev-parse --short HEAD 2> /dev/null || echo unknown)
set +e
# As in make test: two processes (the HTTP server's suites apart), each
# stopped by the watchdog past SANITIZE_TEST_LIMIT seconds (the suite takes
# about a fifth of that here), which names the tests still running.
SWIFT="$swift" "$root/Scripts/test-suites.sh" "${SANITIZE_TEST_LIMIT:-2400}" "$root/$scratch/hang" "${flags[@]}" 2>&1 |
  tee "$root/$scratch/test.log"
status=${PIPESTATUS[0]}
set -e
seconds=$(($(date +%s) - started))
# Both processes' counts, summed.
tests=$(grep -oE 'Test run with [0-9]+ tests' "$root/$scratch/test.log" | grep -oE '[0-9]+' |
  awk '{ sum += $1 } END { print sum + 0 }')
count=0
if compgen -G "$reports/report.*" > /dev/null; then
  count=$(cat "$reports"/report.* | grep -c "$marker" || true)
fi
printf '{"sanitizer": "%s", "tests": %s, "seconds": %s, "reports": %s, "status": %s, "date": "%s", "commit": "%s"}\n' \
  "$mode" "${tests:-0}" "$seconds" "$count" "$status" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" \
  "$commit" > "$summary"
if compgen -G "$reports/report.*" > /dev/null; then
  cat "$reports"/report.* >&2
  echo "sanitize: $count $mode sanitizer report(s), in $reports" >&2
  exit 1
fi
if [[ $status -ne 0 ]]; then
  echo "sanitize: swift test failed under the $mode sanitizer (status $status)" >&2
  exit "$status"
fi
echo "sanitize: no $mode sanitizer reports ($tests tests in $seconds s)"
