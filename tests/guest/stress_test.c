// SPDX-License-Identifier: GPL-2.0
/*
 * Stress cpu.tag: for SECONDS (default 30) toggle tags, fork and exit tasks
 * from inside the groups being retagged (the forker moves itself between
 * them), migrate busy tasks between groups and create prctl cookies, all
 * at once. Some forked children stay alive. Afterwards, with every task
 * still running, each must run with the cookie its group implies (a fork
 * or a move that lost a race with a tag write shows here), and none may
 * keep a cookie once every group is untagged; then core scheduling must
 * switch itself off (the last sched_core_enabled event says enabled=0),
 * and where kmemleak is built in it must find nothing once every object
 * is old enough for it to judge.
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
#define NSURVIVORS	64
#define KMEMLEAK	"/sys/kernel/debug/kmemleak"
/* kmemleak does not report objects younger than 5 s (MSECS_MIN_AGE). */
#define KMEMLEAK_MIN_AGE_S	5

static const char *const groups[NGROUPS] = { "st0", "st1", "st2", "st3" };

struct counters {
	long tags, forks, moves, prctls, errors;
	int nsurvivors;
	pid_t survivors[NSURVIVORS];
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

/*
 * Fork from inside the groups the tagger retags: the forker moves itself
 * to a random group first, so its children are born there. Every 32nd
 * child stays alive for the checks at the end.
 */
static void forker(double end, struct counters *c)
{
	while (now() < end) {
		int keep = !(c->forks % 32) && c->nsurvivors < NSURVIVORS;
		pid_t p;

		if (cg_move(groups[rand() % NGROUPS], getpid()))
			c->errors++;
		p = fork();
		if (p == 0) {
			if (keep)
				for (;;)
					pause();
			spin_ms(1 + rand() % 4);
			_exit(0);
		}
		if (p > 0) {
			if (keep)
				c->survivors[c->nsurvivors++] = p;
			else
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
			usleep(rand() % 500);
			/* Inside a tagged group too: tags never refuse prctl. */
			_exit(cookie_create(0) != 0);
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

/* 1 while any stress group still lists a live process. */
static int groups_populated(void)
{
	char path[256], line[64];
	int g, busy = 0;

	for (g = 0; g < NGROUPS && !busy; g++) {
		FILE *f;

		snprintf(path, sizeof(path), CGROOT "/%s/cgroup.procs", groups[g]);
		f = fopen(path, "r");
		busy = f && fgets(line, sizeof(line), f);
		if (f)
			fclose(f);
	}
	return busy;
}

/* The cgroup v2 path of @pid relative to the root, "" for the root. */
static int group_of(pid_t pid, char *buf, size_t len)
{
	char path[64], line[256];
	FILE *f;
	int ret = -1;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::/", 4)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(buf, len, "%s", line + 4);
			ret = 0;
		}
	if (f)
		fclose(f);
	return ret;
}

/*
 * A task without a prctl cookie must run with its group's cookie as
 * cpu.tag.effective names it (none in the root). 1 on a mismatch.
 */
static int wrong_cookie(pid_t pid)
{
	char group[256], path[512];
	unsigned long long want = 0;
	const char *v;

	if (group_of(pid, group, sizeof(group)))
		return 0;	/* gone */
	if (group[0]) {
		snprintf(path, sizeof(path), CGROOT "/%s/cpu.tag.effective", group);
		v = read_line(path);
		want = v ? strtoull(v, NULL, 10) : ~0ULL;
	}
	if (cookie_of(pid) == want)
		return 0;
	tap_diag("  pid %d in /%s runs with 0x%llx, its group implies 0x%llx", (int)pid,
		 group, cookie_of(pid), want);
	return 1;
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
	/*
	 * Wait until the last freed or leaked object is older than kmemleak's
	 * minimum age, then scan twice: an object must look unreferenced in
	 * both to be reported.
	 */
	sleep(KMEMLEAK_MIN_AGE_S + 1);
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
	int i, status, failed = 0, wrong;

	tap_plan_start();
	cg_enable_cpu("");
	for (i = 0; i < NGROUPS; i++)
		cg_create(groups[i]);
	if (access(CGROOT "/st0/cpu.tag", F_OK)) {
		tap_ok(0, "this kernel has cpu.tag");
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

	/* Every live task, in whatever state the tags were left. */
	wrong = 0;
	for (i = 0; i < NSPINNERS; i++)
		wrong += wrong_cookie(spinners[i]);
	for (i = 0; i < c[1].nsurvivors; i++)
		wrong += wrong_cookie(c[1].survivors[i]);
	tap_ok(!wrong, "each of %d live tasks runs with its group's cookie (%d do not)",
	       NSPINNERS + c[1].nsurvivors, wrong);

	/* Make sure core scheduling is on, then watch it switch off. */
	cg_tag(groups[0], 1);
	trace_start();
	for (i = 0; i < NGROUPS; i++)
		cg_tag(groups[i], 0);
	check_int(tasks_with_cookies(), ==, 0,
		  "untagged everywhere: no live task keeps a cookie");
	for (i = 0; i < NSPINNERS; i++)
		kill_child(spinners[i]);
	for (i = 0; i < c[1].nsurvivors; i++)
		kill_child(c[1].survivors[i]);
	/*
	 * The survivors' parent, the forker, is gone: they are not ours to
	 * wait for. Give them until their groups are empty.
	 */
	for (i = 0; i < 500 && groups_populated(); i++)
		usleep(10000);
	for (i = 0; i < NGROUPS; i++)
		check_int(cg_remove(groups[i]), ==, 0, "remove a stressed group");
	sleep(1);		/* sched_core_put() defers the switch-off to a work item */
	trace_stop();

	check_int(tasks_with_cookies(), ==, 0, "no task holds a cookie after the groups went");
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
