#!/bin/sh
# A match of 16 shards as a Slurm job array (docs/match.md, "Sharded matches").
# Run from the top of the repository, built on the cluster's nodes (`make`):
#
#   sbatch bench/match/shards/slurm-array.sh
#   # when the array is done (or chain it: sbatch --dependency=afterok:JOBID ...):
#   build/match --merge results/shard-*.txt
#
# Change the match below; --array must run 1..N (Slurm tells the task N in
# SLURM_ARRAY_TASK_COUNT).  Each task plays its shard with --concurrency 2 on the 2
# CPUs it asks for.
#SBATCH --job-name=morelli-match
#SBATCH --array=1-16
#SBATCH --cpus-per-task=2
#SBATCH --output=results/slurm-%A-%a.log
set -eu
if [ -n "${MATCH_ARGS:-}" ]; then
    set -- $MATCH_ARGS # another match, e.g. for a check without Slurm
else
    set -- --engine cmd=build/morelli name=ab option.Search=alphabeta \
        --engine cmd=build/morelli name=mcts option.Search=mcts \
        --variant morelli --games 800 --tc 1000+10 --concurrency 2
fi
mkdir -p "${RESULTS:-results}"
exec bench/match/shards/run-shard.sh "${SLURM_ARRAY_TASK_COUNT:-16}" "${RESULTS:-results}" "$@"
