#!/bin/sh
# The training run of the profile-guided release build (Makefile, `make pgo`,
# or PGO=1; gcc only): the instrumented engine ENGINE
# searches what the engine spends its time on in play, so that the
# compiler lays out the hot paths (make, evaluation, generation, the move
# picker) by the branches they really take:
#   - alpha-beta on the Morelli starts of the three board sizes and the
#     13x13 mid position of bench/speed.txt;
#   - alpha-beta on the Morris start (nine pieces, and twelve with
#     diagonals) and a moving-phase position of bench/morris_depth12.txt;
#   - MCTS on the Morelli 13x13 and Morris starts.
# No position here has 6 pieces a side or fewer and none in hand: such a
# root starts the build of the Morris endgame tables in a background
# thread, and a thread still counting when the engine exits leaves counts
# that are not consistent (gcc then refuses the profile).  About 5 s with
# the instrumented build (its counters are updated atomically: the engine
# has other threads).  Fails (non-zero) when a search fails, so a broken
# engine never becomes the profile.
#
#   sh bench/pgo_train.sh ENGINE
set -eu
[ $# -eq 1 ] || { echo "usage: $0 ENGINE" >&2; exit 2; }
e=$1
run() {
    # the search must end with its move; grep reads all the output (with
    # -q it would stop at the match, and an engine that wrote on would die
    # of SIGPIPE before writing its counts)
    "$e" "$@" | grep '^bestmove ' >/dev/null || { echo "$0: $e $* gave no bestmove" >&2; exit 1; }
}
for n in 13 11 9; do
    run --BoardSize=$n isready 'position startpos' 'go depth 8'
done
run --BoardSize=13 isready 'position fen w1b7wwb/w11w/13/b2b1w3b1ww/1b1w1w2b4/1b1w2b2ww2/w4b7/4b4b2b/2bb1b1w3w1/b5b2w2w/b5b1w3b/7w3b1/w1b1w1w1w3b b' 'go depth 9'
run --UCI_Variant=morris isready 'position startpos' 'go depth 12'
run --UCI_Variant=morris --Pieces=12 --Diagonals=true isready 'position startpos' 'go depth 10'
run --UCI_Variant=morris isready 'position fen 1B1/WBW/1B1/BW2W1/W2/W1W/BBB w 0 0 0' 'go depth 11'
run --Search=mcts isready 'position startpos' 'go nodes 20000'
run --UCI_Variant=morris --Search=mcts isready 'position startpos' 'go nodes 20000'
