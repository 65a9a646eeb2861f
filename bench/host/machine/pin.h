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
/*
 * The emulation and guest cores for a boot asked for as @want (EMU_AUTO,
 * EMU_CONCURRENT or EMU_TIMESHARED) with @cores (0: as many as fit) on
 * host @t. KVM: host sibling pairs if there are enough (EMU_KVM_SMT),
 * else EMU_KVM_SHARED. TCG, auto: a host CPU per vCPU (EMU_CONCURRENT,
 * cores = host CPUs / 2), else time-shared (VM_CORES cores). 0, or -1
 * with @err saying why (concurrent asked for on too few host CPUs).
 */
int emu_choose(const struct host_topo *t, enum accel accel, enum emulation want,
	       int cores, enum emulation *emu, int *cores_out, char *err, size_t len);
/* Decide the pinning for @emu and @cores; never fails (falls back). */
void pin_plan(const struct host_topo *t, enum accel accel, enum emulation emu,
	      int cores, struct vm_pinning *p);
/*
 * Set @spec's emulation and cores for --emulation @want and --cores @cores
 * (0: default) on this host and @spec->accel; -1 after saying why.
 */
int vm_choose_emulation(const char *want, int cores, struct vm_spec *spec);
/* Apply @p to vCPU threads @tids. */
int pin_apply(const struct vm_pinning *p, const int *tids, int n);

#endif
