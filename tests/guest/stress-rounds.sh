# Job for `make stress-test-debug`: the series' stress test, round after
# round in one boot, with the prctl out-of-memory test between rounds
# where the kernel has fault injection. One TAP stream as in
# kernel-tests.sh; any splat on the console ends the boot (the host
# watches it), so a clean stream of 30 rounds is the result. Rounds of
# 60 s: beside a competing guest the debug kernel managed 93 forks in
# 30 s, under the floor of 100 per kind stress_test sets for itself.
echo "TAP version 13"
echo "# kernel: $(uname -r) $(uname -v)"
rounds=30
n=0
status_file=$(mktemp)
run() {
	n=$((n + 1))
	echo "# --- round $round: $*"
	set +e
	{ "$@" 2>&1; echo $? >"$status_file"; } | sed -u 's/^/# /'
	set -e
	status=$(cat "$status_file")
	if [ "$status" -eq 0 ]; then
		echo "ok $n - round $round: $1"
	else
		echo "not ok $n - round $round: $1 exited with $status"
	fi
}
round=1
while [ $round -le $rounds ]; do
	run stress_test 60
	if [ -e /proc/thread-self/fail-nth ]; then
		run prctl_nomem_test
	fi
	round=$((round + 1))
done
echo "1..$n"
rm -f "$status_file"
