# tests/slurm_harness.sh -- a one-node Slurm on 127.0.0.1, sourced by
# tests/slurm.sh and tests/tables_tasks.sh (root only).  The caller defines
# say() and sets tmp to a folder of its own (removed by slurm_cleanup).
#   slurm_install   apt-get install slurm-wlm and munge when missing; 0 or 1
#   slurm_up        munged, slurmctld and slurmd with a configuration of their
#                   own in $tmp (ports away from a running Slurm's), SLURM_CONF
#                   exported; returns when the node is idle; 0 or 1 (said)
#   slurm_wait N    waits up to N s for the queue to empty; 0 or 1
#   slurm_cleanup   cancels the jobs, stops every daemon slurm_up started and
#                   removes $tmp (the caller's EXIT trap)
#   slurm_logs      the last lines of each daemon's log (on a failure)

slurm_install() {
    if ! command -v slurmctld > /dev/null || ! command -v slurmd > /dev/null ||
        ! command -v munged > /dev/null; then
        say "apt-get install slurm-wlm munge (log: build/slurm-apt.log)"
        mkdir -p build
        { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge; } \
            > build/slurm-apt.log 2>&1 || { tail -n 20 build/slurm-apt.log; say "could not install Slurm"; return 1; }
    fi
    return 0
}

slurm_cleanup() {
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

slurm_logs() {
    for f in "$tmp"/log/*.log; do
        [ -s "$f" ] && { echo "--- $f (last lines)"; tail -n 8 "$f"; }
    done
}

slurm_up() {
    # munged with a key and a socket of its own.
    mkdir -p "$tmp/log" "$tmp/state" "$tmp/spool"
    dd if=/dev/urandom of="$tmp/munge.key" bs=1024 count=1 2> /dev/null
    chmod 400 "$tmp/munge.key"
    munged --force --key-file="$tmp/munge.key" --socket="$tmp/munge.sock" \
        --log-file="$tmp/log/munged.log" --pid-file="$tmp/munged.pid" --seed-file="$tmp/munge.seed" ||
        { say "munged did not start"; return 1; }
    # Ports of this run's own, away from a Slurm already running here; the
    # node's memory (jobs may ask for some with --mem).
    base=$((20000 + $$ % 20000))
    node=$(hostname -s 2> /dev/null || hostname)
    mem=$(awk '/^MemTotal:/ { printf "%d", $2 / 1024 * 0.9 }' /proc/meminfo)
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
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=${mem:-1000} State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF="$tmp/slurm.conf"
    slurmctld > "$tmp/log/slurmctld.out" 2>&1 || { say "slurmctld did not start"; return 1; }
    slurmd > "$tmp/log/slurmd.out" 2>&1 || { say "slurmd did not start"; return 1; }
    for _ in $(seq 60); do
        if sinfo -h -o '%t' 2> /dev/null | grep -q '^idle'; then
            say "Slurm $(sinfo -V | cut -d' ' -f2) up: node $node, $(nproc) CPUs"
            return 0
        fi
        sleep 1
    done
    say "the node did not come up within 60 s ($(sinfo -h 2>&1 | head -n 1))"
    return 1
}

slurm_wait() {
    for _ in $(seq "$1"); do
        [ -z "$(squeue -h 2> /dev/null)" ] && return 0
        sleep 1
    done
    return 1
}
