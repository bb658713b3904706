#!/bin/sh
# One task of a wave of Morris table groups as a Slurm job array
# (bench/tables/slurm-submit.sh submits it; docs/tables.md):
#
#   sbatch --array=1-N bench/tables/slurm-task.sh DIR GROUP:DIAGONALS:FLYING ...
#
# Task K builds the K-th group named (4v5+5v4:false:true) into DIR with
# `tables build --only`, on the CPUs the task has.  $MORELLI overrides the
# engine (default build/morelli).
#SBATCH --job-name=morelli-tables
#SBATCH --cpus-per-task=2
set -eu
[ $# -ge 2 ] || { echo "usage: $0 DIR GROUP:DIAGONALS:FLYING ..." >&2; exit 2; }
dir=$1
shift
k=${SLURM_ARRAY_TASK_ID:?not a task of a job array}
[ "$k" -ge 1 ] && [ "$k" -le $# ] || { echo "$0: task $k of $# groups" >&2; exit 2; }
shift $((k - 1))
group=${1%%:*}
rest=${1#*:}
exec "${MORELLI:-build/morelli}" tables build --dir "$dir" --only "$group" \
    --diagonals "${rest%%:*}" --flying "${rest#*:}" --threads "${SLURM_CPUS_PER_TASK:-2}"
