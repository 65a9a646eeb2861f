// SPDX-License-Identifier: GPL-2.0
/*
 * A core-wide pick must not outlive a core-scheduling switch. CPU0's
 * core-wide pick leaves its choice for sibling CPU1 in rq->core_pick and
 * sends it a reschedule; if core scheduling switches off before CPU1
 * schedules, and on again before anything is enqueued or dequeued on
 * that core, CPU1's next pick takes the pick_next_task() fast path and
 * runs that old choice, which may have migrated to another CPU or exited
 * meanwhile (series v3 and Debian's 6.1: a WARN in
 * __update_stats_wait_end(), then a NULL dereference in
 * find_matching_se()).
 *
 * This drives that window on purpose, from a flipper on CPU3 that moves
 * the other tasks itself, round after round:
 *  1. the owner T of the system's only cookie waits on CPU2 (core 1);
 *     CPU0 runs one plain hog, CPU1 two plain hogs and a victim V;
 *  2. the cookie is given to T (cpu.tag 1, or a prctl cookie): core
 *     scheduling switches on without touching core 0's queues; wait a few
 *     ticks, so that CPU1 has scheduled since;
 *  3. T moves to CPU0: every pick on core 0 is now core-wide, and picks
 *     for CPU1 are left in its core_pick;
 *  4. the cookie goes (tag 0, or the cookie cleared): core scheduling
 *     switches off a moment later, from a workqueue. In the time-shared
 *     layout CPU1 often has not answered CPU0's reschedule by then (its
 *     vCPU waits for its host CPU);
 *  5. with core scheduling off, V moves to CPU2, or (every other round)
 *     exits and a new V takes its place; T moves back to CPU2; round 2
 *     follows, and CPU1's first tick preemption after it takes the fast
 *     path if a pick survived.
 * Checked here: the rounds ran, every killed victim exited within 10 s
 * (one that cannot run to its exit sits beside a sibling left idling: a
 * forced idle the switch-off did not end), and every hog still runs at the
 * end. What this test exists for is seen by the host: a kernel that runs
 * a stale pick oopses or warns on the console, and the boot ends as
 * crashed.
 *
 * usage: flip_pick_test [SECONDS [tag|prctl]]   (default 20, tag if present)
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

#define GROUP		"fp_tagged"
#define NHOGS		4	/* T, a hog on CPU0, two on CPU1; V is extra */
#define SETTLE_US	12000	/* a few guest ticks: CPU1 has scheduled */
#define PICKS_US	4000	/* T on core 0: core-wide picks happen */
#define OFF_US		2000	/* the workqueue switches core scheduling off */
#define PROGRESS_US	2000000	/* every hog must count within this */
#define REAP_US		10000000	/* a killed task must be gone by then */

static volatile unsigned long *counts;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int move(pid_t pid, int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(pid, sizeof(set), &set) ? -errno : 0;
}

/* A task spinning on @cpu, counting in counts[@slot]. */
static pid_t hog(int slot, int cpu)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	move(0, cpu);
	for (;;)
		counts[slot]++;
}

/* Give (@on) or take the only cookie: 0, or -errno. */
static int set_cookie(int use_tag, pid_t owner, int on)
{
	if (use_tag)
		return cg_tag(GROUP, on);
	/* Taking it: share this task's "no cookie" to the owner. */
	if (prctl(PR_SCHED_CORE, on ? PR_SCHED_CORE_CREATE : PR_SCHED_CORE_SHARE_TO,
		  owner, SCOPE_THREAD, 0))
		return -errno;
	return 0;
}

/* One round, steps 1 to 5 above: 0, or -errno of the step that failed. */
static int round_trip(int use_tag, pid_t owner, pid_t *victim, int exit_victim)
{
	int ret;

	if ((ret = move(*victim, 1)) || (ret = set_cookie(use_tag, owner, 1)))
		return ret;
	usleep(SETTLE_US);
	if ((ret = move(owner, 0)))
		return ret;
	usleep(PICKS_US);
	if ((ret = set_cookie(use_tag, owner, 0)))
		return ret;
	usleep(OFF_US);
	if (exit_victim) {
		if ((ret = kill_and_reap(*victim, REAP_US)))
			return ret;
		*victim = hog(NHOGS, 2);
	} else if ((ret = move(*victim, 2))) {
		return ret;
	}
	return move(owner, 2);
}

