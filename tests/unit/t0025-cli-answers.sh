#!/bin/sh
# What a new user met first and what gave a wrong answer without a word:
# a report over a manifest from another run, --resume ignoring a typed
# option, doubled or wrong message prefixes, arguments silently ignored,
# defaults that only worked from inside the checkout.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
cs=${CSBENCH_BUILD:-$top/build}/csbench
ref=$top/results/$(cat "$top/results/REFERENCE")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A manifest copied from a smoke run under KVM over the reference's cells.
cp -r "$ref" "$tmp/run"
sed -e 's/"reps": [0-9]*/"reps": 1/' "$ref/manifest.json" >"$tmp/run/manifest.json"
"$cs" report "$tmp/run" --no-plots >/dev/null 2>"$tmp/err"
code=$?
tap_ok "report over a manifest with fewer repetitions than the cells: exit 2 (got $code)" \
	[ $code -eq 2 ]
tap_grep "and says which" "does not describe these cells: it says 1 repetitions" "$tmp/err"
sed -e 's/"accel": "tcg"/"accel": "kvm"/' "$ref/manifest.json" >"$tmp/run/manifest.json"
"$cs" report "$tmp/run" --no-plots >/dev/null 2>"$tmp/err"
code=$?
tap_ok "a manifest saying kvm over TCG boots: exit 2 (got $code)" [ $code -eq 2 ]
tap_grep "and names both" "it says accelerator kvm, the boots' boot.info tcg" "$tmp/err"
sed -e 's/"smt-off,/"/' "$ref/manifest.json" >"$tmp/run/manifest.json"
"$cs" report "$tmp/run" --no-plots >/dev/null 2>"$tmp/err"
code=$?
tap_ok "a manifest without a mode the cells ran: exit 2 (got $code)" [ $code -eq 2 ]
cp "$ref/manifest.json" "$tmp/run/manifest.json"
"$cs" report "$tmp/run" --no-plots >/dev/null 2>"$tmp/err"
code=$?
tap_ok "the run's own manifest: exit 0, options after the directory (got $code)" [ $code -eq 0 ]

"$cs" run --resume "$tmp/run" --profile full >/dev/null 2>"$tmp/err"
code=$?
tap_ok "--resume with a --profile the manifest does not have: exit 2 (got $code)" [ $code -eq 2 ]
tap_grep "and says what it runs" "it runs --profile quick (from its manifest), not full" "$tmp/err"
"$cs" run --resume "$tmp/run" --smt-yield 1.3 >/dev/null 2>"$tmp/err"
code=$?
tap_ok "--resume of a run at the reference's yield with --smt-yield 1.3: exit 2 (got $code)" \
	[ $code -eq 2 ]
tap_grep "and names both" "it runs --smt-yield $(jq .smt_yield.target "$ref/manifest.json") (from its manifest), not 1.3" \
	"$tmp/err"
jq 'del(.smt_yield)' "$ref/manifest.json" >"$tmp/run/manifest.json"
"$cs" run --resume "$tmp/run" --smt-yield 1.3 >/dev/null 2>"$tmp/err"
code=$?
tap_ok "--resume of a run without caps with --smt-yield: exit 2 (got $code)" [ $code -eq 2 ]
tap_grep "and says so" "it runs without vCPU caps (from its manifest), not --smt-yield 1.3" \
	"$tmp/err"
# A run at one yield taking a block at another would pair them as one.
jq '.smt_yield = {target: 1.3, period_us: 10000, core_pct: 70, achieved: []}' \
	"$ref/manifest.json" >"$tmp/run/manifest.json"
touch "$tmp/bzImage" "$tmp/initrd" "$tmp/image" && mkdir -p "$tmp/bin"
inputs="--kernel $tmp/bzImage --initrd $tmp/initrd --image $tmp/image --bin $tmp/bin"
"$cs" run --resume "$tmp/run" --smt-yield 1.15 $inputs >/dev/null 2>"$tmp/err"
code=$?
tap_ok "--resume of a run at 1.3 with --smt-yield 1.15: exit 2 (got $code)" [ $code -eq 2 ]
tap_grep "naming both" "it runs --smt-yield 1.3 (from its manifest), not 1.15" "$tmp/err"
"$cs" run --dir "$tmp/run" --reps 4 --profile quick $inputs >/dev/null 2>"$tmp/err"
code=$?
tap_ok "--dir of a run at 1.3 without --smt-yield: exit 2 (got $code)" [ $code -eq 2 ]
tap_grep "naming its yield" "runs --smt-yield 1.3: give that too" "$tmp/err"
# A run at the yield plugin's 1.3 (siblings on own host CPUs) has no
# caps: another block at 1.3 must not be refused for the caps' defaults
# (the sweep's second block was: "runs --cap-core-pct 100 --cap-period-us
# 571, not 70 and 10000"). The free-space check stops it before a boot.
jq '.smt_yield = {target: 1.3, period_us: 571, max_spin_us: 200,
		  plugin: "csbench-smt-yield.so", achieved: []} |
    .emulation = {key: "concurrent", name: "siblings on own host CPUs", cores: 1, threads: 2}' \
	"$ref/manifest.json" >"$tmp/run/manifest.json"
