#!/bin/sh
# csbench sweep over constructed sweeps: three copies of the reference run
# as runs at yields 1.0, 1.15 and 1.3, coresched's throughput scaled up at
# the higher ones (a planted crossover); the tables, the crossover, the
# prediction, the outputs, and the refusals of what is not a sweep.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
ref=$top/results/$(cat "$top/results/REFERENCE")
csbench=${CSBENCH_BUILD:-$top/build}/csbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/tap.sh"

# point DIR TARGET MEASURED FACTOR: a run at TARGET whose boots measured
# MEASURED, coresched's throughput times FACTOR.
point() {
	d=$1 target=$2 measured=$3 f=$4
	mkdir -p "$d" && cp -r "$ref/cells" "$ref/manifest.json" "$d/" || return 1
	[ -e "$ref/boots" ] && cp -r "$ref/boots" "$d/"
	[ -e "$ref/boot.info" ] && cp "$ref/boot.info" "$d/"
	jq --argjson t "$target" --argjson y "$measured" \
		'.smt_yield = {target: $t, period_us: 10000, core_pct: 70,
		  achieved: [{boot: 1, yield: $y, min: $y, max: $y,
			      off_pct: (($y / $t - 1) * 100)}]}' \
		"$ref/manifest.json" >"$d/manifest.json" || return 1
	for c in "$d"/cells/*.coresched.r*.json "$d"/cells/*.coresched-prctl.r*.json; do
		jq --argjson f "$f" '.metrics |= map(
			if .higher_is_better then .value *= $f
			elif .unit == "s" then .value /= $f else . end)' "$c" >"$c.new" &&
			mv "$c.new" "$c" || return 1
	done
}

s=$tmp/sweep
point "$s/y1.00" 1.0 1.02 1 && point "$s/y1.15" 1.15 1.14 1.25 &&
	point "$s/y1.30" 1.3 1.27 1.6
tap_ok "three runs constructed" [ $? -eq 0 ]
"$csbench" sweep --no-plots "$s" >"$tmp/out" 2>"$tmp/err"
code=$?
tap_ok "csbench sweep exits 0 (got $code; $(head -c 300 "$tmp/err"))" [ $code -eq 0 ]
tap_ok "sweep.md written and printed" cmp -s "$s/sweep.md" "$tmp/out"
tap_ok "sweep.json is valid JSON of schema 1" [ "$(jq .schema "$s/sweep.json")" = 1 ]
tap_grep "columns at the measured yields" "| workload | Y 1.02 | Y 1.14 | Y 1.27 |" "$s/sweep.md"
# The reference's coresched vs smt-off gain per workload, times 1.25 and
# 1.6: where it is below 0 at 1.02 and above at 1.27, the crossover lies
# between, and the interpolation is the one computed here from the JSON.
n=$(jq '[.workloads[] | ."coresched vs smt-off" | select(.gains[0].gain < 1 and
	.gains[2].gain >= 1)] | length' "$s/sweep.json")
tap_ok "some workloads cross inside the sweep ($n)" [ "$n" -gt 0 ]
bad=$(jq -r '.workloads[] | ."coresched vs smt-off" as $c |
	select($c.gains[0].gain < 1 and $c.gains[2].gain >= 1) |
	($c.gains | map(.gain)) as $g |
	(if $g[1] >= 1 then [1.02, 1.14, $g[0], $g[1]] else [1.14, 1.27, $g[1], $g[2]] end) as $s |
	($s[0] + ($s[1] - $s[0]) * (0 - ($s[2] | log)) / (($s[3] | log) - ($s[2] | log))) as $want |
	select(($c.crossover - $want) | fabs > 1e-6) | .name' "$s/sweep.json")
tap_ok "each such crossover interpolated in log gain between its neighbours${bad:+ (not: $bad)}" \
	[ -z "$bad" ]
bad=$(jq -r '.workloads[] | ."coresched vs smt-off" | select(.crossover != null and
	(.crossover | type) == "number" and (.crossover_range[0] | type) == "number" and
	(.crossover_range[1] | type) == "number" and
	(.crossover_range[0] > .crossover or .crossover_range[1] < .crossover)) | .crossover' \
	"$s/sweep.json")
tap_ok "every crossover inside its range${bad:+ (not: $bad)}" [ -z "$bad" ]
n=$(jq '[.workloads[] | select(.predicted_breakeven != null)] | length' "$s/sweep.json")
tap_ok "a predicted breakeven per workload, from the Y = 1.0 run ($n)" [ "$n" -ge 7 ]
# The answer on the first screen: every workload named in it, and each
# workload that crosses inside the sweep, with a range narrower than the
# sweep, with its crossover yield.
sed -n 3p "$s/sweep.md" >"$tmp/answer"
tap_grep "sweep.md opens with a one-line answer" "^\*\*Answer:\*\* " "$tmp/answer"
missing=$(jq -r '.workloads[].name' "$s/sweep.json" | while read -r w; do
	grep -q -- " $w\b" "$tmp/answer" || echo "$w"; done)
tap_ok "the answer names every workload${missing:+ (not: $missing)}" [ -z "$missing" ]
missing=$(jq -r '.workloads[] | ."coresched vs smt-off" as $c | .name as $n |
	select(($c.crossover | type) == "number" and
		$c.crossover_range != ["below", "above"]) |
	"\($c.crossover) \($n)"' "$s/sweep.json" |
	awk '{ printf "Y %.2f .* for %s\n", $1, $2 }' | while read -r want; do grep -q -- "$want" "$tmp/answer" || echo "$want"; done)
tap_ok "with each crossover inside the sweep${missing:+ (not: $missing)}" [ -z "$missing" ]
# The plot: SVG and PNG, each crossover labelled with its workload and
# yield, a legend titled by what its entries are.
"$csbench" sweep "$s" >/dev/null 2>"$tmp/err"
tap_ok "sweep with plots exits 0 ($(head -c 200 "$tmp/err"))" [ $? -eq 0 ]
tap_ok "gain-vs-yield.png beside the SVG" sh -c \
	"head -c 8 '$s/plots/gain-vs-yield.png' | od -An -c | grep -q 'P   N   G'"
missing=$(jq -r '.workloads[] | ."coresched vs smt-off".crossover as $x | .name as $n |
	select(($x | type) == "number") | "\($n) \($x)"' "$s/sweep.json" |
	awk '{ printf "%s %.2f\n", $1, $2 }' | while read -r want; do
	grep -q -- "$want" "$s/plots/gain-vs-yield.svg" || echo "$want"; done)
tap_ok "every crossover labelled in the SVG${missing:+ (not: $missing)}" [ -z "$missing" ]
tap_grep "the legend is titled" ">workload<" "$s/plots/gain-vs-yield.svg"
tap_grep "model against measurement said" "Model vs measurement: [0-9]* of [0-9]* workloads agree" \
	"$s/sweep.md"

# Not a sweep.
"$csbench" sweep "$tmp/none" >/dev/null 2>"$tmp/err"
code=$?
tap_ok "a missing directory: exit 2 (got $code)" [ $code -eq 2 ]
mkdir -p "$tmp/one" && cp -r "$s/y1.00" "$tmp/one/"
"$csbench" sweep --no-plots "$tmp/one" >/dev/null 2>"$tmp/err"
code=$?
tap_ok "one yield only: exit 2 (got $code)" [ $code -eq 2 ]
tap_grep "saying a sweep needs two or more" "two or more" "$tmp/err"
mkdir -p "$tmp/dup" && cp -r "$s/y1.00" "$tmp/dup/a" && cp -r "$s/y1.00" "$tmp/dup/b"
"$csbench" sweep --no-plots "$tmp/dup" >/dev/null 2>"$tmp/err"
code=$?
tap_ok "two runs at one yield: exit 2 (got $code)" [ $code -eq 2 ]
tap_grep "naming the yield" "both at yield 1" "$tmp/err"
# A sweep of y1.00 and y1.30 with RUN's manifest rewritten by the jq FILTER.
mutated() {	# mutated NAME RUN FILTER: the sweep in $tmp/NAME
	mkdir -p "$tmp/$1" && cp -r "$s/y1.00" "$s/y1.30" "$tmp/$1/" &&
		jq "$3" "$s/$2/manifest.json" >"$tmp/$1/$2/manifest.json"
}

# refused NAME CODE DESC PATTERN PATTERN-DESC: sweep of $tmp/NAME exits
# CODE and says PATTERN.
refused() {
	"$csbench" sweep --no-plots "$tmp/$1" >/dev/null 2>"$tmp/err"
	code=$?
	tap_ok "$3: exit $2 (got $code)" [ $code -eq "$2" ]
	tap_grep "$5" "$4" "$tmp/err"
}

mutated uncapped y1.00 '.smt_yield = {target: 1.0, achieved: []}'
refused uncapped 2 "a run without --smt-yield" "y1.00: not run with --smt-yield" "naming it"
mutated share y1.30 '.smt_yield.core_pct = 80'
refused share 2 "runs at another core share" \
	"caps at 80% per 10000 us, .* at 70% per 10000 us" "naming both"
mutated order y1.30 '.smt_yield.achieved[0].yield = 0.99'
refused order 1 "measured yields out of the targets' order" "no crossover" \
	"saying no crossover can be read"
# A point on another kernel or profile is another experiment, not a yield.
mutated kern y1.30 '.kernel.key = "bench-v9-0000000000000000"'
refused kern 2 "a point on another kernel" \
	"y1.30 ran kernel bench-v9-0000000000000000, .*y1.00" "naming both kernels"
mutated prof y1.30 '.profile = "full"'
refused prof 2 "a point of another profile" "ran profile full" "naming the profile"
tap_done
