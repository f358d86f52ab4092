#!/usr/bin/env bash
# Builds the DocC site: one archive per product under .build/docs/<Module>/,
# from symbol graphs that swift-symbolgraph-extract reads off the debug
# build's modules. Any DocC warning (a missing symbol, a broken link, an
# unresolved topic) fails the run, and so does a top-level public symbol
# that no topic group of its module's landing page names.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
out=${MAGPIE_DOCS_OUT:-$root/.build/docs}
graphs=$root/.build/docs-symbol-graphs
triple=$(${SWIFT:-swift} -print-target-info | sed -n 's/.*"triple": "\(.*\)".*/\1/p' | head -1)

modules=(Magpie)
for module in MagpieAVIF MagpieHEIF MagpieJXL MagpieSVG MagpiePDF MagpieTIFF MagpieVideo MagpieRedis MagpieServer; do
  [ -d "Sources/$module/$module.docc" ] && modules+=("$module")
done

echo "docs: building the modules"
swift=${SWIFT:-swift}
# The flags `make test` builds with, so that nothing is built twice.
$swift build ${SWIFT_FLAGS:--Xswiftc -warnings-as-errors} $(printf -- '--target %s ' "${modules[@]}") >/dev/null

search_paths() { # bin path, C target folders... → $paths
  local bin=$1
  shift
  paths=(-I "$bin/Modules")
  # The C targets' module maps, as SwiftPM generated them for the build.
  for map in "$bin"/*.build/module.modulemap; do
    paths+=(-Xcc "-fmodule-map-file=$map")
  done
  for dir in "$@"; do
    [ -f "$dir/module.modulemap" ] && paths+=(-I "$dir")
    [ -d "$dir/include" ] && paths+=(-I "$dir/include")
  done
  return 0
}

extract() { # module, search paths...
  local module=$1
  shift
  rm -rf "$graphs/$module" && mkdir -p "$graphs/$module"
  swift-symbolgraph-extract -module-name "$module" -target "$triple" -minimum-access-level public \
    -skip-inherited-docs -output-dir "$graphs/$module" "$@" 2>&1 | grep -v '^$' || true
  ls "$graphs/$module"/*.symbols.json >/dev/null
}

convert() { # module, catalog
  local module=$1 catalog=$2
  rm -rf "${out:?}/$module" && mkdir -p "$out"
  local log
  if log=$(docc convert "$catalog" --additional-symbol-graph-dir "$graphs/$module" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.magpie.$module" \
    --output-path "$out/$module" --transform-for-static-hosting --hosting-base-path "$module" \
    --warnings-as-errors 2>&1) && ! grep -q "warning:" <<<"$log"; then
    echo "docs: $module → $out/$module"
  else
    echo "$log"
    echo "docs: $module has DocC warnings or errors"
    failed+=("$module")
  fi
}

document() { # module, catalog, search paths...
  local module=$1 catalog=$2
  shift 2
  extract "$module" "$@"
  python3 Scripts/docs/curation.py "$graphs/$module" "$catalog/$module.md" || failed+=("$module")
  convert "$module" "$catalog"
}

failed=()
search_paths "$($swift build --show-bin-path)" Sources/C*
for module in "${modules[@]}"; do
  document "$module" "Sources/$module/$module.docc" "${paths[@]}"
done

# The GTK binding, a package of its own, built as `make test-gtk` builds it
# (so that neither builds it twice), with GTK's headers for its C module.
echo "docs: building MagpieGTK"
(cd MagpieGTK && $swift build -c release --build-tests ${SWIFT_FLAGS:--Xswiftc -warnings-as-errors} >/dev/null)
search_paths "$(cd MagpieGTK && $swift build -c release --show-bin-path)" Sources/C* MagpieGTK/Sources/C*
for flag in $(pkg-config --cflags-only-I gtk4); do
  paths+=(-Xcc "$flag")
done
document MagpieGTK MagpieGTK/Sources/MagpieGTK/MagpieGTK.docc "${paths[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "docs: failed: ${failed[*]}"
  exit 1
fi
