#!/usr/bin/env bash
# Runs the whole suite under ThreadSanitizer; `make sanitize` calls it.
#
# Its own scratch folder (.build-tsan) keeps the instrumented build apart
# from the normal one. TSan writes each process's reports to a file of its
# own under $scratch/tsan-reports (log_path), so reports from the helper
# processes the tests start (magpie, magpie-cache-probe), whose stderr the
# tests read, are caught too and do not disturb those tests. Any report
# file fails the run; reports do not stop it (halt_on_error=0), so one run
# lists them all. .tsan-suppressions, when present, names reports inside
# the toolchain's own libraries, each with why it is not a race of ours.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
swift=${SWIFT:-swift}
scratch=${TSAN_SCRATCH:-.build-tsan}
reports=$root/$scratch/tsan-reports
rm -rf "$reports"
mkdir -p "$reports"
options="halt_on_error=0 log_path=$reports/report"
if [[ -f .tsan-suppressions ]]; then
  options="$options suppressions=$root/.tsan-suppressions"
fi
export TSAN_OPTIONS="$options ${TSAN_OPTIONS:-}"
# shellcheck disable=SC2086 # SWIFT_FLAGS is a list of flags.
"$swift" build --build-tests --sanitize=thread --scratch-path "$scratch" ${SWIFT_FLAGS:-}
status=0
"$swift" test --skip-build --sanitize=thread --scratch-path "$scratch" || status=$?
if compgen -G "$reports/report.*" > /dev/null; then
  cat "$reports"/report.* >&2
  count=$(cat "$reports"/report.* | grep -c "WARNING: ThreadSanitizer" || true)
  echo "sanitize: $count ThreadSanitizer report(s), in $reports" >&2
  exit 1
fi
if [[ $status -ne 0 ]]; then
  echo "sanitize: swift test failed (status $status)" >&2
  exit "$status"
fi
echo "sanitize: no ThreadSanitizer reports"
