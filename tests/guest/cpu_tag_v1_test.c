// SPDX-License-Identifier: GPL-2.0
/*
 * No cpu.tag on the legacy v1 hierarchy. Runs last in a boot: the cpu
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

/*
 * The series adds cpu.tag to cgroup v2 only: a new file in the v1
 * controller would be a new v1 feature. Check that v1 stays as it was.
 */
static void test_v1(void)
{
	int ret = mount_v1();

	if (ret) {
		tap_ok(0, "v1: mount the cpu controller on a legacy hierarchy (%s)",
		       strerror(-ret));
		return;
	}
	tap_ok(access(V1 "/cpu.tag", F_OK) && errno == ENOENT, "v1: no cpu.tag on the root");
	mkdir(V1 "/g", 0755);
	tap_ok(!access(V1 "/g/cpu.shares", F_OK), "v1: a group has the v1 cpu files");
	tap_ok(access(V1 "/g/cpu.tag", F_OK) && errno == ENOENT, "v1: and no cpu.tag");
	tap_ok(access(V1 "/g/cpu.tag.effective", F_OK) && errno == ENOENT,
	       "v1: nor cpu.tag.effective");
	rmdir(V1 "/g");
	umount(V1);
}

int main(void)
{
	tap_plan_start();
	test_v1();
	return tap_finish();
}
