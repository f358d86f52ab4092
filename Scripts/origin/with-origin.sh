#!/usr/bin/env bash
# with-origin.sh ROOT COMMAND [ARGS...]: serves ROOT from a local nginx
# (127.0.0.1, a free port; see nginx-origin.sh), runs COMMAND with
# ORIGIN_URL (http://127.0.0.1:PORT/) and CACHE_DIR (a fresh temporary
# folder) in its environment, then stops nginx and removes the folder.
# Exits with COMMAND's status. Used by `make demo` and `make gallery`.
set -euo pipefail
root=$1
shift
cache=$(mktemp -d)
coproc ORIGIN { exec bash "$(dirname "$0")/nginx-origin.sh" "$root"; }
origin_out=${ORIGIN[0]}
origin_in=${ORIGIN[1]}
stop() {
  exec {origin_in}>&-
  wait || true
  rm -rf "$cache"
}
trap stop EXIT
read -r port <&"$origin_out" || { echo "with-origin: the local origin did not start" >&2; exit 1; }
read -r _ <&"$origin_out"
ORIGIN_URL="http://127.0.0.1:$port/" CACHE_DIR="$cache" "$@"
