#!/bin/sh
# make image: a container image of the static, portable engine and match
# runner (docs/match.md, "Sharded matches"), FROM scratch: nothing but
#   /usr/bin/morelli         the engine (build/static/morelli)
#   /usr/bin/morelli-match   the match runner (build/static/match)
#   /results, /tmp           empty folders (the results volume's mount point)
# written as an OCI image archive by hand (no daemon, no base image to pull):
#
#   sh bench/match/shards/image.sh OUT.tar NAME:TAG ENGINE RUNNER
#
# The archive loads with `podman load -i`, `docker load -i` (Docker 25 or
# later) or `kind load image-archive`.  The same inputs give the same bytes
# (files dated 1970, owner 0, names sorted, gzip without a name or date).
set -eu
if [ $# -ne 4 ]; then
    echo "usage: $0 OUT.tar NAME:TAG ENGINE RUNNER" >&2
    exit 2
fi
out=$1 ref=$2 engine=$3 runner=$4
for f in "$engine" "$runner"; do
    [ -x "$f" ] || { echo "$0: $f: not an executable" >&2; exit 1; }
done
case $(uname -m) in
x86_64 | amd64) arch=amd64 ;;
aarch64 | arm64) arch=arm64 ;;
*) arch=$(uname -m) ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=$tmp/rootfs
mkdir -p "$root/usr/bin" "$root/results" "$root/tmp" "$tmp/oci/blobs/sha256"
cp "$engine" "$root/usr/bin/morelli"
cp "$runner" "$root/usr/bin/morelli-match"
if command -v strip > /dev/null; then # no symbols: a smaller image
    strip --strip-all "$root/usr/bin/morelli" "$root/usr/bin/morelli-match"
fi
chmod 755 "$root/usr/bin/morelli" "$root/usr/bin/morelli-match" "$root/results"
chmod 1777 "$root/tmp"
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --format=gnu \
    -C "$root" -cf "$tmp/layer.tar" usr results tmp
sha() { sha256sum "$1" | cut -d' ' -f1; }
size() { wc -c < "$1" | tr -d ' '; }
diff_id=$(sha "$tmp/layer.tar")
gzip -n -9 < "$tmp/layer.tar" > "$tmp/layer.tar.gz"
layer=$(sha "$tmp/layer.tar.gz")
mv "$tmp/layer.tar.gz" "$tmp/oci/blobs/sha256/$layer"
version=$("$engine" --version | head -n 1 | cut -d' ' -f2)
printf '{"architecture":"%s","os":"linux","config":{"Env":["PATH=/usr/bin"],"Cmd":["/usr/bin/morelli"],"WorkingDir":"/","Labels":{"org.opencontainers.image.title":"morelli","org.opencontainers.image.version":"%s"}},"rootfs":{"type":"layers","diff_ids":["sha256:%s"]},"history":[{"created_by":"bench/match/shards/image.sh"}]}' \
    "$arch" "$version" "$diff_id" > "$tmp/config.json"
config=$(sha "$tmp/config.json")
printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.manifest.v1+json","config":{"mediaType":"application/vnd.oci.image.config.v1+json","digest":"sha256:%s","size":%s},"layers":[{"mediaType":"application/vnd.oci.image.layer.v1.tar+gzip","digest":"sha256:%s","size":%s}]}' \
    "$config" "$(size "$tmp/config.json")" "$layer" "$(size "$tmp/oci/blobs/sha256/$layer")" > "$tmp/manifest.json"
manifest=$(sha "$tmp/manifest.json")
mv "$tmp/config.json" "$tmp/oci/blobs/sha256/$config"
msize=$(size "$tmp/manifest.json")
mv "$tmp/manifest.json" "$tmp/oci/blobs/sha256/$manifest"
printf '{"imageLayoutVersion":"1.0.0"}' > "$tmp/oci/oci-layout"
# The name: containerd and Docker read io.containerd.image.name, podman and
# skopeo the tag in org.opencontainers.image.ref.name.
case $ref in
*/*) full=$ref ;;
*) full=docker.io/library/$ref ;;
esac
printf '{"schemaVersion":2,"mediaType":"application/vnd.oci.image.index.v1+json","manifests":[{"mediaType":"application/vnd.oci.image.manifest.v1+json","digest":"sha256:%s","size":%s,"annotations":{"io.containerd.image.name":"%s","org.opencontainers.image.ref.name":"%s"}}]}' \
    "$manifest" "$msize" "$full" "${ref##*:}" > "$tmp/oci/index.json"
mkdir -p "$(dirname "$out")"
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --format=gnu \
    -C "$tmp/oci" -cf "$out.tmp" oci-layout index.json blobs
mv "$out.tmp" "$out"
echo "image $full: $out ($(size "$out") bytes; layer $(size "$tmp/oci/blobs/sha256/$layer") bytes gzip)"
