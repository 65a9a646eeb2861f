/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The four ways csbench runs a workload (DESIGN.md). Tenants live in their
 * own cgroups in every mode, so only SMT and the cookie differ. Shared by
 * the host driver and the guest agent.
 */
#ifndef CSBENCH_MODE_H
#define CSBENCH_MODE_H

#include <stddef.h>

/*
 * One row per mode: everything that differs between modes is here, so a
 * new mode is a new row (and, for a new way of tagging, a case where the
 * agent applies it). Columns: id, name, SMT, how tenants get cookies, the
 * colour plots draw it in, description.
 */
#define CSB_MODES(X)							\
	X(SMT_OFF, "smt-off", SMT_OFF, COOKIE_NONE, "#7f7f7f",		\
	  "SMT switched off: one CPU per core, no siblings")		\
	X(SMT_ON, "smt-on", SMT_ON, COOKIE_NONE, "#d62728",		\
	  "every CPU, both threads of each core, no cookies")		\
	X(CORESCHED, "coresched", SMT_ON, COOKIE_CGROUP_TAG, "#1f77b4",	\
	  "each tenant's cgroup has cpu.tag = 1")			\
	X(CORESCHED_PRCTL, "coresched-prctl", SMT_ON, COOKIE_PRCTL, "#2ca02c", \
	  "each tenant gets a cookie from prctl(PR_SCHED_CORE_CREATE)")

enum mode_smt { SMT_OFF, SMT_ON };

/* How a mode gives each tenant its own core-scheduling cookie. */
enum mode_cookie {
	COOKIE_NONE,		/* none: siblings run any two tasks */
	COOKIE_CGROUP_TAG,	/* the tenant's cgroup gets cpu.tag = 1 */
	COOKIE_PRCTL,		/* the tenant's first task PR_SCHED_CORE_CREATEs, the rest share */
};

/* The guest's topology: 2 cores x 2 threads (qemu_cmd.c). */
#define GUEST_CPUS_SMT_ON	4
#define GUEST_CPUS_SMT_OFF	2

enum csb_mode {
#define X(id, name, smt, cookie, colour, desc) MODE_##id,
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
enum mode_smt mode_smt(enum csb_mode m);
enum mode_cookie mode_cookie(enum csb_mode m);
/* The colour every plot draws the mode in ("#rrggbb"). */
const char *mode_colour(enum csb_mode m);
/* Guest CPUs online in the mode. */
int mode_online_cpus(enum csb_mode m);

/* Every mode's name, in table order, joined by @sep. */
void mode_list_all(char *buf, size_t len, const char *sep);
/*
 * Parse a comma-separated list ("smt-on,coresched") into @out (capacity
 * MODE_COUNT), in the order given, without repeats. Returns the count, or
 * -1 with "unknown mode 'x' (valid: ...)" or similar in @err.
 */
int mode_parse_list(const char *list, int *out, char *err, size_t errlen);

#endif
