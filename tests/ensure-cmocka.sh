#!/bin/sh
# Installs cmocka's development package when its header is missing, saying so.
if printf '#include <stdarg.h>\n#include <stddef.h>\n#include <stdint.h>\n#include <setjmp.h>\n#include <cmocka.h>\n' \
        | ${CC:-cc} -E - >/dev/null 2>&1; then
    exit 0
fi
echo "make test: cmocka is missing; installing libcmocka-dev with apt-get" >&2
SUDO=
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null && $SUDO apt-get install -y -qq libcmocka-dev >/dev/null || {
    echo "make test: could not install libcmocka-dev; install it by hand (apt-get install libcmocka-dev)" >&2
    exit 1
}
echo "make test: libcmocka-dev installed" >&2
