#!/bin/sh
# A yield sweep end to end at smoke size (TCG): scripts/sweep.sh at yields
# 1.0 and 1.3, two blocks, one workload in three modes; every boot's
# measured yield recorded (and within 10% with time-shared caps), the blocks
# interleaved by yield, sweep.md/json and the plot written. TAP.
#   tests/yield/sweep-smoke.sh OUT KERNEL INITRD IMAGE BIN
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
out=$1 kernel=$2 initrd=$3 image=$4 bin=$5
rm -rf "$out" && mkdir -p "$out"

YIELDS="1.0 1.3" SWEEP_BLOCKS=2 SWEEP_PROFILE=smoke SWEEP_RESULTS=$out \
	"$top/scripts/sweep.sh" --kernel "$kernel" --initrd "$initrd" --image "$image" \
	--bin "$bin" --accel tcg --workloads cpu-vs-cpu --modes smt-off,smt-on,coresched \
	>"$out/sweep.log" 2>&1
code=$?
tap_ok "scripts/sweep.sh exits 0 (got $code; log $out/sweep.log)" [ $code -eq 0 ]
dir=$(ls -d "$out"/sweep-* 2>/dev/null | head -n 1)
tap_ok "one run directory per yield" test -d "$dir/y1.00" -a -d "$dir/y1.30"
# The CFS caps of time-shared siblings land within 2% of their target,
# and are held to 10%. The yield plugin's boots (siblings on their own
# host CPUs) spread too far for a smoke test to gate: 0.93 to 1.37 at
# 1.0 and 1.16 to 1.42 at 1.3 in 15 boots on the 2-CPU host, with the
# plugin's own books at 0.99-1.04 and 1.20-1.34 (docs/emulation.md). For
# them the worst distance is printed and the report names every boot
# more than 10% off; the target belongs to the benchmark, not this test.
layout=$(jq -r .emulation.key "$dir/y1.30/manifest.json" 2>/dev/null)
for y in y1.00 y1.30; do
	n=$(jq '.smt_yield.achieved | length' "$dir/$y/manifest.json" 2>/dev/null || echo 0)
	tap_ok "$y: a measured yield for each of its 2 boots ($n)" [ "$n" = 2 ]
	off=$(jq -r '[.smt_yield.achieved[].off_pct | fabs] | max | . * 10 | round / 10' "$dir/$y/manifest.json" \
		2>/dev/null || echo none)
	if [ "$layout" = concurrent ]; then
		tap_skip "$y: every boot within 10% of its target (worst $off%)" \
			"the yield plugin's spread is a benchmark target (issue 22), not gated here"
	else
		tap_ok "$y: every boot within 10% of its target (worst $off%)" \
			awk -v x="$off" 'BEGIN { exit !(x != "none" && x + 0 <= 10) }'
	fi
	n=$(ls "$dir/$y/cells" 2>/dev/null | grep -c '\.json$')
	tap_ok "$y: 6 cells (3 modes x 2 blocks) stored ($n)" [ "$n" = 6 ]
done
# Interleaved: boot 1 of one yield, then both yields' boots 1, then 2.
order=$(for y in y1.00 y1.30; do
	for b in 1 2; do
		printf '%s %s\n' "$(stat -c %Y "$dir/$y/boots/$b/boot.info" 2>/dev/null)" "$y.$b"
	done
done | sort -n | cut -d' ' -f2 | tr '\n' ' ')
tap_ok "blocks interleaved by yield, the order rotated ($order)" \
	[ "$order" = "y1.00.1 y1.30.1 y1.30.2 y1.00.2 " ]
# The model the report names follows the layout the run used: the yield
# plugin on siblings with their own host CPUs, CFS caps on time-shared ones.
if [ "$layout" = concurrent ]; then
	model="the yield plugin slows each of two busy siblings to 1.30/2 of a lone one's speed"
else
	model="the two together are capped at 70% of it and each alone at 70%/1.30"
fi
tap_grep "y1.30's report says the emulated model ($layout)" \
	"$model" "$dir/y1.30/report.md"
tap_ok "sweep.md written" [ -s "$dir/sweep.md" ]
tap_grep "with the crossover column" "measured crossover" "$dir/sweep.md"
tap_ok "sweep.json has both points" [ "$(jq '.points | length' "$dir/sweep.json")" = 2 ]
tap_ok "the gain-vs-yield plot drawn" [ -s "$dir/plots/gain-vs-yield.svg" ]
cpu_cg=/sys/fs/cgroup/cpu
[ -d "$cpu_cg" ] || cpu_cg=/sys/fs/cgroup
tap_ok "no csbench cgroup left after it" sh -c "! ls -d $cpu_cg/csbench-* 2>/dev/null"
tap_done
