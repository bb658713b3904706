#!/bin/sh
# The Morris table files as Slurm job arrays (docs/tables.md, "Building on
# several machines"): one array a wave of `morelli tables plan`, a task a
# group (bench/tables/slurm-task.sh), each wave's array waiting for the one
# before with --dependency=afterok.  From the top of the repository, built
# on the nodes (`make`), D on a file system every node sees:
#
#   bench/tables/slurm-submit.sh --dir D [--upto N] [--diagonals true|false|both]
#       [--flying true|false|both] [--threads T]
#
# Defaults: up to 9 a side, the standard set, T = 2 CPUs a task.  The plan's
# disk is checked against D's free space before anything is submitted; each
# task asks for the memory of the largest group of its wave and 256 MB
# (--mem).  Logs: $LOGS (default tables-logs/), wave-W-K.log.
# $SBATCH_ARGS go to every sbatch call, after the script's own options
# (SBATCH_ARGS='--partition=long').  Resumable: submit again, the classes on
# disk are kept (their tasks end at once).  Prints the job ids.
set -eu
usage() {
    echo "usage: $0 --dir D [--upto N] [--diagonals true|false|both] [--flying true|false|both] [--threads T]" >&2
    exit 2
}
morelli=${MORELLI:-build/morelli}
dir='' upto=9 diag=false fly=true threads=2
while [ $# -gt 0 ]; do
    [ $# -ge 2 ] || usage
    case $1 in
    --dir) dir=$2 ;;
    --upto) upto=$2 ;;
    --diagonals) diag=$2 ;;
    --flying) fly=$2 ;;
    --threads) threads=$2 ;;
    *) usage ;;
    esac
    shift 2
done
[ -n "$dir" ] || usage
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
logs=${LOGS:-tables-logs}
mkdir -p "$logs"
logs=$(cd "$logs" && pwd)
plan=$logs/plan.txt
"$morelli" tables plan --upto "$upto" --diagonals "$diag" --flying "$fly" --dir "$dir" > "$plan" ||
    exit 1
grep '^# needs' "$plan" | sed 's/^# /tables: /'
prev=
for wave in $(awk '!/^#/ { print $1 }' "$plan" | uniq); do
    # shellcheck disable=SC2046
    set -- $(awk -v w="$wave" '!/^#/ && $1 == w { print $2 ":" $3 ":" $4 }' "$plan")
    mem=$(awk -v w="$wave" '!/^#/ && $1 == w && $6 > m { m = $6 } END { printf "%d", m / 1048576 + 257 }' "$plan")
    dep=
    [ -z "$prev" ] || dep="--dependency=afterok:$prev --kill-on-invalid-dep=yes"
    # shellcheck disable=SC2086
    job=$(sbatch --parsable --job-name="morelli-tables-$wave" --array="1-$#" \
        --cpus-per-task="$threads" --mem="${mem}M" $dep ${SBATCH_ARGS:-} \
        --output="$logs/wave-$wave-%a.log" bench/tables/slurm-task.sh "$dir" "$@")
    job=${job%%;*}
    echo "wave $wave: job $job, $# task$([ $# -gt 1 ] && echo s) ($*)"
    prev=$job
done
echo "tables: the last wave is job $prev; logs in $logs"
