#!/bin/sh
# End-to-end: the results disk fills mid-run. csbench must stop with
# "disk full", keep the cells already stored intact, and --resume must
# finish once there is room. The disk is a 64 MiB tmpfs mounted in a
# private mount namespace, so nothing outside this test sees it.
#
#   disk-full.sh OUT KERNEL INITRD IMAGE BIN
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
if [ "${CSBENCH_PRIVATE_MOUNTS:-}" != 1 ]; then
	if ! unshare -m true 2>/dev/null; then
		. "$top/tests/tap.sh"
		tap_skip "disk full mid-run" "no private mount namespace (unshare -m) here"
		tap_done
	fi
	exec env CSBENCH_PRIVATE_MOUNTS=1 unshare -m --propagation private "$0" "$@"
fi
. "$top/tests/tap.sh"
out=$1 kernel=$2 initrd=$3 image=$4 bin=$5
csbench=$top/build/csbench
rm -rf "$out" && mkdir -p "$out/disk"
mount -t tmpfs -o size=64m csbench-disk-full "$out/disk" || exit 1

run() {
	"$csbench" run --profile smoke --workload-dir "$top/tests/faults/workloads" \
		--workloads short --modes smt-on --reps 3 --min-free-mb 16 \
		--kernel "$kernel" --initrd "$initrd" --image "$image" --bin "$bin" "$@"
}

run --results "$out/disk" >"$out/run.out" 2>"$out/run.err" &
pid=$!
i=0
until ls "$out"/disk/*/cells/*.json >/dev/null 2>&1 || [ $i -ge 300 ]; do
	sleep 1
	i=$((i + 1))
done
first=$(ls "$out"/disk/*/cells/*.json | head -n 1)
cp "$first" "$out/first.json"
dd if=/dev/zero of="$out/disk/fill" bs=1M 2>/dev/null
wait $pid
code=$?
d=$(ls -d "$out"/disk/2*)
tap_ok "disk full: exit 1 (got $code)" [ $code -eq 1 ]
tap_grep "disk full: says so" "disk full: .* cells finished and kept in $d" "$out/run.err"
tap_grep "disk full: says how to go on" "continue with: make bench RESUME=$d" "$out/run.err"
tap_ok "disk full: fewer than 3 cells stored" [ "$(ls "$d"/cells/*.json | wc -l)" -lt 3 ]
tap_ok "disk full: the first cell is intact" cmp -s "$first" "$out/first.json"
tap_ok "disk full: no cell blamed on the guest" \
	[ "$(cat "$d"/cells/*.json | jq -r .status | grep -vc '^ok$')" -eq 0 ]
tap_ok "disk full: no half-written cell left" [ -z "$(ls "$d"/cells | grep '\.tmp$')" ]
rm -f "$out/disk/fill"
run --resume "$d" >"$out/resume.out" 2>"$out/resume.err"
code=$?
tap_ok "room again: --resume exits 0 (got $code)" [ $code -eq 0 ]
tap_ok "room again: all three cells ok" \
	[ "$(cat "$d"/cells/*.json | jq -r .status | grep -c '^ok$')" -eq 3 ]
# Keep the evidence outside the tmpfs, which goes with this namespace.
cp -r "$d" "$out/run"
tap_done
