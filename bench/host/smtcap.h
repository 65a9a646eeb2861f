/* SPDX-License-Identifier: GPL-2.0 */
/*
 * An emulated SMT yield under TCG. Both threads of a guest core share one
 * host CPU; capping each vCPU thread at 1/Y of a CPU with the host's CFS
 * bandwidth control makes one busy sibling alone run at 1/Y while two
 * busy siblings together still fill the CPU: two siblings then do Y times
 * the work of one, which is what an SMT yield of Y means (1 <= Y <= 2).
 *
 * The caps live in cgroups of the host's CPU controller, one per vCPU
 * thread, under a parent named after this csbench process (csbench-PID):
 * cgroup v1 (cpu.cfs_period_us and cpu.cfs_quota_us, threads in "tasks")
 * or v2 (a threaded subtree, cpu.max, threads in cgroup.threads). They are
 * removed when the guest has gone; a parent left by a csbench that was
 * killed is removed by the next one that looks.
 */
#ifndef CSBENCH_SMTCAP_H
#define CSBENCH_SMTCAP_H

#include <stddef.h>
#include <sys/types.h>

#define SMTCAP_MIN_YIELD	1.0
#define SMTCAP_MAX_YIELD	2.0
#define SMTCAP_PERIOD_US	10000	/* see the README's measurements */
#define SMTCAP_CGROUP_BASE	"/sys/fs/cgroup"	/* where the host mounts cgroups */
/* A boot whose measured yield is further than this from the target is said. */
#define SMTCAP_TOLERANCE	0.10

struct smtcap {
	char root[512];		/* the CPU controller's root directory */
	int v2;			/* cgroup v2 (else v1) */
	char parent[600];	/* root/csbench-PID, once made */
	int nthreads;		/* capped threads, one child group each */
};

/*
 * Find a writable CPU controller under @cgroup_base (normally
 * /sys/fs/cgroup): v1's cpu hierarchy or v2's unified one with "cpu" in
 * cgroup.controllers. 0, or -1 with the reason in @err.
 */
int smtcap_find(const char *cgroup_base, struct smtcap *c, char *err, size_t len);

/*
 * Cap each of the @n threads @tids (of process @process, QEMU) at 1/@yield
 * of a CPU, in periods of @period_us, in children of a new parent group
 * named for @owner (the csbench process). 0, or -1 with the reason in
 * @err (what was made is removed again).
 */
int smtcap_apply(struct smtcap *c, pid_t owner, pid_t process, const int *tids, int n,
		 double yield, int period_us, char *err, size_t len);

/* Remove what smtcap_apply() made (its threads must be gone). 0 or -1. */
int smtcap_remove(struct smtcap *c);

/*
 * Remove parent groups of csbench processes that no longer run, and say
 * so on stderr. Returns how many were removed.
 */
int smtcap_remove_stale(const struct smtcap *c);

/* The quota per period for @yield: period / yield, at least 1 ms. */
long smtcap_quota_us(double yield, int period_us);

#endif
