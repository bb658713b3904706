#!/bin/sh
# make test-slurm: a one-node Slurm on this machine plays a sharded match.
#
# As root it installs Debian's slurm-wlm and munge when missing, starts
# munged, slurmctld and slurmd on 127.0.0.1 with a configuration of its own
# in a temporary folder (ports 6817/6818 of a running Slurm are left alone),
# runs bench/match/shards/slurm-submit.sh (a job array of 4 shards and a
# merge job that depends on it), and checks that the merged results file
# and report equal those of the same match played unsharded.  Whatever
# happens, it stops every daemon it started and removes its folder.
# Without root, or when Slurm does not start, it says so and exits 1.
set -u
cd "$(dirname "$0")/.."
say() { echo "test-slurm: $*"; }
if [ "$(id -u)" -ne 0 ]; then
    say "needs root: it installs slurm-wlm and munge and starts their daemons (run it as root, or in a container)"
    exit 1
fi
. tests/slurm_harness.sh
slurm_install || exit 1
[ -x build/match ] && [ -x build/morelli ] || { say "build the engine first (make)"; exit 1; }

tmp=$(mktemp -d /tmp/morelli-slurm-XXXXXX)
chmod 755 "$tmp"
trap slurm_cleanup EXIT
trap 'exit 1' INT TERM
fail() {
    say "FAILED: $*"
    slurm_logs
    exit 1
}
mkdir -p "$tmp/results"
slurm_up || fail "Slurm did not start"

# The match: whole, then as an array of 4 shards with a merge job.
set -- --engine cmd=build/morelli name=d1 depth=1 --engine cmd=build/morelli name=d2 \
    --depth 2 --variant morris --games 8
build/match "$@" --quiet --results "$tmp/whole.txt" > "$tmp/whole-report.txt" || fail "the whole match"
RESULTS="$tmp/results" bench/match/shards/slurm-submit.sh 4 "$@" > "$tmp/submit.txt" 2>&1 ||
    { cat "$tmp/submit.txt"; fail "slurm-submit.sh"; }
say "$(cat "$tmp/submit.txt")"
slurm_wait 300 || fail "jobs still queued after 300 s: $(squeue -h | head -n 3)"
for k in 1 2 3 4; do
    [ -s "$tmp/results/shard-$k.txt" ] || fail "shard $k wrote no results file"
done
[ -s "$tmp/results/merged.txt" ] || fail "the merge job wrote no merged.txt ($(cat "$tmp"/results/merge-*.log 2> /dev/null))"
cmp -s "$tmp/results/merged.txt" "$tmp/whole.txt" || fail "merged.txt differs from the whole match's results file"
cmp -s "$tmp/results/report.txt" "$tmp/whole-report.txt" ||
    { diff "$tmp/whole-report.txt" "$tmp/results/report.txt"; fail "the merged report differs"; }
say "4 array tasks and the merge job ran; merged results and report equal the whole match's"
say "$(grep '^games' "$tmp/results/report.txt")"
