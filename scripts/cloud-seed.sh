#!/bin/sh
# Build the cloud-init NoCloud seed a cloud-image guest boots with (csbench
# run --cloud-image): an ISO 9660 volume labelled cidata holding
# guest-image/cloud/{user-data,meta-data,network-config}, made by Debian's
# cloud-localds. Attached read-only as a second virtio disk. Prints the
# seed's path on stdout; cached by a hash of its inputs.
set -eu
STAGE=cloud-seed
. "$(dirname "$0")/common.sh"

command -v cloud-localds >/dev/null || die "cloud-localds not installed (run: make deps)"
src=$TOP/guest-image/cloud
for f in user-data meta-data network-config; do
	[ -r "$src/$f" ] || die "$src/$f missing"
done
key=$(hash_files "$0" "$src/user-data" "$src/meta-data" "$src/network-config" | short_hash)
seed=$CSBENCH_CACHE/cloud-seed/seed-$key.iso
if [ -r "$seed" ]; then
	echo "$seed"
	exit 0
fi
mkdir -p "$CSBENCH_CACHE/cloud-seed"
cloud-localds --network-config="$src/network-config" "$seed.tmp" \
	"$src/user-data" "$src/meta-data" ||
	{ rm -f "$seed.tmp"; die "cloud-localds failed for $src"; }
mv "$seed.tmp" "$seed"
echo "$seed"
