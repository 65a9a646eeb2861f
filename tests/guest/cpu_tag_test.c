// SPDX-License-Identifier: GPL-2.0
/*
 * Semantics of cpu.tag (patchset 2/3), observed from user space through
 * PR_SCHED_CORE_GET, which reports the cookie a task runs with: tag and
 * untag, nesting, cpu.tag.effective, fork (a child forked into another
 * group with clone3(CLONE_INTO_CGROUP) too) and exec, migration, prctl
 * cookies combined with group cookies (CREATE, SHARE_TO, SHARE_FROM, the
 * TGID and PGID scopes), retagging running tasks, threaded cgroups,
 * removing a group that still holds a zombie, bad values and the root
 * group (cgroup v2; cpu_tag_v1_test checks that v1 has no cpu.tag). This
 * is the project's own kernel: a missing file is a failure, not a SKIP.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../tap.h"
#include "guest_util.h"

static int expect_errno(const char *path, const char *buf, size_t len, int want,
			const char *desc)
{
	int ret = write_buf(path, buf, len);

	if (!tap_ok(ret == -want, "%s", desc))
		tap_diag("  wrote %zu bytes to %s: got %s, want %s", len, path,
			 ret ? strerror(-ret) : "success", strerror(want));
	return ret == -want;
}


#define SCOPE_TGID	1	/* PIDTYPE_TGID */
#define SCOPE_PGID	2	/* PIDTYPE_PGID */

static int core_prctl(int cmd, pid_t pid, int scope)
{
	return prctl(PR_SCHED_CORE, cmd, pid, scope, 0) ? -errno : 0;
}

/* cpu.tag.effective of @group as a number; ~0 when unreadable. */
static unsigned long long effective(const char *group)
{
	char p[512];
	const char *v;

	snprintf(p, sizeof(p), CGROOT "/%s/cpu.tag.effective", group);
	v = read_line(p);
	return v ? strtoull(v, NULL, 10) : ~0ULL;
}

