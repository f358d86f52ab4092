#!/usr/bin/env bash
# Runs the whole suite under ThreadSanitizer; `make sanitize` calls it.
#
# Its own scratch folder (.build-tsan) keeps the instrumented build apart
# from the normal one. Any report fails the run, two ways: TSan makes a
# process that reported exit non-zero (exitcode=66, its default), and the
# log is searched for reports, because a helper process the tests start
# (magpie, magpie-cache-probe) may report on a stderr that only the log
# shows. Reports do not stop the run (halt_on_error=0), so one run lists
# them all. .tsan-suppressions, when present, names reports inside the
# toolchain's own libraries, each with why it is not a race of ours.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
swift=${SWIFT:-swift}
scratch=${TSAN_SCRATCH:-.build-tsan}
mkdir -p "$scratch"
log=$scratch/sanitize.log
options="halt_on_error=0 exitcode=66"
if [[ -f .tsan-suppressions ]]; then
  options="$options suppressions=$root/.tsan-suppressions"
fi
export TSAN_OPTIONS="$options ${TSAN_OPTIONS:-}"
# shellcheck disable=SC2086 # SWIFT_FLAGS is a list of flags.
"$swift" build --build-tests --sanitize=thread --scratch-path "$scratch" ${SWIFT_FLAGS:-}
status=0
"$swift" test --skip-build --sanitize=thread --scratch-path "$scratch" 2>&1 | tee "$log" || status=$?
reports=$(grep -c "WARNING: ThreadSanitizer" "$log" || true)
if [[ $reports -gt 0 ]]; then
  echo "sanitize: $reports ThreadSanitizer report(s); see $log" >&2
  exit 1
fi
if [[ $status -ne 0 ]]; then
  echo "sanitize: swift test failed (status $status); see $log" >&2
  exit "$status"
fi
echo "sanitize: no ThreadSanitizer reports"
