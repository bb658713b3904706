#!/bin/sh
# The exact search of the placement (docs/solved.md, "Measurements"):
# `morelli tables solve` on each opening of a file, with the table files
# of a directory (the standard set up to 9 a side).  From the top of the
# repository, built (`make`):
#
#   bench/place_solve.sh DIR [OPENINGS] [HASH_MB]
#
# OPENINGS defaults to bench/place_openings.txt, HASH_MB to 1024.  One
# line an opening: pieces left in hand, the value, the best move, the
# nodes and seconds, the moves.  $MORELLI overrides the engine (default
# build/morelli).
set -eu
[ $# -ge 1 ] && [ $# -le 3 ] || {
    echo "usage: $0 DIR [OPENINGS] [HASH_MB]" >&2
    exit 2
}
morelli=${MORELLI:-build/morelli}
dir=$1
openings=${2:-bench/place_openings.txt}
hash=${3:-1024}
[ -d "$dir" ] || {
    echo "$0: no directory $dir" >&2
    exit 2
}
printf 'in hand\tvalue\tbest\tnodes\tseconds\topening\n'
grep -v '^#' "$openings" | while read -r line; do
    [ -n "$line" ] || continue
    # shellcheck disable=SC2086 # the moves are words
    out=$("$morelli" tables solve --quiet --dir "$dir" --hash "$hash" startpos moves $line) || true
    fen=$(printf '%s\n' "$out" | sed -n 's/^Position: //p')
    hand=$(printf '%s\n' "$fen" | awk '{print $3 + $4}')
    value=$(printf '%s\n' "$out" | sed -n 's/^Value: //p')
    best=$(printf '%s\n' "$out" | sed -n 's/^Best: //p')
    cost=$(printf '%s\n' "$out" | sed -n 's/^solve: \([0-9]*\) nodes, \([0-9.]*\) s.*/\1\t\2/p')
    printf '%s\t%s\t%s\t%s\t%s\n' "$hand" "$value" "${best:--}" "$cost" "$line"
done
