// SPDX-License-Identifier: GPL-2.0
#include <stdlib.h>
#include <string.h>

#include "cotrace.h"

enum ev_type { EV_SWITCH, EV_RESCHED, EV_PICK, EV_FI_START, EV_STEAL, EV_OTHER };

struct event {
	double ts;
	int cpu;
	enum ev_type type;
	int a, b;		/* switch: prev, next pid; resched: target; pick: cpu */
};

static const struct {
	const char *name;
	enum ev_type type;
} event_names[] = {
	{ "sched_switch", EV_SWITCH },
	{ "sched_core_resched", EV_RESCHED },
	{ "sched_core_pick", EV_PICK },
	{ "sched_core_forceidle_start", EV_FI_START },
	{ "sched_core_steal", EV_STEAL },
};

static int field_int(const char *s, const char *key, int *out)
{
	const char *p = strstr(s, key);

	if (!p)
		return -1;
	*out = strtol(p + strlen(key), NULL, 10);
	return 0;
}

/*
 * "   comm-pid   [003] d..2.  82.506933: sched_switch: prev_comm=..."
 * comm may hold spaces or brackets, so anchor on ": <event>: " and walk
 * back to the timestamp and the "[cpu]" before it.
 */
static int parse_line(const char *line, struct event *ev)
{
	const char *colon, *p, *name, *end;
	size_t i, len;

	if (line[0] == '#')
		return -1;
	for (colon = strstr(line, ": "); colon; colon = strstr(colon + 1, ": ")) {
		name = colon + 2;
		end = strstr(name, ": ");
		if (!end)
			return -1;
		len = end - name;
		for (i = 0; i < sizeof(event_names) / sizeof(event_names[0]); i++)
			if (strlen(event_names[i].name) == len &&
			    !strncmp(name, event_names[i].name, len))
				break;
		if (i == sizeof(event_names) / sizeof(event_names[0])) {
			/* Only sched events matter, but the line is valid. */
			if (!strncmp(name, "sched_", 6) || !strncmp(name, "irq", 3))
				ev->type = EV_OTHER;
			else
				continue;
		} else {
			ev->type = event_names[i].type;
		}
		/* Timestamp: the number just before @colon. */
		p = colon;
		while (p > line && (p[-1] == '.' || (p[-1] >= '0' && p[-1] <= '9')))
			p--;
		ev->ts = strtod(p, NULL);
		/* CPU: the last "[NNN]" before the timestamp. */
		while (p > line && *p != ']')
			p--;
		while (p > line && *p != '[')
			p--;
		if (*p != '[')
			return -1;
		ev->cpu = strtol(p + 1, NULL, 10);
		if (ev->cpu < 0 || ev->cpu >= COTRACE_MAX_CPUS)
			return -1;
		switch (ev->type) {
		case EV_SWITCH:
			if (field_int(end, "prev_pid=", &ev->a) ||
			    field_int(end, "next_pid=", &ev->b))
				return -1;
			break;
		case EV_RESCHED:
			if (field_int(end, "target=", &ev->a))
				return -1;
			break;
		case EV_PICK:
			if (field_int(end, " cpu=", &ev->a))
				ev->a = -1;
			break;
		default:
			break;
		}
		return 0;
	}
	return -1;
}

static int tenant_of(const struct cotrace_config *cfg, int pid)
{
	int i;

	if (pid <= 0)
		return 0;
	for (i = 0; i < cfg->ntenants; i++)
		if (cfg->tenants[i].pid == pid)
			return cfg->tenants[i].tenant;
	return 0;
}

