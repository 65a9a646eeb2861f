#!/bin/sh
# make cloud-image: build a stand-in for Debian's official genericcloud
# qcow2, for machines that cannot download it. It is laid out as Debian's
# is (a 3 GiB GPT disk: BIOS boot in partition 14, the EFI system
# partition in 15, root ext4 in 1 to the end; no filesystem labels; fstab
# by PARTUUID), holds systemd with networkd and resolved enabled,
# cloud-init with Debian's own configuration, the genericcloud package set
# (guest-image/cloud/standin-packages.txt) and none of the benchmark
# tools, so csbench run
# --cloud-image takes exactly the path a downloaded image takes. What it
# lacks (the Debian kernel's modules and GRUB: csbench boots its own
# kernel directly) is listed in docs/guest.md.
#
# Made without root privileges on devices: mmdebstrap writes the tree into
# an ext4 image (mke2fs -d), mkfs.vfat makes the ESP, sgdisk the partition
# table of a raw disk the two are copied into, qemu-img the qcow2.
# Prints the image's path on stdout; cached by a hash of its inputs.
set -eu
STAGE=cloud-image
. "$(dirname "$0")/common.sh"

SUITE=${SUITE:-bookworm}
list=$TOP/guest-image/cloud/standin-packages.txt
packages=$(sed -e 's/#.*//' "$list" | xargs | tr ' ' ',')
sources=$("$TOP/scripts/apt-sources.sh" "$SUITE")
[ -n "$sources" ] || die "no Debian $SUITE entry in this host's apt sources (/etc/apt)"
for tool in mmdebstrap mke2fs mkfs.vfat sgdisk qemu-img; do
	command -v "$tool" >/dev/null || die "$tool not installed (run: make deps)"
done

key=$( {
	echo "suite $SUITE"
	echo "packages $packages"
	echo "$sources"
	hash_files "$0" "$list" "$TOP/guest-image/cloud/01_debian_cloud.cfg"
} | short_hash)
dir=$CSBENCH_CACHE/cloud-image
img=$dir/debian-12-genericcloud-standin-$key.qcow2
if [ -r "$img" ]; then
	echo "$img"
	exit 0
fi

mkdir -p "$dir"
log=$dir/standin-$key.log
tmp=$dir/standin-$key.tmp.$$
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
note "building the stand-in genericcloud image (log: $log)"
start=$(date +%s)

# Debian's layout (MiB): BIOS boot 1-4, ESP 4-128, root from 128 to the
# end of a 3 GiB disk, less the backup GPT's last MiB.
ESP_MB=124
ROOT_START_MB=128
DISK_MB=3072
export CSBENCH_ROOT_MB=$((DISK_MB - ROOT_START_MB - 1))
export CSBENCH_CLOUD_CFG="$TOP/guest-image/cloud/01_debian_cloud.cfg"
# Partition UUIDs go into fstab before the partition table exists.
export CSBENCH_ROOT_PARTUUID CSBENCH_ESP_PARTUUID CSBENCH_ROOT_IMG
CSBENCH_ROOT_PARTUUID=$(cat /proc/sys/kernel/random/uuid)
CSBENCH_ESP_PARTUUID=$(cat /proc/sys/kernel/random/uuid)
CSBENCH_ROOT_IMG=$tmp/root.ext4

if ! echo "$sources" | mmdebstrap --mode=auto --variant=minbase \
	--include="$packages" --format=null \
	--customize-hook='set -e
		printf "%s\n" \
			"# Laid out as Debian'"'"'s genericcloud image (csbench stand-in)" \
			"PARTUUID=$CSBENCH_ROOT_PARTUUID / ext4 rw,discard,errors=remount-ro,x-systemd.growfs 0 1" \
			"PARTUUID=$CSBENCH_ESP_PARTUUID /boot/efi vfat defaults 0 0" >"$1/etc/fstab"
		mkdir -p "$1/boot/efi"
		echo localhost >"$1/etc/hostname"
		: >"$1/etc/machine-id"
		rm -f "$1/var/lib/dbus/machine-id"
		cp "$CSBENCH_CLOUD_CFG" "$1/etc/cloud/cloud.cfg.d/01_debian_cloud.cfg"
		chroot "$1" systemctl enable systemd-networkd systemd-resolved
		ln -sf /run/systemd/resolve/resolv.conf "$1/etc/resolv.conf"' \
	--customize-hook='set -e; stage=$CSBENCH_ROOT_IMG.d; rm -rf "$stage"
		cp -a --one-file-system "$1" "$stage"
		mke2fs -q -t ext4 -E root_owner=0:0 -d "$stage" \
			"$CSBENCH_ROOT_IMG" ${CSBENCH_ROOT_MB}M
		rm -rf "$stage"' \
	"$SUITE" /dev/null - >"$log" 2>&1; then
	tail -n 5 "$log" >&2
	die "mmdebstrap failed (see $log)"
fi
[ -s "$tmp/root.ext4" ] || die "mmdebstrap produced no root filesystem (see $log)"

mkfs.vfat -C "$tmp/esp.vfat" $((ESP_MB * 1024)) >>"$log" 2>&1 ||
	die "mkfs.vfat failed (see $log)"
disk=$tmp/disk.raw
truncate -s ${DISK_MB}M "$disk"
sgdisk -n 14:1M:+3M -t 14:EF02 -c 14:"" \
	-n 15:4M:+${ESP_MB}M -t 15:EF00 -c 15:"" -u 15:"$CSBENCH_ESP_PARTUUID" \
	-n 1:${ROOT_START_MB}M:+${CSBENCH_ROOT_MB}M -t 1:8304 -c 1:"" -u 1:"$CSBENCH_ROOT_PARTUUID" \
	"$disk" >>"$log" 2>&1 || die "sgdisk failed (see $log)"
dd if="$tmp/esp.vfat" of="$disk" bs=1M seek=4 conv=notrunc status=none
dd if="$tmp/root.ext4" of="$disk" bs=1M seek=$ROOT_START_MB conv=notrunc status=none
qemu-img convert -f raw -O qcow2 "$disk" "$img.tmp" >>"$log" 2>&1 ||
	die "qemu-img convert failed (see $log)"
mv "$img.tmp" "$img"
note "built in $(($(date +%s) - start))s: $img ($(du -m "$img" | cut -f1) MiB)"
echo "$img"
