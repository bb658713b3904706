#!/bin/sh
# A newcomer's first steps, checked for real: a throwaway user account without sudo
# clones the repository and runs `make run` and `make test` (and, with --sanitize,
# `make sanitize`, with --doccheck, `make doccheck`).
#
#   sudo sh tests/newcomer.sh [--user NAME] [--repo PATH] [--cmocka MODE]
#                             [--sanitize] [--doccheck] [--keep]
#
# Run it as root (it creates the account with `useradd -m`; the account gets no sudo
# and no password). It clones the committed HEAD of --repo (default: the repository
# this script is in) into ~NAME/morelli and runs the commands there as NAME.
# --cmocka chooses how tests/ensure-cmocka.sh gets cmocka (MORELLI_CMOCKA):
#   auto     as a newcomer would: the system's cmocka when it is installed
#   local    act as if cmocka were missing: Debian packages fetched into build/
#            (the default when this machine has cmocka, so the no-root way is checked)
#   nolists  the same, as if apt had no package lists (private apt-get update)
#   source   cmocka built from its Debian source package
# The account and its home are removed at the end unless --keep.
# Exit status 0 when every command passed and no debconf/apt noise reached the output.
set -u
user=newbie; repo=; mode=; sanitize=; doccheck=; keep=
while [ $# -gt 0 ]; do
    case $1 in
        --user) user=$2; shift ;;
        --repo) repo=$2; shift ;;
        --cmocka) mode=$2; shift ;;
        --sanitize) sanitize=1 ;;
        --doccheck) doccheck=1 ;;
        --keep) keep=1 ;;
        *) echo "usage: sh tests/newcomer.sh [--user NAME] [--repo PATH] [--cmocka auto|local|nolists|source] [--sanitize] [--doccheck] [--keep]" >&2
           exit 2 ;;
    esac
    shift
done
[ -n "$repo" ] || repo=$(cd "$(dirname "$0")/.." && pwd)
if [ "$(id -u)" -ne 0 ]; then
    echo "newcomer.sh: run me as root (I create the throwaway account '$user')" >&2
    exit 2
fi
if [ -z "$mode" ]; then
    if [ -e /usr/include/cmocka.h ]; then mode=local; else mode=auto; fi
fi
[ "$mode" = auto ] && mode=

created=
if ! id "$user" >/dev/null 2>&1; then
    useradd -m -s /bin/sh "$user" || exit 1
    created=1
fi
home=$(getent passwd "$user" | cut -d: -f6)
cleanup() {
    if [ -z "$keep" ] && [ -n "$created" ]; then
        userdel -r "$user" >/dev/null 2>&1
    fi
}
trap cleanup EXIT

echo "== newcomer check: user '$user' ($(id "$user")), repo $repo"
echo "   commit $(git -C "$repo" log --oneline -1)"
if su "$user" -c 'sudo -n true' >/dev/null 2>&1; then
    echo "FAIL: '$user' can use sudo; this check needs an account without it"
    exit 1
fi
echo "   '$user' has no sudo: ok"
echo "   cmocka way: ${mode:-auto} (system cmocka on this machine: $([ -e /usr/include/cmocka.h ] && echo yes || echo no))"

# The repository is owned by another user (git refuses that); a bare copy owned by
# the account stands in for a remote.
rm -rf "$home/src.git" "$home/morelli"
git clone -q --bare "$repo" "$home/src.git" && chown -R "$user:" "$home/src.git" || exit 1

run() {   # $1: label, $2: command; runs as the user in the clone, keeps a log
    log=$home/$(echo "$1" | tr ' ' '-').log
    start=$(date +%s)
    su "$user" -c "cd ~/morelli && MORELLI_CMOCKA='$mode' $2" > "$log" 2>&1
    rc=$?
    echo "-- $1: exit $rc, $(( $(date +%s) - start )) s; last lines:"
    tail -n 4 "$log" | sed 's/^/   | /'
    grep '^make [a-z]*: ' "$log" | sed 's/^/   says: /' | head -n 6
    if grep -qi 'debconf\|^Selecting previously\|^Preparing to unpack\|^Get:[0-9]' "$log"; then
        echo "FAIL: apt/debconf lines leaked into the output of $1:"
        grep -i 'debconf\|^Selecting previously\|^Preparing to unpack\|^Get:[0-9]' "$log" | head -n 3
        rc=1
    fi
    return $rc
}

status=0
su "$user" -c 'git clone -q ~/src.git ~/morelli' || exit 1
echo "-- git clone: ok ($(su "$user" -c 'git -C ~/morelli log --oneline -1'))"
# The README's two commands as a newcomer types them (make runs parallel by itself).
run "make run" "make run" || status=1
run "make test" "make test" || status=1
su "$user" -c 'tail -n 1 ~/make-test.log' | grep -q '^tests: [0-9]* passed, 0 failed$' || status=1
if [ -n "$sanitize" ]; then
    run "make sanitize" "make sanitize" || status=1
    grep -q '^make test' "$home/make-sanitize.log" && { echo "FAIL: make sanitize calls itself make test"; status=1; }
fi
if [ -n "$doccheck" ]; then
    run "make doccheck" "make doccheck" || status=1
fi
if [ $status -eq 0 ]; then echo "== newcomer check: PASS"; else echo "== newcomer check: FAIL"; fi
exit $status
