#!/bin/sh
# Runs each test binary given (from the repository's top, where tests/data is):
# one line per binary, the whole output of a failing one, and a closing
# "tests: N passed, N failed" line over all of them. Every binary's full output
# goes to build/<flavour>/tests.log; TEST_VERBOSE=1 prints it as well. A line
# starts with the binary's name before it runs, and gets a dot every 10 s
# while it runs (TEST_HEARTBEAT seconds; 0: none), so a long one shows progress.
pass=0; fail=0; failed=
log=
if [ $# -gt 0 ]; then
    log=$(dirname "$(dirname "$1")")/tests.log
    : > "$log"
fi
beat=${TEST_HEARTBEAT:-10}
hb=
trap '[ -z "$hb" ] || kill "$hb" 2>/dev/null' EXIT
trap 'exit 130' INT TERM
for t in "$@"; do
    printf '  %-22s' "$(basename "$t")"
    if [ "$beat" -gt 0 ]; then
        (while sleep "$beat" >/dev/null 2>&1; do printf .; done) &
        hb=$!
    fi
    start=$(date +%s)
    out=$("$t" 2>&1); rc=$?
    secs=$(( $(date +%s) - start ))
    if [ -n "$hb" ]; then kill "$hb" 2>/dev/null; wait "$hb" 2>/dev/null; hb=; fi
    [ -n "$log" ] && printf '%s\n' "$out" >> "$log"
    name=$(basename "$t")
    if [ "${TEST_VERBOSE:-0}" = 1 ] || [ "$rc" -ne 0 ]; then
        printf '\n%s\n' "$out"
        printf '  %-22s' "$name"
    fi
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
    pass=$((pass + ${p:-0}))
    if [ "$rc" -ne 0 ]; then
        fail=$((fail + ${f:-1})); failed="$failed $t"
        printf ' %4s passed, %s failed  (%s s)  FAILED\n' "${p:-0}" "${f:-1}" "$secs"
    else
        printf ' %4s passed  (%s s)\n' "${p:-0}" "$secs"
    fi
done
echo
[ -n "$log" ] && echo "every test's output: $log"
echo "tests: $pass passed, $fail failed"
[ -z "$failed" ] || { echo "failing binaries:$failed"; exit 1; }
