#!/usr/bin/env bash
# `make demo`: serves samples/ from a local nginx (127.0.0.1, a free port),
# loads the gallery three times through one cache folder — network, disk,
# memory — writes demo-out/contact-sheet.png, and stops nginx.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck disable=SC2016 # expanded by the inner shell, once the origin runs
Scripts/origin/with-origin.sh samples bash -c '.build/release/magpie demo samples --base-url "$ORIGIN_URL" \
  --cache-dir "$CACHE_DIR" --out demo-out/contact-sheet.png'
