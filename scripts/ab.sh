#!/bin/sh
# An interleaved A/B run of two revisions of the patch series (or any two
# kernels): build both, then alternate them boot by boot, A B B A A B ...,
# every boot running the same cells (one block: each workload in each mode,
# the mode order rotating by block), and compare B against A paired by
# block. Drift between boots hits both sides of a block alike, which is what
# lets a small change show; two runs made on different days cannot be
# paired.
#
# usage: scripts/ab.sh OLD NEW [csbench run options...]
#   OLD, NEW   patch series directories (PATCHSET=...), "none" for the
#              unpatched tree, or bzImage files
#        scripts/ab.sh --resume DIR    finish an interrupted session
# Environment: AB_BLOCKS (default 6), AB_THRESHOLD (percent, default 5),
# AB_PROFILE (default quick), AB_RESULTS (default results).
# Output: AB_RESULTS/ab-<stamp>/{a,b}/ (two run directories of one session),
# ab.info (what --resume needs) and compare.md. Exit codes: compare's (0, or
# 1: a regression); 2: bad input or a build that failed; 3: a guest crashed
# or hung in some cell (that cell is recorded and left out, the session
# goes on; 3 unless a regression was found); 130: interrupted (resume it).
set -u
STAGE=ab
. "$(dirname "$0")/common.sh"

# Exit 1 means "a regression": nothing else may use it.
die() {
	echo "$STAGE: error: $*" >&2
	exit 2
}

info_get() {	# info_get KEY: a value from the session's ab.info
	sed -n "s/^$1 //p" "$dir/ab.info"
}

if [ "${1:-}" = --resume ]; then
	[ $# -eq 2 ] && [ -r "$2/ab.info" ] || die "usage: scripts/ab.sh --resume DIR (DIR/ab.info)"
	dir=$2
	old=$(info_get old) new=$(info_get new) session=$(info_get session)
	blocks=$(info_get blocks)
	# shellcheck disable=SC2046
	set -- $(info_get args)
	resumed=1
else
	[ $# -ge 2 ] || die "usage: scripts/ab.sh OLD NEW [csbench run options]"
	old=$1 new=$2
	shift 2
	resumed=0
fi
[ $resumed = 1 ] || blocks=${AB_BLOCKS:-6}
case $blocks in
'' | *[!0-9]*) die "AB_BLOCKS=$blocks: expected a number of blocks" ;;
esac
[ "$blocks" -ge 2 ] || die "AB_BLOCKS=$blocks: a paired comparison needs at least 2"
csbench=$TOP/build/csbench

# A bzImage is taken as it is; a series directory is built (cached).
kernel_of() {
	if [ -f "$1" ] && [ "$(basename "$1")" = bzImage ]; then
		echo "$1"
	else
		k=$(PATCHSET=$1 "$TOP/scripts/kernel-build.sh") || exit 1
		echo "$k/bzImage"
	fi
}
if [ $resumed = 1 ]; then
	# The very kernels the session began with (its series may be gone).
	ka=$(info_get kernel_a) kb=$(info_get kernel_b)
	[ -r "$ka" ] && [ -r "$kb" ] ||
		die "$dir/ab.info: the session's kernels $ka and $kb are not both there"
else
	ka=$(kernel_of "$old") || die "cannot build the kernel of OLD=$old"
	kb=$(kernel_of "$new") || die "cannot build the kernel of NEW=$new"
fi
image=$("$TOP/scripts/image-build.sh") || die "cannot build the image"
[ "$ka" != "$kb" ] || note "OLD and NEW are the same kernel: an A/A run"

if [ $resumed = 0 ]; then
	stamp=$(date +%Y%m%d-%H%M%S)
	dir=${AB_RESULTS:-$TOP/results}/ab-$stamp-$$
	session=$stamp-$$
	mkdir -p "$dir" || die "cannot create $dir"
	printf 'old %s\nnew %s\nsession %s\nkernel_a %s\nkernel_b %s\nblocks %s\nargs %s\n' \
		"$old" "$new" "$session" "$ka" "$kb" "$blocks" "$*" >"$dir/ab.info"
fi
note "session $session: $blocks blocks, A = $ka, B = $kb, into $dir"
guest_failed=0

run_side() {	# run_side SIDE KERNEL BLOCK [options]
	side=$1 kernel=$2 block=$3
	shift 3
	"$csbench" run --quiet --dir "$dir/$side" --reps "$block" \
		--ab-session "$session" --ab-side "$side" \
		--profile "${AB_PROFILE:-quick}" --kernel "$kernel" \
		--initrd "$TOP/build/initramfs.cpio" --image "$image" \
		--bin "$TOP/build/guest" "$@" >/dev/null
	code=$?
	case $code in
	0) ;;
	3)
		note "block $block, side $side: a guest crashed or hung; its cell is" \
			"recorded as guest-failed in $dir/$side and left out"
		guest_failed=1
		;;
	130)
		note "interrupted in block $block; continue with: scripts/ab.sh --resume $dir"
		exit 130
		;;
	*)
		note "block $block, side $side: csbench run exited $code; cells kept in $dir/$side;" \
			"continue with: scripts/ab.sh --resume $dir"
		exit 2
		;;
	esac
}

t0=$(date +%s)
b=1
while [ $b -le "$blocks" ]; do
	# A B, then B A: each side goes first as often as second.
	if [ $((b % 2)) -eq 1 ]; then
		run_side a "$ka" $b "$@"
		run_side b "$kb" $b "$@"
	else
		run_side b "$kb" $b "$@"
		run_side a "$ka" $b "$@"
	fi
	note "block $b of $blocks done ($(($(date +%s) - t0)) s)"
	b=$((b + 1))
done
"$csbench" report --no-plots "$dir/a" >/dev/null &&
	"$csbench" report --no-plots "$dir/b" >/dev/null ||
	die "cannot build the reports of $dir/a and $dir/b"
"$csbench" compare --threshold "${AB_THRESHOLD:-5}" "$dir/a" "$dir/b" >"$dir/compare.md"
code=$?
[ $code -le 1 ] || die "csbench compare failed (exit $code)"
sed -n '1,/^## Rows/p' "$dir/compare.md" | sed '$d'
note "$(($(date +%s) - t0)) s for $blocks blocks; full comparison: $dir/compare.md"
[ $code -eq 0 ] && [ $guest_failed = 1 ] && exit 3
exit $code
