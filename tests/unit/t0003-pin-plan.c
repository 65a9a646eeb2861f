// SPDX-License-Identifier: GPL-2.0
/* vCPU pinning: a guest core's two threads always share one real core. */
#include "../../bench/host/pin.h"
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

	tap_plan_start();

	/* This machine: 2 host CPUs, no SMT. */
	t = topo(2, (int[]){ 0, 1 }, (int[]){ -1, -1 });
	pin_plan(&t, ACCEL_TCG, &p);
	tap_ok(p.host_cpu[0] == 0 && p.host_cpu[1] == 0 &&
	       p.host_cpu[2] == 1 && p.host_cpu[3] == 1,
	       "tcg, 2 host cpus: core 0 -> cpu 0, core 1 -> cpu 1");

	/* One host CPU: both cores time-share it. */
	t = topo(1, (int[]){ 3 }, (int[]){ -1 });
	pin_plan(&t, ACCEL_TCG, &p);
	tap_ok(p.host_cpu[0] == 3 && p.host_cpu[3] == 3, "tcg, 1 host cpu: all on it");
	tap_ok(strstr(p.how, "share") != NULL, "shared host cpu is said in the record");

	/* KVM on an SMT host with siblings (0,4) and (1,5). */
	t = topo(4, (int[]){ 0, 1, 4, 5 }, (int[]){ 4, 5, 0, 1 });
	pin_plan(&t, ACCEL_KVM, &p);
	tap_ok(p.host_cpu[0] == 0 && p.host_cpu[1] == 4 &&
	       p.host_cpu[2] == 1 && p.host_cpu[3] == 5,
	       "kvm on SMT host: guest siblings on host siblings");
	tap_ok(strstr(p.how, "kvm") && strstr(p.how, "sibling"), "kvm plan recorded");

	/* Sibling outside our affinity mask cannot be used. */
	t = topo(3, (int[]){ 0, 1, 4 }, (int[]){ 4, 5, 0 });
	pin_plan(&t, ACCEL_KVM, &p);
	tap_ok(p.host_cpu[0] == p.host_cpu[1] && p.host_cpu[2] == p.host_cpu[3],
	       "kvm with one usable pair falls back to one cpu per guest core");
	tap_ok(strstr(p.how, "no SMT pairs") != NULL, "fallback is recorded");

	t = topo(0, (int[]){ 0 }, (int[]){ 0 });
	pin_plan(&t, ACCEL_TCG, &p);
	check_int(p.host_cpu[0], ==, -1, "no host cpus known: no pinning");
	return tap_finish();
}
