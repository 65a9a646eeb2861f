#!/bin/sh
# csbench report on the curated reference run (results/REFERENCE names it)
# must rebuild exactly
# the committed report.md and report.csv from the raw cells, and never
# touch them. A change in the statistics shows up here as a diff to
# review; after one, rebuild the reference's report and commit it:
#   build/csbench report results/$(cat results/REFERENCE)
# compare must pass an A/A pair and flag planted regressions.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
run=$(cat "$top/results/REFERENCE")
ref=$top/results/$run
csbench=${CSBENCH_BUILD:-$top/build}/csbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/tap.sh"

mkdir -p "$tmp/results"
cp -r "$ref" "$tmp/results/"
cp "$top/results/calibration-quick-tcg.json" "$tmp/results/"
copy=$tmp/results/$run
(cd "$copy" && find cells -type f | sort | xargs sha256sum) >"$tmp/before"
"$csbench" report --no-plots "$copy" >"$tmp/stdout" 2>"$tmp/stderr"
code=$?
tap_ok "report exits 0 (got $code)" [ $code -eq 0 ]
tap_ok "report.md as committed" diff -u "$ref/report.md" "$copy/report.md"
tap_ok "report.csv as committed" diff -u "$ref/report.csv" "$copy/report.csv"
head -n 10 "$copy/report.md" >"$tmp/head"
tap_grep "report.md's first 10 lines give the answer, on throughput" \
	"^\*\*Answer:\*\* not distinguishable: coresched vs smt-off -28.2% \[-42.4, -10.6\] in throughput over 7 workloads" "$tmp/head"
tap_grep "and latency apart, in the same paragraph" \
	"Latency, apart (percentiles of 2 workloads): -58.3% \[-79.5, -15.1\], not distinguishable" "$tmp/head"
tap_grep "and the overall row first in a narrow table" \
	"^| \*\*all\*\* | -28.2% \[-42.4, -10.6\] | not distinguishable | +-66% | -58.3% " "$tmp/head"
tap_grep "a workload without latency rows has none in it" \
	"^| cpu-vs-cpu | -26.8% \[-57.2, +25.2\] | not distinguishable | x/ 4.9 | - | - |" "$tmp/head"
