#!/bin/sh
# Time to depth 12 in the Morris moving phase (docs/benchmarks.md): each
# position of bench/morris_depth12.txt searched by `go depth D` in a fresh
# engine, the builds alternating position by position, ROUNDS times.  Prints
# one line a search (build, position, nodes, the engine's time in ms), then
# per build the total and median time and the total nodes of each round.
#
#   bench/morris_depth.sh [-d DEPTH] [-r ROUNDS] ENGINE [ENGINE ...]
#
# Run it niced on a shared machine (`nice -n 5 bench/morris_depth.sh ...`).
set -eu
depth=12 rounds=1
while getopts d:r: o; do
    case $o in
    d) depth=$OPTARG ;;
    r) rounds=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-d DEPTH] [-r ROUNDS] ENGINE [ENGINE ...]" >&2; exit 2; }
data=$(dirname "$0")/morris_depth12.txt
out=$(mktemp)
trap 'rm -f "$out"' EXIT
r=1
while [ "$r" -le "$rounds" ]; do
    i=0
    grep -v '^#' "$data" | while IFS= read -r fen; do
        i=$((i + 1))
        for e in "$@"; do
            line=$("$e" --UCI_Variant=morris "position fen $fen go depth $depth" |
                grep '^info depth' | tail -n 1)
            nodes=$(echo "$line" | sed -n 's/.* nodes \([0-9]*\).*/\1/p')
            ms=$(echo "$line" | sed -n 's/.* time \([0-9]*\).*/\1/p')
            d=$(echo "$line" | sed -n 's/^info depth \([0-9]*\).*/\1/p')
            echo "$r $e $i $d $nodes $ms" | tee -a "$out"
        done
    done
    r=$((r + 1))
done
for e in "$@"; do
    awk -v e="$e" '$2 == e { t[$1] += $6; n[$1] += $5 }
        END { for (r in t) printf "%s round %s: %d ms, %d nodes\n", e, r, t[r], n[r] }' "$out"
    awk -v e="$e" '$2 == e { print $6 }' "$out" | sort -n |
        awk -v e="$e" '{ v[NR] = $1 } END { printf "%s median %d ms\n", e, (v[int((NR + 1) / 2)] + v[int(NR / 2) + 1]) / 2 }'
done
