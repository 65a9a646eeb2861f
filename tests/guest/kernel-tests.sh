# Job for `make kernel-test`: the patch series' tests, run by csbench-init
# in the guest (sh -e; the share is the working directory, bin/ on PATH).
# One TAP stream, kselftest-style: each program is one test of the
# outer plan, and its own TAP output is nested under it as "# " lines,
# so test numbers never restart in the outer stream.
echo "TAP version 13"
echo "# kernel: $(uname -r) $(uname -v)"
n=0
status_file=$(mktemp)
run() {
	n=$((n + 1))
	echo "# --- $*"
	set +e
	# sed -u: the nested lines reach the share as they come.
	{ "$@" 2>&1; echo $? >"$status_file"; } | sed -u 's/^/# /'
	set -e
	status=$(cat "$status_file")
	# On the project's own kernel every feature the series adds is
	# required: a SKIP (4, kselftest's) is a failure here.
	if [ "$status" -eq 0 ]; then
		echo "ok $n - $1"
	else
		echo "not ok $n - $1 exited with $status"
	fi
}
run cpu_tag_test
run mode_test
run isolation_test 4
# Core scheduling switched on and off thousands of times under migrating
# hogs: a pick that outlives a switch oopses (the host ends the boot).
run flip_pick_test 20
run flip_pick_test 10 prctl
run stress_test 30
run forceidle_flip_test 12
# Needs fault injection, which only the debug flavour has (its build
# requires CONFIG_FAILSLAB, so there it always runs).
if [ -e /proc/thread-self/fail-nth ]; then
	run prctl_nomem_test
else
	echo "# prctl_nomem_test not run: no fault injection in this kernel"
fi
# The tree's own selftest (prints its own format; its exit code decides).
run cs_prctl_test
# Last: it takes the cpu controller away from cgroup v2.
run cpu_tag_v1_test
echo "1..$n"
rm -f "$status_file"
