#!/usr/bin/env bash
# `make bench`: builds the peers' virtualenv on first use (Pillow, pyvips,
# numpy from PyPI: benchmark tooling only, never Magpie's runtime), then
# runs Scripts/bench/bench.py.
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -x .venv/bin/python ]] || ! .venv/bin/python -c "import PIL, pyvips, numpy" 2>/dev/null; then
  python3 -m venv .venv
  .venv/bin/pip install -q -r Scripts/bench/requirements.txt
fi
exec .venv/bin/python Scripts/bench/bench.py "$@"
