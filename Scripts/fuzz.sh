#!/usr/bin/env bash
# Runs every fuzz harness (MagpieFuzzHarnesses, listed by `magpie-fuzz
# list`) under libFuzzer for FUZZ_SECONDS each, one after another; `make
# fuzz` calls it. See docs/fuzzing.md.
#
# The driver is built with AddressSanitizer and coverage in its own scratch
# folder (.build-fuzz, MAGPIE_FUZZ=1 adds it to the package), linked with
# libFuzzer's no-main runtime from the toolchain's clang. Each harness's
# corpus lives in .build-fuzz/corpus/NAME: seeded from the test fixtures
# and its regression inputs on every run, grown by libFuzzer and kept
# between runs. Every run appends one line to docs/fuzz/runs.tsv. A crash,
# timeout or out-of-memory input is copied to
# Tests/MagpieTests/Fixtures/fuzz/NAME/ (where FuzzRegressionTests replays
# it) and fails the script after the remaining harnesses ran.
#
# FUZZ_SECONDS (default 30) per harness; FUZZ_HARNESSES a space-separated
# subset to run instead of all; FUZZ_SKIP harnesses to leave out (CI leaves
# out one with an open finding in a system library, docs/fuzz/findings.tsv).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
swift=${SWIFT:-swift}
seconds=${FUZZ_SECONDS:-30}
scratch=.build-fuzz
log=docs/fuzz/runs.tsv
fixtures=Tests/MagpieTests/Fixtures

toolchain=$(dirname "$(dirname "$(readlink -f "$(command -v "$swift")")")")
arch=$(uname -m)
runtime=$(compgen -G "$toolchain/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-$arch.a" | sort -V | tail -1 || true)
if [[ -z "$runtime" ]]; then
  echo "fuzz.sh: no libclang_rt.fuzzer_no_main-$arch.a under $toolchain/lib/clang" >&2
  exit 1
fi

coverage=edge,trace-cmp,inline-8bit-counters,pc-table
# shellcheck disable=SC2086 # SWIFT_FLAGS is a list of flags.
MAGPIE_FUZZ=1 "$swift" build -c release --scratch-path "$scratch" --product magpie-fuzz ${SWIFT_FLAGS:-} \
  -Xswiftc -sanitize=address -Xswiftc -sanitize-coverage=$coverage \
  -Xcc -fsanitize=fuzzer-no-link,address \
  -Xlinker "$runtime" -Xlinker -lstdc++
driver=$scratch/release/magpie-fuzz

# The Swift backtracer takes seconds per crash; libFuzzer and ASan report.
export SWIFT_BACKTRACE=enable=no
# LeakSanitizer's exit-time check off too (see -detect_leaks below).
export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
mkdir -p "$(dirname "$log")"
if [[ ! -s "$log" ]]; then
  printf 'date\tharness\tseconds\texecs\texecs_per_s\tcorpus_files\tcorpus_bytes\tcrashes\tcommit\n' > "$log"
fi

found=0
while IFS=$'\t' read -r name max_len; do
  if [[ -n "${FUZZ_HARNESSES:-}" && " $FUZZ_HARNESSES " != *" $name "* ]]; then continue; fi
  if [[ " ${FUZZ_SKIP:-} " == *" $name "* ]]; then
    echo "fuzz: $name skipped (FUZZ_SKIP)"
    continue
  fi
  corpus=$scratch/corpus/$name
  artifacts=$scratch/artifacts/$name
  mkdir -p "$corpus" "$artifacts"
  rm -f "$artifacts"/*
  "$driver" seed "$name" "$fixtures" "$corpus"
  if compgen -G "$fixtures/fuzz/$name/*" > /dev/null; then cp "$fixtures/fuzz/$name"/* "$corpus"/; fi
  output=$scratch/$name.log
  started=$(date +%s)
  echo "fuzz: $name for ${seconds}s (max_len $max_len)"
  status=0
  # No LeakSanitizer: Swift packs enum tags into the spare bits of the
  # pointers it stores (Data's storage inside a dictionary key), so LSan
  # cannot see what ColorTransformCache's 16 profiles hold and reports them
  # as leaks. A real leak still ends the run at -rss_limit_mb.
  "$driver" "$name" -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
    -detect_leaks=0 -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" > "$output" 2>&1 || status=$?
  elapsed=$(($(date +%s) - started))
  execs=$(grep -oE 'stat::number_of_executed_units: [0-9]+' "$output" | grep -oE '[0-9]+$' | tail -1 || true)
  if [[ -z "$execs" ]]; then execs=$(grep -oE '^#[0-9]+' "$output" | tail -1 | tr -d '#' || true); fi
  execs=${execs:-0}
  crashes=0
  for artifact in "$artifacts"/*; do
    [[ -f "$artifact" ]] || continue
    crashes=$((crashes + 1))
    mkdir -p "$fixtures/fuzz/$name"
    cp "$artifact" "$fixtures/fuzz/$name/"
    echo "fuzz: $name found $(basename "$artifact"), kept in $fixtures/fuzz/$name/" >&2
  done
  if [[ $status -ne 0 && $crashes -eq 0 ]]; then
    echo "fuzz: $name exited $status without an artifact; see $output" >&2
    crashes=1
  fi
  files=$(find "$corpus" -type f | wc -l)
  bytes=$(du -sb "$corpus" | cut -f1)
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%Y-%m-%dT%H:%M:%SZ)" "$name" "$elapsed" "$execs" \
    "$((execs / (elapsed > 0 ? elapsed : 1)))" "$files" "$bytes" "$crashes" "$commit" >> "$log"
  echo "fuzz: $name ran ${elapsed}s, $execs execs, corpus $files files, $crashes crashes"
  if [[ $crashes -gt 0 ]]; then
    tail -40 "$output" >&2
    found=1
  fi
done < <("$driver" list)
exit $found
