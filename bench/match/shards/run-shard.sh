#!/bin/sh
# One shard of a match, for any launcher (docs/match.md, "Sharded matches").
#
#   bench/match/shards/run-shard.sh N DIR [build/match arguments ...]
#
# plays shard K of N and writes DIR/shard-K.txt, where K is the first of
#   $SHARD          (1-based: GNU parallel's {}, or by hand)
#   $SLURM_ARRAY_TASK_ID      (1-based with #SBATCH --array=1-N)
#   $JOB_COMPLETION_INDEX     (0-based: a Kubernetes Indexed Job)
# that is set.  $MATCH is the runner (default: build/match).  Afterwards:
#   build/match --merge DIR/shard-*.txt
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 N DIR [build/match arguments ...]" >&2
    exit 2
fi
n=$1 dir=$2
shift 2
if [ -n "${SHARD:-}" ]; then
    k=$SHARD
elif [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
    k=$SLURM_ARRAY_TASK_ID
elif [ -n "${JOB_COMPLETION_INDEX:-}" ]; then
    k=$((JOB_COMPLETION_INDEX + 1))
else
    echo "$0: set SHARD, SLURM_ARRAY_TASK_ID or JOB_COMPLETION_INDEX" >&2
    exit 2
fi
mkdir -p "$dir"
exec "${MATCH:-build/match}" "$@" --quiet --shard "$k/$n" --results "$dir/shard-$k.txt"
