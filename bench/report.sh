#!/bin/sh
# The tables of docs/benchmarks.md, measured on this machine and printed as
# Markdown (`make bench-report` builds the programs and runs it).
#
#   bench/report.sh [--full]
#
# Default, about a minute on two idle cores: the speed table of build/speed
# (perft, alpha-beta, MCTS), time to depth in Morelli and in both phases of
# Morris (bench/depth_time.sh), the Fano solver's build, a short Morris
# match and the bench signature.  --full, several minutes more: more
# rounds, Morelli one ply deeper, the Morris endgame tables' build (two of
# the four sets) and a 20-game Morelli match at 100 ms a move.
#
# Needs build/morelli, build/match and build/speed (make all build/speed).
# Figures move with the machine's load: the report prints the load average
# before and after; compare builds back to back on one machine.
set -eu
full=0
case ${1:-} in
--full) full=1 ;;
'') ;;
*) echo "usage: $0 [--full]" >&2; exit 2 ;;
esac
here=$(dirname "$0")
for p in build/morelli build/match build/speed; do
    [ -x "$p" ] || { echo "$0: $p is missing (make all build/speed)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
load() { cut -d' ' -f1-3 /proc/loadavg; }

if [ $full = 1 ]; then runs=5 rounds=5 mdepth=10 place_rounds=3
else runs=5 rounds=3 mdepth=9 place_rounds=1; fi

# --- machine ----------------------------------------------------------------
load0=$(load)
build/speed --runs "$runs" "$here/speed.txt" > "$tmp/speed"
sig=$(build/morelli bench 2>&1 | sed -n 's/^Nodes searched *: *//p')
echo "### The machine"
echo
sed -n 's/^machine : /- machine: /p; s/^compiler: /- compiler: /p' "$tmp/speed"
echo "- load average (1, 5, 15 min) at the start: $load0"
echo "- bench signature (\`build/morelli bench\`): $sig nodes"
echo

# --- speed table ------------------------------------------------------------
echo "### Perft, alpha-beta and MCTS speed"
echo
echo "\`build/speed --runs $runs bench/speed.txt\`, one thread, each figure the median of $runs runs."
echo
echo "| position | perft depth | leaves/s, bulk | leaves/s, every leaf made | leaves | alpha-beta depth | nodes | ms | nodes/s | MCTS playouts/s |"
echo "|---|---|---|---|---|---|---|---|---|---|"
# the label is every field but the last eleven
awk 'f && NF >= 12 {
        n = NF; lab = $1; for (i = 2; i <= n - 11; i++) lab = lab " " $i
        d1 = $(n-10); b = $(n-9); l1 = $(n-8); d2 = $(n-7); fl = $(n-6); l2 = $(n-5)
        ad = $(n-4); ns = $(n-3); nodes = $(n-2); ms = $(n-1); mc = $n
        pd = (d1 == d2) ? d1 : d1 " / " d2
        lv = (l1 == l2) ? l1 : l1 " / " l2
        nps = nodes > 1 ? sprintf("%.1f M", ns / 1e6) : "-"   # a solved game: 1 node
        printf "| %s | %s | %.0f M | %.0f M | %s | %s | %s | %s | %s | %.0f k |\n",
            lab, pd, b / 1e6, fl / 1e6, lv, ad, nodes, ms, nps, mc / 1e3
     }
     /^position/ { f = 1 }' "$tmp/speed"
echo
echo "Where two perft depths are shown, the first is that of bulk counting."
echo

