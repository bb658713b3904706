#!/bin/sh
# Makes sure the tests can be compiled: a C compiler, then cmocka.
#
#   sh tests/ensure-cmocka.sh "make test"      (the first argument names the caller
#                                               in the messages)
#
# cmocka comes from, in this order:
#   1. the system (cmocka.h and libcmocka found by the compiler): nothing to do;
#   2. apt-get install libcmocka-dev, when we are root or have sudo without password;
#   3. without root: the Debian packages fetched with `apt-get download` into
#      build/cmocka/ and unpacked there with `dpkg-deb -x` (when apt has no package
#      lists, a private `apt-get update` fills build/cmocka/apt/ first);
#   4. without root and without those packages: cmocka built from its Debian source
#      package (`apt-get source`, deb-src lines derived from the system's sources).
# Cases 3 and 4 write build/cmocka.mk, which the Makefile reads to compile and link
# the tests against build/cmocka/ (with an rpath, so nothing else is needed to run them).
# For checking each way on a machine that has cmocka (tests/newcomer.sh):
# MORELLI_CMOCKA=local skips cases 1 and 2; =nolists also acts as if apt had no
# package lists (the private update of case 3); =source skips 1 to 3.
set -u
who=${1:-make test}
CC=${CC:-cc}
top=$(pwd)
dir=$top/build/cmocka
mk=$top/build/cmocka.mk
log=$top/build/cmocka.log
mode=${MORELLI_CMOCKA:-}

say() { echo "$who: $*" >&2; }

# --- a compiler first --------------------------------------------------------
if ! command -v "$CC" >/dev/null 2>&1; then
    say "no C compiler ('$CC' not found). Install one first:"
    say "  apt-get install build-essential     (as root; on Debian/Ubuntu)"
    exit 1
fi
mkdir -p "$top/build"
probe=$top/build/cmocka-probe
printf 'int main(void) { return 0; }\n' > "$probe.c"
if ! "$CC" "$probe.c" -o "$probe" >/dev/null 2>&1; then
    say "the C compiler '$CC' cannot build a program (is libc6-dev installed?)."
    say "  apt-get install build-essential     (as root; on Debian/Ubuntu)"
    exit 1
fi

# Compiles and links a cmocka test program with the flags given; 0 when it works.
works() {
    cat > "$probe.c" <<'EOF'
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
static void t(void **s) { (void)s; assert_int_equal(1, 1); }
int main(void) { const struct CMUnitTest ts[] = { cmocka_unit_test(t) };
                 return cmocka_run_group_tests(ts, NULL, NULL); }
EOF
    # shellcheck disable=SC2086
    "$CC" "$probe.c" -o "$probe" $1 -lcmocka >/dev/null 2>&1 && "$probe" >/dev/null 2>&1
}

# The flags for a cmocka unpacked under $dir/root (usr/include, usr/lib/<arch>).
local_flags() {
    so=$(find "$dir/root" -name 'libcmocka.so*' 2>/dev/null | head -n 1)
    [ -n "$so" ] && [ -f "$dir/root/usr/include/cmocka.h" ] || return 1
    libdir=$(dirname "$so")
    CFL="-isystem $dir/root/usr/include"
    LFL="-L$libdir -Wl,-rpath,$libdir"
}

use_local() {   # $1: how it got there
    local_flags || return 1
    works "$CFL $LFL" || return 1
    printf '# written by tests/ensure-cmocka.sh: %s\nCMOCKA_CFLAGS := %s\nCMOCKA_LDFLAGS := %s\n' \
        "$1" "$CFL" "$LFL" > "$mk"
    return 0
}

# --- 1. already there ----------------------------------------------------------
if [ -z "$mode" ] && works ""; then
    rm -f "$mk"
    exit 0
fi
# A copy fetched by an earlier run.
if [ -f "$mk" ] && local_flags && works "$CFL $LFL"; then
    say "cmocka: using build/cmocka/ ($(sed -n '1s/^# written by tests\/ensure-cmocka.sh: //p' "$mk"))"
    exit 0
fi
rm -f "$mk"

# --- 2. system-wide with apt-get, as root ----------------------------------------
: > "$log"
SUDO=none
if [ -z "$mode" ] && command -v apt-get >/dev/null 2>&1; then
    if [ "$(id -u)" -eq 0 ]; then SUDO=
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO="sudo -n"
    fi
fi
if [ "$SUDO" != none ]; then
    say "cmocka is missing; installing libcmocka-dev with apt-get (log: build/cmocka.log)"
    if { DEBIAN_FRONTEND=noninteractive $SUDO apt-get update -qq &&
         DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq libcmocka-dev; } \
            >> "$log" 2>&1 && works ""; then
        say "cmocka: libcmocka-dev installed system-wide with apt-get"
        exit 0
    fi
    say "apt-get install libcmocka-dev failed (see build/cmocka.log); trying without root"
fi

