// SPDX-License-Identifier: GPL-2.0
/*
 * PR_SCHED_CORE out of memory inside a tagged group. A task there that
 * creates a cookie of its own runs with a pair cookie (group, own), which
 * the kernel allocates. Each allocation the request makes is failed in
 * turn with the fault-injection file fail-nth (the debug kernel has
 * CONFIG_FAILSLAB): every injected failure must either fail the request
 * with ENOMEM and leave every task's cookie as it was, or be one the
 * request recovered from without the kernel's out-of-memory fallback
 * (the "no memory for a group+task cookie" warning, which means a task
 * runs with its own cookie only, apart from its group). Before series v4
 * the pair's failure was that fallback, and prctl returned 0.
 *
 * Done for scope thread (the caller) and scope thread group (the caller
 * and a second thread, both in the group).
 *
 * usage: prctl_nomem_test   (needs /proc/thread-self/fail-nth; else SKIP)
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../tap.h"
#include "guest_util.h"

#define SCOPE_THREAD_GROUP	1	/* PIDTYPE_TGID */
#define FAIL_NTH		"/proc/thread-self/fail-nth"
#define FAILSLAB_GFP_WAIT	"/sys/kernel/debug/failslab/ignore-gfp-wait"
#define FALLBACK_MSG		"no memory for a group+task cookie"
#define MAX_NTH			16	/* more allocations than a request makes */

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static volatile pid_t sleeper_tid;

static void *sleeper(void *arg)
{
	(void)arg;
	sleeper_tid = gettid_();
	for (;;)
		pause();
	return NULL;
}

/* /dev/kmsg opened at its end: what the kernel logs from now on. */
static int kmsg_open(void)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);

	if (fd >= 0)
		lseek(fd, 0, SEEK_END);
	return fd;
}

/* Did the kernel log @needle since kmsg_open()? Reads to the end. */
static int kmsg_saw(int fd, const char *needle)
{
	char rec[8192];
	ssize_t n;
	int seen = 0;

	for (;;) {
		n = read(fd, rec, sizeof(rec) - 1);
		if (n < 0 && errno == EPIPE)	/* overwritten records */
			continue;
		if (n <= 0)
			break;
		rec[n] = '\0';
		if (strstr(rec, needle))
			seen = 1;
	}
	return seen;
}

/*
 * One request with its @nth allocation failed. Returns 1 once @nth is
 * past the request's allocations (nothing was injected), 0 otherwise.
 */
static int try_nth(int nth, int scope, const pid_t *tids, int ntids,
		   const char *what)
{
	unsigned long long before[2], after[2];
	const char *left;
	int i, ret, err, fd, fallback, changed = 0;

	for (i = 0; i < ntids; i++)
		before[i] = cookie_of(tids[i]);
	fd = kmsg_open();
	if (write_fmt(FAIL_NTH, "%d", nth)) {
		tap_ok(0, "%s: fail-nth %d can be set", what, nth);
		return 1;
	}
	ret = prctl(PR_SCHED_CORE, PR_SCHED_CORE_CREATE, 0, scope, 0);
	err = errno;
	left = read_line(FAIL_NTH);
	write_str(FAIL_NTH, "0");
	fallback = fd >= 0 && kmsg_saw(fd, FALLBACK_MSG);
	if (fd >= 0)
		close(fd);
	if (!left || atoi(left) != 0)
		return 1;

	for (i = 0; i < ntids; i++) {
		after[i] = cookie_of(tids[i]);
		changed |= after[i] != before[i];
	}
	if (ret) {
		check_int(err, ==, ENOMEM, "the failed request says ENOMEM");
		tap_ok(!changed, "%s, allocation %d failed: ENOMEM, no cookie changed",
		       what, nth);
		if (changed)
			tap_diag("  cookie %llx -> %llx", before[0], after[0]);
	} else {
		tap_ok(!fallback, "%s, allocation %d failed: request succeeded without the fallback",
		       what, nth);
		if (fallback)
			tap_diag("  prctl returned 0 and the kernel logged \"%s\"",
				 FALLBACK_MSG);
	}
	return 0;
}

/* Fail each allocation of one request in turn; at least one is the pair's. */
static void fail_each(int scope, const pid_t *tids, int ntids, const char *what)
{
	int nth, injected = 0;

	for (nth = 1; nth <= MAX_NTH; nth++) {
		if (try_nth(nth, scope, tids, ntids, what))
			break;
		injected++;
	}
	/* The own cookie and its pair: two allocations at the least. */
	check_int(injected, >=, 2, "allocations of the request were failed in turn");
	/* Unhindered, the request works, and the tasks share the new cookie. */
	check_int(prctl(PR_SCHED_CORE, PR_SCHED_CORE_CREATE, 0, scope, 0), ==, 0,
		  "the request succeeds without injected failures");
	if (ntids > 1)
		check_int(cookie_of(tids[0]) == cookie_of(tids[1]), ==, 1,
			  "both threads run with the new cookie");
}

int main(void)
{
	pthread_t thread;
	pid_t tids[2];
	unsigned long long group_cookie;

	tap_plan_start();
	if (access(FAIL_NTH, W_OK)) {
		tap_skip_test("no fault injection (CONFIG_FAULT_INJECTION)", "%s", FAIL_NTH);
		return tap_finish();
	}
	/* GFP_KERNEL allocations are exempt from failslab by default. */
	if (!check_int(write_str(FAILSLAB_GFP_WAIT, "N"), ==, 0,
		       "failslab injects into allocations that may sleep"))
		return tap_finish();

	if (!check_int(cg_enable_cpu(""), ==, 0, "the cpu controller in the root's subtree_control"))
		return tap_finish();
	cg_create("nomem");
	if (!check_int(cg_tag("nomem", 1), ==, 0, "tag the group") ||
	    !check_int(cg_move("nomem", getpid()), ==, 0, "join the group"))
		return tap_finish();
	group_cookie = cookie_of(0);
	check_int(group_cookie != 0 && group_cookie != ~0ULL, ==, 1,
		  "the task runs with the group's cookie");

	tids[0] = gettid_();
	fail_each(SCOPE_THREAD, tids, 1, "scope thread");

	if (pthread_create(&thread, NULL, sleeper, NULL) == 0) {
		int waited;

		for (waited = 0; !sleeper_tid && waited < 5000; waited++)
			usleep(1000);
		tids[1] = sleeper_tid;
		if (check_int(tids[1] != 0, ==, 1, "the second thread started"))
			fail_each(SCOPE_THREAD_GROUP, tids, 2, "scope thread group");
	} else {
		tap_ok(0, "start a second thread");
	}

	write_str(FAILSLAB_GFP_WAIT, "Y");
	cg_move("", getpid());
	cg_tag("nomem", 0);
	cg_remove("nomem");
	return tap_finish();
}
