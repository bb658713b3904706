#!/bin/sh
# Runs each test binary given (from the repository's top, where tests/data is)
# and closes with one "N passed, N failed" line over all of them.
pass=0; fail=0; failed=
for t in "$@"; do
    out=$("$t" 2>&1); rc=$?
    printf '%s\n' "$out"
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -n 1)
    pass=$((pass + ${p:-0}))
    if [ "$rc" -ne 0 ]; then
        fail=$((fail + ${f:-1})); failed="$failed $t"
    fi
done
echo
echo "tests: $pass passed, $fail failed"
[ -z "$failed" ] || { echo "failing binaries:$failed"; exit 1; }
