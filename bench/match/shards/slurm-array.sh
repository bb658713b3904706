#!/bin/sh
# One task of a match played as a Slurm job array (docs/match.md, "Sharded
# matches").  bench/match/shards/slurm-submit.sh submits it with its merge
# job; by hand, from the top of the repository, built on the nodes (`make`):
#
#   sbatch --array=1-16 bench/match/shards/slurm-array.sh [match arguments]
#   # when the array is done:
#   build/match --merge results
#
# Task K of the array plays shard K of N (N: the array's size, which Slurm
# gives in SLURM_ARRAY_TASK_COUNT) into $RESULTS/shard-K.txt (default
# results/, made when missing).  Without match arguments it plays the match
# below: 800 games, --concurrency 2 on the 2 CPUs a task asks for.  Slurm's
# own log of each task goes where sbatch's --output says (by default
# slurm-JOB_TASK.out in the folder sbatch ran in, which always exists).
#SBATCH --job-name=morelli-match
#SBATCH --array=1-16
#SBATCH --cpus-per-task=2
set -eu
if [ $# -eq 0 ]; then
    set -- --engine cmd=build/morelli name=ab option.Search=alphabeta \
        --engine cmd=build/morelli name=mcts option.Search=mcts \
        --variant morelli --games 800 --tc 1000+10 --concurrency 2
fi
exec bench/match/shards/run-shard.sh "${SLURM_ARRAY_TASK_COUNT:-16}" "${RESULTS:-results}" "$@"
