#!/usr/bin/env bash
# Writes records to a named FIFO N times (default 25) with gzip reading it, as a user
# piping gamelab into a compressor would, and checks that no run hangs and that the reader
# gets every record each time. Prints the tally.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-25}
cargo build --release --locked -q -p gamelab
bin=$PWD/target/release/gamelab
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkfifo "$dir/fifo"
whole=0
for i in $(seq 1 "$runs"); do
  gzip -c < "$dir/fifo" > "$dir/out.gz" &
  reader=$!
  # A hang bound only: 20,000 games per side take well under a second.
  if ! timeout 60 "$bin" records ai2 ai2 -n 20000 --out "$dir/fifo" >/dev/null 2>&1; then
    echo "run $i: gamelab failed or hung" >&2
    kill "$reader" 2>/dev/null || true
    exit 1
  fi
  wait "$reader"
  lines=$(gzip -dc "$dir/out.gz" | wc -l)
  if [ "$lines" -ne 40000 ]; then
    echo "run $i: the reader got $lines of 40000 games" >&2
    exit 1
  fi
  whole=$((whole + 1))
done
echo "$runs runs into a FIFO read by gzip: $whole with all 40,000 games, none hung"