# --- 3. Debian packages unpacked into build/cmocka/ --------------------------------
APTDIR=$dir/apt
aptopts() {   # a private apt state (lists, cache) under build/cmocka/apt
    echo "-o Dir::State::Lists=$APTDIR/lists -o Dir::Cache=$APTDIR/cache" \
         "-o Debug::NoLocking=1 -o APT::Sandbox::User=$(id -un)"
}
private_update() {
    mkdir -p "$APTDIR/lists/partial" "$APTDIR/cache/archives/partial"
    # shellcheck disable=SC2046
    apt-get $(aptopts) "$@" update -qq >> "$log" 2>&1
}
if [ "$mode" != source ] && command -v apt-get >/dev/null 2>&1 &&
        command -v dpkg-deb >/dev/null 2>&1; then
    if [ "$SUDO" = none ]; then
        say "cmocka is missing and cannot be installed system-wide (not root, no sudo);"
    fi
    say "fetching the Debian packages libcmocka-dev and libcmocka0 into build/cmocka/"
    rm -rf "$dir/debs" "$dir/root"; mkdir -p "$dir/debs" "$dir/root"
    got=
    if [ "$mode" != nolists ] &&
            (cd "$dir/debs" && apt-get download libcmocka-dev libcmocka0) >> "$log" 2>&1; then
        got="apt-get download"
    elif private_update && (cd "$dir/debs" &&
            # shellcheck disable=SC2046
            apt-get $(aptopts) download libcmocka-dev libcmocka0) >> "$log" 2>&1; then
        got="apt-get update + download with private lists in build/cmocka/apt"
    fi
    if [ -n "$got" ]; then
        for d in "$dir"/debs/*.deb; do dpkg-deb -x "$d" "$dir/root" >> "$log" 2>&1; done
        if use_local "Debian packages ($got, dpkg-deb -x), no root"; then
            say "cmocka: using build/cmocka/ (Debian packages, $got, unpacked with dpkg-deb -x)"
            exit 0
        fi
    fi
    say "could not fetch the Debian packages (see build/cmocka.log); trying the source"
fi

# --- 4. built from the Debian source package ----------------------------------------
if command -v apt-get >/dev/null 2>&1 && command -v dpkg-source >/dev/null 2>&1; then
    say "building cmocka from its Debian source package in build/cmocka/src/"
    mkdir -p "$APTDIR/sourceparts"
    # deb-src twins of the system's deb lines (one-line and deb822 formats)
    : > "$APTDIR/sources.list"
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] && sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" >> "$APTDIR/sources.list"
    done
    rm -f "$APTDIR"/sourceparts/*
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && sed 's/^Types:.*/Types: deb-src/' "$f" > "$APTDIR/sourceparts/$(basename "$f")"
    done
    srcopts="-o Dir::Etc::SourceList=$APTDIR/sources.list -o Dir::Etc::SourceParts=$APTDIR/sourceparts"
    rm -rf "$dir/src" "$dir/root"; mkdir -p "$dir/src" "$dir/root/usr/include" "$dir/root/usr/lib"
    # shellcheck disable=SC2086
    if private_update $srcopts &&
       (cd "$dir/src" && apt-get $(aptopts) $srcopts source cmocka) >> "$log" 2>&1; then
        s=$(find "$dir/src" -mindepth 2 -maxdepth 2 -name src -type d | head -n 1)
        inc=$(dirname "$s")/include
        # cmocka.c wants a config.h (CMake writes it); glibc has everything it asks for.
        cat > "$s/config.h" <<'EOF'
#define HAVE_SIGNAL_H 1
#define HAVE_STRINGS_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_MALLOC_H 1
#define HAVE_SETJMP_H 1
#define HAVE_STDARG_H 1
#define HAVE_STDDEF_H 1
#define HAVE_STDINT_H 1
#define HAVE_STRSIGNAL 1
#define HAVE_STRCMP 1
#define HAVE_CLOCK_GETTIME 1
#define HAVE_CLOCK_REALTIME 1
#define HAVE_GCC_THREAD_LOCAL_STORAGE 1
#define HAVE_SIGLONGJMP 1
#define HAVE_VSNPRINTF 1
#define HAVE_SNPRINTF 1
EOF
        if "$CC" -O2 -fPIC -shared -DHAVE_CONFIG_H -I"$s" -I"$inc" "$s/cmocka.c" \
                -Wl,-soname,libcmocka.so.0 -o "$dir/root/usr/lib/libcmocka.so" >> "$log" 2>&1 &&
           cp "$inc"/cmocka*.h "$dir/root/usr/include/" &&
           use_local "built from the Debian source package (apt-get source), no root"; then
            say "cmocka: using build/cmocka/ (built from the Debian source package)"
            exit 0
        fi
    fi
fi

say "could not get cmocka (see build/cmocka.log). Install it as root:"
say "  apt-get install libcmocka-dev"
exit 1
