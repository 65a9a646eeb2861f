#!/bin/sh
# A yield sweep (TCG): the same matrix at several emulated SMT yields
# (csbench run --smt-yield Y, one run directory per yield), interleaved
# boot by boot: block b boots every yield once, the order rotated by block,
# so drift in the host's speed falls on every yield alike. Then a report
# per yield and csbench sweep over them: per workload, coresched and
# smt-on against smt-off at each measured yield, the crossover yield and
# the breakeven the model predicts from the Y = 1.0 run.
#
# usage: scripts/sweep.sh [csbench run options...]
#        scripts/sweep.sh --resume DIR    finish an interrupted sweep
# Environment: YIELDS (default "1.0 1.15 1.3"; 2 to 8 of them, 1.0 to 2.0),
# SWEEP_BLOCKS (default 3), SWEEP_PROFILE (default quick), SWEEP_RESULTS
# (default results).
# Output: SWEEP_RESULTS/sweep-<stamp>/y<Y>/ (a run directory per yield),
# sweep.info and sweep.args (what --resume needs), sweep.md, sweep.json,
# plots/. Run options go to every run; --dir, --reps, --profile,
# --smt-yield, --rev and --resume are the sweep's own and refused.
# Exit codes: 0; 2: bad input or a step that failed; 3: a guest crashed
# or hung in some cell (recorded, left out, the sweep goes on); 130:
# interrupted (resume it).
set -u
STAGE=sweep
. "$(dirname "$0")/common.sh"

die() {
	echo "$STAGE: error: $*" >&2
	exit 2
}

info_get() {	# info_get KEY: a value from the sweep's sweep.info
	sed -n "s/^$1 //p" "$dir/sweep.info"
}

if [ "${1:-}" = --resume ]; then
	[ $# -eq 2 ] && [ -r "$2/sweep.info" ] && [ -r "$2/sweep.args" ] ||
		die "usage: scripts/sweep.sh --resume DIR (DIR/sweep.info and DIR/sweep.args)"
	dir=$2
	yields=$(info_get yields) blocks=$(info_get blocks) profile=$(info_get profile)
	# One argument per line: paths with spaces survive.
	set --
	while IFS= read -r arg; do
		set -- "$@" "$arg"
	done <"$dir/sweep.args"
	resumed=1
else
	yields=${YIELDS:-1.0 1.15 1.3} blocks=${SWEEP_BLOCKS:-3}
	profile=${SWEEP_PROFILE:-quick}
	resumed=0
fi
# The sweep sets these for every run; one given too (in the arguments or
# SWEEP_ARGS) would silently win for some runs and not others.
for arg in "$@"; do
	case $arg in
	--dir | --dir=* | --reps | --reps=* | --profile | --profile=* | --smt-yield | \
	--smt-yield=* | --resume | --resume=* | --rev | --rev=*)
		die "${arg%%=*}: the sweep sets it for every run (SWEEP_PROFILE," \
			"SWEEP_BLOCKS, YIELDS and SWEEP_RESULTS choose them); leave it out" ;;
	esac
done
case $blocks in
'' | *[!0-9]*) die "SWEEP_BLOCKS=$blocks: expected a number of blocks" ;;
esac
[ "$blocks" -ge 2 ] || die "SWEEP_BLOCKS=$blocks: a paired comparison needs at least 2"
# Each yield a number from 1.0 to 2.0, no two the same to two decimals
# (the directories are named by it), 2 to 8 of them.
names=$(printf '%s\n' $yields | awk '
	!/^[0-9]+(\.[0-9]+)?$/ || $1 < 1 || $1 > 2 {
		print "YIELDS: " $1 ": expected numbers from 1.0 to 2.0" > "/dev/stderr"; bad = 1; exit }
	{ name = sprintf("y%.2f", $1); if (seen[name]++) {
		print "YIELDS: " $1 " twice (to two decimals)" > "/dev/stderr"; bad = 1; exit }
	  print name " " $1; n++ }
	END { if (!bad && (n < 2 || n > 8)) {
		print "YIELDS: " n " yields; a sweep takes 2 to 8" > "/dev/stderr"; bad = 1 }
	      exit bad }') || die "YIELDS=\"$yields\" is not a sweep"
count=$(echo "$names" | wc -l)
csbench=$TOP/build/csbench

if [ $resumed = 0 ]; then
	stamp=$(date +%Y%m%d-%H%M%S)
	dir=${SWEEP_RESULTS:-$TOP/results}/sweep-$stamp-$$
	mkdir -p "$dir" || die "cannot create $dir"
	printf 'yields %s\nblocks %s\nprofile %s\n' "$yields" "$blocks" "$profile" \
		>"$dir/sweep.info"
	for arg in "$@"; do
		printf '%s\n' "$arg"
	done >"$dir/sweep.args"
fi
note "sweep of $count yields ($yields), $blocks blocks, into $dir"
# A guest failure before an interruption still decides the exit code.
guest_failed=$(info_get guest_failed)
guest_failed=${guest_failed:-0}

run_yield() {	# run_yield NAME YIELD BLOCK [options]
	name=$1 yield=$2 block=$3
	shift 3
	"$csbench" run --quiet --dir "$dir/$name" --reps "$block" --profile "$profile" \
		--smt-yield "$yield" --rev "$name" "$@" >/dev/null
	code=$?
	case $code in
	0) ;;
	3)
		note "block $block, yield $yield: a guest crashed or hung; its cell is" \
			"recorded as guest-failed in $dir/$name and left out"
		[ "$guest_failed" = 1 ] || echo "guest_failed 1" >>"$dir/sweep.info"
		guest_failed=1
		;;
	130)
		note "interrupted in block $block; continue with: scripts/sweep.sh --resume $dir"
		exit 130
		;;
	*)
		note "block $block, yield $yield: csbench run exited $code; cells kept in" \
			"$dir/$name; continue with: scripts/sweep.sh --resume $dir"
		exit 2
		;;
	esac
}

t0=$(date +%s)
b=1
while [ $b -le "$blocks" ]; do
	# Rotate: block b starts at the yield b - 1 places down the list.
	order=$(echo "$names" | awk -v b=$b -v n="$count" \
		'{ line[NR - 1] = $0 } END { for (i = 0; i < n; i++) print line[(i + b - 1) % n] }')
	echo "$order" >"$dir/.order"
	while read -r name yield; do
		run_yield "$name" "$yield" $b "$@" </dev/null
	done <"$dir/.order"
	note "block $b of $blocks done ($(($(date +%s) - t0)) s)"
	b=$((b + 1))
done
rm -f "$dir/.order"
echo "$names" | while read -r name yield; do
	"$csbench" report --no-plots "$dir/$name" >/dev/null ||
		die "cannot build the report of $dir/$name"
done || exit 2
"$csbench" sweep "$dir" || die "csbench sweep $dir failed"
note "$(($(date +%s) - t0)) s for $blocks blocks of $count yields; tables: $dir/sweep.md"
[ $guest_failed = 1 ] && exit 3
exit 0
