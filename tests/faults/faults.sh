#!/bin/sh
# End-to-end faults on the real kernel and image (make bench-faults, part
# of make check): a guest panic and a hung guest mid-run, Ctrl-C and
# --resume (disk-full.sh does the full disk). Each must give a clear
# message and keep every cell already finished.
#
#   faults.sh OUT KERNEL INITRD IMAGE BIN
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$1 kernel=$2 initrd=$3 image=$4 bin=$5
csbench=$top/build/csbench
wl=$top/tests/faults/workloads
. "$top/tests/tap.sh"
rm -rf "$out" && mkdir -p "$out"

run() {	# run RESULTS-DIR ARGS...: csbench run, smoke profile, fault workloads
	results=$1
	shift
	"$csbench" run --profile smoke --workload-dir "$wl" --modes smt-on \
		--reps 1 --results "$results" --kernel "$kernel" --initrd "$initrd" \
		--image "$image" --bin "$bin" "$@"
}

status_of() {	# status_of RUN-DIR CELL: the cell's status, or "missing"
	jq -r .status "$1/cells/$2.json" 2>/dev/null || echo missing
}

wait_for_cell() {	# wait_for_cell RUN-PARENT SECONDS: until one cell is stored
	i=0
	while [ $i -lt "$2" ]; do
		ls "$1"/*/cells/*.json >/dev/null 2>&1 && return 0
		sleep 1
		i=$((i + 1))
	done
	return 1
}

no_qemu_left() {	# no QEMU process still runs a guest of this run
	! pgrep -f "qemu-system.*$1" >/dev/null
}

# ---- a panic and a hang in one run: both cells failed, the run goes on.
run "$out/crash" --workloads hang,panic,short --hang-after 45 \
	>"$out/crash.out" 2>"$out/crash.err"
code=$?
d=$(ls -d "$out"/crash/*)
tap_ok "a run with guest failures exits 3 (got $code)" [ $code -eq 3 ]
tap_ok "hung guest: cell marked guest-failed" [ "$(status_of "$d" hang.smt-on.r1)" = guest-failed ]
tap_grep "hung guest: the cell says no progress" "no progress in" "$d/cells/hang.smt-on.r1.json"
tap_ok "panicked guest: cell marked guest-failed" [ "$(status_of "$d" panic.smt-on.r1)" = guest-failed ]
tap_grep "panicked guest: the cell names the panic" "sysrq" "$d/cells/panic.smt-on.r1.json"
console=$(jq -r .console "$d/cells/panic.smt-on.r1.json")
tap_grep "panicked guest: its console log is kept" "Kernel panic" "$console"
tap_ok "the cell after both faults ran: ok" [ "$(status_of "$d" short.smt-on.r1)" = ok ]
tap_ok "three boots for three cells" [ "$(ls "$d/boots" | wc -l)" -eq 3 ]
tap_grep "the error names the cell and the console" "cell panic.smt-on.r1: guest crashed" "$out/crash.err"

# ---- Ctrl-C mid-run, then --resume: nothing finished is run again.
run "$out/intr" --reps 6 --workloads short >"$out/intr.out" 2>"$out/intr.err" &
pid=$!	# the subshell running csbench: Ctrl-C goes to csbench itself
wait_for_cell "$out/intr" 300
first=$(ls "$out"/intr/*/cells/*.json | head -n 1)
cp "$first" "$out/first.json"
pkill -INT -P $pid -x csbench
wait $pid
code=$?
d=$(ls -d "$out"/intr/*)
tap_ok "Ctrl-C: exit 130 (got $code)" [ $code -eq 130 ]
tap_grep "Ctrl-C: says how to go on" "continue with: make bench RESUME=$d" "$out/intr.err"
tap_ok "Ctrl-C: no QEMU left running" no_qemu_left "$d"
tap_ok "Ctrl-C: the finished cell is kept" cmp -s "$first" "$out/first.json"
tap_ok "Ctrl-C: not all cells had run" [ "$(ls "$d"/cells/*.json | wc -l)" -lt 6 ]
# The matrix comes from the manifest: only the inputs are given.
"$csbench" run --resume "$d" --workload-dir "$wl" --kernel "$kernel" --initrd "$initrd" \
	--image "$image" --bin "$bin" >"$out/resume.out" 2>"$out/resume.err"
code=$?
tap_ok "--resume finishes the run: exit 0 (got $code)" [ $code -eq 0 ]
tap_ok "--resume: all six cells ok" [ "$(cat "$d"/cells/*.json | jq -r .status | grep -c '^ok$')" -eq 6 ]
tap_ok "--resume: the finished cell was not run again" cmp -s "$first" "$out/first.json"
tap_ok "--resume: the manifest's matrix was kept" "$csbench" verify "$d"

tap_done
