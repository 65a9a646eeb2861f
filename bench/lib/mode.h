/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The four ways csbench runs a workload (DESIGN.md). Tenants live in their
 * own cgroups in every mode, so only SMT and the cookie differ. Shared by
 * the host driver and the guest agent.
 */
#ifndef CSBENCH_MODE_H
#define CSBENCH_MODE_H

#include <stddef.h>

/* X-macro: one list makes the enum, the names and the descriptions. */
#define CSB_MODES(X)							\
	X(SMT_OFF, "smt-off", "SMT switched off: 2 CPUs, no siblings")	\
	X(SMT_ON, "smt-on", "all 4 CPUs, no cookies")			\
	X(CORESCHED, "coresched", "each tenant's cgroup has cpu.tag = 1") \
	X(CORESCHED_PRCTL, "coresched-prctl",				\
	  "each tenant gets a cookie from prctl(PR_SCHED_CORE_CREATE)")

enum csb_mode {
#define X(id, name, desc) MODE_##id,
	CSB_MODES(X)
#undef X
	MODE_COUNT
};

const char *mode_name(enum csb_mode m);
const char *mode_description(enum csb_mode m);
/* MODE_* for @name, or -1. */
int mode_lookup(const char *name);
/* Does the mode give tenants cookies? */
int mode_has_cookies(enum csb_mode m);

/* Every mode's name, in table order, joined by @sep. */
void mode_list_all(char *buf, size_t len, const char *sep);
/*
 * Parse a comma-separated list ("smt-on,coresched") into @out (capacity
 * MODE_COUNT), in the order given, without repeats. Returns the count, or
 * -1 with "unknown mode 'x' (valid: ...)" or similar in @err.
 */
int mode_parse_list(const char *list, int *out, char *err, size_t errlen);

#endif
