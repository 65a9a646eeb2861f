#!/bin/sh
# Run TAP test programs (or, with --summarise FILE, read saved TAP output),
# show their output, and end with one line "N passed, N failed, N skipped".
# Exits non-zero if any test failed, any program exited with a failure, or
# nothing was tested at all.
set -u
tmp=$(mktemp)
out=$(mktemp)
trap 'rm -f "$tmp" "$out"' EXIT
bad_exit=0

if [ "${1:-}" = --summarise ]; then
	cat "$2" >"$tmp"
else
	for t in "$@"; do
		echo "# $t"
		"$t" >"$out" 2>&1
		status=$?
		cat "$out"
		cat "$out" >>"$tmp"
		# 4 is kselftest's SKIP.
		if [ $status -ne 0 ] && [ $status -ne 4 ]; then
			echo "# $t exited with status $status"
			bad_exit=$((bad_exit + 1))
		fi
	done
fi

pass=$(grep -aE '^ok [0-9]+' "$tmp" | grep -vc '# SKIP')
skip=$(grep -aE '^ok [0-9]+' "$tmp" | grep -c '# SKIP')
fail=$(grep -acE '^not ok [0-9]+' "$tmp")
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] && [ "$bad_exit" -eq 0 ] && [ "$pass" -gt 0 ]