"$cs" run --dir "$tmp/run" --reps 4 --profile quick --smt-yield 1.3 --min-free-mb 1048576 \
	$inputs >/dev/null 2>"$tmp/err"
tap_ok "--dir of a yield-plugin run at 1.3, another block at 1.3: no caps refusal" \
	sh -c "! grep -q 'cap-core-pct' '$tmp/err'"
tap_grep "it goes on to the next check (here: free space)" "free" "$tmp/err"
# A run cut short is counted against the cells its manifest plans.
cp "$ref/manifest.json" "$tmp/run/manifest.json"
planned=$(jq .cells "$ref/manifest.json")
mkdir -p "$tmp/short" && cp -r "$ref/." "$tmp/short/"
rm -f "$tmp/short"/cells/*.r3.json
present=$(ls "$tmp/short/cells" | grep -c '\.json$')
"$cs" report "$tmp/short" --no-plots >/dev/null 2>&1
tap_grep "report.md of a run cut short: counts against the plan" \
	"$present cells of $planned planned" "$tmp/short/report.md"
"$cs" show "$tmp/short" >"$tmp/show" 2>&1
tap_grep "show says it is incomplete" \
	"Incomplete run: $present of the $planned cells" "$tmp/show"
# One block: no row has a test, and the footnote does not count "0 workloads".
mkdir -p "$tmp/one" && cp -r "$ref/." "$tmp/one/" && rm -f "$tmp/one"/cells/*.r[2-9].json
jq '.reps = 1 | .cells = ((.cells / 3) | floor)' "$ref/manifest.json" \
	>"$tmp/one/manifest.json"
"$cs" report "$tmp/one" --no-plots >/dev/null 2>&1
tap_grep "one block: the footnote says no row has a test" \
	"no row has a test (fewer than two blocks)" "$tmp/one/report.md"
# The distance from the target is the report's arithmetic, not the manifest's.
jq '.smt_yield = {target: 1.3, period_us: 10000, core_pct: 70,
		  achieved: [{boot: 1, yield: 0.9, off_pct: 0}]}' \
	"$ref/manifest.json" >"$tmp/run/manifest.json"
"$cs" report "$tmp/run" --no-plots >/dev/null 2>"$tmp/err"
tap_grep "a boot 31% off its yield with off_pct 0 is still called off" \
	"1 of 1 boots were further than" "$tmp/run/report.md"
cp "$ref/manifest.json" "$tmp/run/manifest.json"

"$cs" run --reps 0 >/dev/null 2>"$tmp/err"
tap_grep "one prefix per message" "^csbench run: error: --reps 0: out of range" "$tmp/err"
"$cs" calibrate --mode nope >/dev/null 2>"$tmp/err"
code=$?
tap_ok "calibrate --mode nope: exit 2 (got $code)" [ $code -eq 2 ]
tap_grep "blamed on calibrate's --mode" "^csbench calibrate: error: --mode nope" "$tmp/err"
"$cs" calibrate --from "$tmp/nope" >/dev/null 2>"$tmp/err"
code=$?
tap_ok "calibrate --from a missing directory: exit 2 (got $code)" [ $code -eq 2 ]
"$cs" show >/dev/null 2>"$tmp/err"
tap_grep "show without a directory: one prefix" "^csbench show: error: expected one run" "$tmp/err"
"$cs" list foo >/dev/null 2>"$tmp/err"
code=$?
tap_ok "list foo: refused, exit 2 (got $code)" [ $code -eq 2 ]

(cd "$tmp" && "$cs" list) >"$tmp/out" 2>"$tmp/err"
code=$?
tap_ok "list from outside the checkout: exit 0 (got $code)" [ $code -eq 0 ]
tap_grep "with the checkout's workloads" "^workloads ($top/workloads)" "$tmp/out"
"$cs" run --help >"$tmp/out" 2>&1
tap_grep "run --help says where the inputs come from" "checkout it was built in" "$tmp/out"
tap_done
