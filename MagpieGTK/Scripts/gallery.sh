#!/usr/bin/env bash
# `make gallery`: serves samples/ from a local nginx (127.0.0.1, a free
# port), runs the GTK gallery against it with a fresh cache folder, and
# stops nginx when the window closes. Extra arguments go to the gallery.
set -euo pipefail
cd "$(dirname "$0")/../.."
# shellcheck disable=SC2016 # expanded by the inner shell, once the origin runs
Scripts/origin/with-origin.sh samples bash -c 'MagpieGTK/.build/release/MagpieGallery --base-url "$ORIGIN_URL" \
  --cache-dir "$CACHE_DIR" "$@"' gallery "$@"