/* A child started with clone3() directly in @group (CLONE_INTO_CGROUP). */
static pid_t spawn_into(const char *group)
{
	struct clone_args args = { .exit_signal = SIGCHLD, .flags = CLONE_INTO_CGROUP };
	char p[512];
	long pid;
	int fd;

	snprintf(p, sizeof(p), CGROOT "/%s", group);
	fd = open(p, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return -errno;
	args.cgroup = fd;
	pid = syscall(SYS_clone3, &args, sizeof(args));
	if (pid == 0) {
		for (;;)
			pause();
	}
	close(fd);
	return pid < 0 ? -errno : (pid_t)pid;
}

static void *sleeper(void *arg)
{
	for (;;)
		pause();
	return arg;
}

/* A child process with a second thread; *@tid2 is that thread's id. */
static pid_t spawn_two_threads(pid_t *tid2)
{
	int fd[2];
	pid_t pid;

	if (pipe(fd))
		return -errno;
	pid = fork();
	if (pid == 0) {
		pthread_t t;
		pid_t tid = 0;

		if (!pthread_create(&t, NULL, sleeper, NULL)) {
			/* The new thread is the process's only other task. */
			while (!tid) {
				char path[64];

				for (int i = getpid() + 1; i < getpid() + 4096 && !tid; i++) {
					snprintf(path, sizeof(path), "/proc/self/task/%d", i);
					if (!access(path, F_OK))
						tid = i;
				}
			}
		}
		if (write(fd[1], &tid, sizeof(tid)) != sizeof(tid))
			_exit(1);
		for (;;)
			pause();
	}
	close(fd[1]);
	*tid2 = 0;
	if (pid < 0 || read(fd[0], tid2, sizeof(*tid2)) != sizeof(*tid2))
		*tid2 = -1;
	close(fd[0]);
	return pid;
}

/* PGID and TGID scopes reach tasks inside and outside a tagged group alike. */
static void test_scopes(unsigned long long cb)
{
	pid_t leader = spawn_child(0), member = spawn_child(0), outside = spawn_child(0);
	pid_t proc, tid2;

	setpgid(leader, leader);
	setpgid(member, leader);
	setpgid(outside, leader);
	cg_move("b", leader);
	cg_move("b", member);
	check_int(core_prctl(PR_SCHED_CORE_CREATE, leader, SCOPE_PGID), ==, 0,
		  "PGID scope: CREATE over a group with members inside and outside b");
	tap_ok(cookie_of(leader) == cookie_of(member) && cookie_of(leader) != cb &&
	       cookie_of(leader) != 0, "PGID scope: the members in b share one combination");
	tap_ok(cookie_of(outside) != 0 && cookie_of(outside) != cookie_of(leader),
	       "PGID scope: the member outside b runs with the new cookie alone");

	proc = spawn_two_threads(&tid2);
	cg_move("b", proc);
	check_int(core_prctl(PR_SCHED_CORE_CREATE, proc, SCOPE_TGID), ==, 0,
		  "TGID scope: CREATE over a process in b");
	tap_ok(tid2 > 0 && cookie_of(proc) == cookie_of(tid2) && cookie_of(proc) != cb &&
	       cookie_of(proc) != cookie_of(leader) && cookie_of(proc) != 0,
	       "TGID scope: both threads share a new combination");
	kill_child(leader);
	kill_child(member);
	kill_child(outside);
	kill_child(proc);
}

/* A child forked straight into a tagged group, and one forked beside it. */
static void test_clone_into(void)
{
	pid_t c;

	cg_create("ci");
	check_int(cg_tag("ci", 1), ==, 0, "tag ci");
	c = spawn_into("ci");
	tap_ok(c > 0, "clone3(CLONE_INTO_CGROUP) into tagged ci");
	tap_ok(c > 0 && cookie_of(c) == effective("ci") && cookie_of(c) != 0,
	       "clone3: the child runs with ci's cookie from its first instant");
	tap_ok(cookie_of(getpid()) == 0, "clone3: the parent, outside, still has none");
	kill_child(c);
	cg_tag("ci", 0);
	c = spawn_into("ci");
	check_int(cookie_of(c), ==, 0, "clone3 into untagged ci: no cookie");
	kill_child(c);
	cg_remove("ci");
}

/* Retag a group whose tasks run and fork meanwhile; every task follows. */
static void test_retag_running(void)
{
	pid_t busy1, busy2, forker;
	int i, bad = 0, seen = 0;
	char tid[64];
	FILE *f;

	cg_create("r");
	busy1 = spawn_child(1);
	busy2 = spawn_child(1);
	cg_move("r", busy1);
	cg_move("r", busy2);
	forker = fork();
	if (forker == 0) {
		for (;;) {
			pid_t c = fork();

			if (c == 0) {
				usleep(2000);
				_exit(0);
			}
			if (c > 0)
				waitpid(c, NULL, 0);
		}
	}
	cg_move("r", forker);
	for (i = 0; i < 200; i++)
		if (cg_tag("r", i % 2 ? 0 : 1))
			bad++;
	check_int(bad, ==, 0, "200 tag writes on a group that runs and forks");
	check_int(cg_tag("r", 1), ==, 0, "tag r a last time");
	usleep(20000);
	f = fopen(CGROOT "/r/cgroup.threads", "r");
	bad = 0;
	while (f && fgets(tid, sizeof(tid), f)) {
		pid_t t = atoi(tid);

		seen++;
		/* A short-lived child may exit between the read and the GET. */
		if (cookie_of(t) != effective("r") && cookie_of(t) != ~0ULL)
			bad++;
	}
	if (f)
		fclose(f);
	tap_ok(seen >= 3 && !bad, "after retagging, all %d tasks of r run with r's cookie "
	       "(%d do not)", seen, bad);
	kill_child(forker);
	check_int(cg_tag("r", 0), ==, 0, "untag r");
	tap_ok(cookie_of(busy1) == 0 && cookie_of(busy2) == 0, "untagged: the busy tasks have none");
	kill_child(busy1);
	kill_child(busy2);
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	cg_remove("r");
}

/* Threads of one process in two threaded groups follow their own group. */
static void test_threaded(void)
{
	pid_t proc, tid2;
	char p[512];

	cg_create("t");
	cg_enable_cpu("t");
	cg_create("t/x");
	cg_create("t/y");
	tap_ok(!write_str(CGROOT "/t/x/cgroup.type", "threaded") &&
	       !write_str(CGROOT "/t/y/cgroup.type", "threaded"), "make t/x and t/y threaded");
	proc = spawn_two_threads(&tid2);
	cg_move("t", proc);
	snprintf(p, sizeof(p), CGROOT "/t/x/cgroup.threads");
	write_fmt(p, "%d", (int)proc);
	snprintf(p, sizeof(p), CGROOT "/t/y/cgroup.threads");
	write_fmt(p, "%d", (int)tid2);
	check_int(cg_tag("t/x", 1), ==, 0, "tag threaded t/x");
	tap_ok(cookie_of(proc) == effective("t/x") && cookie_of(proc) != 0 &&
	       cookie_of(tid2) == 0, "threaded: only the thread in t/x has its cookie");
	check_int(cg_tag("t", 1), ==, 0, "tag t, the threaded domain above both");
	tap_ok(cookie_of(tid2) == effective("t") && cookie_of(tid2) != 0 &&
	       cookie_of(proc) == effective("t/x") && effective("t") != effective("t/x"),
	       "threaded: t/y's thread is covered by t, t/x keeps its own");
	cg_tag("t/x", 0);
	cg_tag("t", 0);
	kill_child(proc);
	cg_remove("t/x");
	cg_remove("t/y");
	cg_remove("t");
}

/* A tagged group that holds only a zombie can go; the zombie is reaped later. */
static void test_zombie(void)
{
	int fd[2], status = -1;
	pid_t c;
	char x = 0;

	cg_create("z");
	cg_tag("z", 1);
	if (pipe(fd))
		return;
	c = fork();
	if (c == 0) {
		if (read(fd[0], &x, 1) != 1)
			_exit(1);
		_exit(0);
	}
	cg_move("z", c);
	tap_ok(cookie_of(c) == effective("z") && cookie_of(c) != 0, "a task in tagged z");
	if (write(fd[1], &x, 1) != 1)
		tap_diag("cannot wake the child");
	usleep(100000);
	check_int(cg_remove("z"), ==, 0, "rmdir tagged z while its task is a zombie");
	check_int(waitpid(c, &status, 0), ==, c, "the zombie is reaped after the group went");
	close(fd[0]);
	close(fd[1]);
}

static void test_root(void)
{
	tap_ok(access(CGROOT "/cpu.tag", F_OK) && errno == ENOENT,
	       "root group has no cpu.tag to read");
	check_int(write_str(CGROOT "/cpu.tag", "1"), ==, -ENOENT,
		  "root group has no cpu.tag to write");
}

static void test_bad_values(const char *file)
{
	char big[4097];

	expect_errno(file, "2", 1, ERANGE, "writing 2 is ERANGE");
	expect_errno(file, "-1", 2, ERANGE, "writing -1 is ERANGE");
	expect_errno(file, "abc", 3, EINVAL, "writing abc is EINVAL");
	/* The VFS answers a zero-length write itself; cpu.tag never sees it. */
	check_int(write_buf(file, "", 0), ==, 0, "writing an empty string changes nothing");
	expect_errno(file, "\n", 1, EINVAL, "writing an empty line is EINVAL");
	memset(big, '1', sizeof(big));
	expect_errno(file, big, 4096, ERANGE, "a 4 KiB number is ERANGE (overflow)");
	memset(big, 'x', sizeof(big));
	expect_errno(file, big, 4096, EINVAL, "a 4 KiB string is EINVAL");
	expect_errno(file, big, 4097, E2BIG, "more than a page is E2BIG (kernfs)");
	check_str(read_line(file), "0", "bad writes left the tag alone");
	check_int(write_str(file, "1\n"), ==, 0, "\"1\\n\" (echo) is accepted");
	check_int(write_str(file, "0"), ==, 0, "\"0\" untags");
}

int main(void)
{
	unsigned long long ca, cb, own, own2, pair;
	pid_t p1, p2, p3, p4, p5, p6, c;
	int status;

	tap_plan_start();
	if (access(SYS_CPU "/smt/control", F_OK) ||
	    strcmp(read_line(SYS_CPU "/smt/control") ?: "", "on")) {
		tap_skip_test("SMT is not on", "cpu.tag tests");
		return tap_finish();
	}
	if (cg_enable_cpu("")) {
		tap_ok(0, "enable the cpu controller in cgroup v2");
		return tap_finish();
	}
	/* a/ has no tasks of its own so that a/main and a/sub can coexist. */
	cg_create("a");
	cg_enable_cpu("a");
	cg_create("a/main");
	cg_create("a/sub");
	cg_create("b");
	if (access(CGROOT "/a/main/cpu.tag", F_OK) ||
	    access(CGROOT "/a/main/cpu.tag.effective", F_OK)) {
		tap_ok(0, "this kernel has cpu.tag and cpu.tag.effective");
		return tap_finish();
	}
	test_root();
	check_str(read_line(CGROOT "/a/main/cpu.tag"), "0", "a new group reads 0");

	p1 = spawn_child(0);
	p2 = spawn_child(0);
	p3 = spawn_child(0);
	p4 = spawn_child(0);
	cg_move("a/main", p1);
	cg_move("a/main", p2);
	cg_move("b", p3);
	cg_move("a/sub", p4);
	check_int(cookie_of(p1), ==, 0, "untagged group: no cookie");

	check_int(cg_tag("a", 1), ==, 0, "tag a");
	check_str(read_line(CGROOT "/a/cpu.tag"), "1", "a tagged group reads 1");
	ca = cookie_of(p1);
	tap_ok(ca && ca != ~0ULL, "tagged: a's task has a cookie");
	check_int(cookie_of(p2), ==, ca, "tagged: tasks of one group share it");
	check_int(cookie_of(p4), ==, ca, "nested: untagged a/sub is covered by a");
	check_int(cookie_of(p3), ==, 0, "tagged: another group's task is untouched");
	check_str(read_line(CGROOT "/a/main/cpu.tag"), "0",
		  "nested: a child reads its own tag, not the ancestor's");
	check_int(effective("a"), ==, ca, "cpu.tag.effective: a's tasks run with ca");
	check_int(effective("a/main"), ==, ca, "cpu.tag.effective: covered a/main shows ca");
	check_int(effective("b"), ==, 0, "cpu.tag.effective: untagged b reads 0");

	check_int(cg_tag("b", 1), ==, 0, "tag b");
	cb = cookie_of(p3);
	tap_ok(cb && cb != ~0ULL && cb != ca, "two tagged groups have different cookies");

	check_int(cg_tag("a/sub", 1), ==, 0, "tag a/sub inside tagged a");
	tap_ok(cookie_of(p4) != ca && cookie_of(p4) != 0,
	       "nested: a tagged child gets its own cookie");
	check_int(effective("a/sub"), ==, cookie_of(p4), "cpu.tag.effective: a/sub's own");
	check_int(cg_tag("a/sub", 0), ==, 0, "untag a/sub");
	check_int(cookie_of(p4), ==, ca, "nested: untagged again, covered by a");

	/* fork and exec inside the group */
	cg_move("a/main", getpid());
	c = spawn_child(0);
	check_int(cookie_of(c), ==, ca, "fork: a child forked in the group shares the cookie");
	kill_child(c);
	c = fork();
	if (c == 0) {
		execl("/bin/sleep", "sleep", "100", (char *)NULL);
		_exit(127);
	}
	usleep(200000);
	check_int(cookie_of(c), ==, ca, "exec: the cookie survives exec");
	kill_child(c);
	cg_move("", getpid());
	check_int(cookie_of(getpid()), ==, 0, "moved back to the root, the test has no cookie");

	/* migration */
	cg_move("", p2);
	check_int(cookie_of(p2), ==, 0, "migrate out: the cookie is dropped");
	cg_move("a/main", p2);
	check_int(cookie_of(p2), ==, ca, "migrate in: the group's cookie");
	cg_move("b", p2);
	check_int(cookie_of(p2), ==, cb, "migrate across: the new group's cookie");

	/*
	 * prctl cookies and tags: a task runs with both, combined, and
	 * shares a core only with tasks whose two cookies both match.
	 */
	p5 = spawn_child(0);
	check_int(cookie_create(p5), ==, 0, "prctl: create a cookie outside any tag");
	own = cookie_of(p5);
	tap_ok(own && own != ca && own != cb, "prctl: a cookie of its own");
	cg_move("b", p5);
	pair = cookie_of(p5);
	tap_ok(pair && pair != ~0ULL && pair != cb && pair != own,
	       "combined: in tagged b it runs with neither b's cookie nor its own alone");
	p6 = spawn_child(0);
	check_int(cookie_create(p6), ==, 0, "prctl: a second sandbox");
	cg_move("b", p6);
	tap_ok(cookie_of(p6) != pair && cookie_of(p6) != cb,
	       "combined: tagging b does not merge two sandboxes");
	own2 = cookie_of(p6);
	check_int(cookie_create(p6), ==, 0, "prctl: CREATE inside a tagged group works (no EBUSY)");
	tap_ok(cookie_of(p6) != own2 && cookie_of(p6) != cb && cookie_of(p6) != pair,
	       "prctl: and gives a new combined cookie");

	/* SHARE_FROM a tagged task gives its own cookie, never the group's. */
	check_int(core_prctl(PR_SCHED_CORE_SHARE_FROM, p5, SCOPE_THREAD), ==, 0,
		  "SHARE_FROM a tagged task from outside the group");
	check_int(cookie_of(getpid()), ==, own,
		  "SHARE_FROM: the task's own cookie came, not b's or the combination");
	check_int(core_prctl(PR_SCHED_CORE_SHARE_FROM, p3, SCOPE_THREAD), ==, 0,
		  "SHARE_FROM a tagged task without a cookie of its own");
	check_int(cookie_of(getpid()), ==, 0, "SHARE_FROM: b's cookie does not leave b");
	/* SHARE_TO inside the group: same group, same own cookie, same core. */
	core_prctl(PR_SCHED_CORE_SHARE_FROM, p5, SCOPE_THREAD);
	check_int(core_prctl(PR_SCHED_CORE_SHARE_TO, p3, SCOPE_THREAD), ==, 0,
		  "SHARE_TO a task in tagged b");
	check_int(cookie_of(p3), ==, pair, "SHARE_TO: it now runs with p5's combination");
	core_prctl(PR_SCHED_CORE_CREATE, 0, SCOPE_THREAD);
	check_int(core_prctl(PR_SCHED_CORE_SHARE_TO, p5, SCOPE_THREAD), ==, 0,
		  "SHARE_TO from outside into a tagged task");
	tap_ok(cookie_of(p5) != cookie_of(getpid()) && cookie_of(p5) != cb,
	       "SHARE_TO: the task in b still runs inside b's domain");
	test_scopes(cb);
	cg_move("", p5);
	check_int(cookie_of(p5), ==, cookie_of(getpid()), "moved out: its own cookie alone");
	/* Learn p6's own cookie by sharing it to the test, outside any tag. */
	core_prctl(PR_SCHED_CORE_SHARE_FROM, p6, SCOPE_THREAD);
	own2 = cookie_of(getpid());
	core_prctl(PR_SCHED_CORE_SHARE_FROM, p1, SCOPE_THREAD);
	check_int(cookie_of(getpid()), ==, 0,
		  "SHARE_FROM a tagged task without its own cookie clears ours");
	check_int(cg_tag("b", 0), ==, 0, "untag b");
	check_int(cookie_of(p6), ==, own2, "untag: a task runs with its own prctl cookie alone");
	check_int(cookie_of(p3), ==, own, "untag: so does one that was shared one");
	check_int(cookie_of(p2), ==, 0, "untag: a task without one runs with none");
	check_int(effective("b"), ==, 0, "untag: b's cpu.tag.effective reads 0");

	check_int(cg_tag("a", 0), ==, 0, "untag a");
	check_int(cookie_of(p1), ==, 0, "untag: a's tasks have no cookie");
	check_int(cookie_of(p4), ==, 0, "untag: neither have a/sub's");

	test_bad_values(CGROOT "/a/main/cpu.tag");
	tap_ok(write_str(CGROOT "/a/main/cpu.tag.effective", "1") < 0,
	       "cpu.tag.effective is read-only");
	test_clone_into();
	test_retag_running();
	test_threaded();
	test_zombie();

	/* A tagged, empty group can be removed; kmemleak checks the cookie. */
	cg_create("gone");
	check_int(cg_tag("gone", 1), ==, 0, "tag an empty group");
	check_int(cg_remove("gone"), ==, 0, "remove a tagged group");

	kill_child(p1);
	kill_child(p2);
	kill_child(p3);
	kill_child(p4);
	kill_child(p5);
	kill_child(p6);
	while (waitpid(-1, &status, WNOHANG) > 0)
		;
	cg_remove("a/main");
	cg_remove("a/sub");
	cg_remove("a");
	cg_remove("b");
	return tap_finish();
}
