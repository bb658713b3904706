#!/bin/sh
# Scaling with threads (docs/threads.md): one engine run with Threads=N for
# each N given, compared by bench/depth_time.sh, the thread counts
# alternating position by position.  The first count is the base of the
# ratios (time to depth, nodes or playouts per second).
#
#   bench/threads.sh [-r ROUNDS] [-d DEPTH | -m MS] [-o Name=Value ...] LIST ENGINE N [N ...]
#
# -o adds an option to every engine (e.g. -o Search=mcts with -m 2000: the
# playouts per second of each thread count).  Example, 1 against 2 threads:
#   bench/threads.sh -r 5 bench/morris_depth12.txt build/morelli 1 2
set -eu
dt_args= opts=
while getopts d:m:r:o: o; do
    case $o in
    d | m | r) dt_args="$dt_args -$o $OPTARG" ;;
    o) opts="$opts --$OPTARG" ;;
    *) exit 2 ;;
    esac
done
shift $((OPTIND - 1))
[ $# -ge 3 ] || {
    echo "usage: $0 [-r ROUNDS] [-d DEPTH | -m MS] [-o Name=Value ...] LIST ENGINE N [N ...]" >&2
    exit 2
}
list=$1 engine=$2
shift 2
case $engine in /*) ;; *) engine=$PWD/$engine ;; esac
[ -x "$engine" ] || { echo "$0: $engine is not an executable" >&2; exit 2; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
engines=
for n in "$@"; do
    case $n in '' | *[!0-9]*) echo "$0: $n is not a thread count" >&2; exit 2 ;; esac
    printf '#!/bin/sh\nexec "%s" --Threads=%s%s "$@"\n' "$engine" "$n" "$opts" > "$dir/threads$n"
    chmod +x "$dir/threads$n"
    engines="$engines $dir/threads$n"
done
# shellcheck disable=SC2086 # separate words
sh "$(dirname "$0")/depth_time.sh" $dt_args "$list" $engines | sed "s|$dir/||g"
