/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An emulated SMT yield under TCG. Both threads of a guest core share one
 * host CPU. With the host's CFS bandwidth control, the core's vCPU
 * threads together get at most a share S of that CPU, and each alone at
 * most S/Y: one busy sibling alone runs at S/Y, two busy siblings
 * together at S, so two siblings do Y times the work of one, which is
 * what an SMT yield of Y means (1 <= Y <= 2).
 *
 * Why a core cap S below 1: QEMU's other threads and the host's own work
 * share the CPU too. Without it they would take their time out of the
 * idle half of a lone sibling's period for free, but out of the siblings'
 * time when both are busy, and the yield would read short by their share
 * (10-13% at Y = 1.3 here). With S at most 1 minus their share, both
 * cases are set by the caps alone (docs/emulation.md has the measurements).
 *
 * The caps live in cgroups of the host's CPU controller under a parent
 * named after this csbench process: csbench-PID/coreK (cap S) /vcpuN
 * (cap S/Y), cgroup v1 (cpu.cfs_period_us and cpu.cfs_quota_us, threads
 * in "tasks") or v2 (a threaded subtree, cpu.max, threads in
 * cgroup.threads). They are removed when the guest has gone; a parent
 * left by a csbench that was killed is removed by the next one that
 * looks.
 */
#ifndef CSBENCH_SMTCAP_H
#define CSBENCH_SMTCAP_H

#include <stddef.h>
#include <sys/types.h>

#define SMTCAP_MIN_YIELD	1.0
#define SMTCAP_MAX_YIELD	2.0
#define SMTCAP_PERIOD_US	10000	/* see docs/emulation.md's measurements */
#define SMTCAP_CORE_PCT		70	/* S in percent: see above and docs/emulation.md */
#define SMTCAP_MIN_CORE_SHARE	0.50
#define SMTCAP_MIN_QUOTA_US	1000	/* the kernel's smallest CFS quota */
#define SMTCAP_CGROUP_BASE	"/sys/fs/cgroup"	/* where the host mounts cgroups */
/* A boot whose measured yield is further than this from the target is said. */
#define SMTCAP_TOLERANCE	0.10

struct smtcap {
	char root[512];		/* the CPU controller's root directory */
	int v2;			/* cgroup v2 (else v1) */
	char parent[600];	/* root/csbench-PID, once made */
};

/* What to cap: the yield, the core's share S, the period, the topology. */
struct smtcap_plan {
	double yield;		/* Y */
	double core_share;	/* S; 1 = no core cap */
	int period_us;
	int threads_per_core;	/* vCPU i is in core i / threads_per_core */
};

/*
 * Find a writable CPU controller under @cgroup_base (normally
 * /sys/fs/cgroup): v1's cpu hierarchy or v2's unified one with "cpu" in
 * cgroup.controllers. 0, or -1 with the reason in @err.
 */
int smtcap_find(const char *cgroup_base, struct smtcap *c, char *err, size_t len);

/*
 * Is @plan one the kernel can cap (yield and core share in range, a
 * thread's quota at least SMTCAP_MIN_QUOTA_US)? 0, or -1 with @err.
 */
int smtcap_check(const struct smtcap_plan *plan, char *err, size_t len);

/*
 * Cap the @n vCPU threads @tids (of process @process, QEMU) as @plan
 * says, in groups under a new parent named for @owner (the csbench
 * process). 0, or -1 with the reason in @err (what was made is removed
 * again).
 */
int smtcap_apply(struct smtcap *c, pid_t owner, pid_t process, const int *tids, int n,
		 const struct smtcap_plan *plan, char *err, size_t len);

/* Remove what smtcap_apply() made (its threads must be gone). 0 or -1. */
int smtcap_remove(struct smtcap *c);

/*
 * Remove parent groups of csbench processes that no longer run, and say
 * so on stderr. Returns how many were removed.
 */
int smtcap_remove_stale(const struct smtcap *c);

/* The quota per period for a @share of a CPU, rounded to the us. */
long smtcap_quota_us(double share, int period_us);

#endif
