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
bin=$($swift build --show-bin-path)
includes=(-I "$bin/Modules")
# The C targets' module maps, as SwiftPM generated them for the build.
for map in "$bin"/*.build/module.modulemap; do
  includes+=(-Xcc "-fmodule-map-file=$map")
done
for dir in Sources/C*; do
  [ -f "$dir/module.modulemap" ] && includes+=(-I "$dir")
  [ -d "$dir/include" ] && includes+=(-I "$dir/include")
done

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

failed=()
for module in "${modules[@]}"; do
  extract "$module" "${includes[@]}"
  python3 Scripts/docs/curation.py "$graphs/$module" "Sources/$module/$module.docc/$module.md" || failed+=("$module")
  convert "$module" "Sources/$module/$module.docc"
done

# The GTK binding, a package of its own, built as `make test-gtk` builds it
# (so that neither builds it twice), with GTK's headers for its C module.
echo "docs: building MagpieGTK"
(cd MagpieGTK && $swift build -c release --build-tests ${SWIFT_FLAGS:--Xswiftc -warnings-as-errors} >/dev/null)
gtk_bin=$(cd MagpieGTK && $swift build -c release --show-bin-path)
gtk_includes=(-I "$gtk_bin/Modules")
for map in "$gtk_bin"/*.build/module.modulemap; do
  gtk_includes+=(-Xcc "-fmodule-map-file=$map")
done
for dir in Sources/C* MagpieGTK/Sources/C*; do
  [ -f "$dir/module.modulemap" ] && gtk_includes+=(-I "$dir")
  [ -d "$dir/include" ] && gtk_includes+=(-I "$dir/include")
done
for flag in $(pkg-config --cflags-only-I gtk4); do
  gtk_includes+=(-Xcc "$flag")
done
extract MagpieGTK "${gtk_includes[@]}"
catalog=MagpieGTK/Sources/MagpieGTK/MagpieGTK.docc
python3 Scripts/docs/curation.py "$graphs/MagpieGTK" "$catalog/MagpieGTK.md" || failed+=(MagpieGTK)
convert MagpieGTK "$catalog"
if [ ${#failed[@]} -gt 0 ]; then
  echo "docs: failed: ${failed[*]}"
  exit 1
fi
