// SPDX-License-Identifier: GPL-2.0
/*
 * Co-residency analysis on real traces (tests/fixtures) and on
 * constructed ones whose windows are known.
 */
#include <math.h>

#include "../../bench/lib/cotrace.h"
#include "../tap.h"

#ifndef FIXTURES
#define FIXTURES "tests/fixtures/guest-tool-output"
#endif

/* The co-run figure a fixture's header says an independent tool found. */
static double header_corun_pct(const char *path)
{
	char line[512];
	double pct = -1;
	FILE *f = fopen(path, "r");
	const char *p;

	while (f && fgets(line, sizeof(line), f))
		if ((p = strstr(line, "corun_pct=")))
			pct = strtod(p + 10, NULL);
	if (f)
		fclose(f);
	return pct;
}

static int analyse_file(const char *path, struct cotrace_result *r)
{
	struct cotrace_tenant t[64];
	struct cotrace_config cfg = { 0 };
	FILE *f = fopen(path, "r");
	int ret;

	if (!f)
		return -1;
	cfg.ntenants = cotrace_read_tenant_header(f, t, 64);
	cfg.tenants = t;
	cotrace_pairs_default(&cfg, 4);
	rewind(f);
	ret = cotrace_analyse(f, &cfg, r);
	fclose(f);
	return ret;
}

static int analyse_text(const char *text, const struct cotrace_tenant *t,
			int nt, struct cotrace_result *r)
{
	struct cotrace_config cfg = { .tenants = t, .ntenants = nt };
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	int ret;

	cotrace_pairs_default(&cfg, 2);
	ret = cotrace_analyse(f, &cfg, r);
	fclose(f);
	return ret;
}

#define SW(cpu, ts, prev, next) \
	"   x-1 [00" #cpu "] d..2. " #ts ": sched_switch: prev_comm=x prev_pid=" #prev \
	" prev_prio=120 prev_state=R ==> next_comm=y next_pid=" #next " next_prio=120\n"
#define RS(cpu, ts, target) \
	"   x-1 [00" #cpu "] d..2. " #ts ": sched_core_resched: cpu=" #cpu " target=" #target \
	" curr_pid=0 curr_cookie=0x0 next_pid=0 next_cookie=0x0\n"

/* A sched_core_pick made on cpu @on for sibling @cpu. */
#define PK(on, ts, cpu) \
	"   x-1 [00" #on "] d..2. " #ts ": sched_core_pick: cpu=" #cpu \
	" comm=x pid=1 cookie=0x0 max=0 forced_idle=0\n"

