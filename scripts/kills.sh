#!/usr/bin/env bash
# Kills gamelab N times (default 200) while it writes its output, at times spread over
# its run, and checks after each kill that the file is either the old one, whole, or a
# complete new one, and that nothing else is in the folder but what a kill during the
# commit may leave: a hidden whole copy, `.out.jsonl.XXXXXX`. At the end, one more write
# must remove every such copy. Prints the tally.
set -euo pipefail
cd "$(dirname "$0")/.."
kills=${1:-200}
cargo build --release --locked -q -p gamelab
bin=$PWD/target/release/gamelab
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
old="the old file"
kept=0 replaced=0
declare -A copies=()
for i in $(seq 1 "$kills"); do
  printf '%s\n' "$old" > "$dir/out.jsonl"
  # Some kills land while games are played, some while the file is written and renamed.
  games=$(( (i % 7 + 1) * 100000 ))
  "$bin" records ai2 ai2 -n "$games" --out "$dir/out.jsonl" >/dev/null 2>&1 &
  pid=$!
  sleep "0.$(( RANDOM % 60 + 5 ))"
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [ "$(cat "$dir/out.jsonl")" = "$old" ]; then
    kept=$((kept + 1))
  elif [ "$(wc -l < "$dir/out.jsonl")" -eq $((2 * games)) ]; then
    replaced=$((replaced + 1))
  else
    echo "kill $i: out.jsonl is neither the old file nor a whole new one" >&2
    exit 1
  fi
  while IFS= read -r other; do
    name=$(basename "$other")
    if [[ ! "$name" =~ ^\.out\.jsonl\.[A-Za-z0-9]{6}$ ]] ||
      (( $(wc -l < "$other") % 200000 != 0 )); then
      echo "kill $i left $name, which is not a whole hidden copy (a whole run's lines):" >&2
      ls -la "$dir" >&2
      exit 1
    fi
    copies[$name]=1
  done < <(find "$dir" -mindepth 1 ! -name out.jsonl)
done
"$bin" records ai2 ai2 -n 10 --out "$dir/out.jsonl" >/dev/null 2>&1
left=$(find "$dir" -mindepth 1 ! -name out.jsonl | wc -l)
if [ "$left" -ne 0 ]; then
  echo "the next write left $left other files:" >&2
  ls -la "$dir" >&2
  exit 1
fi
echo "$kills kills: $kept left the old file whole, $replaced after a whole new one was in place;" \
  "${#copies[@]} left a hidden whole copy beside it, every one removed by the next write"
