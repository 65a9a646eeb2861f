#!/bin/sh
# csbench boot stopped from outside must not leave its guest running.
# QEMU runs in a process group of its own (a terminal's Ctrl-C must not
# reach it mid-write), so only csbench can stop it: on SIGTERM (and
# SIGINT, SIGHUP) it stops the guest and exits 130; killed outright
# (SIGKILL), the guest dies with it (PR_SET_PDEATHSIG). The guest is
# fake-qemu playing a hang.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${CSBENCH_BUILD:-$top/build}
csbench=$build/csbench
fake=$build/tests/unit/fake-qemu
tmp=$(mktemp -d)
trap 'pkill -KILL -f "$tmp/" 2>/dev/null; rm -rf "$tmp"' EXIT
. "$top/tests/tap.sh"

: >"$tmp/k" && : >"$tmp/i" && : >"$tmp/img" && mkdir -p "$tmp/bin"
echo 'echo hi' >"$tmp/job.sh"

boot() {	# boot NAME: csbench boot on a hanging fake guest, in the background
	FAKE_QEMU=hang "$csbench" boot --qemu "$fake" --accel tcg --no-fidelity \
		--kernel "$tmp/k" --initrd "$tmp/i" --image "$tmp/img" --job "$tmp/job.sh" \
		--bin "$tmp/bin" --out "$tmp/$1" --timeout 600 >"$tmp/$1.out" 2>"$tmp/$1.err" &
	pid=$!
}

guest_up() {	# guest_up NAME: a fake QEMU of that boot runs
	pgrep -f "$fake.*$tmp/$1/" >/dev/null
}

wait_until() {	# wait_until SECONDS COMMAND...: COMMAND succeeded in time
	n=$(($1 * 10))
	shift
	while [ $n -gt 0 ]; do
		"$@" && return 0
		sleep 0.1
		n=$((n - 1))
	done
	return 1
}

guest_gone() { ! guest_up "$1"; }

boot term
tap_ok "SIGTERM: the guest was up first" wait_until 20 guest_up term
kill -TERM $pid
wait $pid
code=$?
tap_ok "SIGTERM: csbench boot exits 130 (got $code)" [ $code -eq 130 ]
tap_grep "SIGTERM: says the guest was stopped" "interrupted .*the guest was stopped" "$tmp/term.err"
tap_ok "SIGTERM: no guest left running" wait_until 5 guest_gone term

boot kill
tap_ok "SIGKILL: the guest was up first" wait_until 20 guest_up kill
kill -KILL $pid
wait $pid 2>/dev/null
tap_ok "SIGKILL: the guest dies with csbench" wait_until 5 guest_gone kill
tap_done
