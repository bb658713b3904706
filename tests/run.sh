#!/bin/sh
# Runs each test binary given (from the repository's top, where tests/data is):
# one line per binary, the whole output of a failing one, and a closing
# "tests: N passed, N failed" line over all of them. Every binary's full output
# goes to build/<flavour>/tests.log; TEST_VERBOSE=1 prints it as well.
pass=0; fail=0; failed=
log=
if [ $# -gt 0 ]; then
    log=$(dirname "$(dirname "$1")")/tests.log
    : > "$log"
fi
for t in "$@"; do
    start=$(date +%s)
    out=$("$t" 2>&1); rc=$?
    secs=$(( $(date +%s) - start ))
    [ -n "$log" ] && printf '%s\n' "$out" >> "$log"
    [ "${TEST_VERBOSE:-0}" = 1 ] && printf '%s\n' "$out"
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
    pass=$((pass + ${p:-0}))
    if [ "$rc" -ne 0 ]; then
        [ "${TEST_VERBOSE:-0}" = 1 ] || printf '%s\n' "$out"
        fail=$((fail + ${f:-1})); failed="$failed $t"
        printf '  %-22s %4s passed, %s failed  (%s s)  FAILED\n' "$(basename "$t")" "${p:-0}" "${f:-1}" "$secs"
    else
        printf '  %-22s %4s passed  (%s s)\n' "$(basename "$t")" "${p:-0}" "$secs"
    fi
done
echo
[ -n "$log" ] && echo "every test's output: $log"
echo "tests: $pass passed, $fail failed"
[ -z "$failed" ] || { echo "failing binaries:$failed"; exit 1; }