void cotrace_pairs_default(struct cotrace_config *cfg, int ncpus)
{
	int c;

	cfg->ncpus = ncpus;
	for (c = 0; c < COTRACE_MAX_CPUS; c++)
		cfg->sibling[c] = c < ncpus ? (c ^ 1) : -1;
	for (c = 0; c < ncpus; c++)
		if (cfg->sibling[c] >= ncpus)
			cfg->sibling[c] = -1;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double percentile(const double *sorted, int n, double p)
{
	int i;

	if (!n)
		return 0;
	i = (int)(p / 100.0 * n + 0.999999) - 1;
	if (i < 0)
		i = 0;
	if (i >= n)
		i = n - 1;
	return sorted[i];
}

struct pair_state {
	int a, b;		/* the two cpus */
	int open;		/* a window is open */
	double start;
	int lagging;		/* cpu that did not switch into the conflict */
	int lagging_kicked;	/* it had a resched pending at the start */
	int tainted;		/* it switched and still conflicts */
	double since;		/* last busy-time accounting */
};

struct sweep {
	const struct cotrace_config *cfg;
	struct cotrace_result *res;
	int cur[COTRACE_MAX_CPUS];	/* running pid, -1 unknown */
	int kicked[COTRACE_MAX_CPUS];	/* resched pending since its last pick or switch */
	double max_handoff_us;
	double *handoffs;
	int nhandoffs;
};

static int conflict(const struct sweep *s, int a, int b)
{
	int ta = tenant_of(s->cfg, s->cur[a]), tb = tenant_of(s->cfg, s->cur[b]);

	return ta && tb && ta != tb;
}

static void close_window(struct sweep *s, struct pair_state *p, double ts,
			 int closer)
{
	struct cotrace_result *r = s->res;
	double len = ts - p->start, us = len * 1e6;

	p->open = 0;
	r->windows++;
	r->corun_s += len;
	if (us > r->max_window_us)
		r->max_window_us = us;
	/* Open before recording began: what caused it is not in the trace. */
	if (p->lagging < 0) {
		r->truncated++;
		r->truncated_s += len;
		return;
	}
	/*
	 * A handoff: the lagging sibling was kicked before the window opened
	 * and had not switched when it closed, either because its switch
	 * closed it or because the picking sibling moved on first; and it
	 * lasted no longer than a pending resched can explain.
	 */
	if (p->lagging_kicked && !p->tainted &&
	    (closer == p->lagging || s->kicked[p->lagging]) && us > s->max_handoff_us)
		r->overlong++;
	if (p->lagging_kicked && !p->tainted &&
	    (closer == p->lagging || s->kicked[p->lagging]) && us <= s->max_handoff_us) {
		r->handoff++;
		r->handoff_s += len;
		s->handoffs[s->nhandoffs++] = us;
	} else {
		if (!r->unexplained)
			r->first_unexplained_ts = p->start;
		r->unexplained++;
		r->unexplained_s += len;
		if (us > r->unexplained_max_us)
			r->unexplained_max_us = us;
	}
}

/*
 * Tenant work per core, for the reports' SMT-yield model: how long one
 * sibling ran tenant work alone, and how long both siblings did at once
 * (any tenants). Called before a switch changes what a cpu runs.
 */
static void account_busy(struct sweep *s, struct pair_state *p, double ts)
{
	int busy = !!tenant_of(s->cfg, s->cur[p->a]) + !!tenant_of(s->cfg, s->cur[p->b]);
	double len = ts - p->since;

	p->since = ts;
	if (busy == 1)
		s->res->one_busy_s += len;
	else if (busy == 2)
		s->res->both_busy_s += len;
}

/*
 * A window is a stretch of continuous conflict on one pair. A switch that
 * keeps the conflict keeps the window open. It stays explained when the
 * sibling that switched had just kicked the other one: the lagging sibling
 * took its IPI, made a core-wide pick of its own that chose the other
 * tenant and kicked its sibling in turn, so the roles swap (seen in real
 * traces). A switch into another conflicting task with no kick pending on
 * the other side is what core scheduling must never do.
 */
static void on_switch(struct sweep *s, struct pair_state *p, int cpu, double ts)
{
	int now = conflict(s, p->a, p->b);
	int other = cpu == p->a ? p->b : p->a;

	if (p->open && now) {
		if (s->kicked[other])
			p->lagging = other;
		else
			p->tainted = 1;
		return;
	}
	if (p->open)
		close_window(s, p, ts, cpu);
	if (now) {
		p->open = 1;
		p->start = ts;
		p->lagging = cpu == p->a ? p->b : p->a;
		p->lagging_kicked = s->kicked[p->lagging];
		p->tainted = 0;
	}
}

/* Every event of the trace in @f, in order, into *@evs; the count or -1. */
static long read_events(FILE *f, struct event **evs)
{
	size_t n = 0, cap = 0;
	char line[1024];
	struct event ev;

	*evs = NULL;
	while (fgets(line, sizeof(line), f)) {
		if (parse_line(line, &ev))
			continue;
		if (n == cap) {
			struct event *bigger;

			cap = cap ? cap * 2 : 4096;
			bigger = realloc(*evs, cap * sizeof(**evs));
			if (!bigger) {
				free(*evs);
				*evs = NULL;
				return -1;
			}
			*evs = bigger;
		}
		(*evs)[n++] = ev;
	}
	return n;
}

/*
 * The state before the first event: who ran on each cpu (the prev of its
 * first switch) and one pair per sibling pair, open if it starts in a
 * conflict. Returns the number of pairs.
 */
static int start_sweep(struct sweep *s, const struct event *evs, size_t n,
		       struct pair_state *pairs)
{
	const struct cotrace_config *cfg = s->cfg;
	int c, np = 0, seen[COTRACE_MAX_CPUS] = { 0 };
	size_t i;

	for (c = 0; c < COTRACE_MAX_CPUS; c++)
		s->cur[c] = -1;
	for (i = 0; i < n; i++) {
		if (evs[i].type == EV_SWITCH && !seen[evs[i].cpu]) {
			seen[evs[i].cpu] = 1;
			s->cur[evs[i].cpu] = evs[i].a;
		}
	}
	for (c = 0; c < cfg->ncpus && c < COTRACE_MAX_CPUS; c++) {
		int sib = cfg->sibling[c];

		if (sib <= c || sib >= COTRACE_MAX_CPUS)
			continue;
		memset(&pairs[np], 0, sizeof(pairs[np]));
		pairs[np].a = c;
		pairs[np].b = sib;
		pairs[np].since = evs[0].ts;
		if (conflict(s, c, sib)) {
			pairs[np].open = 1;
			pairs[np].start = evs[0].ts;
			pairs[np].lagging = -1;
		}
		np++;
	}
	return np;
}

/* One event's effect on the running tasks, the pairs and the counts. */
static void sweep_event(struct sweep *s, const struct event *e, struct pair_state *pairs,
			int np)
{
	struct cotrace_result *res = s->res;
	int k;

	switch (e->type) {
	case EV_SWITCH:
		res->switches++;
		for (k = 0; k < np; k++)
			if (pairs[k].a == e->cpu || pairs[k].b == e->cpu)
				account_busy(s, &pairs[k], e->ts);
		s->cur[e->cpu] = e->b;
		s->kicked[e->cpu] = 0;
		for (k = 0; k < np; k++)
			if (pairs[k].a == e->cpu || pairs[k].b == e->cpu)
				on_switch(s, &pairs[k], e->cpu, e->ts);
		break;
	case EV_RESCHED:
		res->rescheds++;
		res->have_core_events = 1;
		if (e->a < 0 || e->a >= COTRACE_MAX_CPUS)
			break;
		s->kicked[e->a] = 1;
		/*
		 * The lagging sibling took its kick, made a core-wide pick of
		 * its own that kept its tenant and kicked the other sibling in
		 * turn: the roles swap, as when it switches (on_switch()).
		 */
		for (k = 0; k < np; k++)
			if (pairs[k].open && pairs[k].lagging == e->cpu &&
			    (pairs[k].a == e->a || pairs[k].b == e->a))
				pairs[k].lagging = e->a;
		break;
	case EV_PICK:
		res->picks++;
		res->have_core_events = 1;
		/*
		 * A cpu picking for itself is in schedule(): any resched it
		 * was sent is consumed, even when it keeps its task and no
		 * sched_switch follows.
		 */
		if (e->a == e->cpu)
			s->kicked[e->cpu] = 0;
		break;
	case EV_FI_START:
		res->forceidle_starts++;
		res->have_core_events = 1;
		break;
	case EV_STEAL:
		res->steals++;
		res->have_core_events = 1;
		break;
	case EV_OTHER:
		break;
	}
}

/* Close what is open at the end and turn sums into shares and percentiles. */
static void finish_sweep(struct sweep *s, struct pair_state *pairs, int np, double end)
{
	struct cotrace_result *res = s->res;
	int c;

	for (c = 0; c < np; c++) {
		account_busy(s, &pairs[c], end);
		if (pairs[c].open)
			close_window(s, &pairs[c], end, -1);
	}
	if (res->span_s > 0) {
		res->corun_pct = res->corun_s / res->span_s * 100.0;
		if (np)
			res->pair_share = res->corun_s / (res->span_s * np);
	}
	qsort(s->handoffs, s->nhandoffs, sizeof(double), cmp_double);
	res->handoff_p50_us = percentile(s->handoffs, s->nhandoffs, 50);
	res->handoff_p99_us = percentile(s->handoffs, s->nhandoffs, 99);
	res->handoff_max_us = s->nhandoffs ? s->handoffs[s->nhandoffs - 1] : 0;
}

int cotrace_analyse(FILE *f, const struct cotrace_config *cfg,
		    struct cotrace_result *res)
{
	struct pair_state pairs[COTRACE_MAX_CPUS / 2];
	struct sweep s = { .cfg = cfg, .res = res,
			   .max_handoff_us = cfg->max_handoff_us > 0 ? cfg->max_handoff_us :
					     COTRACE_MAX_HANDOFF_US };
	struct event *evs;
	long n, i;
	int np;

	memset(res, 0, sizeof(*res));
	n = read_events(f, &evs);
	if (n <= 0) {
		free(evs);
		return -1;
	}
	res->span_s = evs[n - 1].ts - evs[0].ts;
	np = start_sweep(&s, evs, n, pairs);
	res->npairs = np;
	s.handoffs = malloc((n + 1) * sizeof(double));
	if (!s.handoffs) {
		free(evs);
		return -1;
	}
	for (i = 0; i < n; i++)
		sweep_event(&s, &evs[i], pairs, np);
	finish_sweep(&s, pairs, np, evs[n - 1].ts);
	free(s.handoffs);
	free(evs);
	return 0;
}

int cotrace_read_tenant_header(FILE *f, struct cotrace_tenant *out, int max)
{
	char line[512];
	int n = 0, pid, tenant;

	while (n < max && fgets(line, sizeof(line), f)) {
		if (line[0] != '#')
			break;
		if (sscanf(line, "# pid %d tenant %d", &pid, &tenant) == 2) {
			out[n].pid = pid;
			out[n].tenant = tenant;
			n++;
		}
	}
	return n;
}
