// SPDX-License-Identifier: GPL-2.0
/*
 * Semantics of cpu.tag (patchset 2/3), observed from user space through
 * PR_SCHED_CORE_GET: tag and untag, nesting, fork and exec, migration in
 * and out, coexistence with prctl cookies, the root group, bad values, and
 * the root group (cgroup v2; cpu_tag_v1_test covers v1). A kernel without
 * cpu.tag is a SKIP.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	unsigned long long ca, cb, own, own2;
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
	if (access(CGROOT "/a/main/cpu.tag", F_OK)) {
		tap_skip_test("no cpu.tag in this kernel", "cpu.tag tests");
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

	check_int(cg_tag("b", 1), ==, 0, "tag b");
	cb = cookie_of(p3);
	tap_ok(cb && cb != ~0ULL && cb != ca, "two tagged groups have different cookies");

	check_int(cg_tag("a/sub", 1), ==, 0, "tag a/sub inside tagged a");
	tap_ok(cookie_of(p4) != ca && cookie_of(p4) != 0,
	       "nested: a tagged child gets its own cookie");
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

	/* prctl cookies and tags */
	p5 = spawn_child(0);
	check_int(cookie_create(p5), ==, 0, "prctl: create a cookie outside any tag");
	own = cookie_of(p5);
	tap_ok(own && own != ca && own != cb, "prctl: a cookie of its own");
	cg_move("b", p5);
	check_int(cookie_of(p5), ==, cb, "prctl: in a tagged group the group cookie wins");
	check_int(cookie_create(p5), ==, -EBUSY, "prctl: CREATE under a tag is EBUSY");
	cg_move("", p5);
	check_int(cookie_of(p5), ==, own, "prctl: moved out, its own cookie is back");
	p6 = spawn_child(0);
	cookie_create(p6);
	own2 = cookie_of(p6);
	cg_move("b", p6);
	check_int(cg_tag("b", 0), ==, 0, "untag b");
	check_int(cookie_of(p6), ==, own2, "untag: a task gets its own prctl cookie back");
	check_int(cookie_of(p3), ==, 0, "untag: a task without one runs with none");
	check_int(cookie_create(p3), ==, 0, "untag: prctl works again");

	check_int(cg_tag("a", 0), ==, 0, "untag a");
	check_int(cookie_of(p1), ==, 0, "untag: a's tasks have no cookie");
	check_int(cookie_of(p4), ==, 0, "untag: neither have a/sub's");

	test_bad_values(CGROOT "/a/main/cpu.tag");

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
