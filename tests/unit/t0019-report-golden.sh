#!/bin/sh
# csbench report on the curated reference run (results/REFERENCE names it;
# its calibration is results/calibration-quick-tcg.json) must rebuild exactly
# the committed report.md and report.csv from the raw cells, and never
# touch them. A change in the statistics shows up here as a diff to
# review; after one, rebuild the reference's report and commit it:
#   build/csbench report results/$(cat results/REFERENCE)
# compare must pass an A/A pair and flag a planted regression.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
run=$(cat "$top/results/REFERENCE")
ref=$top/results/$run
csbench=$top/build/csbench
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
tap_grep "the verdict table is printed" "^| \*\*all (geometric mean)\*\* |" "$tmp/stdout"
tap_ok "report.json is valid JSON of schema 1" [ "$(jq .schema "$copy/report.json")" = 1 ]
tap_grep "the calibration beside the run was used" \
	"A/A noise band (calibration-quick-tcg.json)" "$copy/report.md"
(cd "$copy" && find cells -type f | sort | xargs sha256sum) >"$tmp/after"
tap_ok "the raw cells are untouched" cmp -s "$tmp/before" "$tmp/after"
"$csbench" report --calibration "$tmp/nope.json" "$copy" >/dev/null 2>"$tmp/err"
code=$?
tap_ok "a missing calibration file named on the command line: exit 2 (got $code)" \
	[ $code -eq 2 ]
tap_grep "and the error names it" "nope.json" "$tmp/err"

# An A/A pair (the run against a copy of itself) passes. A planted
# regression, 5 s more per coresched hackbench run (about 1.9x), is
# flagged when the comparison is narrowed to what it touches: with 3
# repetitions under TCG (cv near 25%), Holm over all 76 rows and modes
# would need a far larger change.
cp -r "$copy" "$tmp/results/same"
"$csbench" compare "$copy" "$tmp/results/same" >"$tmp/aa.out" 2>&1
code=$?
tap_ok "compare, A/A pair: exit 0 (got $code)" [ $code -eq 0 ]
tap_grep "compare, A/A pair: no regression" " 0 regressions" "$tmp/aa.out"
cp -r "$copy" "$tmp/results/slower"
for f in "$tmp"/results/slower/cells/sched-messaging.coresched.r*.json; do
	jq '.metrics |= map(if .metric == "time" then .value += 5 else . end)' "$f" \
		>"$f.new" && mv "$f.new" "$f"
done
narrow="--workloads sched-messaging --modes coresched"
"$csbench" compare $narrow "$copy" "$tmp/results/slower" >"$tmp/reg.out" 2>&1
code=$?
tap_ok "compare, planted regression: exit 1 (got $code)" [ $code -eq 1 ]
tap_grep "compare, planted regression: named" \
	"| sched-messaging | hackbench.time | coresched | .* | \*\*regression\*\* |" "$tmp/reg.out"
"$csbench" compare $narrow --threshold 150 "$copy" "$tmp/results/slower" >/dev/null 2>&1
code=$?
tap_ok "compare --threshold 150: a 1.9x time passes (got $code)" [ $code -eq 0 ]
"$csbench" compare $narrow "$copy" "$tmp/results/same" >/dev/null 2>&1
code=$?
tap_ok "compare, narrowed A/A pair: exit 0 (got $code)" [ $code -eq 0 ]
tap_done
