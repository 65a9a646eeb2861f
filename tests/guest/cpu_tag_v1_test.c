// SPDX-License-Identifier: GPL-2.0
/*
 * cpu.tag on the legacy v1 hierarchy. Runs last in a boot: the cpu
 * controller can sit on one hierarchy only, and after a v1 mount it comes
 * back to v2 only once its lingering references are gone.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../tap.h"
#include "guest_util.h"

#define V1 "/tmp/cgv1"

/* Give cpu back from v2 and mount it on v1, waiting out lingering state. */
static int mount_v1(void)
{
	int i;

	write_str(CGROOT "/cgroup.subtree_control", "-cpu");
	mkdir(V1, 0755);
	for (i = 0; i < 50; i++) {
		if (!mount("none", V1, "cgroup", 0, "cpu"))
			return 0;
		usleep(100000);
	}
	return -errno;
}

static void test_v1(void)
{
	pid_t p;

	int ret = mount_v1();

	if (ret) {
		tap_skip_test(strerror(-ret), "v1: cpu controller on a legacy hierarchy");
		return;
	}
	tap_ok(access(V1 "/cpu.tag", F_OK) && errno == ENOENT,
	       "v1: no cpu.tag on the root group");
	mkdir(V1 "/g", 0755);
	check_str(read_line(V1 "/g/cpu.tag"), "0", "v1: new group reads 0");
	p = spawn_child(0);
	write_fmt(V1 "/g/tasks", "%d", p);
	check_int(write_str(V1 "/g/cpu.tag", "1"), ==, 0, "v1: tag a group");
	check_str(read_line(V1 "/g/cpu.tag"), "1", "v1: tagged group reads 1");
	tap_ok(cookie_of(p) != 0 && cookie_of(p) != ~0ULL, "v1: its task gets a cookie");
	write_fmt(V1 "/tasks", "%d", p);
	check_int(cookie_of(p), ==, 0, "v1: moved out, the task loses the cookie");
	kill_child(p);
	check_int(write_str(V1 "/g/cpu.tag", "0"), ==, 0, "v1: untag");
	rmdir(V1 "/g");
	umount(V1);
}

int main(void)
{
	tap_plan_start();
	if (strcmp(read_line(SYS_CPU "/smt/control") ?: "", "on")) {
		tap_skip_test("SMT is not on", "cpu.tag v1 tests");
		return tap_finish();
	}
	test_v1();
	return tap_finish();
}
