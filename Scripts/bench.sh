#!/usr/bin/env bash
# `make bench`: makes the peers' virtualenv on first use and keeps it in
# step with Scripts/bench/requirements.txt (Pillow, pyvips, numpy, aiohttp,
# thumbor 7.8 as magpie serve's peer, from PyPI: benchmark tooling only,
# never Magpie's runtime), then runs Scripts/bench/bench.py.
set -euo pipefail
cd "$(dirname "$0")/.."
[[ -x .venv/bin/python ]] || python3 -m venv .venv
stamp=.venv/.requirements
if ! cmp -s Scripts/bench/requirements.txt "$stamp"; then
  .venv/bin/pip install -q -r Scripts/bench/requirements.txt
  cp Scripts/bench/requirements.txt "$stamp"
fi
exec .venv/bin/python Scripts/bench/bench.py "$@"
