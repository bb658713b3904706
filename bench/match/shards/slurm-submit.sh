#!/bin/sh
# A match as a Slurm job array plus a merge job that runs when every task
# has succeeded (docs/match.md, "Sharded matches").  From the top of the
# repository, built on the cluster's nodes (`make`):
#
#   bench/match/shards/slurm-submit.sh N [match arguments ...]
#
# makes $RESULTS (default results/) before anything is submitted, so every
# log has its folder, then submits
#   - bench/match/shards/slurm-array.sh as an array of N tasks: task K plays
#     shard K into $RESULTS/shard-K.txt, its log $RESULTS/slurm-JOB-K.log;
#   - a merge job (--dependency=afterok on the array) that writes the
#     match's report to $RESULTS/report.txt and the joined results file to
#     $RESULTS/merged.txt (log: $RESULTS/merge-JOB.log).
# It prints the two job ids.  $SBATCH_ARGS are passed to both sbatch calls
# (a partition, an account: SBATCH_ARGS='--partition=short').
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 N [build/match arguments ...]" >&2
    exit 2
fi
n=$1
shift
case $n in '' | *[!0-9]*) echo "$0: N must be a whole number, not '$n'" >&2; exit 2 ;; esac
if [ "$n" -lt 1 ]; then
    echo "$0: N must be at least 1" >&2
    exit 2
fi
results=${RESULTS:-results}
mkdir -p "$results"
results=$(cd "$results" && pwd)
# shellcheck disable=SC2086
array=$(RESULTS=$results sbatch --parsable ${SBATCH_ARGS:-} --array="1-$n" \
    --output="$results/slurm-%A-%a.log" bench/match/shards/slurm-array.sh "$@")
array=${array%%;*}
# shellcheck disable=SC2086
merge=$(sbatch --parsable ${SBATCH_ARGS:-} --job-name=morelli-merge --dependency="afterok:$array" \
    --kill-on-invalid-dep=yes --output="$results/merge-%j.log" \
    --wrap="${MATCH:-build/match} --merge '$results' --results '$results/merged.txt' > '$results/report.txt'")
merge=${merge%%;*}
echo "array job $array ($n tasks), merge job $merge: report in $results/report.txt"