/* Does every hog count within PROGRESS_US? The first that does not, or -1. */
static int stalled_hog(int nhogs)
{
	unsigned long before[NHOGS + 1];
	double end = now() + PROGRESS_US / 1e6;
	int i, pending;

	for (i = 0; i < nhogs; i++)
		before[i] = counts[i];
	do {
		usleep(10000);
		pending = -1;
		for (i = 0; i < nhogs && pending < 0; i++)
			if (counts[i] == before[i])
				pending = i;
	} while (pending >= 0 && now() < end);
	return pending;
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 20;
	int ncpus = sysconf(_SC_NPROCESSORS_ONLN), use_tag, i, ret = 0;
	pid_t pids[NHOGS + 1];
	long rounds = 0;
	double end;

	tap_plan_start();
	if (argc > 2 && strcmp(argv[2], "tag") && strcmp(argv[2], "prctl")) {
		fprintf(stderr, "flip_pick_test: %s: expected tag or prctl\n", argv[2]);
		return 2;
	}
	if (ncpus < 4) {
		tap_skip_test("needs two cores of two threads", "stale core-wide picks");
		tap_finish();
		return 4;
	}
	/* Without a mode, cpu.tag where the kernel has it. */
	use_tag = argc > 2 ? !strcmp(argv[2], "tag") :
		  !cg_enable_cpu("") && !cg_create(GROUP) && !cg_tag(GROUP, 0);
	if (use_tag && (cg_enable_cpu("") || cg_create(GROUP))) {
		tap_ok(0, "cgroup %s: %s", GROUP, strerror(errno));
		return tap_finish();
	}
	counts = mmap(NULL, (NHOGS + 1) * sizeof(*counts), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (counts == MAP_FAILED) {
		tap_ok(0, "shared counters: %s", strerror(errno));
		return tap_finish();
	}
	tap_diag("%d s of rounds, the cookie from %s", seconds, use_tag ? "cpu.tag" : "prctl");
	move(0, 3);
	pids[0] = hog(0, 2);	/* T */
	pids[1] = hog(1, 0);
	pids[2] = hog(2, 1);
	pids[3] = hog(3, 1);
	pids[NHOGS] = hog(NHOGS, 2);	/* V */
	if (use_tag && (ret = cg_move(GROUP, pids[0])))
		tap_diag("moving the owner into %s: %s", GROUP, strerror(-ret));
	for (end = now() + seconds; now() < end && !ret; rounds++)
		ret = round_trip(use_tag, pids[0], &pids[NHOGS], rounds & 1);
	tap_ok(ret == 0, "%ld rounds of switching on and off (%s)%s%s", rounds,
	       use_tag ? "cpu.tag 1/0" : "prctl create/clear",
	       ret ? ": " : "", ret == -ETIMEDOUT ? "a killed victim did not exit within "
	       "10 s" : ret ? strerror(-ret) : "");
	i = stalled_hog(NHOGS + 1);
	tap_ok(i < 0, "every hog still runs after the rounds%s", i >= 0 ? " (one did not)" : "");
	if (i >= 0)
		tap_diag("hog %d (pid %d) did not run within %d ms", i, pids[i],
			 PROGRESS_US / 1000);
	for (i = 0; i <= NHOGS; i++)
		if (kill_and_reap(pids[i], REAP_US))
			tap_diag("hog %d (pid %d) was not gone %d s after SIGKILL", i, pids[i],
				 REAP_US / 1000000);
	if (use_tag) {
		cg_tag(GROUP, 0);
		cg_remove(GROUP);
	}
	/* A stale pick that crashed or warned is for the host to report. */
	return tap_finish();
}
