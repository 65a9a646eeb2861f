// SPDX-License-Identifier: GPL-2.0
/*
 * Forced idle when core scheduling switches itself off. An untagged
 * spinner on cpu0 and a spinner with the system's only cookie on its
 * sibling cpu1 take turns, the other sibling forced idle. A task on the
 * other core then clears that cookie; while the spinner is the one
 * waiting, nothing reschedules the core, and the last cookie going away
 * switches core scheduling off in the middle of the forced idle.
 *
 * Checked from the trace, each round: when sched_core_enabled says
 * enabled=0, every sched_core_forceidle_start has had its
 * sched_core_forceidle_end (the series ends forced idle at the switch;
 * without it the end came at the next switch-on, with a count from
 * before). And from the spinner: it runs again within 100 ms of the
 * switch, so nothing is left idling beside a runnable task.
 *
 * usage: forceidle_flip_test [ROUNDS]   (default 12)
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../tap.h"
#include "guest_util.h"
#include "../../bench/guest/trace_util.h"

#define MAX_CORES	8
#define SETTLE_US	150000	/* turns taken before the cookie goes */
#define AFTER_US	100000	/* the spinner must have run by then */
#define WATCH_US	2000000	/* how long a stall is followed */
#define REAP_US		10000000	/* a killed spinner must be gone by then */

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* Spins on @cpu counting in @counter; with @cookie, its own cookie first. */
static pid_t spinner(int cpu, int cookie, volatile unsigned long *counter)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	pin(cpu);
	if (cookie && prctl(PR_SCHED_CORE, PR_SCHED_CORE_CREATE, 0, SCOPE_THREAD, 0))
		_exit(1);
	for (;;)
		(*counter)++;
}

/*
 * Walk the trace: forced-idle starts per core since its last end, checked
 * at every switch-off. Returns the switch-offs seen; @open_at_off counts
 * those that found a core still forced idle, described in @why.
 */
static int check_trace(int *open_at_off, char *why, size_t len)
{
	char line[1024];
	int open[MAX_CORES] = { 0 }, offs = 0, core, c;
	unsigned int siblings;
	FILE *f = fopen(TRACEFS "/trace", "r");

	*open_at_off = 0;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		const char *ev;

		if (line[0] == '#')
			continue;
		if ((ev = strstr(line, "sched_core_forceidle_start:")) &&
		    sscanf(strstr(ev, "core="), "core=%d", &core) == 1 &&
		    core >= 0 && core < MAX_CORES)
			open[core]++;
		else if ((ev = strstr(line, "sched_core_forceidle_end:")) &&
			 sscanf(strstr(ev, "core="), "core=%d siblings=%u", &core,
				&siblings) == 2 && core >= 0 && core < MAX_CORES)
			open[core] = 0;
		else if (strstr(line, "sched_core_enabled: enabled=0")) {
			offs++;
			for (c = 0; c < MAX_CORES; c++)
				if (open[c]) {
					if (!*open_at_off)
						snprintf(why, len, "core %d had %d forced-idle "
							 "start(s) without an end", c, open[c]);
					(*open_at_off)++;
				}
		}
	}
	fclose(f);
	return offs;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 12, r, offs, open_at_off, stalled = 0;
	long waited, longest = 0;
	int unreaped = 0, ran = 0;
	volatile unsigned long *count;
	unsigned long before;
	char why[128] = "";
	pid_t plain, tagged;

	tap_plan_start();
	if (!trace_event_enabled("sched_core_forceidle_end") ||
	    !trace_event_enabled("sched_core_enabled")) {
		tap_skip_test("the boot-time trace events lack the core-scheduling ones",
			      "forced idle at switch-off");
		tap_finish();
		return 4;
	}
	count = mmap(NULL, 2 * sizeof(*count), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (count == MAP_FAILED) {
		tap_ok(0, "shared counter: %s", strerror(errno));
		return tap_finish();
	}
	/* The clearing task sits on the other core: its work runs there. */
	pin(2);
	trace_start();
	for (r = 0; r < rounds; r++) {
		ran = r + 1;
		count[0] = count[1] = 0;
		plain = spinner(0, 0, &count[0]);
		tagged = spinner(1, 1, &count[1]);
		usleep(SETTLE_US);
		/* Share "no cookie" to it: the last cookie is gone. */
		if (prctl(PR_SCHED_CORE, PR_SCHED_CORE_SHARE_TO, tagged, SCOPE_THREAD, 0))
			tap_diag("round %d: clearing the cookie: %s", r, strerror(errno));
		/* How long until it runs again (the sibling may idle beside it). */
		before = count[1];
		waited = 0;
		while (count[1] == before && waited < WATCH_US) {
			usleep(1000);
			waited += 1000;
		}
		if (waited >= AFTER_US)
			stalled++;
		longest = waited > longest ? waited : longest;
		if (kill_and_reap(plain, REAP_US) || kill_and_reap(tagged, REAP_US)) {
			/* Stop here: the next round would share its cpus. */
			tap_diag("round %d: a killed spinner was not gone after %d s", r,
				 REAP_US / 1000000);
			unreaped = 1;
			break;
		}
	}
	trace_stop();
	offs = check_trace(&open_at_off, why, sizeof(why));
	tap_ok(!unreaped, "every killed spinner was reaped within %d s", REAP_US / 1000000);
	tap_ok(offs >= rounds, "core scheduling switched off in every round (%d of %d)",
	       offs, rounds);
	tap_ok(open_at_off == 0,
	       "no core was left in forced idle when it switched off (%d of %d switch-offs did%s%s)",
	       open_at_off, offs, *why ? ": " : "", why);
	tap_ok(stalled == 0, "the spinner ran within %d ms of losing its cookie (%d of %d rounds "
	       "not; longest wait %ld ms%s)", AFTER_US / 1000, stalled, ran, longest / 1000,
	       longest >= WATCH_US ? " or more" : "");
	return tap_finish();
}
