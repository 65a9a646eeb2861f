// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "../../lib/log.h"
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

int emu_choose(const struct host_topo *t, enum accel accel, enum emulation want,
	       int cores, enum emulation *emu, int *cores_out, char *err, size_t len)
{
	int pairs[VM_MAX_CORES][2];
	int npairs, fit = t->ncpus / VM_THREADS;

	if (fit > VM_MAX_CORES)
		fit = VM_MAX_CORES;
	if (cores > VM_MAX_CORES) {
		snprintf(err, len, "--cores %d: at most %d", cores, VM_MAX_CORES);
		return -1;
	}
	if (accel == ACCEL_KVM) {
		npairs = sibling_pairs(t, pairs, VM_MAX_CORES);
		*cores_out = cores ? cores : npairs ? npairs : VM_CORES;
		*emu = npairs >= *cores_out ? EMU_KVM_SMT : EMU_KVM_SHARED;
		return 0;
	}
	if (want == EMU_TIMESHARED || (want == EMU_AUTO && cores > fit) ||
	    (want == EMU_AUTO && fit < 1)) {
		*emu = EMU_TIMESHARED;
		*cores_out = cores ? cores : VM_CORES;
		return 0;
	}
	if (fit < 1 || cores > fit) {
		snprintf(err, len, "siblings on own host CPUs need a host CPU per vCPU: "
			 "%d core%s x %d threads on %d host CPU%s (--cores %d fits, or "
			 "--emulation time-shared)", cores ? cores : 1, cores == 1 ? "" : "s",
			 VM_THREADS, t->ncpus, t->ncpus == 1 ? "" : "s", fit);
		return -1;
	}
	*emu = EMU_CONCURRENT;
	*cores_out = cores ? cores : fit;
	return 0;
}

void pin_plan(const struct host_topo *t, enum accel accel, enum emulation emu,
	      int cores, struct vm_pinning *p)
{
	int pairs[VM_MAX_CORES][2];
	int v, npairs, ncpus = cores * VM_THREADS;

	if (cores < 1 || cores > VM_MAX_CORES)
		cores = VM_CORES, ncpus = cores * VM_THREADS;
	for (v = 0; v < VM_MAX_CPUS; v++)
		p->host_cpu[v] = -1;
	if (accel == ACCEL_KVM && emu == EMU_KVM_SMT) {
		npairs = sibling_pairs(t, pairs, VM_MAX_CORES);
		if (npairs >= cores) {
			for (v = 0; v < ncpus; v++)
				p->host_cpu[v] = pairs[v / VM_THREADS][v % VM_THREADS];
			snprintf(p->how, sizeof(p->how),
				 "kvm: guest core threads on host sibling pairs");
			return;
		}
		/* No SMT on the host: fall through to the time-share model. */
	}
	if (t->ncpus == 0) {
		snprintf(p->how, sizeof(p->how), "none: no host CPUs known");
		return;
	}
	if (accel == ACCEL_TCG && emu == EMU_CONCURRENT && t->ncpus >= ncpus) {
		for (v = 0; v < ncpus; v++)
			p->host_cpu[v] = t->cpu[v];
		snprintf(p->how, sizeof(p->how), "tcg: every vCPU on its own host cpu");
		return;
	}
	for (v = 0; v < ncpus; v++)
		p->host_cpu[v] = t->cpu[(v / VM_THREADS) % t->ncpus];
	snprintf(p->how, sizeof(p->how), "%s: both threads of a guest core on one host cpu%s",
		 accel_name(accel),
		 accel == ACCEL_KVM ? " (host has no SMT pairs)" :
		 t->ncpus < cores ? " (cores share host cpus)" : "");
}

int pin_apply(const struct vm_pinning *p, const int *tids, int n)
{
	cpu_set_t set;
	int v;

	for (v = 0; v < n && v < VM_MAX_CPUS; v++) {
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

int vm_choose_emulation(const char *want, int cores, struct vm_spec *spec)
{
	struct host_topo topo;
	char err[512];
	int e = emu_lookup(want);

	if (e < 0) {
		err_msg("--emulation %s: expected auto, concurrent or time-shared", want);
		return -1;
	}
	if (host_topo_read(&topo, "/sys/devices/system/cpu"))
		topo.ncpus = 0;
	if (emu_choose(&topo, spec->accel, e, cores, &spec->emu, &spec->cores, err,
		       sizeof(err))) {
		err_msg("--emulation %s: %s", want, err);
		return -1;
	}
	return 0;
}