int main(void)
{
	static const struct cotrace_tenant two[] = { { 10, 1 }, { 11, 1 }, { 20, 2 }, { 21, 2 } };
	struct cotrace_result r;
	char path[512];
	double want;

	tap_plan_start();

	snprintf(path, sizeof(path), "%s/trace-2tenants-none.txt", FIXTURES);
	if (!tap_ok(analyse_file(path, &r) == 0, "fixture without cookies parses")) {
		tap_diag("cannot read %s", path);
	} else {
		want = header_corun_pct(path);
		tap_ok(fabs(r.corun_pct - want) < 2.0,
		       "no cookies: co-run %.2f%% matches the independent %.2f%%",
		       r.corun_pct, want);
		check_int(r.switches, >, 1000, "no cookies: every sched_switch counted");
		tap_ok(r.pair_share > 0.2, "no cookies: leak visible on more than a fifth of pair time");
		check_int(r.have_core_events, ==, 0, "stock kernel trace has no core events");
	}
	snprintf(path, sizeof(path), "%s/trace-2tenants-prctl.txt", FIXTURES);
	if (tap_ok(analyse_file(path, &r) == 0, "fixture with prctl cookies parses")) {
		tap_ok(r.corun_pct < 0.5, "prctl cookies: co-run %.3f%% (independent: %.3f%%)",
		       r.corun_pct, header_corun_pct(path));
	}

	/* Real traces from the patched kernel (tests/fixtures/traces). */
	snprintf(path, sizeof(path), "%s/../traces/cputag-2tenants-tags-on.trace", FIXTURES);
	if (tap_ok(analyse_file(path, &r) == 0, "cpu.tag trace parses")) {
		tap_ok(r.have_core_events && r.picks > 1000 && r.rescheds > 100,
		       "core events found (%ld picks, %ld rescheds)", r.picks, r.rescheds);
		check_int(r.windows, ==, 121, "tags on: 121 windows");
		check_int(r.handoff, ==, 121, "tags on: every window is a handoff");
		check_int(r.unexplained, ==, 0, "tags on: none unexplained");
		tap_ok(r.handoff_max_us > 20000 && r.handoff_max_us < 21000,
		       "tags on: longest handoff 20.4 ms (got %.0f us)", r.handoff_max_us);
	}
	snprintf(path, sizeof(path), "%s/../traces/cputag-2tenants-tags-off.trace", FIXTURES);
	if (tap_ok(analyse_file(path, &r) == 0, "untagged trace parses"))
		tap_ok(r.pair_share > 0.7 && r.unexplained == r.windows,
		       "tags off: %.1f%% of pair time shared, all unexplained",
		       r.pair_share * 100);

	/* cpu0 runs tenant 1, cpu1 switches to tenant 2 after kicking cpu0. */
	analyse_text(SW(0, 1.000000, 0, 10) SW(1, 1.000000, 0, 11)
		     RS(1, 1.100000, 0) SW(1, 1.100100, 11, 20)
		     SW(0, 1.100600, 10, 0) SW(1, 2.000000, 20, 0), two, 4, &r);
	check_int(r.windows, ==, 1, "handoff: one window");
	check_int(r.handoff, ==, 1, "handoff: classified as handoff");
	check_int(r.unexplained, ==, 0, "handoff: nothing unexplained");
	tap_ok(fabs(r.handoff_max_us - 500) < 1, "handoff: 500 us long (got %.1f)",
	       r.handoff_max_us);
	/* Both ran tenant work from 1.0 to 1.1006, then cpu1 alone until 2.0. */
	tap_ok(fabs(r.both_busy_s - 0.1006) < 1e-9, "both siblings busy 100.6 ms (got %.6f s)",
	       r.both_busy_s);
	tap_ok(fabs(r.one_busy_s - 0.8994) < 1e-9, "one sibling busy 899.4 ms (got %.6f s)",
	       r.one_busy_s);

	/* Same, but nobody kicked cpu0: a leak. */
	analyse_text(SW(0, 1.000000, 0, 10) SW(1, 1.000000, 0, 11)
		     SW(1, 1.100100, 11, 20) SW(0, 1.100600, 10, 0)
		     SW(1, 2.000000, 20, 0), two, 4, &r);
	check_int(r.unexplained, ==, 1, "no resched: unexplained window");
	check_int(r.handoff, ==, 0, "no resched: no handoff");

	/*
	 * Kicked and still not switched when the picker moves on to a
	 * compatible task (seen in a real trace: 13.6 ms under TCG): handoff.
	 */
	analyse_text(SW(0, 1.000000, 0, 10) SW(1, 1.000000, 0, 11)
		     RS(1, 1.100000, 0) SW(1, 1.100100, 11, 20)
		     SW(1, 1.100600, 20, 0) SW(0, 2.000000, 10, 0), two, 4, &r);
	check_int(r.handoff, ==, 1, "closed by the picker while the kick is pending: handoff");
	check_int(r.unexplained, ==, 0, "and nothing unexplained");

	/* Kicked, took it, then ran a conflicting task again: unexplained. */
	analyse_text(SW(0, 1.000000, 0, 10) SW(1, 1.000000, 0, 11)
		     RS(1, 1.100000, 0) SW(1, 1.100100, 11, 20)
		     SW(0, 1.100300, 10, 11) SW(0, 1.100400, 11, 10)
		     SW(1, 1.100600, 20, 0) SW(0, 2.000000, 10, 0), two, 4, &r);
	check_int(r.windows, ==, 1, "continuous conflict is one window");
	check_int(r.unexplained, ==, 1,
		  "lagging sibling switching to another conflicting task: unexplained");

	/* A resched consumed by an earlier switch does not count. */
	analyse_text(SW(0, 1.000000, 0, 10) SW(1, 1.000000, 0, 11)
		     RS(1, 1.050000, 0) SW(0, 1.060000, 10, 11)
		     SW(1, 1.100100, 11, 20) SW(0, 1.100600, 11, 0)
		     SW(1, 2.000000, 20, 0), two, 4, &r);
	check_int(r.unexplained, ==, 1, "stale resched does not explain a later window");

	/*
	 * From a real trace: cpu0 takes its kick, picks core-wide for its own
	 * tenant, kicks cpu1 and switches to another task of that tenant; the
	 * window ends when cpu1 follows. One handoff window.
	 */
	analyse_text(SW(0, 1.000000, 0, 10) SW(1, 1.000000, 0, 0)
		     RS(1, 1.100000, 0) SW(1, 1.100100, 0, 20)
		     RS(0, 1.101000, 1) SW(0, 1.101100, 10, 11)
		     SW(1, 1.103000, 20, 0) SW(0, 2.000000, 11, 0), two, 4, &r);
	check_int(r.windows, ==, 1, "role swap: one window");
	check_int(r.handoff, ==, 1, "role swap: the kicked chain is a handoff");

	/*
	 * cpu1 kicks cpu0, which enters schedule() and picks for itself but
	 * keeps its task (no sched_switch). The kick is spent: a later
	 * conflict it cannot explain is a leak.
	 */
	analyse_text(SW(0, 1.000000, 0, 10) SW(1, 1.000000, 0, 11)
		     RS(1, 1.050000, 0) PK(0, 1.050100, 0) PK(0, 1.050101, 1)
		     SW(1, 1.100100, 11, 20) SW(0, 1.100600, 10, 0)
		     SW(1, 2.000000, 20, 0), two, 4, &r);
	check_int(r.unexplained, ==, 1, "a kick consumed by the sibling's own pick is spent");
	/*
	 * From a real trace: cpu0, kicked, picks for itself, keeps its tenant
	 * and kicks cpu1 in turn; the window ends when cpu1 switches. The
	 * kick moved with the roles: a handoff.
	 */
	analyse_text(SW(0, 1.000000, 0, 10) SW(1, 1.000000, 0, 11)
		     RS(1, 1.100000, 0) SW(1, 1.100100, 11, 20)
		     PK(0, 1.103000, 0) PK(0, 1.103001, 1) RS(0, 1.103002, 1)
		     SW(1, 1.104000, 20, 11) SW(1, 2.000000, 11, 0)
		     SW(0, 2.000000, 10, 0), two, 4, &r);
	tap_ok(r.handoff == 1 && r.unexplained == 0,
	       "a kicked sibling that keeps its tenant and kicks back: handoff");
	/* A pick made by cpu1 for cpu0 does not consume cpu0's kick. */
	analyse_text(SW(0, 1.000000, 0, 10) SW(1, 1.000000, 0, 11)
		     RS(1, 1.100000, 0) PK(1, 1.100010, 0) SW(1, 1.100100, 11, 20)
		     SW(0, 1.100600, 10, 0) SW(1, 2.000000, 20, 0), two, 4, &r);
	check_int(r.handoff, ==, 1, "a pick for the sibling made elsewhere leaves its kick");

	/* A kicked sibling that takes 150 ms to switch: past the bound. */
	analyse_text(SW(0, 1.000000, 0, 10) SW(1, 1.000000, 0, 11)
		     RS(1, 1.100000, 0) SW(1, 1.100100, 11, 20)
		     SW(0, 1.250100, 10, 0) SW(1, 2.000000, 20, 0), two, 4, &r);
	tap_ok(r.unexplained == 1 && r.overlong == 1 && r.handoff == 0,
	       "a 150 ms handoff is past the 100 ms bound: unexplained, overlong");
	{
		struct cotrace_config cfg = { .tenants = two, .ntenants = 4,
					      .max_handoff_us = 200000 };
		const char *text = SW(0, 1.000000, 0, 10) SW(1, 1.000000, 0, 11)
				   RS(1, 1.100000, 0) SW(1, 1.100100, 11, 20)
				   SW(0, 1.250100, 10, 0) SW(1, 2.000000, 20, 0);
		FILE *f = fmemopen((void *)text, strlen(text), "r");

		cotrace_pairs_default(&cfg, 2);
		cotrace_analyse(f, &cfg, &r);
		fclose(f);
		check_int(r.handoff, ==, 1, "with a 200 ms bound it is a handoff");
	}

	/* Both siblings already ran different tenants when tracing began. */
	analyse_text(SW(0, 1.000000, 10, 0) SW(1, 1.050000, 20, 0), two, 4, &r);
	check_int(r.truncated, ==, 1, "a window open when the trace starts is truncated");
	check_int(r.unexplained + r.handoff, ==, 0, "and judged neither way");

	/* Same tenant on both siblings, and kernel threads: no window. */
	analyse_text(SW(0, 1.000000, 0, 10) SW(1, 1.000000, 0, 11)
		     SW(1, 1.500000, 11, 99) SW(0, 2.000000, 10, 0), two, 4, &r);
	check_int(r.windows, ==, 0, "same tenant or non-tenant: no window");

	check_int(analyse_text("# nothing\n", two, 4, &r), ==, -1,
		  "a trace without events is an error");
	return tap_finish();
}
