#!/bin/sh
# End-to-end: no path or workload field reaches a shell. A run whose
# results directory, workload directory and checkout path (reached
# through a symlink) hold a quote, spaces, $(...), a newline and a
# leading '-' must run, report and verify like any other, and a workload
# whose "requires" names a tool with shell syntax in it must be refused
# as a missing tool. Every $(touch ...) would leave a file named PWNED*:
# none may exist anywhere under the test's directory afterwards.
#
#   hostile-paths.sh OUT KERNEL INITRD IMAGE BIN
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
rm -rf "$1" && mkdir -p "$1" || exit 1
# Absolute: the test runs from inside OUT, where a stray touch would land.
out=$(realpath "$1") kernel=$(realpath "$2") initrd=$(realpath "$3")
image=$(realpath "$4") bin=$(realpath "$5")
cd "$out" || exit 1
nl='
'
evil="-it's a \$(touch PWNED1) \`touch PWNED2\`${nl}dir"
mkdir -p "$out/$evil/wl" "$out/$evil/results"
cp "$top/tests/faults/workloads/short.wl" "$out/$evil/wl/"
# The checkout reached through a hostile symlink: csbench finds its
# workloads and plugin relative to its own binary.
ln -s "$top" "$out/co'\$(touch PWNED3)"
csbench="$out/co'\$(touch PWNED3)/build/csbench"

"$csbench" run --profile smoke --workload-dir "$out/$evil/wl" --workloads short \
	--modes smt-on --reps 1 --results "$out/$evil/results" --kernel "$kernel" \
	--initrd "$initrd" --image "$image" --bin "$bin" >"$out/run.out" 2>"$out/run.err"
code=$?
tap_ok "a run under a hostile results path exits 0 (got $code; $(tail -n 2 "$out/run.err"))" \
	[ $code -eq 0 ]
# A glob, not $(find | head): the path holds a newline.
d=
for run_dir in "$out/$evil/results"/*; do
	d=$run_dir
done
tap_ok "its cell is ok" [ "$(jq -r .status "$d/cells/short.smt-on.r1.json" 2>/dev/null)" = ok ]
"$csbench" report --no-plots "$d" >"$out/report.out" 2>&1
tap_ok "report reads it (exit $?)" [ -s "$d/report.md" ]
"$csbench" verify "$d" >"$out/verify.out" 2>&1
tap_ok "verify passes it (exit $?)" [ $? -eq 0 ]

# A tool name with shell syntax in "requires": a missing tool, never run.
mkdir -p "$out/wl2"
sed "s/^requires .*/requires    sysbench;touch\${IFS}PWNED4 \$(touch\${IFS}PWNED5)/" \
	"$top/tests/faults/workloads/short.wl" >"$out/wl2/short.wl"
"$csbench" run --profile smoke --workload-dir "$out/wl2" --workloads short \
	--modes smt-on --reps 1 --results "$out/r2" --kernel "$kernel" --initrd "$initrd" \
	--image "$image" --bin "$bin" >"$out/run2.out" 2>"$out/run2.err"
code=$?
tap_ok "a requires with shell syntax: the run does not pass (exit $code)" [ $code -ne 0 ]
cat "$out/run2.err" "$out"/r2/*/cells/*.json >"$out/run2.said" 2>/dev/null
tap_grep "and the parser or the cell names the tool" "touch" "$out/run2.said"

found=$(find "$out" "$top/build" -name 'PWNED*' 2>/dev/null; ls / | grep PWNED)
tap_ok "no command from a path or field ran${found:+ (found: $found)}" [ -z "$found" ]
tap_done
