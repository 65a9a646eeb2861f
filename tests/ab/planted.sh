#!/bin/sh
# End to end: an interleaved A/B run of the series (A) against the series
# plus tests/ab/slow-core-pick.patch (B), a one-line kernel change that
# delays every core-wide pick. It must be flagged (exit 1). The B series is
# assembled in a temporary directory so patchset/ stays as it is.
# Environment: AB_BLOCKS (default 8), PLANTED_ARGS (default: two workloads,
# smt-off and coresched, about 11 minutes under TCG). A 20 us delay was
# tried first: 10 blocks estimated coresched -10% on both workloads (smt-off
# +1% and -7%, as a control should) but could only see +-17% to +-26%
# between boots here, so it passed; the test plants 100 us.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cp -r "$top/patchset" "$tmp/series-b"
cp "$top/tests/ab/slow-core-pick.patch" "$tmp/series-b/9999-slow-core-pick.patch"
echo 9999-slow-core-pick.patch >>"$tmp/series-b/series"
echo "$(cat "$top/patchset/REVISION")+slow-core-pick" >"$tmp/series-b/REVISION"
export AB_BLOCKS=${AB_BLOCKS:-8}
export AB_RESULTS=${AB_RESULTS:-$top/build/ab-planted}
args=${PLANTED_ARGS:---workloads sched-messaging,cpu-vs-cpu --modes smt-off,coresched}
# shellcheck disable=SC2086
"$top/scripts/ab.sh" "$top/patchset" "$tmp/series-b" $args
code=$?
md=$(ls -d "$AB_RESULTS"/ab-*/compare.md 2>/dev/null | tail -n 1)
# Flagged means: exit 1, a coresched workload regression, and none in the
# smt-off control (the delay is only on the core-wide pick path).
if [ $code -eq 1 ] && [ -n "$md" ] &&
	grep -q '^| [a-z-]* | coresched | .* | \*\*regression\*\* (' "$md" &&
	! grep -q '^| [a-z-]* | smt-off | .* | \*\*regression\*\* (' "$md"; then
	echo "ab-planted: ok: the planted core-pick delay was flagged in coresched only ($md)"
	exit 0
fi
echo "ab-planted: FAILED: scripts/ab.sh exited $code; expected 1 with a coresched" \
	"regression and none in smt-off (${md:-no compare.md})" >&2
exit 1
