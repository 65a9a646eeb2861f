/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where each vCPU runs on the host. A guest core's two threads must share
 * one real core as SMT siblings do: under TCG both go to the same host CPU
 * (siblings time-share it: SMT with no throughput gain); under KVM on an
 * SMT host they go to a pair of host siblings (the real thing).
 */
#ifndef CSBENCH_PIN_H
#define CSBENCH_PIN_H

#include "vm.h"

#define PIN_MAX_HOST	1024

struct host_topo {
	int ncpus;			/* CPUs we may run on */
	int cpu[PIN_MAX_HOST];		/* their ids */
	int sibling[PIN_MAX_HOST];	/* another thread of cpu[i]'s core, or -1 */
};

/* Read the CPUs of our affinity mask and their siblings from sysfs. */
int host_topo_read(struct host_topo *t, const char *sysfs_cpu);
/* Decide the pinning; never fails (falls back to less ideal plans). */
void pin_plan(const struct host_topo *t, enum accel accel,
	      struct vm_pinning *p);
/* Apply @p to vCPU threads @tids. */
int pin_apply(const struct vm_pinning *p, const int *tids, int n);

#endif
