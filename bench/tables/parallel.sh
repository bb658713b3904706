#!/bin/sh
# The Morris table files built by GNU parallel (docs/tables.md, "Building on
# several machines"): the groups of each wave of `morelli tables plan` as
# parallel tasks (`tables build --only GROUP`), the waves one after the
# other.  From the top of the repository, built (`make`):
#
#   bench/tables/parallel.sh --dir D [--upto N] [--diagonals true|false|both]
#       [--flying true|false|both] [--jobs J] [--threads T] [--sshlogin LIST]
#
# Defaults: up to 9 a side, the standard set (Diagonals=false Flying=true),
# J = 1 task at a time on each machine, T = all the cores of the machine a
# task runs on.  --sshlogin LIST is GNU parallel's -S (2/host1,2/host2; ':'
# is this machine): every machine needs the repository, built, at this
# path, and D on a file system they share, at the same path.  Before
# anything is built, the plan's disk is checked against D's free space;
# each task checks its own memory.  Resumable: run it again, the classes on
# disk are kept.  $MORELLI overrides the engine (default build/morelli).
set -eu
usage() {
    echo "usage: $0 --dir D [--upto N] [--diagonals true|false|both] [--flying true|false|both] [--jobs J] [--threads T] [--sshlogin LIST]" >&2
    exit 2
}
morelli=${MORELLI:-build/morelli}
dir='' upto=9 diag=false fly=true jobs=1 threads='' ssh=''
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || usage
    case $1 in
    --dir) dir=$2 ;;
    --upto) upto=$2 ;;
    --diagonals) diag=$2 ;;
    --flying) fly=$2 ;;
    --jobs) jobs=$2 ;;
    --threads) threads=$2 ;;
    --sshlogin) ssh=$2 ;;
    *) usage ;;
    esac
    shift 2
done
[ -n "$dir" ] || usage
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
plan=$(mktemp "${TMPDIR:-/tmp}/morelli-plan-XXXXXX")
trap 'rm -f "$plan"' EXIT
"$morelli" tables plan --upto "$upto" --diagonals "$diag" --flying "$fly" --dir "$dir" > "$plan" ||
    exit 1
grep '^# needs' "$plan" | sed 's/^# /tables: /'
set -- --will-cite --halt now,fail=1 -j "$jobs" --colsep ' '
[ -z "$ssh" ] || set -- "$@" -S "$ssh" --workdir "$(pwd)"
[ -z "$threads" ] || threads="--threads $threads"
for wave in $(awk '!/^#/ { print $1 }' "$plan" | uniq); do
    echo "tables: wave $wave:$(awk -v w="$wave" -v sets="$diag$fly" '!/^#/ && $1 == w {
        printf " %s", $2; if (sets ~ /both/) printf " (Diagonals=%s Flying=%s)", $3, $4 }' "$plan")"
    # shellcheck disable=SC2086
    awk -v w="$wave" '!/^#/ && $1 == w { print $2, $3, $4 }' "$plan" |
        parallel "$@" "$morelli" tables build --dir "$dir" --only '{1}' --diagonals '{2}' \
            --flying '{3}' $threads ||
        { echo "tables: wave $wave failed" >&2; exit 1; }
done
echo "tables: done, $(awk '!/^#/' "$plan" | wc -l) groups in $dir"
