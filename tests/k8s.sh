#!/bin/sh
# make test-image: the container image and the Kubernetes manifests.
#
#   sh tests/k8s.sh IMAGE.tar
#
# The image (make image): an OCI archive whose digests and sizes are right,
# holding the static engine and runner and nothing else (no shell); the
# engine taken from it runs and searches the bench's nodes.  The manifests
# (bench/match/shards/k8s-*.yaml, read by tests/k8s_yaml.pl): the image
# name is the archive's, the command and the engines' paths are in the
# image, --shard auto/N matches `completions`, the results go to the
# volume's mount, and both Jobs mount the claim the file defines.  As root,
# the Indexed Job's command then runs in the image's file system (chroot)
# for every completion index, with the match made small (4 games at depth 2), the merge Job's
# command joins the files, and the result equals the same match played
# whole.  Without root that last part is skipped, and it says so.
set -eu
cd "$(dirname "$0")/.."
image=${1:?usage: tests/k8s.sh IMAGE.tar}
say() { echo "test-image: $*"; }
fail() { say "FAILED: $*"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# --- the archive ---------------------------------------------------------
mkdir -p "$tmp/oci" "$tmp/rootfs"
tar -xf "$image" -C "$tmp/oci"
[ "$(cat "$tmp/oci/oci-layout")" = '{"imageLayoutVersion":"1.0.0"}' ] || fail "oci-layout"
json() { perl -MJSON::PP -e 'my $j = decode_json(do { local $/; <STDIN> }); my $v = eval "\$j->$ARGV[0]"; print defined $v ? $v : "", "\n";' "$1"; }
blob() { echo "$tmp/oci/blobs/sha256/${1#sha256:}"; }
check_blob() { # digest size
    f=$(blob "$1")
    [ -f "$f" ] || fail "blob $1 missing"
    [ "sha256:$(sha256sum "$f" | cut -d' ' -f1)" = "$1" ] || fail "blob $1: wrong digest"
    [ "$(wc -c < "$f" | tr -d ' ')" = "$2" ] || fail "blob $1: size is not $2"
}
index=$tmp/oci/index.json
name=$(json '{manifests}[0]{annotations}{"io.containerd.image.name"}' < "$index")
mdigest=$(json '{manifests}[0]{digest}' < "$index")
check_blob "$mdigest" "$(json '{manifests}[0]{size}' < "$index")"
manifest=$(blob "$mdigest")
check_blob "$(json '{config}{digest}' < "$manifest")" "$(json '{config}{size}' < "$manifest")"
ldigest=$(json '{layers}[0]{digest}' < "$manifest")
check_blob "$ldigest" "$(json '{layers}[0]{size}' < "$manifest")"
[ -z "$(json '{layers}[1]' < "$manifest")" ] || fail "more than one layer"
config=$(blob "$(json '{config}{digest}' < "$manifest")")
gunzip -c "$(blob "$ldigest")" > "$tmp/layer.tar"
[ "sha256:$(sha256sum "$tmp/layer.tar" | cut -d' ' -f1)" = "$(json '{rootfs}{diff_ids}[0]' < "$config")" ] ||
    fail "the layer's diff_id"
tar -xf "$tmp/layer.tar" -C "$tmp/rootfs"
files=$(cd "$tmp/rootfs" && find . -type f | sort | tr '\n' ' ')
[ "$files" = "./usr/bin/morelli ./usr/bin/morelli-match " ] || fail "the image holds: $files"
[ ! -e "$tmp/rootfs/bin/sh" ] || fail "a shell in a FROM scratch image"
arch=$(make --no-print-directory -s print-dist-arch)
"$tmp/rootfs/usr/bin/morelli" --version | grep -q "^built for $arch " || fail "the engine is not built for $arch"
want=$(grep -v '^#' bench/signature.txt | tr -d ' \n')
got=$("$tmp/rootfs/usr/bin/morelli" bench 2>&1 | sed -n 's/^Nodes searched *: *//p')
[ "$got" = "$want" ] || fail "the image's engine: bench signature $got, bench/signature.txt says $want"
say "$name: $(wc -c < "$image" | tr -d ' ') bytes, one layer, no shell; its engine is built for $arch, bench $got"

# --- the manifests -------------------------------------------------------
job=bench/match/shards/k8s-indexed-job.yaml
merge=bench/match/shards/k8s-merge-job.yaml
perl tests/k8s_yaml.pl "$job" > "$tmp/job.txt" || fail "$job does not read"
perl tests/k8s_yaml.pl "$merge" > "$tmp/merge.txt" || fail "$merge does not read"
get() { sed -n "s|^$2 = ||p" "$tmp/$1.txt" | head -n 1; }
args() { # the container's arguments, one a line
    i=0
    while v=$(grep -m1 "^$2.spec.template.spec.containers.0.args.$i = " "$tmp/$1.txt"); do
        echo "${v#* = }"
        i=$((i + 1))
    done
}
after() { grep -A1 -x -- "$2" "$tmp/$1.args" | sed -n 2p; } # the value after a flag
c=spec.template.spec.containers.0
[ "$(get job '0.kind')" = PersistentVolumeClaim ] || fail "$job: the first document is not the claim"
claim=$(get job '0.metadata.name')
get job '0.spec.accessModes.0' | grep -qx ReadWriteMany || fail "$job: the claim is not ReadWriteMany (pods on many nodes write)"
[ "$(get job '1.kind')" = Job ] && [ "$(get job '1.spec.completionMode')" = Indexed ] || fail "$job: not an Indexed Job"
n=$(get job '1.spec.completions')
args job 1 > "$tmp/job.args"
args merge 0 > "$tmp/merge.args"
for d in "job 1" "merge 0"; do
    set -- $d
    [ "$(get "$1" "$2.$c.image")" = "$name" ] || fail "$1: image $(get "$1" "$2.$c.image"), make image writes $name"
    [ "$(get "$1" "$2.$c.imagePullPolicy")" = Never ] || fail "$1: imagePullPolicy is not Never (the image is loaded, not pulled)"
    [ "$(get "$1" "$2.spec.template.spec.restartPolicy")" = Never ] || fail "$1: restartPolicy"
    cmd=$(get "$1" "$2.$c.command.0")
    [ -x "$tmp/rootfs$cmd" ] || fail "$1: command $cmd is not in the image"
    [ "$(get "$1" "$2.spec.template.spec.volumes.0.persistentVolumeClaim.claimName")" = "$claim" ] ||
        fail "$1: the volume is not the claim $claim"
    [ "$(get "$1" "$2.$c.volumeMounts.0.name")" = "$(get "$1" "$2.spec.template.spec.volumes.0.name")" ] ||
        fail "$1: the mount is not the volume"
done
mount=$(get job "1.$c.volumeMounts.0.mountPath")
[ "$(after job --shard)" = "auto/$n" ] || fail "--shard $(after job --shard), completions $n"
case $(after job --results) in "$mount"/*"{K}"*) ;; *) fail "--results $(after job --results): not {K} under $mount" ;; esac
grep '^cmd=' "$tmp/job.args" | while read -r e; do
    [ -x "$tmp/rootfs${e#cmd=}" ] || fail "engine ${e#cmd=} is not in the image"
done
[ "$(after merge --merge)" = "$mount" ] || fail "the merge Job does not merge $mount"
[ "$(get merge "0.$c.volumeMounts.0.mountPath")" = "$mount" ] || fail "the merge Job mounts elsewhere"
say "manifests: image, command, engines, --shard auto/$n, results under $mount, claim $claim"

# --- the Jobs' commands in the image's file system ------------------------
if [ "$(id -u)" -ne 0 ]; then
    say "not root: the Jobs' commands were not run in the image (chroot needs root)"
    exit 0
fi
# A container runtime gives every container /dev/null; the image has no /dev.
mkdir -p "$tmp/rootfs/dev"
mknod -m 666 "$tmp/rootfs/dev/null" c 1 3
small() { # the Job's arguments with the match made small (4 games at depth 2)
    sed -e '/^--games$/{n;s/.*/4/;}' -e '/^--tc$/{s/.*/--depth/;n;s/.*/2/;}' "$tmp/job.args"
}
small > "$tmp/small.args"
cmd=$(get job "1.$c.command.0")
k=0
while [ "$k" -lt "$n" ]; do
    tr '\n' '\0' < "$tmp/small.args" | JOB_COMPLETION_INDEX=$k xargs -0 chroot "$tmp/rootfs" "$cmd" > /dev/null ||
        fail "pod $k's command in the image"
    k=$((k + 1))
done
tr '\n' '\0' < "$tmp/merge.args" | xargs -0 chroot "$tmp/rootfs" "$(get merge "0.$c.command.0")" \
    > "$tmp/merged-report.txt" || fail "the merge Job's command in the image"
# The same match whole: no --shard, --results elsewhere.
sed -e '/^--shard$/{N;d;}' -e '/^--results$/{N;d;}' "$tmp/small.args" > "$tmp/whole.args"
printf '%s\n' --results /tmp/whole.txt >> "$tmp/whole.args"
tr '\n' '\0' < "$tmp/whole.args" | xargs -0 chroot "$tmp/rootfs" "$cmd" > "$tmp/whole-report.txt" ||
    fail "the whole match in the image"
merged=$tmp/rootfs$(after merge --results)
cmp -s "$merged" "$tmp/rootfs/tmp/whole.txt" || fail "the merged results differ from the whole match's"
cmp -s "$tmp/merged-report.txt" "$tmp/whole-report.txt" ||
    { diff "$tmp/whole-report.txt" "$tmp/merged-report.txt"; fail "the merged report differs"; }
say "in the image (chroot, no shell): $n pods and the merge equal the whole match: $(grep '^games' "$tmp/whole-report.txt")"
