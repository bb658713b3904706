#!/bin/sh
# Time to depth (docs/benchmarks.md): each position of a list searched by
# `go depth D` in a fresh engine, the engines alternating position by
# position (and their order swapped every round), ROUNDS times.  Each engine
# gets `isready` before `position` and `go`, as a GUI sends it: the engine
# allocates and clears its hash table there, so the timed search does not pay
# for the first touch of every page (about half the time of a 50 ms search).
#
#   bench/depth_time.sh [-r ROUNDS] [-d DEPTH | -m MS] LIST ENGINE [ENGINE ...]
#
# LIST has one position a line, fields separated by '|' (blank lines and
# lines starting with '#' are skipped):
#   label | variant | game options (Name=Value, blank separated, or -) |
#   startpos or FEN | depth
# -d DEPTH overrides every line's depth.  -m MS searches `go movetime MS`
# instead of a depth: every engine gets the same time, so the nodes/s
# ratios compare the engines at a search of that length whatever depth each
# reaches (the time ratios are then about 1 and say nothing).
#
# Prints one line a search (round, engine, label, depth reached, nodes, the
# engine's own time in ms from its last `info depth` line); then for each
# engine its total time and nodes per round; then, when there are two or
# more engines, for each position and each engine after the first the
# median over the rounds of (first engine's time / this engine's time) and
# of (this engine's nodes/s / the first engine's nodes/s), and the same
# two ratios of the round totals (all positions).
#
# Run it niced on a shared machine and quote the load with the figures:
#   nice -n 5 bench/depth_time.sh -r 5 bench/morelli_depth.txt OLD NEW
set -eu
rounds=1 depth= movetime=
while getopts d:m:r: o; do
    case $o in
    d) depth=$OPTARG ;;
    m) movetime=$OPTARG ;;
    r) rounds=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 2 ] || {
    echo "usage: $0 [-r ROUNDS] [-d DEPTH | -m MS] LIST ENGINE [ENGINE ...]" >&2
    exit 2
}
list=$1
shift
[ -r "$list" ] || { echo "$0: cannot read $list" >&2; exit 2; }
for e in "$@"; do
    [ -x "$e" ] || { echo "$0: $e is not an executable" >&2; exit 2; }
done
trim() { echo "$1" | sed 's/^ *//; s/ *$//'; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
r=1
while [ "$r" -le "$rounds" ]; do
    # odd rounds run the engines in the order given, even rounds reversed
    order=$*
    if [ $((r % 2)) -eq 0 ]; then
        order=
        for e in "$@"; do order="$e $order"; done
    fi
    grep -v '^ *#' "$list" | grep -v '^ *$' | while IFS='|' read -r label variant opts pos d; do
        label=$(trim "$label" | tr ' ' '_')
        variant=$(trim "$variant")
        opts=$(trim "$opts")
        pos=$(trim "$pos")
        d=${depth:-$(trim "$d")}
        go="go depth $d"
        [ -z "$movetime" ] || go="go movetime $movetime"
        args="--UCI_Variant=$variant"
        if [ "$opts" != "-" ]; then
            for o in $opts; do args="$args --$o"; done
        fi
        case $pos in
        startpos) poscmd="position startpos" ;;
        *) poscmd="position fen $pos" ;;
        esac
        for e in $order; do
            # shellcheck disable=SC2086 # the options are separate words
            line=$("$e" $args isready "$poscmd $go" | grep '^info depth' | tail -n 1)
            got=$(echo "$line" | sed -n 's/^info depth \([0-9]*\).*/\1/p')
            nodes=$(echo "$line" | sed -n 's/.* nodes \([0-9]*\).*/\1/p')
            ms=$(echo "$line" | sed -n 's/.* time \([0-9]*\).*/\1/p')
            echo "$r $e $label ${got:-?} ${nodes:-0} ${ms:-0}" | tee -a "$out"
        done
    done
    r=$((r + 1))
done
for e in "$@"; do
    awk -v e="$e" '$2 == e { t[$1] += $6; n[$1] += $5 }
        END { for (r in t) printf "%s round %s: %d ms, %d nodes\n", e, r, t[r], n[r] }' "$out" | sort
done
[ $# -ge 2 ] || exit 0
base=$1
shift
for e in "$@"; do
    awk -v b="$base" -v e="$e" '
        function med(a, k,   i, j, x) {
            for (i = 2; i <= k; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
            return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2
        }
        { key = $1 " " $3 }
        $2 == b { bt[key] = $6 < 1 ? 1 : $6; bn[key] = $5 }
        $2 == e { et[key] = $6 < 1 ? 1 : $6; en[key] = $5; if (!($3 in seen)) { seen[$3] = 1; order[++np] = $3 } }
        END {
            for (p = 1; p <= np; p++) {
                k = 0
                for (key in et) {
                    split(key, f, " ")
                    if (f[2] != order[p] || !(key in bt)) continue
                    k++; tr[k] = bt[key] / et[key]; nr[k] = (en[key] / et[key]) / (bn[key] / bt[key])
                }
                if (k) printf "%s vs %s: %s time ratio %.2f nodes/s ratio %.2f (median of %d)\n", e, b, order[p], med(tr, k), med(nr, k), k
            }
            k = 0
            for (key in et) {
                if (!(key in bt)) continue
                split(key, f, " "); r = f[1]
                if (!(r in rt)) rlist[++nr0] = r
                rt[r] += bt[key]; rt2[r] += et[key]; rn[r] += bn[key]; rn2[r] += en[key]
            }
            for (i = 1; i <= nr0; i++) {
                r = rlist[i]; k++
                tr[k] = rt[r] / rt2[r]; nr[k] = (rn2[r] / rt2[r]) / (rn[r] / rt[r])
            }
            if (k) printf "%s vs %s: all positions time ratio %.2f nodes/s ratio %.2f (median of %d rounds)\n", e, b, med(tr, k), med(nr, k), k
        }' "$out"
done