tap_ok "report.json keeps them apart too" \
	[ "$(jq -r '.overall_throughput["coresched vs smt-off"].verdict,
		    .overall_latency["coresched vs smt-off"].verdict,
		    (.workloads[] | select(.name == "cpu-vs-cpu") | .latency["coresched vs smt-off"].verdict)' \
		"$copy/report.json" | tr '\n' ' ')" = "not distinguishable not distinguishable null " ]
tap_grep "the verdict table is printed" "^| \*\*all (mean over workloads)\*\* |" "$tmp/stdout"
tap_ok "report.json is valid JSON of schema 2" [ "$(jq .schema "$copy/report.json")" = 2 ]
tap_ok "no noise band unless asked for" sh -c "! grep -q 'calibration-quick-tcg.json' '$copy/report.md'"
"$csbench" report --no-plots --calibration "$tmp/results/calibration-quick-tcg.json" \
	"$copy" >/dev/null 2>&1
tap_grep "--calibration FILE: its bands are used" \
	"A/A noise band: calibration-quick-tcg.json" "$copy/report.md"
"$csbench" report --no-plots "$copy" >/dev/null 2>&1
(cd "$copy" && find cells -type f | sort | xargs sha256sum) >"$tmp/after"
tap_ok "the raw cells are untouched" cmp -s "$tmp/before" "$tmp/after"
"$csbench" report --calibration "$tmp/nope.json" "$copy" >/dev/null 2>"$tmp/err"
code=$?
tap_ok "a missing calibration file named on the command line: exit 2 (got $code)" \
	[ $code -eq 2 ]
tap_grep "and the error names it" "nope.json" "$tmp/err"

# An A/A pair (the run against a copy of itself) passes. Planted
# regressions in copies made the B side of an A/B session with the
# original (so blocks pair) are flagged: every coresched hackbench time
# doubled, every coresched cpu-vs-cpu a.events_per_s x0.7, each with a
# 5% spread between blocks (a copy times a constant has no noise at all,
# and a t test needs some). The reference has 3 blocks, so the
# comparison is narrowed to the mode the change touches. As unrelated
# runs (no session) the comparison is unpaired and says so.
cp -r "$copy" "$tmp/results/same"
"$csbench" compare "$copy" "$tmp/results/same" >"$tmp/aa.out" 2>&1
code=$?
tap_ok "compare, A/A pair: exit 0 (got $code)" [ $code -eq 0 ]
tap_grep "compare, A/A pair: no regression" " 0 regressions" "$tmp/aa.out"
tap_grep "compare, unrelated runs: unpaired, and says so" "^\*\*Unpaired:\*\*" "$tmp/aa.out"
# Runs of another SMT yield or emulation measure something else: compare
# refuses them, naming both values, unless --force; history keeps them out
# of the per-workload drift and says how many it left out.
cp -r "$copy" "$tmp/other-setup"
jq '.smt_yield.target = 1.45 | .emulation = {key: "time-shared", name: "time-shared siblings", cores: 2, threads: 2}' \
	"$copy/manifest.json" >"$tmp/other-setup/manifest.json"
"$csbench" compare "$copy" "$tmp/other-setup" >"$tmp/setup.out" 2>&1
code=$?
tap_ok "compare, another yield and emulation: exit 2 (got $code)" [ $code -eq 2 ]
tap_grep "and both yields are named" "SMT yield: 1.00 in $run, 1.45 in other-setup" "$tmp/setup.out"
tap_grep "and both emulations" "emulation: concurrent in $run, time-shared in other-setup" "$tmp/setup.out"
"$csbench" compare --force "$copy" "$tmp/other-setup" >"$tmp/setup.out" 2>&1
code=$?
tap_ok "compare --force compares them (exit 0, got $code)" [ $code -eq 0 ]
mkdir "$tmp/hist"
cp -r "$copy" "$tmp/hist/$run"
cp -r "$tmp/other-setup" "$tmp/hist/zz-newest"
"$csbench" history "$tmp/hist" >"$tmp/hist.out" 2>&1
tap_grep "history: a run of another setup is left out of the drift" \
	"1 other measured something else" "$tmp/hist.out"
tap_grep "history: the setup is a column" "| Y 1.45, time-shared, 1x2 |" "$tmp/hist.out"
"$csbench" history --force "$tmp/hist" >"$tmp/hist.out" 2>&1
tap_ok "history --force shows every run" sh -c "! grep -q 'measured something else' '$tmp/hist.out'"

session() {	# session DIR SIDE
	jq --arg side "$2" '.ab = {session: "t0019", side: $side}' "$1/manifest.json" \
		>"$1/manifest.new" && mv "$1/manifest.new" "$1/manifest.json"
}
plant() {	# plant DIR WORKLOAD METRIC FACTOR: FACTOR x (0.95, 1, 1.05) by block
	for f in "$1"/cells/"$2".coresched.r*.json; do
		r=${f##*.r}; r=${r%.json}
		jq --arg m "$3" --argjson k "$(echo "$4 * (0.9 + 0.05 * $r)" | bc -l)" \
			'.metrics |= map(if .metric == $m then .value *= $k else . end)' \
			"$f" >"$f.new" && mv "$f.new" "$f"
	done
}
cp -r "$copy" "$tmp/results/slower"
cp -r "$copy" "$tmp/results/a-side"
session "$tmp/results/a-side" a
session "$tmp/results/slower" b
plant "$tmp/results/slower" sched-messaging time 2
"$csbench" compare --modes coresched "$tmp/results/a-side" "$tmp/results/slower" \
	>"$tmp/reg.out" 2>&1
code=$?
tap_ok "compare, doubled hackbench time, coresched rows: exit 1 (got $code)" [ $code -eq 1 ]
tap_grep "compare, A/B sides: paired" "^\*\*Paired:\*\*" "$tmp/reg.out"
tap_grep "compare, planted regression: named" \
	"| sched-messaging | hackbench.time | coresched | .* | \*\*regression\*\* " "$tmp/reg.out"
"$csbench" compare --modes coresched --threshold 150 "$tmp/results/a-side" "$tmp/results/slower" \
	>/dev/null 2>&1
code=$?
tap_ok "compare --threshold 150: a 2x time passes (got $code)" [ $code -eq 0 ]
cp -r "$copy" "$tmp/results/cpu"
session "$tmp/results/cpu" b
plant "$tmp/results/cpu" cpu-vs-cpu events_per_s 0.7
"$csbench" compare --workloads cpu-vs-cpu "$tmp/results/a-side" "$tmp/results/cpu" \
	>"$tmp/cpu.out" 2>&1
code=$?
tap_ok "compare, cpu-vs-cpu rate x0.7, options after nothing: exit 1 (got $code)" [ $code -eq 1 ]
"$csbench" compare "$tmp/results/a-side" "$tmp/results/cpu" --workloads cpu-vs-cpu \
	>/dev/null 2>&1
code=$?
tap_ok "options after the run directories work too (got $code)" [ $code -eq 1 ]
cp -r "$copy" "$tmp/results/same-b"
session "$tmp/results/same-b" b
"$csbench" compare "$tmp/results/a-side" "$tmp/results/same-b" >/dev/null 2>&1
code=$?
tap_ok "compare, paired A/A: exit 0 (got $code)" [ $code -eq 0 ]
# The emulation-bias flag, on committed runs: the cloud stand-in (yield
# 1.0, TCG) has cpu-vs-cache's smt-on vs smt-off throughput at +18%
# [+4.4, +33.4], off the model's "equal"; the sweep's y1.15 has no model.
cp -r "$top/results/20261204-143629-cloud-standin" "$tmp/standin"
"$csbench" report --no-plots "$tmp/standin" >/dev/null 2>&1
tap_ok "yield 1.0 under TCG: cpu-vs-cache flagged emulation-biased, the others not" \
	[ "$(jq -c '[.workloads[] | select(.emulation_biased) | .name]' "$tmp/standin/report.json")" = \
	  '["cpu-vs-cache"]' ]
tap_grep "and report.md says so" "flagged \*\*emulation-biased\*\*: cpu-vs-cache +18.0%" \
	"$tmp/standin/report.md"
cp -r "$top/results/sweep-20261204-125629-11636/y1.15" "$tmp/y115"
"$csbench" report --no-plots "$tmp/y115" >/dev/null 2>&1
tap_ok "yield 1.15: no model to be biased from (null)" \
	[ "$(jq -c '[.workloads[].emulation_biased] | unique' "$tmp/y115/report.json")" = '[null]' ]
tap_done
