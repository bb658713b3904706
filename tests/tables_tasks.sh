#!/bin/sh
# make test-tables-tasks: the Morris table files built as separate tasks
# (docs/tables.md, "Building on several machines") equal those of one plain
# build, byte for byte.
#
# Builds every class up to 4 a side of the two flying sets (Diagonals=false
# and true: two groups a wave) with one `tables build`, then
#   - checks that `tables build --only` of a group whose smaller classes
#     are missing is refused with one line naming them, and that the same
#     group builds when they are on TablePath;
#   - builds them again with bench/tables/parallel.sh (GNU parallel, 2 tasks
#     at once), and compares;
#   - as root, when Slurm is installed (make test-slurm installs it), again
#     with bench/tables/slurm-submit.sh on a one-node Slurm
#     (tests/slurm_harness.sh: a job array a wave, chained by afterok), and
#     compares; otherwise says that this part is skipped.
# Everything runs in a temporary folder, removed at the end.
set -u
cd "$(dirname "$0")/.." || exit 1
say() { echo "test-tables-tasks: $*"; }
[ -x build/morelli ] || { say "build the engine first (make)"; exit 1; }
command -v parallel > /dev/null || { say "needs GNU parallel (apt-get install parallel)"; exit 1; }
. tests/slurm_harness.sh
tmp=$(mktemp -d /tmp/morelli-tables-tasks-XXXXXX)
chmod 755 "$tmp"
trap slurm_cleanup EXIT
trap 'exit 1' INT TERM
fail() {
    say "FAILED: $*"
    exit 1
}
export MORELLI_TABLES=
set -- --upto 4 --diagonals both --flying true
start=$(date +%s)

# One plain build.
build/morelli tables build "$@" --dir "$tmp/whole" --threads 2 --quiet || fail "the plain build"
n=$(ls "$tmp/whole" | wc -l)
[ "$n" = 8 ] || fail "the plain build wrote $n files, not 8"
same() { # same DIR: the files of DIR are those of the plain build
    for f in "$tmp"/whole/*.mtb; do
        cmp -s "$f" "$1/${f##*/}" || fail "$1/${f##*/} differs from the plain build's (or is missing)"
    done
    k=0
    for f in "$1"/*.mtb; do k=$((k + 1)); done
    [ "$k" = "$n" ] || fail "$1 holds other .mtb files: $(ls "$1")"
}

# --only 4v4 without 3v4: refused before any work, one line naming the file.
build/morelli tables build --only 4v4 --diagonals false --flying true --dir "$tmp/empty" \
    > "$tmp/only.out" 2> "$tmp/only.err" && fail "--only 4v4 without 3v4 was not refused"
[ "$(wc -l < "$tmp/only.err")" = 1 ] && grep -q 'missing morris-plain-fly-3v4.mtb (read by 4v4)' "$tmp/only.err" ||
    fail "--only 4v4's refusal: $(cat "$tmp/only.err")"
[ -z "$(ls "$tmp/empty")" ] || fail "--only 4v4, refused, wrote $(ls "$tmp/empty")"
# ... and built when 3v4 is on TablePath.
MORELLI_TABLES=$tmp/whole build/morelli tables build --only 4v4 --diagonals false --flying true \
    --dir "$tmp/tp" --threads 2 --quiet || fail "--only 4v4 with 3v4 on TablePath"
cmp -s "$tmp/whole/morris-plain-fly-4v4.mtb" "$tmp/tp/morris-plain-fly-4v4.mtb" ||
    fail "4v4 built from TablePath's 3v4 differs"
say "--only without the smaller classes refused ($(cut -c1-60 "$tmp/only.err")...); with them on TablePath built alike"

# GNU parallel: each wave's groups as tasks, 2 at once.
sh bench/tables/parallel.sh "$@" --dir "$tmp/par" --jobs 2 --threads 1 > "$tmp/par.out" 2>&1 ||
    { cat "$tmp/par.out"; fail "bench/tables/parallel.sh"; }
same "$tmp/par"
say "GNU parallel: $(grep -c '^tables: wave' "$tmp/par.out") waves, $n files equal the plain build's"

# Slurm: an array a wave.
if [ "$(id -u)" -ne 0 ] || ! command -v slurmctld > /dev/null || ! command -v slurmd > /dev/null ||
    ! command -v munged > /dev/null || ! command -v sbatch > /dev/null; then
    say "Slurm part skipped: it needs root and Slurm installed (make test-slurm installs it)"
else
    slurm_up || { slurm_logs; fail "Slurm did not start"; }
    LOGS="$tmp/logs" sh bench/tables/slurm-submit.sh "$@" --dir "$tmp/slurm" --threads 1 \
        > "$tmp/submit.out" 2>&1 || { cat "$tmp/submit.out"; fail "bench/tables/slurm-submit.sh"; }
    slurm_wait 120 || { slurm_logs; fail "jobs still queued after 120 s: $(squeue -h | head -n 3)"; }
    for f in "$tmp"/logs/wave-*.log; do
        grep -q '^tables: .*entries' "$f" || { cat "$f"; fail "${f##*/}: no group built"; }
    done
    same "$tmp/slurm"
    sed 's/^/  /' "$tmp/submit.out"
    say "Slurm: $(grep -c '^wave' "$tmp/submit.out") arrays chained by afterok, $n files equal the plain build's"
fi
say "passed in $(($(date +%s) - start)) s"
