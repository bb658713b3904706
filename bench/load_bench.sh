#!/bin/sh
# Clocks under load (docs/benchmarks.md, "Clocks under load"): README's match
# (100 ms a move) and 1 s + 10 ms matches of every game, alpha-beta against
# MCTS, each under `--load LOAD` busy processes.  For each match it prints the
# line of endings (games lost on time are `time N`) and the timing line (the
# longest overshoot of a move over its budget, as the runner measured it).
#
#   bench/load_bench.sh [LOAD [GAMES_MOVETIME [GAMES_CLOCK]]]    defaults: 8 20 20
#
# Runs niced (the busy processes inherit it, so they compete with the engines
# as equals and leave the rest of a shared machine alone).  --start-timeout is
# raised: under load Fano's solver tables take more than the default 10 s to
# build at the first isready.
set -eu
load=${1:-8} gm=${2:-20} gc=${3:-20}
m="nice -n 10 build/match --engine cmd=build/morelli name=ab option.Search=alphabeta
   --engine cmd=build/morelli name=mcts option.Search=mcts --concurrency 2 --load $load
   --start-timeout 60000"
run() {
    echo "== $*"
    $m "$@" --quiet | grep -E '^(games|endings|timing)'
}
run --variant morelli --games "$gm" --movetime 100
for v in morelli morris fano; do
    run --variant "$v" --games "$gc" --tc 1000+10
done
