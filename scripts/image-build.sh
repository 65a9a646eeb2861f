#!/bin/sh
# Build the guest root filesystem: a Debian bookworm minbase with the
# benchmark tools, made with mmdebstrap from this host's own apt sources and
# written straight into an ext4 image with `mke2fs -d` from mmdebstrap's
# customize hook (inside mmdebstrap's namespace files are owned by root, so
# this works for root and, in unshare mode, for a plain user alike). The hook
# copies the tree first because /proc, /sys and /dev are still mounted in it
# and mke2fs cannot skip them. No
# systemd: csbench boots its own init from an initramfs and chroots here.
# Prints the image path on stdout; cached by a hash of its inputs.
set -eu
STAGE=image
. "$(dirname "$0")/common.sh"

SUITE=${SUITE:-bookworm}
packages=$(sed -e 's/#.*//' "$TOP/guest-image/packages.txt" | tr -s ' \n' ',' |
	sed -e 's/^,//' -e 's/,$//')
sources=$("$TOP/scripts/apt-sources.sh" "$SUITE")
[ -n "$sources" ] || die "no Debian $SUITE entry in this host's apt sources (/etc/apt)"
command -v mmdebstrap >/dev/null || die "mmdebstrap not installed (run: make deps)"
command -v mke2fs >/dev/null || die "mke2fs not installed (run: make deps)"

# The sources are part of the key: another mirror may carry other versions.
key=$( {
	echo "suite $SUITE"
	echo "packages $packages"
	echo "$sources"
	hash_files "$0"
} | short_hash)
dir=$CSBENCH_CACHE/image
img=$dir/rootfs-$key.ext4
if [ -r "$img" ]; then
	echo "$img"
	exit 0
fi

mkdir -p "$dir"
log=$dir/rootfs-$key.log
tmp=$img.tmp.$$
trap 'rm -rf "$tmp" "$tmp.d"' EXIT
note "building rootfs-$key with $packages (log: $log)"
start=$(date +%s)
# Free space for fio's files and the tools' scratch: the disk is attached
# with snapshot=on, so guest writes never reach this file.
export CSBENCH_IMG_TMP="$tmp" CSBENCH_IMG_SPARE_MB=${IMAGE_SPARE_MB:-1024}
if ! echo "$sources" | mmdebstrap --mode=auto --variant=minbase \
	--include="$packages" --format=null \
	--dpkgopt='path-exclude=/usr/share/man/*' \
	--dpkgopt='path-exclude=/usr/share/doc/*' \
	--dpkgopt='path-exclude=/usr/share/locale/*' \
	--customize-hook='mkdir -p "$1/csbench" "$1/sys/kernel/tracing"' \
	--customize-hook='set -e; stage=$CSBENCH_IMG_TMP.d; rm -rf "$stage";
		cp -a --one-file-system "$1" "$stage";
		mb=$(du -sm "$stage" | cut -f1);
		mke2fs -q -t ext4 -L csbench-root -E root_owner=0:0 -d "$stage" \
			"$CSBENCH_IMG_TMP" $((mb * 13 / 10 + CSBENCH_IMG_SPARE_MB))M;
		rm -rf "$stage"' \
	"$SUITE" /dev/null - >"$log" 2>&1; then
	tail -n 5 "$log" >&2
	die "mmdebstrap failed (see $log)"
fi
[ -s "$tmp" ] || die "mmdebstrap produced no image (see $log)"
mv "$tmp" "$img"
trap - EXIT
note "built in $(($(date +%s) - start))s: $img"
echo "$img"
