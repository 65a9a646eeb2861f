// SPDX-License-Identifier: GPL-2.0
/*
 * Isolation: two tenants in tagged cgroups, four busy processes each on
 * the four vCPUs, traced with sched_switch and the core-scheduling events.
 * Every window in which siblings ran tasks of different tenants is either
 * a handoff (the lagging sibling had been sent sched_core_resched and the
 * window ends when it switches) or unexplained. With tags on, unexplained
 * windows must be 0; with tags off the same detector must see tenants
 * share cores for at least a fifth of pair time, or it proves nothing. A
 * third phase retags running tenants while the trace runs: tenant a lives
 * in iso-a/sub under tagged iso-a, and iso-a/sub's own tag is toggled
 * every 20 ms, so a's tasks switch between two cookies that both differ
 * from b's; every window must still be a handoff.
 *
 * usage: isolation_test [SECONDS]   (default 4 per phase)
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../bench/lib/cotrace.h"
#include "../tap.h"
#include "guest_util.h"
#include "../../bench/guest/trace_util.h"
#include "../../bench/guest/modeset.h"

#define PER_TENANT	4

static const char *const groups[] = { "iso-a", "iso-b" };

/*
 * Keep the raw trace beside the results (the working directory is the
 * host's share), headed by the pid to tenant map, so a window can be
 * looked at again with the same analyser on the host.
 */
static int analyse(const char *phase, const struct cotrace_tenant *t, int n,
		   struct cotrace_result *r)
{
	struct cotrace_config cfg = { .tenants = t, .ntenants = n };
	char path[64], title[64], err[128];
	int ret, cpus, cores;
	FILE *f;

	snprintf(path, sizeof(path), "isolation-%s.trace", phase);
	snprintf(title, sizeof(title), "isolation_test phase %s", phase);
	ret = trace_save(path, title, t, n);
	if (ret)
		return ret;
	f = fopen(path, "r");
	if (!f)
		return -errno;
	if (guest_topology(&cpus, &cores, err, sizeof(err))) {
		fclose(f);
		tap_diag("%s", err);
		return -EINVAL;
	}
	cotrace_pairs_default(&cfg, cpus);
	ret = cotrace_analyse(f, &cfg, r);
	fclose(f);
	return ret;
}

static void report(const char *phase, const struct cotrace_result *r)
{
	tap_diag("%s: span %.2f s, %ld switches, %ld core picks, %ld rescheds, "
		 "%ld forced-idle starts, %ld steals", phase, r->span_s,
		 r->switches, r->picks, r->rescheds, r->forceidle_starts, r->steals);
	tap_diag("%s: co-run %.2f%% of trace time over %d pairs (%.1f%% of pair time), "
		 "%d windows, max %.0f us", phase, r->corun_pct, r->npairs,
		 r->pair_share * 100, r->windows, r->max_window_us);
	tap_diag("%s: handoff %d windows, %.3f ms total, p50 %.0f us, p99 %.0f us, max %.0f us",
		 phase, r->handoff, r->handoff_s * 1e3, r->handoff_p50_us,
		 r->handoff_p99_us, r->handoff_max_us);
	tap_diag("%s: unexplained %d windows (%d handoffs past %.0f us), %.3f ms total, "
		 "max %.0f us; %d truncated (open when the trace began), %.3f ms",
		 phase, r->unexplained, r->overlong, COTRACE_MAX_HANDOFF_US,
		 r->unexplained_s * 1e3, r->unexplained_max_us, r->truncated,
		 r->truncated_s * 1e3);
	/* One machine-readable line per phase for csbench's records. */
	printf("# ISOLATION phase=%s corun_pct=%.4f pair_share=%.4f windows=%d "
	       "handoff=%d handoff_ms=%.3f handoff_p50_us=%.1f handoff_p99_us=%.1f "
	       "handoff_max_us=%.1f unexplained=%d unexplained_ms=%.3f truncated=%d\n",
	       phase, r->corun_pct, r->pair_share, r->windows, r->handoff,
	       r->handoff_s * 1e3, r->handoff_p50_us, r->handoff_p99_us,
	       r->handoff_max_us, r->unexplained, r->unexplained_s * 1e3,
	       r->truncated);
}

enum phase { PHASE_OFF, PHASE_ON, PHASE_RETAG };

static const char *const phase_names[] = {
	[PHASE_OFF] = "tags-off", [PHASE_ON] = "tags-on", [PHASE_RETAG] = "retag",
};

/* Toggle @group's tag every 20 ms until killed. */
static pid_t start_retagger(const char *group)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (int on = 0;; on = !on) {
			if (cg_tag(group, on))
				_exit(1);
			usleep(20000);
		}
	}
	return pid;
}

