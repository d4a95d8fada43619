#!/bin/bash
# Two `gamelab` builds solving the same FFO positions in turn (A, B, A, B, ...), so that a
# machine's drift over a lease falls on both alike, then each build's runs and mean time.
# Made for a lent machine's few minutes: a run starts only while the time left is at
# least what the previous run took.
#
#   scripts/alternate.sh A B FFO_FILE IDS THREADS ROUNDS [SECONDS]
#
# A, B: `gamelab` binaries (or NAME=VALUE...:BINARY, to set the environment of one);
# FFO_FILE, IDS, THREADS: as for `gamelab ffo FILE --ids IDS --threads THREADS`; ROUNDS:
# runs of each build at most; SECONDS: the time all of it may take (default 600).
set -u
if [ $# -lt 6 ] || ! [[ $5 =~ ^[0-9]+$ && $6 =~ ^[0-9]+$ ]]; then
    sed -n '2,11p' "$0" >&2
    exit 2
fi
builds=("$1" "$2")
ffo=$3 ids=$4 threads=$5 rounds=$6
end=$(($(date +%s) + ${7:-600}))
last=0
declare -a times=("" "")
for ((round = 1; round <= rounds; round++)); do
    for b in 0 1; do
        if [ $((end - $(date +%s))) -lt "$last" ]; then
            echo "== stopped: $((end - $(date +%s))) s left, the last run took $last s"
            break 2
        fi
        build=${builds[$b]}
        env=()
        if [[ $build == *:* ]]; then
            IFS=' ' read -r -a env <<< "${build%%:*}"
            build=${build#*:}
        fi
        started=$(date +%s)
        out=$(env "${env[@]}" "$build" ffo "$ffo" --ids "$ids" --threads "$threads")
        status=$?
        last=$(($(date +%s) - started + 1))
        total=$(tail -1 <<< "$out")
        echo "== ${builds[$b]}, round $round: $total"
        if [ $status -ne 0 ]; then
            echo "$out"
            exit $status
        fi
        times[$b]+="$(sed -n 's/.* in \([0-9.]*\) s .*/\1/p' <<< "$total") "
    done
done
for b in 0 1; do
    read -r -a t <<< "${times[$b]}"
    mean=$(printf '%s\n' "${t[@]}" | awk '$1 != "" { s += $1; n++ } END { if (n) printf "%.2f", s / n }')
    echo "${builds[$b]}: ${t[*]} s; mean ${mean:--} s of ${#t[@]} run(s)"
done
