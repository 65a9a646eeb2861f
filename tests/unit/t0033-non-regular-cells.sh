#!/bin/sh
# A cell, manifest or calibration that is not a regular file is refused
# with its name, never waited on: a FIFO named cells/x.json once hung
# report, verify and show forever in open().
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
cs=${CSBENCH_BUILD:-$top/build}/csbench
ref=$top/results/$(cat "$top/results/REFERENCE")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cp -r "$ref" "$tmp/run"
cell=$(ls "$tmp"/run/cells/*.json | head -n 1)
rm "$cell" && mkfifo "$cell"
failed() { [ "$1" -ne 124 ] && [ "$1" -ne 0 ]; }	# not stuck, and not ok
for cmd in report verify; do
	timeout 60 "$cs" $cmd "$tmp/run" >"$tmp/err" 2>&1 </dev/null
	code=$?
	tap_ok "$cmd over a FIFO cell returns, with an error (exit $code)" failed $code
	tap_grep "$cmd names the FIFO" "$(basename "$cell").*not a regular file (a FIFO)" "$tmp/err"
done
# show lists what it has: the FIFO is a cell that is not ok.
timeout 60 "$cs" show "$tmp/run" >"$tmp/err" 2>&1 </dev/null
code=$?
tap_ok "show over a FIFO cell returns (exit $code)" [ $code -ne 124 ]
tap_grep "and counts it as not ok" "1 not ok" "$tmp/err"
rm "$cell" && mkdir "$cell"
timeout 60 "$cs" verify "$tmp/run" >"$tmp/err" 2>&1
code=$?
tap_ok "a directory named like a cell: exit $code, not 0" failed $code
tap_grep "and says what it is" "not a regular file (a directory)" "$tmp/err"
rm -r "$tmp/run/manifest.json" && mkfifo "$tmp/run/manifest.json"
timeout 60 "$cs" report "$tmp/run" --no-plots >/dev/null 2>"$tmp/err"
code=$?
tap_ok "a FIFO manifest: exit $code, not stuck" failed $code
tap_grep "and named" "manifest.json: not a regular file (a FIFO)" "$tmp/err"
tap_done
