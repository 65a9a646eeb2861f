// SPDX-License-Identifier: GPL-2.0
/*
 * vCPU pinning and the emulation chosen: a guest core's two threads share
 * one real core (time-shared, KVM) or get a host CPU each (concurrent).
 */
#include "../../bench/host/machine/pin.h"
#include "../tap.h"

static struct host_topo topo(int n, const int *cpus, const int *sib)
{
	struct host_topo t = { .ncpus = n };

	for (int i = 0; i < n; i++) {
		t.cpu[i] = cpus[i];
		t.sibling[i] = sib[i];
	}
	return t;
}

int main(void)
{
	struct vm_pinning p;
	struct host_topo t;
	enum emulation emu;
	char err[256];
	int cores;

	tap_plan_start();

	/* This machine: 2 host CPUs, no SMT. */
	t = topo(2, (int[]){ 0, 1 }, (int[]){ -1, -1 });
	pin_plan(&t, ACCEL_TCG, EMU_TIMESHARED, 2, &p);
	tap_ok(p.host_cpu[0] == 0 && p.host_cpu[1] == 0 &&
	       p.host_cpu[2] == 1 && p.host_cpu[3] == 1,
	       "tcg, 2 host cpus: core 0 -> cpu 0, core 1 -> cpu 1");

	/* One host CPU: both cores time-share it. */
	t = topo(1, (int[]){ 3 }, (int[]){ -1 });
	pin_plan(&t, ACCEL_TCG, EMU_TIMESHARED, 2, &p);
	tap_ok(p.host_cpu[0] == 3 && p.host_cpu[3] == 3, "tcg, 1 host cpu: all on it");
	tap_ok(strstr(p.how, "share") != NULL, "shared host cpu is said in the record");

	/* KVM on an SMT host with siblings (0,4) and (1,5). */
	t = topo(4, (int[]){ 0, 1, 4, 5 }, (int[]){ 4, 5, 0, 1 });
	pin_plan(&t, ACCEL_KVM, EMU_KVM_SMT, 2, &p);
	tap_ok(p.host_cpu[0] == 0 && p.host_cpu[1] == 4 &&
	       p.host_cpu[2] == 1 && p.host_cpu[3] == 5,
	       "kvm on SMT host: guest siblings on host siblings");
	tap_ok(strstr(p.how, "kvm") && strstr(p.how, "sibling"), "kvm plan recorded");

	/* Sibling outside our affinity mask cannot be used. */
	t = topo(3, (int[]){ 0, 1, 4 }, (int[]){ 4, 5, 0 });
	pin_plan(&t, ACCEL_KVM, EMU_KVM_SMT, 2, &p);
	tap_ok(p.host_cpu[0] == p.host_cpu[1] && p.host_cpu[2] == p.host_cpu[3],
	       "kvm with one usable pair falls back to one cpu per guest core");
	tap_ok(strstr(p.how, "no SMT pairs") != NULL, "fallback is recorded");

	t = topo(0, (int[]){ 0 }, (int[]){ 0 });
	pin_plan(&t, ACCEL_TCG, EMU_TIMESHARED, 2, &p);
	check_int(p.host_cpu[0], ==, -1, "no host cpus known: no pinning");

	/* Choosing: this machine (2 CPUs) gets one core of concurrent siblings. */
	t = topo(2, (int[]){ 0, 1 }, (int[]){ -1, -1 });
	check_int(emu_choose(&t, ACCEL_TCG, EMU_AUTO, 0, &emu, &cores, err, sizeof(err)), ==, 0,
		  "auto on 2 host cpus");
	tap_ok(emu == EMU_CONCURRENT && cores == 1, "is 1 concurrent core (%s, %d)",
	       emu_key(emu), cores);
	pin_plan(&t, ACCEL_TCG, emu, cores, &p);
	tap_ok(p.host_cpu[0] == 0 && p.host_cpu[1] == 1 && p.host_cpu[2] == -1,
	       "concurrent: vCPU 0 -> cpu 0, vCPU 1 -> cpu 1, nothing else");
	check_int(emu_choose(&t, ACCEL_TCG, EMU_AUTO, 2, &emu, &cores, err, sizeof(err)), ==, 0,
		  "auto with 2 cores on 2 host cpus");
	tap_ok(emu == EMU_TIMESHARED && cores == 2, "falls back to time-shared 2 cores");
	check_int(emu_choose(&t, ACCEL_TCG, EMU_CONCURRENT, 2, &emu, &cores, err, sizeof(err)),
		  ==, -1, "concurrent with 2 cores on 2 host cpus is refused");
	tap_ok(strstr(err, "--cores 1 fits") != NULL, "saying what fits (%s)", err);
	check_int(emu_choose(&t, ACCEL_TCG, EMU_TIMESHARED, 0, &emu, &cores, err, sizeof(err)),
		  ==, 0, "time-shared asked for");
	tap_ok(emu == EMU_TIMESHARED && cores == 2, "keeps the kernel tests' 2 cores");
	check_int(emu_choose(&t, ACCEL_TCG, EMU_AUTO, 33, &emu, &cores, err, sizeof(err)), ==, -1,
		  "more cores than a guest may have are refused");

	/* A 16-CPU host: 8 concurrent cores, each vCPU on its own CPU. */
	{
		int cpus[16], sib[16];

		for (int i = 0; i < 16; i++)
			cpus[i] = i, sib[i] = -1;
		t = topo(16, cpus, sib);
	}
	emu_choose(&t, ACCEL_TCG, EMU_AUTO, 0, &emu, &cores, err, sizeof(err));
	tap_ok(emu == EMU_CONCURRENT && cores == 8, "16 host cpus: 8 concurrent cores");
	pin_plan(&t, ACCEL_TCG, emu, cores, &p);
	tap_ok(p.host_cpu[15] == 15 && p.host_cpu[7] == 7, "vCPU 15 on cpu 15");

	/* One host CPU: concurrent is impossible, auto time-shares. */
	t = topo(1, (int[]){ 3 }, (int[]){ -1 });
	emu_choose(&t, ACCEL_TCG, EMU_AUTO, 0, &emu, &cores, err, sizeof(err));
	tap_ok(emu == EMU_TIMESHARED, "1 host cpu: time-shared");

	/* KVM: sibling pairs decide; without them the record says so. */
	t = topo(4, (int[]){ 0, 1, 4, 5 }, (int[]){ 4, 5, 0, 1 });
	emu_choose(&t, ACCEL_KVM, EMU_AUTO, 0, &emu, &cores, err, sizeof(err));
	tap_ok(emu == EMU_KVM_SMT && cores == 2, "kvm, 2 host pairs: 2 cores on them");
	emu_choose(&t, ACCEL_KVM, EMU_AUTO, 3, &emu, &cores, err, sizeof(err));
	tap_ok(emu == EMU_KVM_SHARED, "kvm, 3 cores on 2 pairs: shared");
	check_str(emu_name(EMU_CONCURRENT), "siblings on own host CPUs", "names for reports");
	check_int(emu_lookup("time-shared"), ==, EMU_TIMESHARED, "option keys look up");
	check_int(emu_lookup("kvm-smt"), ==, -1, "KVM layouts are not asked for");
	return tap_finish();
}
