#!/bin/sh
# The layers the build keeps (Makefile, "Layers"): engine/ sees only engine/;
# protocol/ engine/ and itself; bench/match/ (the match runner) engine/ and
# itself; bench/ and tests/ everything.
#
#   sh tests/layers.sh include FILE -IDIR ...
#       after FILE failed to compile with those -I flags: names each
#       #include "..." of FILE that only a layer it may not see has
#   sh tests/layers.sh symbols BUILD_DIR
#       the objects under BUILD_DIR (a test flavour: build/test, build/san, ...):
#       fails when an object uses a symbol defined in a layer above its own
set -u
export LC_ALL=C
layer_of() {   # the layer of a source or object path (under the build dir or not)
    case $1 in
        */bench/match/* | bench/match/*) echo match ;;
        */bench/* | bench/*) echo bench ;;
        */protocol/* | protocol/*) echo protocol ;;
        */engine/* | engine/*) echo engine ;;
        *) echo tests ;;
    esac
}
may_use() {   # may_use LAYER OTHER: may LAYER call into OTHER?
    case $1:$2 in
        engine:engine | protocol:engine | protocol:protocol) return 0 ;;
        match:engine | match:match | bench:* | tests:*) return 0 ;;
        *) return 1 ;;
    esac
}
dir_of_layer() {
    case $1 in match) echo bench/match/ ;; bench) echo bench/ ;; *) echo "$1/" ;; esac
}

case ${1:-} in
include)
    file=$2; shift 2
    seen=
    for flag; do seen="$seen ${flag#-I}/"; done
    dirs="$(dirname "$file") $seen"
    sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$file" |
    while read -r h; do
        found=
        for d in $dirs; do [ -f "$d/$h" ] && found=1; done
        [ -n "$found" ] && continue
        where=$(find engine protocol bench -path "*/$h" 2>/dev/null | head -n 1)
        [ -n "$where" ] || continue
        echo "layer violation: $file includes \"$h\" ($where): $(dir_of_layer "$(layer_of "$file")") sees only$seen (Makefile, \"Layers\")"
    done
    exit 0 ;;
symbols)
    dir=$2
    tmp=${TMPDIR:-/tmp}/layers.$$
    trap 'rm -f "$tmp".*' EXIT
    # symbol layer, for every global symbol an object of the library defines
    for o in $(find "$dir/engine" "$dir/protocol" "$dir/bench" -name '*.o' 2>/dev/null); do
        l=$(layer_of "${o#"$dir"/}")
        nm -g --defined-only "$o" | awk -v l="$l" 'NF == 3 { print $3, l }'
    done | sort -u > "$tmp.def"
    bad=0
    for o in $(find "$dir/engine" "$dir/protocol" "$dir/bench" -name '*.o' 2>/dev/null); do
        src=${o#"$dir"/}
        l=$(layer_of "$src")
        for pair in $(nm -u "$o" | awk '{ print $NF }' | sort -u | join - "$tmp.def" | tr ' ' ':'); do
            sym=${pair%%:*}; other=${pair#*:}
            if ! may_use "$l" "$other"; then
                echo "layer violation: ${src%.o}.c uses $sym, defined in $(dir_of_layer "$other") (Makefile, \"Layers\")"
                bad=1
            fi
        done
    done
    [ "$bad" = 0 ] || exit 1
    exit 0 ;;
*)
    echo "usage: sh tests/layers.sh include FILE -IDIR ... | symbols BUILD_DIR" >&2
    exit 2 ;;
esac
