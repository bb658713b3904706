#!/bin/sh
# A fake UGI engine for the match runner's tests (tests/test_match.c).
# It answers the handshake and isready, then misbehaves as its first argument
# says when asked to move:
#   illegal   -- "bestmove zz99"
#   crash     -- exits without a word
#   stall     -- never answers (sleeps)
#   flood     -- prints info lines without end, never a bestmove
#   silent    -- never answers "ugi" at all
#   badoption -- rejects every setoption with an error line
#   liar      -- says "query gameover" is false and "query result" is none
mode=${1:-illegal}
while IFS= read -r line; do
    case $line in
    ugi|uci)
        [ "$mode" = silent ] && continue
        echo "id name fake-$mode"
        echo "id author morelli tests"
        echo "option name UCI_Variant type combo default morelli var morelli var morris var fano"
        echo "ugiok" ;;
    isready) echo "readyok" ;;
    setoption*)
        [ "$mode" = badoption ] && echo "info string error: fake rejects every option" ;;
    go*)
        case $mode in
        crash) exit 3 ;;
        stall) sleep 60 ;;
        flood) while :; do echo "info string flood"; done ;;
        *) echo "info depth 1 score cp 0 nodes 1"; echo "bestmove zz99" ;;
        esac ;;
    "query gameover")
        if [ "$mode" = liar ]; then echo "response false"; else echo "response true"; fi ;;
    "query result")
        if [ "$mode" = liar ]; then echo "response none"; else echo "response draw"; fi ;;
    "query p1turn") echo "response true" ;;
    quit) exit 0 ;;
    esac
done
