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
if ! command -v slurmctld > /dev/null || ! command -v slurmd > /dev/null || ! command -v munged > /dev/null; then
    say "apt-get install slurm-wlm munge (log: build/slurm-apt.log)"
    mkdir -p build
    { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge; } \
        > build/slurm-apt.log 2>&1 || { tail -n 20 build/slurm-apt.log; say "could not install Slurm"; exit 1; }
fi
[ -x build/match ] && [ -x build/morelli ] || { say "build the engine first (make)"; exit 1; }

tmp=$(mktemp -d /tmp/morelli-slurm-XXXXXX)
chmod 755 "$tmp"
pids=
cleanup() {
    if [ -n "${SLURM_CONF:-}" ] && command -v scancel > /dev/null; then
        scancel --quiet --user=root 2> /dev/null
    fi
    for f in slurmd slurmctld munged; do
        [ -s "$tmp/$f.pid" ] && kill "$(cat "$tmp/$f.pid")" 2> /dev/null
    done
    sleep 1
    for f in slurmd slurmctld munged; do
        [ -s "$tmp/$f.pid" ] && kill -9 "$(cat "$tmp/$f.pid")" 2> /dev/null
    done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail() {
    say "FAILED: $*"
    for f in "$tmp"/log/*.log; do
        [ -s "$f" ] && { echo "--- $f (last lines)"; tail -n 8 "$f"; }
    done
    exit 1
}

# munged with a key and a socket of its own.
mkdir -p "$tmp/log" "$tmp/state" "$tmp/spool" "$tmp/results"
dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 2> /dev/null
chmod 400 "$tmp/munge.key"
munged --force --key-file="$tmp/munge.key" --socket="$tmp/munge.sock" \
    --log-file="$tmp/log/munged.log" --pid-file="$tmp/munged.pid" --seed-file="$tmp/munge.seed" ||
    fail "munged did not start"

# Ports of this run's own, away from a Slurm already running here.
base=$((20000 + $$ % 20000))
node=$(hostname -s 2> /dev/null || hostname)
cat > "$tmp/slurm.conf" << CONF
ClusterName=morellitest
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmctldPort=$base
SlurmdPort=$((base + 1))
AuthType=auth/munge
AuthInfo=socket=$tmp/munge.sock
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$tmp/slurm.conf"
slurmctld > "$tmp/log/slurmctld.out" 2>&1 || fail "slurmctld did not start"
slurmd > "$tmp/log/slurmd.out" 2>&1 || fail "slurmd did not start"
up=0
for _ in $(seq 60); do
    if sinfo -h -o '%t' 2> /dev/null | grep -q '^idle'; then
        up=1
        break
    fi
    sleep 1
done
[ "$up" = 1 ] || fail "the node did not come up within 60 s ($(sinfo -h 2>&1 | head -n 1))"
say "Slurm $(sinfo -V | cut -d' ' -f2) up: node $node, $(nproc) CPUs"

# The match: whole, then as an array of 4 shards with a merge job.
set -- --engine cmd=build/morelli name=d1 depth=1 --engine cmd=build/morelli name=d2 \
    --depth 2 --variant morris --games 8
build/match "$@" --quiet --results "$tmp/whole.txt" > "$tmp/whole-report.txt" || fail "the whole match"
RESULTS="$tmp/results" bench/match/shards/slurm-submit.sh 4 "$@" > "$tmp/submit.txt" 2>&1 ||
    { cat "$tmp/submit.txt"; fail "slurm-submit.sh"; }
say "$(cat "$tmp/submit.txt")"
done=0
for _ in $(seq 300); do
    if [ -z "$(squeue -h 2> /dev/null)" ]; then
        done=1
        break
    fi
    sleep 1
done
[ "$done" = 1 ] || fail "jobs still queued after 300 s: $(squeue -h | head -n 3)"
for k in 1 2 3 4; do
    [ -s "$tmp/results/shard-$k.txt" ] || fail "shard $k wrote no results file"
done
[ -s "$tmp/results/merged.txt" ] || fail "the merge job wrote no merged.txt ($(cat "$tmp"/results/merge-*.log 2> /dev/null))"
cmp -s "$tmp/results/merged.txt" "$tmp/whole.txt" || fail "merged.txt differs from the whole match's results file"
cmp -s "$tmp/results/report.txt" "$tmp/whole-report.txt" ||
    { diff "$tmp/whole-report.txt" "$tmp/results/report.txt"; fail "the merged report differs"; }
say "4 array tasks and the merge job ran; merged results and report equal the whole match's"
say "$(grep '^games' "$tmp/results/report.txt")"
