#!/usr/bin/env bash
# `make gallery`: serves samples/ from a local nginx (127.0.0.1, a free
# port), runs the GTK gallery against it with a fresh cache folder, and
# stops nginx when the window closes. Extra arguments go to the gallery.
set -euo pipefail
cd "$(dirname "$0")/../.."
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
read -r port <&"$origin_out" || { echo "gallery: the local origin did not start" >&2; exit 1; }
read -r _ <&"$origin_out"
MagpieGTK/.build/release/MagpieGallery --base-url "http://127.0.0.1:$port/" --cache-dir "$cache" "$@"
