#!/bin/sh
# The training run of the profile-guided release build (Makefile, "make"
# with PGO=1, the default with gcc): the instrumented engine ENGINE
# searches what the engine spends its time on in play, so that the
# compiler lays out the hot paths (make, evaluation, generation, the move
# picker) by the branches they really take:
#   - `bench` (every game and both searchers, shallow);
#   - alpha-beta on the Morelli starts of the three board sizes and the
#     13x13 mid position of bench/speed.txt;
#   - alpha-beta on the Morris start and a moving-phase position of
#     bench/morris_depth12.txt;
#   - MCTS on the Morelli 13x13 and Morris starts.
# About 2 s with the instrumented build.  Fails (non-zero) when a search
# fails, so a broken engine never becomes the profile.
#
#   sh bench/pgo_train.sh ENGINE
set -eu
[ $# -eq 1 ] || { echo "usage: $0 ENGINE" >&2; exit 2; }
e=$1
run() {
    # the search must end with its move
    "$e" "$@" | grep -q '^bestmove ' || { echo "$0: $e $* gave no bestmove" >&2; exit 1; }
}
"$e" bench > /dev/null 2>&1
for n in 13 11 9; do
    run --BoardSize=$n isready 'position startpos' 'go depth 8'
done
run --BoardSize=13 isready 'position fen w1b7wwb/w11w/13/b2b1w3b1ww/1b1w1w2b4/1b1w2b2ww2/w4b7/4b4b2b/2bb1b1w3w1/b5b2w2w/b5b1w3b/7w3b1/w1b1w1w1w3b b' 'go depth 9'
run --UCI_Variant=morris isready 'position startpos' 'go depth 12'
run --UCI_Variant=morris isready 'position fen 1B1/WBW/1B1/BW2W1/W2/W1W/BBB w 0 0 0' 'go depth 11'
run --Search=mcts isready 'position startpos' 'go nodes 20000'
run --UCI_Variant=morris --Search=mcts isready 'position startpos' 'go nodes 20000'
