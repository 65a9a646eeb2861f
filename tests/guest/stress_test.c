// SPDX-License-Identifier: GPL-2.0
/*
 * Stress cpu.tag: for SECONDS (default 30) toggle tags, fork and exit tasks
 * inside groups, migrate busy tasks between groups and create prctl cookies,
 * all at once. Afterwards no task may hold a cookie, core scheduling must
 * have switched itself off again (the last sched_core_enabled event says
 * enabled=0), and where kmemleak is built in it must find nothing.
 *
 * usage: stress_test [SECONDS]
 */
#include <errno.h>
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../tap.h"
#include "guest_util.h"
#include "../../bench/guest/trace_util.h"

#define NGROUPS		4
#define NSPINNERS	4
#define KMEMLEAK	"/sys/kernel/debug/kmemleak"

static const char *const groups[NGROUPS] = { "st0", "st1", "st2", "st3" };

struct counters {
	long tags, forks, moves, prctls, errors;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void spin_ms(int ms)
{
	double end = now() + ms / 1000.0;

	while (now() < end)
		;
}

static void tagger(double end, struct counters *c)
{
	while (now() < end) {
		int g = rand() % NGROUPS;

		if (cg_tag(groups[g], rand() & 1))
			c->errors++;
		c->tags++;
		usleep(500);
	}
}

static void forker(double end, struct counters *c)
{
	while (now() < end) {
		pid_t p = fork();

		if (p == 0) {
			spin_ms(1 + rand() % 4);
			_exit(0);
		}
		if (p > 0) {
			cg_move(groups[rand() % NGROUPS], p);
			waitpid(p, NULL, 0);
			c->forks++;
		}
	}
}

static void migrator(double end, struct counters *c, const pid_t *spinners)
{
	while (now() < end) {
		int g = rand() % (NGROUPS + 1);

		/* NGROUPS means the root group. */
		if (cg_move(g == NGROUPS ? "" : groups[g], spinners[rand() % NSPINNERS]))
			c->errors++;
		c->moves++;
		usleep(200);
	}
}

static void prctler(double end, struct counters *c)
{
	while (now() < end) {
		pid_t p = fork();

		if (p == 0) {
			int ret = cookie_create(0);

			/* EBUSY is the documented answer inside a tagged group. */
			_exit(ret && ret != -EBUSY);
		}
		if (p > 0) {
			int status;

			cg_move(groups[rand() % NGROUPS], p);
			waitpid(p, &status, 0);
			if (!WIFEXITED(status) || WEXITSTATUS(status))
				c->errors++;
			c->prctls++;
		}
	}
}

/* Tasks anywhere in the system still holding a cookie. */
static int tasks_with_cookies(void)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d))) {
		unsigned long long cookie;
		int pid = atoi(de->d_name);

		if (pid > 0 && !cookie_get(pid, &cookie) && cookie) {
			tap_diag("  pid %d still has cookie 0x%llx", pid, cookie);
			n++;
		}
	}
	if (d)
		closedir(d);
	return n;
}

static void check_kmemleak(void)
{
	char line[256];
	FILE *f;
	int leaks = 0;

	if (access(KMEMLEAK, F_OK)) {
		tap_skip_test("kernel without kmemleak (FLAVOR=debug has it)",
			      "kmemleak finds no leak");
		return;
	}
	/* Two scans: an object must look unreferenced in both to be reported. */
	write_str(KMEMLEAK, "scan");
	sleep(1);
	write_str(KMEMLEAK, "scan");
	f = fopen(KMEMLEAK, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (strstr(line, "unreferenced object"))
			leaks++;
		if (leaks && leaks < 20)
			printf("# kmemleak: %s", line);
	}
	if (f)
		fclose(f);
	check_int(leaks, ==, 0, "kmemleak finds no leak");
}

int main(int argc, char **argv)
{
	int seconds = argc > 1 ? atoi(argv[1]) : 30;
	struct counters *c;
	pid_t spinners[NSPINNERS], workers[4];
	double end;
	const char *last;
	int i, status, failed = 0;

	tap_plan_start();
	cg_enable_cpu("");
	for (i = 0; i < NGROUPS; i++)
		cg_create(groups[i]);
	if (access(CGROOT "/st0/cpu.tag", F_OK)) {
		tap_skip_test("no cpu.tag in this kernel", "stress");
		return tap_finish();
	}
	/* Shared counters: each worker is a process of its own. */
	c = mmap(NULL, 4 * sizeof(*c), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	for (i = 0; i < NSPINNERS; i++)
		spinners[i] = spawn_child(1);

	end = now() + seconds;
	for (i = 0; i < 4; i++) {
		workers[i] = fork();
		if (workers[i] == 0) {
			srand(getpid());
			switch (i) {
			case 0: tagger(end, &c[0]); break;
			case 1: forker(end, &c[1]); break;
			case 2: migrator(end, &c[2], spinners); break;
			case 3: prctler(end, &c[3]); break;
			}
			_exit(0);
		}
	}
	for (i = 0; i < 4; i++) {
		waitpid(workers[i], &status, 0);
		failed += !WIFEXITED(status) || WEXITSTATUS(status);
	}
	check_int(failed, ==, 0, "all stress workers finished");
	tap_diag("%d s: %ld tag writes, %ld forks, %ld migrations, %ld prctl cookies",
		 seconds, c[0].tags, c[1].forks, c[2].moves, c[3].prctls);
	check_int(c[0].errors + c[1].errors + c[2].errors + c[3].errors, ==, 0,
		  "no operation failed unexpectedly");
	tap_ok(c[0].tags > 100 && c[1].forks > 100 && c[2].moves > 100 && c[3].prctls > 100,
	       "every kind of operation ran more than 100 times");

	/* Make sure core scheduling is on, then watch it switch off. */
	cg_tag(groups[0], 1);
	trace_start();
	for (i = 0; i < NGROUPS; i++)
		cg_tag(groups[i], 0);
	for (i = 0; i < NSPINNERS; i++)
		kill_child(spinners[i]);
	for (i = 0; i < NGROUPS; i++)
		check_int(cg_remove(groups[i]), ==, 0, "remove a stressed group");
	sleep(1);		/* sched_core_put() defers the switch-off to a work item */
	trace_stop();

	check_int(tasks_with_cookies(), ==, 0, "no task holds a cookie afterwards");
	if (trace_event_enabled("sched_core_enabled")) {
		last = trace_last("sched_core_enabled:");
		if (!tap_ok(last && strstr(last, "enabled=0"),
			    "core scheduling switched itself off"))
			tap_diag("  last sched_core_enabled event: %s", last ?: "none");
	} else {
		tap_skip_test("sched_core_enabled not traced", "core scheduling switched itself off");
	}
	check_kmemleak();
	return tap_finish();
}
