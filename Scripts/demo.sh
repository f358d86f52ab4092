#!/usr/bin/env bash
# `make demo`: serves samples/ from a local nginx (127.0.0.1, a free port),
# loads the gallery three times through one cache folder — network, disk,
# memory — writes demo-out/contact-sheet.png, and stops nginx.
set -euo pipefail
cd "$(dirname "$0")/.."
cache=$(mktemp -d)
coproc ORIGIN { exec bash Scripts/origin/nginx-origin.sh samples; }
origin_out=${ORIGIN[0]}
origin_in=${ORIGIN[1]}
stop() {
  exec {origin_in}>&-
  wait || true
  rm -rf "$cache"
}
trap stop EXIT
read -r port <&"$origin_out" || { echo "demo: the local origin did not start" >&2; exit 1; }
read -r _ <&"$origin_out"
.build/release/magpie demo samples --base-url "http://127.0.0.1:$port/" --cache-dir "$cache" \
  --out demo-out/contact-sheet.png
