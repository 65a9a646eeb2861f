#!/bin/sh
# make help is printed from the Makefile's own "## " comments and
# CHECK_STEPS: every step of make check, and every target users are told
# about, has its line, so the help cannot say less than check does.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT

make -s -C "$top" help >"$out" 2>&1
tap_ok "make help exits 0" [ $? -eq 0 ]
steps=$(sed -n 's/^make check runs, in order: //p' "$out")
tap_ok "it lists make check's steps ($steps)" [ -n "$steps" ]
for t in $steps bench check report calibrate ab; do
	tap_grep "make $t has a line of its own" "^make $t  *[a-zA-Z]" "$out"
done
tap_done
