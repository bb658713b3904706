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
depth= rounds=1
while getopts d:r: o; do
    case $o in
    d) depth=$OPTARG ;;
    r) rounds=$OPTARG ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { echo "usage: $0 [-d DEPTH] [-r ROUNDS] ENGINE [ENGINE ...]" >&2; exit 2; }
exec "$here/depth_time.sh" -r "$rounds" ${depth:+-d "$depth"} "$here/morris_depth12.txt" "$@"
