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

# Two layouts, the same probe, no yield emulated (Y = 2: the yield plugin
# stays inert), so that the layout alone is measured. The test is the p99
# of a 1 ms wake-up beside a busy sibling: time-shared siblings wait for
# the host's 4 ms tick now and then, siblings on their own host CPUs do
# not. How often the tick is waited for depends on the host, so neither
# layout's p99 is a fixed number: time-shared measured 3987, 4001 and
# 2008 us, concurrent 251, 304, 1576 and 1721 us; a fixed 2500 us bar
# failed a cold make check at 2008 us. So the layouts are compared with
# each other, in back-to-back boots: time-shared's p99 must be the larger
# by half at least (measured 2.3x to 16x) and past 1 ms (its period: a
# late wake-up missed a whole period), concurrent's must stay under
# 2.5 ms. The average's ratio to the idle sibling's is printed, not
# tested: time-shared gave 1.44, 1.71, 1.74 and 1.89, too close to 1.5
# for a verdict that must not flip between runs.
fidelity() { # NAME EMULATION CORES [ARGS]
	"$cs" boot --kernel "$kernel" --initrd "$initrd" --image "$image" --bin "$bin" \
		--accel tcg --emulation "$2" --cores "$3" --job "$top/tests/yield/fidelity-job.sh" \
		${4:-} --out "$out/$1" --timeout 300 >"$out/$1.log" 2>&1
	p99=$(sed -n 's/^fidelity_sibling_busy_p99_us=//p' "$out/$1/boot.info" 2>/dev/null)
	ratio=$(sed -n 's/^fidelity_busy_over_idle_avg=//p' "$out/$1/boot.info" 2>/dev/null)
	echo "# $1: busy-sibling wake-up p99 ${p99:-none} us, avg ${ratio:-none} x the idle sibling's" >&2
	echo "${p99:-none}"
}
shared=$(fidelity fid-shared time-shared 2)
tap_ok "time-shared siblings: the probe sees a late wake-up beside a busy sibling (p99 $shared us > 1000)" \
	awk -v r="$shared" 'BEGIN { exit !(r != "none" && r + 0 > 1000) }'
if [ "$(nproc)" -ge 2 ]; then
	conc=$(fidelity fid-concurrent concurrent 1 "--smt-yield 2.0")
	tap_ok "siblings on own host CPUs, no yield emulated: busy-sibling p99 $conc us < 2500" \
		awk -v r="$conc" 'BEGIN { exit !(r != "none" && r + 0 < 2500) }'
	tap_ok "time-shared's p99 is 1.5x concurrent's at least ($shared us against $conc us)" \
		awk -v s="$shared" -v c="$conc" \
		'BEGIN { exit !(s != "none" && c != "none" && s + 0 > 1.5 * c) }'
else
	tap_skip "siblings on own host CPUs" "the host has one CPU"
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
