#!/usr/bin/env bash
# Runs a private Xvfb on a free display number (Xvfb picks it: -displayfd)
# and prints that number, then keeps it running until stdin closes, so the
# server goes when the test process that started it ends, however it ends.
set -euo pipefail
exec 3>&1
Xvfb -displayfd 3 -screen 0 1280x1024x24 -nolisten tcp -noreset </dev/null >/dev/null 2>&1 &
server=$!
exec 3>&-
# SIGKILL: a parent that blocks SIGTERM (the Swift test runner does) passes
# the blocked mask on to Xvfb, which then ignores a plain kill.
trap 'kill -KILL "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT
cat >/dev/null
