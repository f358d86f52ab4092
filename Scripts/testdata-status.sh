#!/usr/bin/env bash
# Prints one line naming the conformance suites `swift test` will skip
# because their third-party images are absent, and how to get them; prints
# nothing when all are there. `make test` runs it before the tests.
#
# The folder is resolved as Tests/MagpieTests/Helpers/TestPaths.swift does:
# $MAGPIE_TESTDATA (relative to the repository root) or ../shared/testdata.
# The skipped tests are read from their `.enabled(if: TestPaths.X != nil`
# traits, so the line stays true as tests come and go.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data=${MAGPIE_TESTDATA:-}
if [[ -z $data ]]; then
  data=$(dirname "$root")/shared/testdata
elif [[ $data != /* ]]; then
  data=$root/$data
fi

# Whether folder $1 under the test data holds every file named in the rest.
holds() {
  local folder=$data/$1 name
  shift
  [[ $# -gt 0 ]] || return 1
  for name in "$@"; do [[ -f $folder/$name ]] || return 1; done
}

# The tests gated on TestPaths.$1: `Suite` for a whole suite, `Suite.test` for one test.
gated() {
  awk -v flag="TestPaths.$1 != nil" '
    FNR == 1 { suite = ""; pending = 0 }
    index($0, "enabled(if: " flag) { pending = 1 }
    match($0, /struct [A-Za-z0-9_]+/) {
      name = substr($0, RSTART + 7, RLENGTH - 7)
      if (suite == "") suite = name
      if (pending) { print name; pending = 0 }
    }
    pending && match($0, /func [A-Za-z0-9_]+/) { print suite "." substr($0, RSTART + 5, RLENGTH - 5); pending = 0 }
  ' $(find "$root/Tests" -name '*.swift' | sort) | paste -sd, - | sed 's/,/, /g'
}

# PngSuite counts as present when it has every file its reference describes.
mapfile -t suite_files < <(grep -o '"[^"]*\.png": \[' "$root/Tests/MagpieTests/Fixtures/png/pngsuite_reference.json" |
  sed 's/": \[$//; s/^"//')
skipped=()
folders=()
if ! holds pngsuite "${suite_files[@]}"; then
  skipped+=("PngSuite ($(gated pngSuite))")
  folders+=(pngsuite/)
fi
if ! holds kodak kodim02.png kodim07.png kodim17.png kodim23.png; then
  skipped+=("Kodak ($(gated kodak))")
  folders+=(kodak/)
fi
[[ ${#skipped[@]} -eq 0 ]] && exit 0
list=${skipped[0]}
[[ ${#skipped[@]} -gt 1 ]] && list+=" and ${skipped[1]}"
missing=${folders[0]}
[[ ${#folders[@]} -gt 1 ]] && missing+=", ${folders[1]}"
echo "conformance images not found at $data ($missing): skipped $list;" \
  "set MAGPIE_TESTDATA to a folder with pngsuite/ and kodak/ to run them" \
  "(PngSuite: http://www.schaik.com/pngsuite/, Kodak: http://r0k.us/graphics/kodak/)"