/*
 * The control phase must give the detector something to see: left to the
 * load balancer, tenants once settled one per core (each core running only
 * one tenant's tasks) and shared nothing, failing the >= 20% check. With
 * tags off, pin tenant @g's task @i to one thread of each core and the other
 * tenant to the sibling threads (cpus 0-1 and 2-3 are siblings, as
 * boot_checks asserts), so both tenants always run on every core.
 */
static void pin_across_siblings(pid_t pid, int g, int i)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET((2 * i + g) % 4, &set);
	if (sched_setaffinity(pid, sizeof(set), &set))
		tap_diag("cannot pin tenant %d's task %d: %s", g + 1, i, strerror(errno));
}

static int run_phase(enum phase phase, int seconds, struct cotrace_result *r)
{
	struct cotrace_tenant t[2 * PER_TENANT];
	const char *home[2] = { groups[0], groups[1] };
	int g, i, n = 0, ret, status = 0;
	pid_t retagger = 0;

	for (g = 0; g < 2; g++) {
		cg_create(groups[g]);
		if (cg_tag(groups[g], phase != PHASE_OFF))
			return -1;
	}
	if (phase == PHASE_RETAG) {
		cg_enable_cpu(groups[0]);
		cg_create("iso-a/sub");
		home[0] = "iso-a/sub";
	}
	for (g = 0; g < 2; g++)
		for (i = 0; i < PER_TENANT; i++) {
			t[n].pid = spawn_child(1);
			t[n].tenant = g + 1;
			cg_move(home[g], t[n].pid);
			if (phase == PHASE_OFF)
				pin_across_siblings(t[n].pid, g, i);
			n++;
		}
	usleep(300000);		/* let the load spread */
	if (phase == PHASE_RETAG)
		retagger = start_retagger("iso-a/sub");
	trace_start();
	sleep(seconds);
	trace_stop();
	if (retagger) {
		kill(retagger, SIGKILL);
		waitpid(retagger, &status, 0);
		/* Killed is how it should end; an exit means a tag write failed. */
		if (WIFEXITED(status))
			tap_diag("retagger: a cpu.tag write failed");
	}
	for (i = 0; i < n; i++)
		kill_child(t[i].pid);
	ret = analyse(phase_names[phase], t, n, r);
	if (phase == PHASE_RETAG) {
		cg_tag("iso-a/sub", 0);
		cg_remove("iso-a/sub");
	}
	for (g = 0; g < 2; g++)
		cg_tag(groups[g], 0);
	return ret || (retagger && WIFEXITED(status)) ? -1 : 0;
}

int main(int argc, char **argv)
{
	struct cotrace_result on, off, retag;
	int seconds = argc > 1 ? atoi(argv[1]) : 4;
	int g;

	tap_plan_start();
	/* The project's own kernel: missing events or files are failures. */
	if (!tap_ok(trace_event_enabled("sched_core_resched") &&
		    trace_event_enabled("sched_switch"),
		    "the boot traces sched_core_resched and sched_switch"))
		return tap_finish();
	cg_enable_cpu("");
	cg_create(groups[0]);
	if (!tap_ok(!access(CGROOT "/iso-a/cpu.tag", F_OK), "this kernel has cpu.tag"))
		return tap_finish();

	if (tap_ok(run_phase(PHASE_ON, seconds, &on) == 0, "tags on: traced and analysed")) {
		report("tags-on", &on);
		tap_ok(on.have_core_events && on.picks > 0,
		       "tags on: core-wide picks were traced (%ld)", on.picks);
		check_int(on.unexplained, ==, 0, "tags on: no unexplained co-residency window");
		if (on.unexplained)
			tap_diag("first unexplained window starts at %.6f",
				 on.first_unexplained_ts);
	}
	if (tap_ok(run_phase(PHASE_RETAG, seconds, &retag) == 0,
		   "retagging running tenants: traced and analysed")) {
		report("retag", &retag);
		check_int(retag.unexplained, ==, 0,
			  "retagging running tenants: no unexplained window");
		tap_ok(retag.have_core_events && retag.picks > 0,
		       "retagging: core-wide picks were traced (%ld)", retag.picks);
	}
	if (tap_ok(run_phase(PHASE_OFF, seconds, &off) == 0, "tags off: traced and analysed")) {
		report("tags-off", &off);
		tap_ok(off.pair_share >= 0.2,
		       "tags off: tenants share cores %.1f%% of pair time (>= 20%%: the detector sees leaks)",
		       off.pair_share * 100);
	}
	for (g = 0; g < 2; g++)
		cg_remove(groups[g]);
	return tap_finish();
}
