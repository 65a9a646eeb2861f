#!/bin/sh
# A yield sweep end to end at smoke size (TCG): scripts/sweep.sh at yields
# 1.0 and 1.3, two blocks, one workload in three modes; every boot's
# measured yield recorded and within its layout's tolerance, the blocks
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
# The CFS caps of time-shared siblings land within 2% of their target;
# the yield plugin on siblings with their own host CPUs reads low at 1.3
# (1.16 to 1.27 in four boots on the 2-CPU host; sibling 0 below its
# share while its books say 1.32, consistent with vCPU 0's thread also
# running QEMU's device work, which the books count as the guest's), so
# its boots get 15%. docs/emulation.md has the figures.
tol=10
[ "$(jq -r .emulation.key "$dir/y1.30/manifest.json" 2>/dev/null)" = concurrent ] && tol=15
for y in y1.00 y1.30; do
	n=$(jq '.smt_yield.achieved | length' "$dir/$y/manifest.json" 2>/dev/null || echo 0)
	tap_ok "$y: a measured yield for each of its 2 boots ($n)" [ "$n" = 2 ]
	off=$(jq -r '[.smt_yield.achieved[].off_pct | fabs] | max | . * 10 | round / 10' "$dir/$y/manifest.json" \
		2>/dev/null || echo none)
	tap_ok "$y: every boot within $tol% of its target (worst $off%)" \
		awk -v x="$off" -v tol="$tol" 'BEGIN { exit !(x != "none" && x + 0 <= tol + 0) }'
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
if [ "$(jq -r .emulation.key "$dir/y1.30/manifest.json" 2>/dev/null)" = concurrent ]; then
	model="the yield plugin slows each of two busy siblings to 1.30/2 of a lone one's speed"
else
	model="the two together are capped at 70% of it and each alone at 70%/1.30"
fi
tap_grep "y1.30's report says the emulated model ($(jq -r .emulation.key "$dir/y1.30/manifest.json" 2>/dev/null))" \
	"$model" "$dir/y1.30/report.md"
tap_ok "sweep.md written" [ -s "$dir/sweep.md" ]
tap_grep "with the crossover column" "measured crossover" "$dir/sweep.md"
tap_ok "sweep.json has both points" [ "$(jq '.points | length' "$dir/sweep.json")" = 2 ]
tap_ok "the gain-vs-yield plot drawn" [ -s "$dir/plots/gain-vs-yield.svg" ]
cpu_cg=/sys/fs/cgroup/cpu
[ -d "$cpu_cg" ] || cpu_cg=/sys/fs/cgroup
tap_ok "no csbench cgroup left after it" sh -c "! ls -d $cpu_cg/csbench-* 2>/dev/null"
tap_done
