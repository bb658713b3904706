#!/bin/sh
# make test-web: installs what drives the page when it is missing, saying so:
# Debian's chromium (apt-get; no browser is downloaded from elsewhere), node
# and npm, and playwright-core (npm, into build/npm/, a fixed version).
PW_VERSION=1.65.1
SUDO=
[ "$(id -u)" -ne 0 ] && SUDO=sudo
export DEBIAN_FRONTEND=noninteractive
need=
[ -x /usr/bin/chromium ] || need="$need chromium"
command -v node >/dev/null || need="$need nodejs"
command -v npm >/dev/null || need="$need npm"
if [ -n "$need" ]; then
    echo "make test-web: installing$need with apt-get" >&2
    $SUDO apt-get update -qq >/dev/null && $SUDO apt-get install -y -qq $need >/dev/null || {
        echo "make test-web: could not install$need; install by hand (apt-get install$need)" >&2
        exit 1
    }
fi
if [ ! -f build/npm/node_modules/playwright-core/package.json ]; then
    echo "make test-web: installing playwright-core@$PW_VERSION with npm into build/npm/" >&2
    mkdir -p build/npm
    npm install --prefix build/npm --no-save --no-audit --no-fund "playwright-core@$PW_VERSION" >/dev/null || {
        echo "make test-web: npm could not install playwright-core" >&2
        exit 1
    }
fi