# --- time to depth ----------------------------------------------------------
# depth_time.sh prints "round engine label depth nodes ms" a search; these
# awk lines take the median over the rounds, per position or summed per set.
per_position() {
    awk 'NF == 6 && $2 == "build/morelli" { key[$3] = 1; d[$3] = $4; n[$3] = $5; t[$3, $1] = $6; if ($1 > r) r = $1
            if (!($3 in seen)) { seen[$3] = 1; order[++np] = $3 } }
        function med(a, k,   i, j, x) {
            for (i = 2; i <= k; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
            return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
        END { for (p = 1; p <= np; p++) { l = order[p]
                for (i = 1; i <= r; i++) v[i] = t[l, i]; m = med(v, r)
                gsub("_", " ", l)
                printf "| %s | 1 | %s | %s | %s | %.1f M |\n", "Morelli " l, d[order[p]], n[order[p]], m, m ? n[order[p]] / m / 1e3 : 0 } }' "$1"
}
per_set() {   # $1 file, $2 name
    awk -v name="$2" 'NF == 6 && $2 == "build/morelli" { t[$1] += $6; if ($1 == 1) { n += $5; np++; d = $4 } if ($1 > r) r = $1 }
        function med(a, k,   i, j, x) {
            for (i = 2; i <= k; i++) { x = a[i]; for (j = i - 1; j >= 1 && a[j] > x; j--) a[j + 1] = a[j]; a[j + 1] = x }
            return k % 2 ? a[(k + 1) / 2] : (a[k / 2] + a[k / 2 + 1]) / 2 }
        END { for (i = 1; i <= r; i++) v[i] = t[i]; m = med(v, r)
              printf "| %s | %d | %s | %s | %s | %.1f M |\n", name, np, d, n, m, m ? n / m / 1e3 : 0 }' "$1"
}
nice -n 5 "$here/depth_time.sh" -r "$rounds" -d "$mdepth" "$here/morelli_depth.txt" build/morelli > "$tmp/morelli"
nice -n 5 "$here/morris_depth.sh" -r "$rounds" build/morelli > "$tmp/moving"
nice -n 5 "$here/depth_time.sh" -r "$place_rounds" "$here/morris_place13.txt" build/morelli > "$tmp/place"
echo "### Time to depth, alpha-beta"
echo
echo "A fresh engine a search, \`isready\` first, default options (Hash 64 MB, one thread); the time is the engine's own, summed over a set, the median of the rounds:"
echo
echo "    bench/depth_time.sh -r $rounds -d $mdepth bench/morelli_depth.txt build/morelli"
echo "    bench/morris_depth.sh -r $rounds build/morelli"
echo "    bench/depth_time.sh -r $place_rounds bench/morris_place13.txt build/morelli"
echo
echo "| positions | count | depth | nodes | ms | nodes/s |"
echo "|---|---|---|---|---|---|"
per_position "$tmp/morelli"
per_set "$tmp/moving" "Morris moving phase (bench/morris_depth12.txt)"
per_set "$tmp/place" "Morris placement (bench/morris_place13.txt)"
echo
echo "Fano is solved: alpha-beta answers from the solution (1 node)."
echo

# --- tables built at start --------------------------------------------------
# /usr/bin/time's "wall user sys maxrss-KB" of one engine process
timed() {
    if [ -x /usr/bin/time ]; then /usr/bin/time -f '%e %U %S %M' -o "$tmp/time" "$@"
    else s=$(date +%s); "$@"; echo "$(( $(date +%s) - s )) 0 0 0" > "$tmp/time"; fi
}
table_row() {   # $1 name, $2 size
    awk -v name="$1" -v size="$2" 'END { printf "| %s | %s | %.1f s | %.1f s | %.0f MB |\n", name, size, $1, $2 + $3, $4 / 1024 }' "$tmp/time"
}
echo "### Tables built at start"
echo
echo "One engine process with \`Hash\` 1 MB, so its peak memory is mostly the table; Fano's:"
echo
echo "    build/morelli --Hash=1 --UCI_Variant=fano isready"
echo
echo "| table | positions | wall | CPU | peak memory of the process |"
echo "|---|---|---|---|---|"
printf 'setoption name UCI_Variant value fano\nisready\nquit\n' > "$tmp/fano.in"
timed build/morelli --Hash=1 < "$tmp/fano.in" > /dev/null
table_row "Fano solution (at the first \`isready\`)" "1,835,891"
if [ $full = 1 ]; then
    # solve in a 5 against 3 position (the last group built) once a second
    # until it answers with a value
    for flying in true false; do
        rm -f "$tmp/done"
        { echo "setoption name UCI_Variant value morris"
          echo "setoption name Flying value $flying"
          echo "position fen W2/2B/2W/2BWW1/3/W2/2B w 0 0 0"
          echo solve
          while [ ! -e "$tmp/done" ]; do sleep 1; echo solve; done
          echo quit; } |
        timed build/morelli --Hash=1 2>&1 |
        awk -v f="$tmp/done" '/^Value:/ && !x { x = 1; system("touch " f) }'
        table_row "Morris endgame tables, Flying=$flying (until \`solve\` answers in 5 v 3)" "160,774,922"
    done
else
    echo "| Morris endgame tables | 160,774,922 a set | (\`--full\`) | | |"
fi
echo

# --- matches ----------------------------------------------------------------
ab_mcts="--engine cmd=build/morelli name=alphabeta option.Search=alphabeta
         --engine cmd=build/morelli name=mcts option.Search=mcts --concurrency 2 --quiet"
match_rows() {   # $1 label, $2 file: the result and timing lines
    awk -v lab="$1" '/^games/ { g = $2; sub(":", "", g); res = $4 " " $5 " " $6; elo = $10 " " $11 " " $12 }
        /^timing:/ { over = $4 " of " $2 }
        END { printf "| %s | %s | %s | %s | %s |\n", lab, g, res, elo, over }' "$2"
}
echo "### Short matches, alpha-beta against MCTS"
echo
echo "Each opening of \`build/match --make-openings\` played with both colours, two games at a time:"
echo
echo "    build/match --make-openings 10 --variant morris --seed 5 > /tmp/op.txt"
echo "    build/match --engine cmd=build/morelli name=alphabeta option.Search=alphabeta \\"
echo "        --engine cmd=build/morelli name=mcts option.Search=mcts --concurrency 2 --quiet \\"
echo "        --variant morris --games 20 --movetime 20 --openings /tmp/op.txt"
echo
[ $full = 0 ] || printf '%s\n\n' "Morelli 13x13: the same with \`--make-openings 10 --variant morelli --BoardSize=13 --seed 1\` and \`--variant morelli --BoardSize=13 --games 20 --movetime 100\`."
echo "| match | games | alpha-beta +W =D -L | Elo (95%) | moves over budget |"
echo "|---|---|---|---|---|"
build/match --make-openings 10 --variant morris --seed 5 > "$tmp/op_morris"
# shellcheck disable=SC2086 # the engines' arguments are separate words
nice -n 5 build/match $ab_mcts --variant morris --games 20 --movetime 20 --openings "$tmp/op_morris" > "$tmp/m1"
match_rows "Morris, 20 ms a move" "$tmp/m1"
if [ $full = 1 ]; then
    build/match --make-openings 10 --variant morelli --BoardSize=13 --seed 1 > "$tmp/op_morelli"
    # shellcheck disable=SC2086
    nice -n 5 build/match $ab_mcts --variant morelli --BoardSize=13 --games 20 --movetime 100 \
        --openings "$tmp/op_morelli" > "$tmp/m2"
    match_rows "Morelli 13x13, 100 ms a move" "$tmp/m2"
fi
echo
echo "Load average at the end: $(load)."
