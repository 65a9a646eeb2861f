#!/bin/sh
# Build the guest kernel: extract Debian's linux-source-6.1 outside the repo,
# apply a patch series, configure, verify the configuration, build bzImage
# with ccache. The result lands in a cache entry keyed by every input, so an
# unchanged input rebuilds nothing. Prints the entry's directory on stdout.
#
# Environment: FLAVOR=bench|debug, PATCHSET=DIR|none, KERNEL_TARBALL,
# CSBENCH_CACHE, JOBS.
set -eu
STAGE=kernel
. "$(dirname "$0")/common.sh"

FLAVOR=${FLAVOR:-bench}
PATCHSET=${PATCHSET:-$TOP/patchset}
KERNEL_TARBALL=${KERNEL_TARBALL:-/usr/src/linux-source-6.1.tar.xz}
JOBS=${JOBS:-$(nproc)}
CONFIG_DIR=$TOP/patchset/config

[ -r "$KERNEL_TARBALL" ] ||
	die "kernel source $KERNEL_TARBALL not found (run: make deps, which installs linux-source-6.1)"

fragments="$CONFIG_DIR/csbench.config $CONFIG_DIR/slim.config"
required="$CONFIG_DIR/required.txt"
case "$FLAVOR" in
bench) ;;
debug)
	fragments="$fragments $CONFIG_DIR/debug.config"
	required="$required $CONFIG_DIR/required-debug.txt"
	;;
*) die "FLAVOR=$FLAVOR: expected bench or debug" ;;
esac

# The series: patch paths in order, or nothing for the unpatched baseline.
patches=
revision=none
if [ "$PATCHSET" != none ]; then
	[ -r "$PATCHSET/series" ] || die "PATCHSET=$PATCHSET has no series file"
	PATCHSET=$(cd "$PATCHSET" && pwd)
	revision=$(cat "$PATCHSET/REVISION" 2>/dev/null || echo unknown)
	lineno=0
	while IFS= read -r line || [ -n "$line" ]; do
		lineno=$((lineno + 1))
		name=${line%%#*}
		name=$(echo "$name" | tr -d '[:space:]')
		[ -n "$name" ] || continue
		[ -r "$PATCHSET/$name" ] ||
			die "$PATCHSET/series:$lineno: patch $name not found"
		patches="$patches $PATCHSET/$name"
	done <"$PATCHSET/series"
fi

# What makes this build unique. The tarball is named by its Debian package
# version when dpkg owns it (hashing 130 MB on every call would cost seconds).
tar_version=$(dpkg-query -S "$KERNEL_TARBALL" >/dev/null 2>&1 &&
	dpkg-query -W -f='${Version}' linux-source-6.1 ||
	sha256sum <"$KERNEL_TARBALL" | cut -d' ' -f1)
key=$( {
	echo "tarball $(basename "$KERNEL_TARBALL") $tar_version"
	echo "flavor $FLAVOR"
	echo "gcc $(gcc -dumpfullversion)"
	# shellcheck disable=SC2086
	hash_files $patches $fragments $required "$0"
} | short_hash)
entry_name=$FLAVOR-$revision-$key
entry=$CSBENCH_CACHE/kernel/$entry_name

if [ -r "$entry/bzImage" ]; then
	echo "$entry"
	exit 0
fi

tree=$CSBENCH_CACHE/tree/$entry_name
log=$CSBENCH_CACHE/kernel/$entry_name.log
mkdir -p "$CSBENCH_CACHE/kernel" "$CSBENCH_CACHE/tree" "$CSBENCH_CACHE/ccache"
note "building $entry_name (log: $log)"
: >"$log"

# A tree is trusted only once it is fully extracted, patched and configured;
# anything short of that is thrown away and redone.
if [ ! -e "$tree/.csbench-prepared" ]; then
	rm -rf "$tree" "$tree.tmp"
	mkdir -p "$tree.tmp"
	note "extracting $KERNEL_TARBALL"
	tar -xf "$KERNEL_TARBALL" -C "$tree.tmp" --strip-components=1 ||
		die "cannot extract $KERNEL_TARBALL"
	for p in $patches; do
		if ! patch -d "$tree.tmp" -p1 --batch --forward -s <"$p" >>"$log" 2>&1; then
			rm -rf "$tree.tmp"
			die "patch $(basename "$p") does not apply (see $log)"
		fi
	done
	mv "$tree.tmp" "$tree"
	(
		cd "$tree"
		# shellcheck disable=SC2086
		KCONFIG_CONFIG=.config scripts/kconfig/merge_config.sh -m \
			arch/x86/configs/x86_64_defconfig \
			kernel/configs/kvm_guest.config $fragments
		make ARCH=x86_64 olddefconfig
	) >>"$log" 2>&1 || die "configuration failed (see $log)"

	# A symbol whose dependencies are not met vanishes in olddefconfig
	# without a word; catch every one of them here.
	missing=
	for want in $(sed -e 's/#.*//' $required); do
		sym=${want%%=*}
		val=${want#*=}
		have=$(sed -n "s/^$sym=//p" "$tree/.config")
		[ -n "$have" ] || have=n
		[ "$have" = "$val" ] || missing="$missing $sym=$have(want $val)"
	done
	[ -z "$missing" ] || die "configuration lost required symbols:$missing (see $tree/.config)"
	touch "$tree/.csbench-prepared"
fi

note "compiling bzImage with $JOBS jobs"
start=$(date +%s)
if ! (
	cd "$tree"
	export CCACHE_DIR="$CSBENCH_CACHE/ccache" CCACHE_BASEDIR="$tree" \
		CCACHE_NOHASHDIR=1 CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
	make ARCH=x86_64 -j"$JOBS" CC="ccache gcc" \
		KBUILD_BUILD_USER=csbench KBUILD_BUILD_HOST=csbench bzImage
) >>"$log" 2>&1; then
	tail -n 15 "$log" | grep -E 'error|Error' >&2 || true
	die "compilation failed (see $log)"
fi
seconds=$(($(date +%s) - start))

tmp=$entry.tmp.$$
rm -rf "$tmp"
mkdir -p "$tmp"
cp "$tree/arch/x86/boot/bzImage" "$tree/.config" "$tree/System.map" "$tmp/"
{
	echo "flavor=$FLAVOR"
	echo "patchset=${PATCHSET}"
	echo "revision=$revision"
	echo "tarball=$(basename "$KERNEL_TARBALL") $tar_version"
	echo "key=$key"
	echo "config_sha256=$(sha256sum <"$tree/.config" | cut -d' ' -f1)"
	echo "build_seconds=$seconds"
	echo "release=$(cat "$tree/include/config/kernel.release")"
} >"$tmp/info"
mv "$tmp" "$entry"
note "built in ${seconds}s: $entry"

# A built tree is 1.5 GB; keep the four most recent for incremental work.
ls -1t "$CSBENCH_CACHE/tree" | tail -n +5 | while IFS= read -r old; do
	rm -rf "${CSBENCH_CACHE:?}/tree/$old"
done
echo "$entry"
