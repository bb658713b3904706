#!/bin/sh
# make web: installs what builds the engine as WebAssembly when it is missing,
# saying so: clang, lld (wasm-ld), wasi-libc and compiler-rt's wasm32 builtins
# (Debian packages clang lld wasi-libc libclang-rt-dev-wasm32).
CC=${WEB_CC:-clang}
probe() {
    printf 'int main(void) { return 0; }\n' |
        $CC --target=wasm32-wasi --sysroot=/usr -x c - -o /tmp/morelli-probe-$$.wasm >/dev/null 2>&1
    rc=$?
    rm -f /tmp/morelli-probe-$$.wasm
    return $rc
}
probe && exit 0
echo "make web: the wasm32 toolchain is missing; installing clang lld wasi-libc libclang-rt-dev-wasm32 with apt-get" >&2
SUDO=
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq >/dev/null &&
    $SUDO apt-get install -y -qq clang lld wasi-libc libclang-rt-dev-wasm32 >/dev/null && probe || {
    echo "make web: could not install the wasm32 toolchain; install it by hand (apt-get install clang lld wasi-libc libclang-rt-dev-wasm32)" >&2
    exit 1
}
echo "make web: clang lld wasi-libc libclang-rt-dev-wasm32 installed" >&2
