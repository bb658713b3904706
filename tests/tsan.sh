#!/bin/sh
# ThreadSanitizer run (make tsan): the engine, the threads test and the
# match runner of the tsan flavour (directory $1) do what uses threads --
# both searchers with Threads=2 and 4 in every game, helpers that end after
# their search answered, searches stopped or quit while they run
# (and answered with ponderhit where the protocol has it), and a match with
# two games at once -- and any ThreadSanitizer report fails.
# Reports go to build/tsan-report.<pid> files (also those of the engines the
# match runner starts, whose stderr nobody reads).
set -eu
dir=${1:-build/tsan}
mkdir -p build
rm -f build/tsan-report.*
export TSAN_OPTIONS="halt_on_error=1 exitcode=66 log_path=$PWD/build/tsan-report ${TSAN_OPTIONS:-}"
fail=0
run() {
    echo "tsan: $*"
    if ! "$@" > build/tsan-last.log 2>&1; then
        tail -n 40 build/tsan-last.log
        fail=1
    fi
}
for n in 2 4; do
    run "$dir/morelli" --Threads=$n --Hash=8 go depth 4
    run "$dir/morelli" --UCI_Variant=morris --Threads=$n --Hash=8 go depth 7
    run "$dir/morelli" --UCI_Variant=fano --Threads=$n --Hash=8 go depth 6
    run "$dir/morelli" --Search=mcts --Threads=$n --Hash=8 go nodes 3000
    run "$dir/morelli" --UCI_Variant=morris --Search=mcts --Threads=$n --Hash=8 go nodes 6000
    run "$dir/morelli" --UCI_Variant=fano --Search=mcts --Threads=$n --Hash=8 go nodes 6000
done
# Helpers held at a stop check while their search answers, then joined by
# the next search, an option or the end (tests/test_threads.c).
if [ -x "$dir/bin/test_threads" ]; then
    run "$dir/bin/test_threads"
fi
# Searches answered while their helpers end, each followed at once by what
# must wait for them: setoption Hash, uginewgame, go, quit.
for algo in alphabeta mcts; do
    printf 'setoption name Search value %s\nsetoption name Threads value 2\nsetoption name Hash value 8\nposition startpos\ngo movetime 30\nsetoption name Hash value 4\ngo movetime 30\nuginewgame\nposition startpos\ngo nodes 2000\nisready\ngo movetime 30\nquit\n' "$algo" |
        run "$dir/morelli"
done
# Searches stopped, or quit, from the reader's thread while the search
# threads run; ponderhit when the protocol knows it.
ponder=
if "$dir/morelli" ugi 2>/dev/null | grep -q 'option name Ponder'; then
    ponder='go ponder\nponderhit\nstop\n'
fi
for algo in alphabeta mcts; do
    for v in morelli morris fano; do
        printf 'setoption name UCI_Variant value %s\nsetoption name Search value %s\nsetoption name Threads value 4\nsetoption name Hash value 8\nposition startpos\ngo infinite\nisready\nd\nstop\nisready\n'"$ponder"'go infinite\nquit\n' "$v" "$algo" |
            run "$dir/morelli"
    done
done
# A Morelli solve on the search thread, the reader answering and stopping it.
printf 'setoption name Hash value 8\nposition startpos\nsolve movetime 60000\nisready\nd\nposition startpos moves a1-b2\nstop\nisready\nsolve movetime 60000\nquit\n' |
    run "$dir/morelli"
run "$dir/match" --engine cmd="$dir/morelli --Threads=2 --Hash=8" name=a \
    --engine cmd="$dir/morelli --Hash=8" name=b --variant morris --depth 3 --games 4 \
    --concurrency 2 --quiet --maxplies 60 --timeout 60000 --start-timeout 60000
for f in build/tsan-report.*; do
    [ -e "$f" ] || continue
    echo "tsan: report in $f:"
    head -n 40 "$f"
    fail=1
done
[ "$fail" -eq 0 ] && echo "tsan: no reports"
exit "$fail"
