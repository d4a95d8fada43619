#!/usr/bin/env bash
# Runs every fuzz target under libFuzzer for SECONDS each (default 10);
# `scripts/fuzz.sh 3600 records` runs one target for an hour. Not part of the test
# command, which replays the targets' seeds, corpora and fixed mutations of them through
# the same checks (crates/fuzz-checks) without a fuzzer. Needs cargo-fuzz (installed here
# when missing); builds with `-s none`, so stable Rust serves. Crashes are left in
# fuzz/artifacts/<target>/ and fail the run.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-10}
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then
  targets=(ai_specs positions records datasets models solved_tables ffo wthor ggf http_bodies engine_protocols)
fi
if ! command -v cargo-fuzz >/dev/null; then
  echo "installing cargo-fuzz…"
  cargo install cargo-fuzz --locked --quiet
fi
cd fuzz
# A smoke run is over in seconds: it builds at opt-level 1 (a cold build on 2 cores
# 238 s against 324 s; as many runs a second within a factor of two either way).
if ((seconds <= 60)); then
  export CARGO_PROFILE_RELEASE_OPT_LEVEL=1
fi
cargo fuzz build -s none
for t in "${targets[@]}"; do
  mkdir -p "corpus/$t"
  rm -rf "artifacts/$t"
  echo "fuzzing $t for ${seconds}s"
  # -rss_limit_mb: a parser that allocates without bound fails here too.
  cargo fuzz run -s none "$t" "corpus/$t" "seeds/$t" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 2>&1 |
    grep -E "^(stat::number_of_executed_units|stat::peak_rss_mb|==|ERROR|SUMMARY|thread '|Done)" || true
  if [ -n "$(ls -A "artifacts/$t" 2>/dev/null)" ]; then
    echo "fuzz target $t found a crash: fuzz/artifacts/$t/" >&2
    exit 1
  fi
done
