#!/bin/bash
# Issue 17's scaling table in one prepared run, for a bigger machine lent for a few
# minutes: FFO #40-#49 and a fixed-depth midgame search on 1, 2, 4, ... threads, FFO
# #50-#59 on every core, then as many one-thread solves of #50-#59 side by side (one a
# core) as the time left allows, each stopped at the deadline and reported unsolved.
#
#   scripts/scaling.sh GAMELAB MIDGAME_DEPTH FFO_FILE SECONDS [LOG]
#
# GAMELAB: a release `gamelab`; MIDGAME_DEPTH: the release `midgame_depth` example
# (`cargo build --release -p gamelab-othello --example midgame_depth`); FFO_FILE:
# ffo40-59.txt; SECONDS: the time the whole run may take; LOG: where the output is
# copied (default: none). STAGES (environment) picks stages, in this order, from
# "ffo40 midgame ffo50 single" (the default: all four), e.g. `STAGES=midgame` to time
# another build's midgame search in the same lease.
set -u
if [ $# -lt 4 ] || ! [[ $4 =~ ^[0-9]+$ ]]; then
    sed -n '2,14p' "$0" >&2
    exit 2
fi
gamelab=$1 midgame=$2 ffo=$3 seconds=$4 log=${5:-/dev/null}
stages=" ${STAGES:-ffo40 midgame ffo50 single} "
stage() { [[ $stages == *" $1 "* ]]; }
start=$(date +%s)
deadline=$((start + seconds))
left() { echo $((deadline - $(date +%s))); }
cores=$(nproc)
threads=1
counts=()
while [ "$threads" -lt "$cores" ]; do
    counts+=("$threads")
    threads=$((threads * 2))
done
counts+=("$cores")
{
    date -u
    lscpu | grep -E 'Model name|^CPU\(s\)|Thread|Core|Socket|NUMA node\(s\)|L3'
    "$gamelab" ffo "$ffo" --ids 40 --threads "$cores" || exit 1
    for t in "${counts[@]}"; do
        stage ffo40 || break
        echo "== FFO #40-#49, $t thread(s)"
        "$gamelab" ffo "$ffo" --ids 40-49 --threads "$t"
    done
    for t in "${counts[@]}"; do
        stage midgame || break
        echo "== midgame, depth 13, 20 positions, Multi-ProbCut 1.5, $t thread(s)"
        "$midgame" 13 20 1.5 "$t" | tail -1
    done
    if stage ffo50; then
        echo "== FFO #50-#59, $cores threads ($(left) s left)"
        if [ "$(left)" -lt 10 ]; then
            exit 0
        fi
        # The limit is each position's: the ten together may run past the deadline.
        "$gamelab" ffo "$ffo" --ids 50-59 --threads "$cores" --time-limit "$(left)"
    fi
    stage single || exit 0
    limit=$(($(left) - 5))
    echo "== FFO #50-#59 one thread each, side by side, at most $limit s each"
    if [ "$limit" -lt 10 ]; then
        exit 0
    fi
    # One CPU of each core, so that no two solves share a core's hyper-threads.
    mapfile -t cpus < <(lscpu -p=CPU,CORE | grep -v '^#' | sort -t, -k2,2n -u | cut -d, -f1)
    dir=$(mktemp -d)
    pids=()
    i=0
    # Longest first, so that the ones that fit are the ones that finish.
    for id in 55 54 53 57 50 56 52 58 51 59; do
        [ "$i" -ge "${#cpus[@]}" ] && break
        taskset -c "${cpus[$i]}" "$gamelab" ffo "$ffo" --ids "$id" --threads 1 \
            --time-limit "$limit" >"$dir/$id.txt" 2>&1 &
        pids+=($!)
        i=$((i + 1))
    done
    # Only these: a bare `wait` would also wait for this block's `tee`.
    wait "${pids[@]}"
    for f in "$dir"/*.txt; do
        sed -n 3p "$f"
    done
    rm -r "$dir"
    echo "== done in $(($(date +%s) - start)) s"
} 2>&1 | tee "$log"
