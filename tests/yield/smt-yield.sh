#!/bin/sh
# The emulation's fidelity and the emulated SMT yield end to end (TCG).
# The fidelity probe must see what the layouts do to a wake-up beside a
# busy sibling: time-shared siblings (one host CPU for both) wait for the
# host's tick, siblings on their own host CPUs do not.
# Then the caps (their boots skip the probe: it would load the vCPUs whose
# share is measured): a boot at --smt-yield 1.3 caps
# its vCPU threads while it runs, measures a yield in the guest within the
# 10% tolerance of the target and leaves no cgroup behind; a csbench
# killed with SIGKILL leaves its caps, and the next csbench that caps
# vCPUs removes them and says so. TAP.
#   tests/yield/smt-yield.sh OUT KERNEL INITRD IMAGE BIN
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/tap.sh"
out=$1 kernel=$2 initrd=$3 image=$4 bin=$5
cs=$top/build/csbench
cpu_cg=/sys/fs/cgroup/cpu
[ -d "$cpu_cg" ] || cpu_cg=/sys/fs/cgroup
rm -rf "$out" && mkdir -p "$out"
boot() { # NAME JOB [ARGS]
	name=$1 job=$2
	shift 2
	"$cs" boot --kernel "$kernel" --initrd "$initrd" --image "$image" --bin "$bin" \
		--accel tcg --emulation time-shared --cores 2 --job "$top/tests/yield/$job" \
		--no-fidelity --out "$out/$name" --timeout 300 "$@"
}

fidelity() { # NAME EMULATION CORES [ARGS]
	"$cs" boot --kernel "$kernel" --initrd "$initrd" --image "$image" --bin "$bin" \
		--accel tcg --emulation "$2" --cores "$3" --job "$top/tests/yield/fidelity-job.sh" \
		${4:-} --out "$out/$1" --timeout 300 >"$out/$1.log" 2>&1
	p99=$(sed -n 's/^fidelity_sibling_busy_p99_us=//p' "$out/$1/boot.info" 2>/dev/null)
	ratio=$(sed -n 's/^fidelity_busy_over_idle_avg=//p' "$out/$1/boot.info" 2>/dev/null)
	echo "# $1: busy-sibling wake-up p99 ${p99:-none} us, avg ${ratio:-none} x the idle sibling's" >&2
	echo "${p99:-none}"
}
# The yield plugin, siblings on their own host CPUs, at 1.0, 1.3 and 1.8
# (the figures below are the targets, reported but not yet gated):
# the guest measures its yield within 10% of the target (measured 0.887
# to 0.915 at 1.0, 1.21 at 1.3, 1.60 to 1.70 at 1.8 with a 400 us
# period; the plugin cannot see the cost of returning from its tick, so
# it errs low), and the probe, run before the job, sees no stall from it:
# a wake-up beside a busy sibling within 1.5x of one beside an idle
# sibling on average (measured 0.87 to 1.44) and a p99 under 1 ms
# (measured 260-826 us).
plugin_p99=none
if [ "$(nproc)" -ge 2 ]; then
	for y in 1.0 1.3 1.8; do
		"$cs" boot --kernel "$kernel" --initrd "$initrd" --image "$image" --bin "$bin" \
			--accel tcg --emulation concurrent --cores 1 --smt-yield $y \
			--job "$top/tests/yield/measure-job.sh" --out "$out/plugin$y" --timeout 300 \
			>"$out/plugin$y.log" 2>&1
		code=$?
		got=$(jq -r .yield "$out/plugin$y/share/yield.json" 2>/dev/null || echo none)
		tap_ok "yield plugin at $y: the boot runs its job (exit $code)" [ $code -eq 0 ]
		tap_ok "yield plugin at $y: the guest measured a yield ($got)" \
			awk -v y="$got" 'BEGIN { exit !(y + 0 > 0) }'
		ratio=$(sed -n 's/^fidelity_busy_over_idle_avg=//p' "$out/plugin$y/boot.info")
		p99=$(sed -n 's/^fidelity_sibling_busy_p99_us=//p' "$out/plugin$y/boot.info")
		[ $y = 1.0 ] && plugin_p99=${p99:-none} &&
			plugin_idle_p99=$(sed -n 's/^fidelity_sibling_idle_p99_us=//p' \
				"$out/plugin$y/boot.info")
		# Reported, not yet gated: between boots the yield at 1.8 ran
		# 1.51 to 1.73 and the p99 at 1.3 reached 2294 us once (issue 22).
		echo "# yield plugin at $y: measured $got; busy-sibling wake-up avg" \
			"${ratio:-none}x the idle one's, p99 ${p99:-none} us"
	done
else
	tap_skip "the yield plugin" "the host has one CPU"
fi

# The layout the plugin replaces, the same probe: time-shared siblings
# wait for the host's 4 ms tick now and then. How often depends on the
# host, so its p99 is no fixed number (measured 2008, 3061, 3987 and
# 4001 us; a fixed 2500 us bar failed a cold make check at 2008 us): it
# must be past 1 ms (the probe's period: a late wake-up missed a whole
# period) and the larger by half at least than the plugin's at 1.0 in
# the boot above (measured 3061 against 388 us). Without the plugin
# (Y = 2) concurrent siblings are no better than time-shared ones here
# (p99 251 to 2055 us): the ticks the plugin takes while both siblings
# are busy are the host's chances to run QEMU's main loop.
shared=$(fidelity fid-shared time-shared 2)
tap_ok "time-shared siblings: the probe sees a late wake-up beside a busy sibling (p99 $shared us > 1000)" \
	awk -v r="$shared" 'BEGIN { exit !(r != "none" && r + 0 > 1000) }'
