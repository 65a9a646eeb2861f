#!/bin/sh
# results/index.md and index.json are what `csbench history results`
# writes from the committed runs: rebuilt from a copy, they must match,
# so the committed index cannot drift from the runs beside it. After
# adding or re-reporting a committed run: build/csbench history results
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
csbench=${CSBENCH_BUILD:-$top/build}/csbench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$top/tests/tap.sh"

cp -r "$top/results" "$tmp/results"
"$csbench" history "$tmp/results" >"$tmp/out" 2>"$tmp/err"
code=$?
tap_ok "history of the committed runs exits 0 (got $code; $(head -c 200 "$tmp/err"))" \
	[ $code -eq 0 ]
tap_ok "results/index.md is what history writes (run: build/csbench history results)" \
	diff -u "$top/results/index.md" "$tmp/results/index.md"
tap_ok "results/index.json likewise" diff -u "$top/results/index.json" "$tmp/results/index.json"
# Every run directory with a report is in the index.
missing=
for r in "$top"/results/*/report.json; do
	name=$(basename "$(dirname "$r")")
	jq -e --arg n "$name" '.runs // . | map(select(.run == $n)) | length > 0' \
		"$top/results/index.json" >/dev/null 2>&1 || missing="$missing $name"
done
tap_ok "every committed run with a report is indexed${missing:+ (not:$missing)}" [ -z "$missing" ]
tap_done
