// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "../lib/log.h"
#include "pin.h"

int host_topo_read(struct host_topo *t, const char *sysfs_cpu)
{
	cpu_set_t set;
	char path[256];
	int cpu, a, b;
	FILE *f;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -1;
	t->ncpus = 0;
	for (cpu = 0; cpu < CPU_SETSIZE && t->ncpus < PIN_MAX_HOST; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		t->cpu[t->ncpus] = cpu;
		t->sibling[t->ncpus] = -1;
		snprintf(path, sizeof(path),
			 "%s/cpu%d/topology/thread_siblings_list", sysfs_cpu, cpu);
		f = fopen(path, "r");
		/* "0,4" or "0-1": the first other thread is enough. */
		if (f && fscanf(f, "%d%*[,-]%d", &a, &b) == 2)
			t->sibling[t->ncpus] = a == cpu ? b : a;
		if (f)
			fclose(f);
		t->ncpus++;
	}
	return t->ncpus ? 0 : -1;
}

static int in_topo(const struct host_topo *t, int cpu)
{
	int i;

	for (i = 0; i < t->ncpus; i++)
		if (t->cpu[i] == cpu)
			return 1;
	return 0;
}

/* Host sibling pairs both in our mask, each listed once. */
static int sibling_pairs(const struct host_topo *t, int pairs[][2], int max)
{
	int i, n = 0;

	for (i = 0; i < t->ncpus && n < max; i++) {
		int s = t->sibling[i];

		if (s > t->cpu[i] && in_topo(t, s)) {
			pairs[n][0] = t->cpu[i];
			pairs[n][1] = s;
			n++;
		}
	}
	return n;
}

void pin_plan(const struct host_topo *t, enum accel accel,
	      struct vm_pinning *p)
{
	int pairs[VM_CORES][2];
	int v, npairs;

	if (accel == ACCEL_KVM) {
		npairs = sibling_pairs(t, pairs, VM_CORES);
		if (npairs == VM_CORES) {
			for (v = 0; v < VM_CPUS; v++)
				p->host_cpu[v] =
					pairs[v / VM_THREADS][v % VM_THREADS];
			snprintf(p->how, sizeof(p->how),
				 "kvm: guest core threads on host sibling pairs");
			return;
		}
		/* No SMT on the host: fall through to the time-share model. */
	}
	if (t->ncpus == 0) {
		for (v = 0; v < VM_CPUS; v++)
			p->host_cpu[v] = -1;
		snprintf(p->how, sizeof(p->how), "none: no host CPUs known");
		return;
	}
	for (v = 0; v < VM_CPUS; v++)
		p->host_cpu[v] = t->cpu[(v / VM_THREADS) % t->ncpus];
	snprintf(p->how, sizeof(p->how), "%s: both threads of a guest core on one host cpu%s",
		 accel_name(accel),
		 accel == ACCEL_KVM ? " (host has no SMT pairs)" :
		 t->ncpus < VM_CORES ? " (cores share host cpus)" : "");
}

int pin_apply(const struct vm_pinning *p, const int *tids, int n)
{
	cpu_set_t set;
	int v;

	for (v = 0; v < n && v < VM_CPUS; v++) {
		if (p->host_cpu[v] < 0)
			continue;
		CPU_ZERO(&set);
		CPU_SET(p->host_cpu[v], &set);
		if (sched_setaffinity(tids[v], sizeof(set), &set)) {
			err_errno(errno, "pin vCPU %d (thread %d) to cpu %d",
				  v, tids[v], p->host_cpu[v]);
			return -1;
		}
	}
	return 0;
}
