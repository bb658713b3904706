#!/bin/sh
# make test-install: `make install` into a temporary DESTDIR, then checks what
# is there: the portable engine runs and searches the bench's nodes
# (bench/signature.txt), the runner runs, the manual pages render without
# warnings and name every option the engine lists, the docs are there;
# `make uninstall` leaves nothing; an install into a folder that cannot be
# written fails before copying anything.
set -eu
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "test-install: FAILED: $*" >&2; exit 1; }
prefix=/usr
dest=$tmp/root
make --no-print-directory install DESTDIR="$dest" PREFIX="$prefix" > "$tmp/install.log" 2>&1 ||
    { cat "$tmp/install.log"; fail "make install"; }
bin=$dest$prefix/bin
for f in bin/morelli bin/morelli-match share/man/man6/morelli.6 share/man/man6/morelli-match.6 \
    share/doc/morelli/README.md share/doc/morelli/protocol.md share/doc/morelli/match.md; do
    [ -s "$dest$prefix/$f" ] || fail "$prefix/$f not installed"
done
[ -x "$bin/morelli" ] && [ -x "$bin/morelli-match" ] || fail "the programs are not executable"

# The installed engine: its version names the portable instruction set, and
# it searches the bench's nodes exactly.
arch=$(make --no-print-directory -s print-dist-arch)
"$bin/morelli" --version > "$tmp/version"
grep -q "^built for $arch by " "$tmp/version" || { cat "$tmp/version"; fail "--version does not say ARCH=$arch"; }
want=$(grep -v '^#' bench/signature.txt | tr -d ' \n')
got=$("$bin/morelli" bench 2>&1 | sed -n 's/^Nodes searched *: *//p')
[ "$got" = "$want" ] || fail "installed engine: bench signature $got, bench/signature.txt says $want"
"$bin/morelli-match" --help > "$tmp/help" 2>&1 || true
grep -q -- '--engine cmd=CMD' "$tmp/help" || fail "morelli-match --help"

# The manual pages: groff finds nothing to warn about, and morelli.6 has an
# entry (.B Name) for every option `ugi` lists.
if command -v groff > /dev/null; then
    for m in morelli morelli-match; do
        LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$dest$prefix/share/man/man6/$m.6" > "$tmp/groff" 2>&1
        [ ! -s "$tmp/groff" ] || { cat "$tmp/groff"; fail "groff warns about $m.6"; }
    done
else
    echo "test-install: no groff here: the pages' rendering is not checked"
fi
printf 'ugi\nquit\n' | "$bin/morelli" | sed -n 's/^option name \(.*\) type .*/\1/p' > "$tmp/options"
[ -s "$tmp/options" ] || fail "the engine listed no options"
while IFS= read -r name; do
    grep -qx "\.B $name" docs/man/morelli.6 || fail "docs/man/morelli.6 has no entry '.B $name'"
done < "$tmp/options"

# Uninstall leaves no file.
make --no-print-directory uninstall DESTDIR="$dest" PREFIX="$prefix" > "$tmp/uninstall.log" 2>&1 ||
    { cat "$tmp/uninstall.log"; fail "make uninstall"; }
left=$(find "$dest" -type f | head -n 5)
[ -z "$left" ] || fail "make uninstall left: $left"

# A folder that cannot be written: refused before anything is copied.
ro=$tmp/readonly
mkdir -p "$ro"
if [ "$(id -u)" -eq 0 ]; then
    target=/proc/morelli-install-test # even root cannot write there
else
    chmod 555 "$ro"
    target=$ro/usr
fi
if make --no-print-directory install PREFIX="$target" > "$tmp/ro.log" 2>&1; then
    fail "make install PREFIX=$target succeeded"
fi
grep -q "make install: cannot write" "$tmp/ro.log" || { cat "$tmp/ro.log"; fail "no clear message"; }
[ ! -e "$target" ] || fail "$target was created"
chmod 755 "$ro"
echo "test-install: installed, ran, uninstalled; a folder that cannot be written refused ($(wc -l < "$tmp/options") options in the man page, bench signature $got)"
