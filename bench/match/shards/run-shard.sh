#!/bin/sh
# One shard of a match, for any launcher (docs/match.md, "Sharded matches").
#
#   bench/match/shards/run-shard.sh N DIR [build/match arguments ...]
#
# plays shard K of N and writes DIR/shard-K.txt (DIR is made when missing),
# where K is the first of
#   $SHARD                    (1-based: GNU parallel's {}, or by hand)
#   $SLURM_ARRAY_TASK_ID      (1-based with #SBATCH --array=1-N)
#   $JOB_COMPLETION_INDEX     (0-based: a Kubernetes Indexed Job)
# that is set (the runner's `--shard auto/N`).  $MATCH is the runner
# (default: build/match).  Afterwards: build/match --merge DIR
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 N DIR [build/match arguments ...]" >&2
    exit 2
fi
n=$1 dir=$2
shift 2
mkdir -p "$dir"
exec "${MATCH:-build/match}" "$@" --quiet --shard "auto/$n" --results "$dir/shard-{K}.txt"
