#!/bin/sh
# Time to depth 12 in the Morris moving phase (docs/benchmarks.md): the
# positions of bench/morris_depth12.txt through bench/depth_time.sh (fresh
# engine a search, `isready` first, the builds alternating).
#
#   bench/morris_depth.sh [-d DEPTH] [-r ROUNDS] ENGINE [ENGINE ...]
#
# Run it niced on a shared machine (`nice -n 5 bench/morris_depth.sh ...`).
set -eu
here=$(dirname "$0")
# the options go before the list, the engines after it
opts=
while [ $# -ge 2 ] && { [ "$1" = -d ] || [ "$1" = -r ]; }; do
    opts="$opts $1 $2"
    shift 2
done
[ $# -ge 1 ] || { echo "usage: $0 [-d DEPTH] [-r ROUNDS] ENGINE [ENGINE ...]" >&2; exit 2; }
# shellcheck disable=SC2086 # the options are separate words
exec "$here/depth_time.sh" $opts "$here/morris_depth12.txt" "$@"