# A host that delays even a wake-up beside an idle sibling past the
# probe's 1 ms period (2724 us in one cold make check, against 380-409
# us in quiet boots) says nothing about the layouts: the comparison is
# skipped, naming the figure, rather than failed or passed by noise.
if [ "$(nproc)" -ge 2 ] && awk -v i="${plugin_idle_p99:-0}" 'BEGIN { exit !(i + 0 > 1000) }'; then
	tap_skip "the layouts compared ($shared us against $plugin_p99 us)" \
		"the host delayed a wake-up beside an idle sibling: p99 $plugin_idle_p99 us in the plugin's boot"
elif [ "$(nproc)" -ge 2 ]; then
	tap_ok "time-shared's p99 is 1.5x the plugin's at 1.0 at least ($shared us against $plugin_p99 us)" \
		awk -v s="$shared" -v c="$plugin_p99" \
		'BEGIN { exit !(s != "none" && c != "none" && s + 0 > 1.5 * c) }'
else
	tap_skip "the layouts compared" "the host has one CPU"
fi

boot y13 measure-job.sh --smt-yield 1.3 >"$out/y13.log" 2>&1
code=$?
tap_ok "a boot at --smt-yield 1.3 runs its job (exit $code)" [ $code -eq 0 ]
got=$(jq -r .yield "$out/y13/share/yield.json" 2>/dev/null || echo none)
# (Measured 1.30 and 1.33 at the default core share of 70%.)
tap_ok "the guest measured yield $got: within 10% of 1.3" \
	awk -v y="$got" 'BEGIN { exit !(y + 0 > 1.17 && y + 0 < 1.43) }'
tap_grep "boot.info names the target" "^smt_yield_target=1.300$" "$out/y13/boot.info"
tap_ok "no csbench cgroup is left after it" sh -c "! ls -d $cpu_cg/csbench-* 2>/dev/null"

# Killed with SIGKILL while its guest runs: the caps stay behind.
# (csbench itself in the background, not a subshell: $! is its pid.)
"$cs" boot --kernel "$kernel" --initrd "$initrd" --image "$image" --bin "$bin" \
	--accel tcg --emulation time-shared --cores 2 --job "$top/tests/yield/sleep-job.sh" \
	--no-fidelity --out "$out/killed" --timeout 300 \
	--smt-yield 1.3 >"$out/killed.log" 2>&1 &
pid=$!
for i in $(seq 1 60); do
	[ -d "$cpu_cg/csbench-$pid" ] && break
	sleep 1
done
tap_ok "a running boot has its caps in $cpu_cg/csbench-$pid" [ -d "$cpu_cg/csbench-$pid" ]
g=$cpu_cg/csbench-$pid/core0
quota() { cat "$1/cpu.cfs_quota_us" 2>/dev/null || cut -d' ' -f1 "$1/cpu.max" 2>/dev/null; }
quota=$(quota "$g")
tap_ok "core 0 gets 70% of each 10 ms period (quota $quota us)" [ "$quota" = 7000 ]
quota=$(quota "$g/vcpu0")
tap_ok "vCPU 0 alone 0.7/1.3 of it (quota $quota us)" [ "$quota" = 5385 ]
# What the host gives the busy vCPU 0 thread alone: 0.7/1.3 of a CPU.
tid=$(cat "$g/vcpu0/tasks" 2>/dev/null || cat "$g/vcpu0/cgroup.threads" 2>/dev/null)
qemu=$(pgrep -f -- "$out/killed/share" | head -n 1)
ticks() { awk '{ print $14 + $15 }' "/proc/$qemu/task/$tid/stat" 2>/dev/null || echo 0; }
# Past the boot, into the job's busy loop.
for i in $(seq 1 60); do
	grep -q "step chroot ok" "$out/killed/console.log" 2>/dev/null && break
	sleep 0.5
done
sleep 1
# The best of three 2 s windows: the cap is a ceiling, and guest work
# on the sibling vCPU (which shares the host CPU) only lowers a window.
share=0
for w in 1 2 3; do
	t0=$(ticks); s0=$(date +%s.%N); sleep 2; t1=$(ticks); s1=$(date +%s.%N)
	share=$(awk -v a="$t0" -v b="$t1" -v s="$s0" -v e="$s1" -v best="$share" \
		-v hz="$(getconf CLK_TCK)" \
		'BEGIN { x = (b - a) / hz / (e - s); printf "%.3f", (x > best ? x : best) }')
done
tap_ok "the host gives the busy vCPU 0 $share of a CPU: within 10% of 0.7/1.3 = 0.538" \
	awk -v x="$share" 'BEGIN { exit !(x > 0.485 && x < 0.592) }'
kill -9 $pid
wait $pid 2>/dev/null
# Its QEMU outlives it (own process group); stop it as a person would.
pkill -9 -f -- "$out/killed/share" 2>/dev/null
sleep 1
tap_ok "after kill -9 the caps are still there" [ -d "$cpu_cg/csbench-$pid" ]
boot next measure-job.sh --smt-yield 1.1 >"$out/next.log" 2>&1
code=$?
tap_ok "the next capped boot runs (exit $code)" [ $code -eq 0 ]
tap_grep "and says it removed the leftover" "removed .*csbench-$pid: vCPU caps left by csbench $pid" \
	"$out/next.log"
tap_ok "which is gone" [ ! -d "$cpu_cg/csbench-$pid" ]
tap_ok "and nothing else is left" sh -c "! ls -d $cpu_cg/csbench-* 2>/dev/null"
tap_done
