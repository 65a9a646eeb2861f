#!/bin/sh
# Build the offline package repository a cloud-image guest installs the
# benchmark tools from (csbench run --cloud-image). The guest has no
# network: the host downloads, from its own apt sources, the tools of
# guest-image/packages.txt with everything they depend on, and indexes them
# as a flat repository (apt-ftparchive) that QEMU shares read-only. Inside
# the guest apt installs only what the image lacks, so a downloaded image
# older or newer than this host still gets a consistent set.
# Prints the repository's directory on stdout; cached by a hash of the
# package names and the exact versions and URIs apt would fetch.
set -eu
STAGE=cloud-debs
. "$(dirname "$0")/common.sh"

command -v apt-get >/dev/null || die "apt-get not found: the host must be a Debian system"
command -v apt-ftparchive >/dev/null || die "apt-ftparchive not installed (run: make deps)"
packages=$(sed -e 's/#.*//' "$TOP/guest-image/packages.txt" | xargs)

# Every real package the tools need, recursively (virtual names such as
# <debconf-2.0> are provided by real ones already in the list).
closure() {
	# shellcheck disable=SC2086
	apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances $packages | grep -v '^[ <]' | sort -u
}
# "URI FILE SIZE HASH" per package: versions and the mirror are in the key.
uris() {
	# shellcheck disable=SC2046
	apt-get download --print-uris $(closure) 2>/dev/null | sort
}
list=$(uris)
if [ -z "$list" ]; then
	note "apt's package lists lack some of: $packages; running apt-get update"
	apt-get update -qq || die "apt-get update failed: cannot fetch the guest's packages"
	list=$(uris)
fi
[ -n "$list" ] || die "apt-get cannot resolve $packages from this host's apt sources"

key=$( {
	echo "packages $packages"
	echo "$list"
	hash_files "$0"
} | short_hash)
dir=$CSBENCH_CACHE/cloud-debs/$key
if [ -r "$dir/Release" ]; then
	echo "$dir"
	exit 0
fi

mkdir -p "$CSBENCH_CACHE/cloud-debs"
tmp=$dir.tmp.$$
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
note "downloading $(echo "$list" | wc -l) packages for $packages"
# shellcheck disable=SC2046
(cd "$tmp" && apt-get download -q $(closure) >download.log 2>&1) ||
	{ tail -n 5 "$tmp/download.log" >&2; die "apt-get download failed (log above)"; }
rm -f "$tmp/download.log"
(cd "$tmp" && apt-ftparchive packages . >Packages && apt-ftparchive release . >Release) ||
	die "apt-ftparchive could not index $tmp"
# What the guest installs: the tools by name, apt picks the rest.
echo "$packages" >"$tmp/packages.txt"
mv "$tmp" "$dir"
trap - EXIT
note "$(du -sm "$dir" | cut -f1) MiB in $dir"
echo "$dir"
