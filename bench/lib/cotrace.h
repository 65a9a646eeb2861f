/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Cross-tenant co-residency from a tracefs trace: every window in which
 * two SMT siblings ran tasks of different tenants at the same time.
 *
 * Core scheduling cannot make such windows vanish: when a core-wide pick
 * on one sibling chooses a task whose cookie the other sibling's task does
 * not share, it sends that sibling a reschedule (sched_core_resched), and
 * until the sibling takes it both run. Such a window is a *handoff*: the
 * lagging sibling had a reschedule pending when the window opened, and it
 * was still pending when the window closed (the lagging sibling's switch
 * closes it, or the picking sibling moves on to a compatible task first;
 * under TCG a vCPU may take many milliseconds to see the IPI). Any other
 * window is *unexplained*: a real leak, or a case this model does not know.
 * A window already open when the trace begins is *truncated*: its cause was
 * never recorded, so it is counted apart and judged neither way.
 *
 * Plain C, no allocation beyond the event array: used by the in-guest
 * isolation test (static) and by host tools and unit tests alike.
 */
#ifndef CSBENCH_COTRACE_H
#define CSBENCH_COTRACE_H

#include <stdio.h>

#define COTRACE_MAX_CPUS	64

struct cotrace_tenant {
	int pid;
	int tenant;		/* > 0; 0 means "not a tenant task" */
};

/*
 * The longest window a pending resched may explain. The kernel acts on a
 * resched IPI at the sibling's next return from interrupt, which on
 * hardware is microseconds away; under TCG both sibling vCPUs share one
 * host CPU and the lagging one may wait for its host thread's turn: 43 ms
 * was the longest handoff in the reference run's 84 cells. A window past
 * the bound is unexplained, whatever kicked it.
 */
#define COTRACE_MAX_HANDOFF_US	100000.0

struct cotrace_config {
	const struct cotrace_tenant *tenants;
	int ntenants;
	int ncpus;
	int sibling[COTRACE_MAX_CPUS];	/* the other thread of each cpu, -1 */
	double max_handoff_us;		/* 0: COTRACE_MAX_HANDOFF_US */
};

struct cotrace_result {
	double span_s;		/* first to last event */
	int npairs;		/* sibling pairs seen */
	long switches, picks, rescheds, forceidle_starts, steals;
	int have_core_events;	/* the trace has core-scheduling events */

	int windows;
	double corun_s;		/* sum of all windows over all pairs */
	double corun_pct;	/* corun_s / span_s * 100: up to 100 * npairs */
	double pair_share;	/* corun_s / (span_s * npairs) */
	double max_window_us;

	int handoff;
	double handoff_s;
	double handoff_p50_us, handoff_p99_us, handoff_max_us;

	int truncated;		/* already open when the trace began */
	double truncated_s;

	int unexplained;		/* overlong handoffs included */
	int overlong;			/* handoffs past max_handoff_us */
	double unexplained_s;
	double unexplained_max_us;
	double first_unexplained_ts;	/* trace timestamp, for debugging */
	/*
	 * Tenant work per core, summed over pairs: time exactly one sibling
	 * ran a tenant task, and time both did (same tenant or not).
	 */
	double one_busy_s, both_busy_s;
};

/* Default topology: siblings 0-1, 2-3, ... for @ncpus CPUs. */
void cotrace_pairs_default(struct cotrace_config *cfg, int ncpus);

/*
 * Read @f (tracefs "trace" format) and fill @res. Returns 0, or -1 if the
 * trace could not be read (no events, out of memory).
 */
int cotrace_analyse(FILE *f, const struct cotrace_config *cfg,
		    struct cotrace_result *res);

/*
 * Read "# pid N tenant T" header lines (the fixtures' form) from @f into
 * @out (capacity @max). Returns the count.
 */
int cotrace_read_tenant_header(FILE *f, struct cotrace_tenant *out, int max);

#endif
