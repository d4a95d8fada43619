#!/usr/bin/env bash
# First a healthy two-process run lasting several times its --cluster-timeout of 3 s, made
# of short chunks, which must end well (the heartbeat goes on between chunks). Then
# freezes (kill -STOP) one process of a two-process `match --cluster --cluster-timeout 20`
# while it plays, N times (default 4, each process in turn), and checks that the other
# exits with status 3 and "has been silent", writing no records. Prints how long each
# detection took.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-4}
cargo build --release --locked -q -p gamelab
bin=$PWD/target/release/gamelab
dir=$(mktemp -d)
pids=()
trap 'kill -KILL "${pids[@]}" 2>/dev/null || true; rm -rf "$dir"' EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
printf '127.0.0.1:%s\n127.0.0.1:%s\n' "$(free_port)" "$(free_port)" > "$dir/hosts"
started=$(date +%s.%N)
for p in 0 1; do
  "$bin" match --game othello engine:level=6 greedy -n 3000 --threads 1 --cluster \
    --cluster-timeout 3 -- -n 2 -p "$p" -h "$dir/hosts" >"$dir/out$p" 2>"$dir/err$p" &
  pids+=($!)
done
for p in 0 1; do
  wait "${pids[$p]}" || { echo "the healthy run's process $p failed:" >&2; cat "$dir/err$p" >&2; exit 1; }
done
healthy=$(python3 -c "import time; print(f'{time.time() - $started:.1f}')")
echo "a healthy run of $healthy s with --cluster-timeout 3 ended well"
times=()
for i in $(seq 1 "$runs"); do
  frozen=$(( (i - 1) % 2 )) survivor=$(( i % 2 ))
  printf '127.0.0.1:%s\n127.0.0.1:%s\n' "$(free_port)" "$(free_port)" > "$dir/hosts"
  rm -f "$dir/games.jsonl"
  pids=()
  for p in 0 1; do
    (cd "$dir" && exec "$bin" match --game othello engine:level=2 greedy -n 1000000 --threads 1 \
      --records games.jsonl --cluster --cluster-timeout 20 -- -n 2 -p "$p" -h hosts \
      >"$dir/out$p" 2>"$dir/err$p") &
    pids+=($!)
  done
  # Playing once process 0's progress or output has begun; a few seconds in either way.
  sleep 3
  kill -STOP "${pids[$frozen]}"
  frozen_at=$(date +%s.%N)
  status=0
  wait "${pids[$survivor]}" || status=$?
  took=$(python3 -c "import time; print(f'{time.time() - $frozen_at:.1f}')")
  kill -KILL "${pids[$frozen]}" 2>/dev/null || true
  wait "${pids[$frozen]}" 2>/dev/null || true
  if [ "$status" -ne 3 ] || ! grep -q "has been silent for more than 20 s" "$dir/err$survivor" ||
    [ -e "$dir/games.jsonl" ]; then
    echo "run $i: process $survivor ended with $status:" >&2
    cat "$dir/err$survivor" >&2
    exit 1
  fi
  times+=("$took")
done
echo "$runs freezes (each process in turn): the other exited with status 3 after ${times[*]} s (timeout 20 s), no records written"
