// SPDX-License-Identifier: GPL-2.0
/*
 * The host's vCPU caps for an emulated SMT yield (bench/host/machine/smtcap.c),
 * against fake cgroup v1 and v2 trees made of plain directories: what is
 * written where, that everything made is removed, and that a parent left
 * by a csbench that no longer runs is found and removed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../bench/host/machine/smtcap.h"
#include "../../bench/lib/paths.h"
#include "../tap.h"

static char top[256];

static const char *slurp(const char *fmt, const char *a, const char *b)
{
	static char buf[256];
	char path[1024];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), fmt, a, b);
	f = fopen(path, "r");
	if (!f)
		return "(missing)";
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void touch(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int exists(const char *fmt, const char *a, const char *b)
{
	char path[1024];

	snprintf(path, sizeof(path), fmt, a, b);
	return !access(path, F_OK);
}

/* A pid no process has: a child that has been reaped. */
static pid_t dead_pid(void)
{
	pid_t pid = fork();

	if (!pid)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

int main(void)
{
	const int tids[4] = { 11, 12, 13, 14 };
	/* Two cores of two threads, cores at 80%: a thread alone 0.8 / 1.25. */
	const struct smtcap_plan y125 = { .yield = 1.25, .core_share = 0.8,
					  .period_us = 10000, .threads_per_core = 2 };
	const struct smtcap_plan y13 = { .yield = 1.3, .core_share = 1.0,
					 .period_us = 10000, .threads_per_core = 2 };
	struct smtcap_plan bad;
	char base[512], path[1024], err[1024] = "", parent[640], pidstr[32];
	struct smtcap c;
	pid_t gone;

	tap_plan_start();
	snprintf(top, sizeof(top), "/tmp/csbench-t0027-XXXXXX");
	if (!mkdtemp(top))
		return 1;

	check_int(smtcap_quota_us(1 / 1.25, 10000), ==, 8000, "share 0.8: 8 ms of every 10");
	check_int(smtcap_quota_us(1 / 1.3, 10000), ==, 7692, "share 1/1.3: rounded to the us");
	check_int(smtcap_quota_us(0.5, 1000), ==, 500, "share 0.5 of 1 ms: 500 us");

	/* cgroup v1: the cpu hierarchy with cfs files. */
	snprintf(base, sizeof(base), "%s/v1", top);
	snprintf(path, sizeof(path), "%s/cpu", base);
	mkdirs(path, 0755);
	snprintf(path, sizeof(path), "%s/cpu/cpu.cfs_quota_us", base);
	touch(path, "-1\n");
	check_int(smtcap_find(base, &c, err, sizeof(err)), ==, 0, "v1 cpu hierarchy found");
	check_int(c.v2, ==, 0, "as v1");
	check_int(smtcap_apply(&c, 4242, 4000, tids, 4, &y125, err, sizeof(err)), ==, 0,
		  "four threads capped");
	snprintf(parent, sizeof(parent), "%s", c.parent);
	tap_ok(strstr(parent, "/cpu/csbench-4242") != NULL, "under a parent named for csbench (%s)",
	       parent);
	check_str(slurp("%s/core0/%s", parent, "cpu.cfs_quota_us"), "8000",
		  "core 0 capped at 80%: 8000 us");
	check_str(slurp("%s/core1/%s", parent, "cpu.cfs_period_us"), "10000", "period 10000 us");
	check_str(slurp("%s/core0/vcpu0/%s", parent, "cpu.cfs_quota_us"), "6400",
		  "a thread at 0.8 / 1.25: 6400 us");
	check_str(slurp("%s/core0/vcpu0/%s", parent, "cpu.cfs_period_us"), "10000",
		  "period 10000 us");
	check_str(slurp("%s/core0/vcpu1/%s", parent, "tasks"), "12", "vCPU 1 in core 0");
	check_str(slurp("%s/core1/vcpu3/%s", parent, "tasks"), "14", "vCPU 3 in core 1");
	tap_ok(!exists("%s/core0/%s", parent, "tasks") ||
	       !*slurp("%s/core0/%s", parent, "tasks"), "no thread in a core group itself");
	check_int(smtcap_remove(&c), ==, 0, "removed");
	tap_ok(!exists("%s%s", parent, ""), "and the parent is gone");

	/* A parent left by a csbench that was killed, a guest still in it. */
	gone = dead_pid();
	snprintf(pidstr, sizeof(pidstr), "%d", (int)gone);
	snprintf(path, sizeof(path), "%s/cpu/csbench-%s/core0/vcpu0", base, pidstr);
	mkdirs(path, 0755);
	snprintf(path, sizeof(path), "%s/cpu/csbench-%s/core0/vcpu0/tasks", base, pidstr);
	touch(path, "4343\n");
	snprintf(path, sizeof(path), "%s/cpu/csbench-%d", base, (int)getpid());
	mkdirs(path, 0755);	/* ours: this process runs, it must stay */
	check_int(smtcap_remove_stale(&c), ==, 1, "one stale parent removed");
	tap_ok(!exists("%s/cpu/csbench-%s", base, pidstr), "the dead csbench's parent is gone");
	check_str(slurp("%s/cpu/%s", base, "tasks"), "4343",
		  "its thread moved back to the root first");
	snprintf(pidstr, sizeof(pidstr), "%d", (int)getpid());
	tap_ok(exists("%s/cpu/csbench-%s", base, pidstr), "a running csbench's parent is left alone");

	/* cgroup v2: a threaded subtree with cpu.max. */
	snprintf(base, sizeof(base), "%s/v2", top);
	mkdirs(base, 0755);
	snprintf(path, sizeof(path), "%s/cgroup.controllers", base);
	touch(path, "cpuset cpu io memory pids\n");
	check_int(smtcap_find(base, &c, err, sizeof(err)), ==, 0, "v2 hierarchy found");
	check_int(c.v2, ==, 1, "as v2");
	check_int(smtcap_apply(&c, 4242, 4000, tids, 2, &y13, err, sizeof(err)), ==, 0,
		  "two threads capped");
	snprintf(parent, sizeof(parent), "%s", c.parent);
	check_str(slurp("%s/%s", base, "cgroup.subtree_control"), "+cpu", "cpu enabled at the root");
	check_str(slurp("%s/%s", parent, "cgroup.procs"), "4000", "QEMU moved into the parent");
	check_str(slurp("%s/%s", parent, "cgroup.subtree_control"), "+cpu", "and cpu below it");
	check_str(slurp("%s/core0/%s", parent, "cgroup.type"), "threaded", "core group threaded");
	check_str(slurp("%s/core0/%s", parent, "cpu.max"), "max 10000",
		  "core share 1: the core is not capped");
	check_str(slurp("%s/core0/%s", parent, "cgroup.subtree_control"), "+cpu",
		  "cpu enabled below the core");
	check_str(slurp("%s/core0/vcpu1/%s", parent, "cgroup.type"), "threaded",
		  "thread groups threaded");
	check_str(slurp("%s/core0/vcpu1/%s", parent, "cpu.max"), "7692 10000",
		  "cpu.max quota period");
	check_str(slurp("%s/core0/vcpu1/%s", parent, "cgroup.threads"), "12", "the thread in it");
	check_int(smtcap_remove(&c), ==, 0, "removed");
	tap_ok(!exists("%s%s", parent, ""), "and the parent is gone");

	/* No CPU controller, and a yield out of range. */
	snprintf(base, sizeof(base), "%s/none", top);
	mkdirs(base, 0755);
	check_int(smtcap_find(base, &c, err, sizeof(err)), ==, -1, "no CPU controller: refused");
	tap_ok(strstr(err, "no CPU controller") != NULL, "saying so (%s)", err);
	snprintf(base, sizeof(base), "%s/v1", top);
	smtcap_find(base, &c, err, sizeof(err));
	bad = y125;
	bad.yield = 2.5;
	check_int(smtcap_apply(&c, 4242, 4000, tids, 4, &bad, err, sizeof(err)), ==, -1,
		  "yield 2.5 refused");
	tap_ok(!exists("%s/cpu/csbench-4242", base, ""), "and nothing was made");
	bad = y125;
	bad.core_share = 0.3;
	check_int(smtcap_apply(&c, 4242, 4000, tids, 4, &bad, err, sizeof(err)), ==, -1,
		  "core share 0.3 refused");
	tap_ok(strstr(err, "core share") != NULL, "saying so (%s)", err);
	/* 0.5 / 2 of a 2 ms period is 500 us: the kernel takes 1000 at least. */
	bad = y125;
	bad.yield = 2.0;
	bad.core_share = 0.5;
	bad.period_us = 2000;
	check_int(smtcap_apply(&c, 4242, 4000, tids, 4, &bad, err, sizeof(err)), ==, -1,
		  "a thread quota below 1 ms refused, not rounded up to another yield");
	tap_ok(strstr(err, "--cap-period-us") != NULL, "saying what to change (%s)", err);

	snprintf(path, sizeof(path), "rm -rf '%s'", top);
	if (system(path))
		tap_diag("could not remove %s", top);
	return tap_finish();
}
