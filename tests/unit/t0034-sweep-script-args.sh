#!/bin/sh
# scripts/sweep.sh sets --dir, --reps, --profile, --smt-yield and --rev for
# every run it starts; the same option passed through (its arguments or
# make sweep's SWEEP_ARGS) once came last and silently won. Each is
# refused, in both spellings, before a sweep directory exists.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for arg in "--dir $tmp/x" "--reps 4" "--reps=4" "--profile full" "--smt-yield 1.3" \
	"--smt-yield=1.45" "--rev v9" "--resume=$tmp/x"; do
	# shellcheck disable=SC2086 # one option and its value, split on purpose
	SWEEP_RESULTS=$tmp timeout 20 "$top/scripts/sweep.sh" --modes smt-off,coresched \
		$arg >/dev/null 2>"$tmp/err"
	code=$?
	tap_ok "sweep.sh $arg: exit 2 (got $code)" [ $code -eq 2 ]
	tap_grep "naming the option" "${arg%%[ =]*}: the sweep sets it" "$tmp/err"
done
tap_ok "and no sweep directory was made" [ -z "$(ls "$tmp" | grep sweep-)" ]
tap_done
