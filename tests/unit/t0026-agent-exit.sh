#!/bin/sh
# The guest agent's exit code counts every bad line of its cell list: a
# malformed line followed by a cell that was stored once exited 0. Runs
# the agent on the host with cells that fail before touching the system
# (their workload file does not exist).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
agent=$top/build/guest/csbench-agent
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/out" "$tmp/wl"

printf 'garbage line\nx.smt-on.r1 smt-on nope 1 0\n' >"$tmp/cells.txt"
"$agent" "$tmp/cells.txt" "$tmp/wl" "$tmp/out" >"$tmp/log" 2>"$tmp/err"
code=$?
tap_ok "a malformed line, then a stored cell: exit 1 (got $code)" [ $code -eq 1 ]
tap_grep "the line is named" "cells.txt:1: expected ID MODE WORKLOAD" "$tmp/err"
tap_ok "the cell after it was still run and stored" [ -s "$tmp/out/x.smt-on.r1.json" ]
tap_grep "as an error naming the workload file" '"status": "error"' "$tmp/out/x.smt-on.r1.json"

printf 'x.smt-on.r1 smt-on nope 1 0\n' >"$tmp/cells.txt"
"$agent" "$tmp/cells.txt" "$tmp/wl" "$tmp/out" >"$tmp/log" 2>"$tmp/err"
code=$?
tap_ok "only a failed cell, stored: exit 0 (the cell says why) (got $code)" [ $code -eq 0 ]
tap_ok "no temporary file left beside it" [ -z "$(ls "$tmp/out" | grep tmp)" ]
tap_done
