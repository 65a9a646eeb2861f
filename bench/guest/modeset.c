// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/fileio.h"
#include "modeset.h"

#define SYS_CPU	"/sys/devices/system/cpu"
#define CGROOT	"/sys/fs/cgroup"

#ifndef PR_SCHED_CORE
#define PR_SCHED_CORE		62
#define PR_SCHED_CORE_GET	0
#define PR_SCHED_CORE_CREATE	1
#define PR_SCHED_CORE_SHARE_FROM 3
#endif

int mode_prepare(enum csb_mode m, char *err, size_t len)
{
	const char *want = mode_smt(m) == SMT_ON ? "on" : "off";
	char now[32] = "";
	int ret;

	read_line_into(SYS_CPU "/smt/control", now, sizeof(now));
	if (strcmp(now, want)) {
		ret = write_str_once(SYS_CPU "/smt/control", want);
		if (ret) {
			snprintf(err, len, "cannot set smt/control to %s: %s", want,
				 strerror(-ret));
			return -1;
		}
	}
	/* EBUSY-free if already enabled; needed for cpu.tag and cpu.stat. */
	ret = write_str_once(CGROOT "/cgroup.subtree_control", "+cpu");
	if (ret) {
		snprintf(err, len, "cannot enable the cpu controller: %s", strerror(-ret));
		return -1;
	}
	return 0;
}

int guest_topology(int *cpus, int *cores, char *err, size_t len)
{
	char present[64] = "";
	int last;

	/* A csbench guest's present CPUs are always "0-N" (or "0"). */
	if (read_line_into(SYS_CPU "/present", present, sizeof(present)) ||
	    (sscanf(present, "0-%d", &last) != 1 && strcmp(present, "0"))) {
		snprintf(err, len, "%s/present is '%s', expected 0-N", SYS_CPU, present);
		return -1;
	}
	if (!strcmp(present, "0"))
		last = 0;
	*cpus = last + 1;
	if (*cpus % 2) {
		snprintf(err, len, "%d CPUs present: a csbench guest has two threads per core",
			 *cpus);
		return -1;
	}
	*cores = *cpus / 2;
	return 0;
}

/* The even CPUs of @cpus as sysfs lists them: "0", "0,2", "0,2,4". */
static void even_cpus(int cpus, char *buf, size_t len)
{
	size_t used = 0;
	int c;

	buf[0] = '\0';
	for (c = 0; c < cpus && used < len; c += 2)
		used += snprintf(buf + used, len - used, "%s%d", c ? "," : "", c);
}

int mode_check_topology(enum csb_mode m, char *err, size_t len)
{
	const int off = mode_smt(m) == SMT_OFF;
	char all[32], evens[512], last_path[128], last_on[32], last_off[16], got[512];
	int cpus, cores;
	size_t i;

	if (guest_topology(&cpus, &cores, err, len))
		return -1;
	snprintf(all, sizeof(all), "0-%d", cpus - 1);
	even_cpus(cpus, evens, sizeof(evens));
	/* The last core's threads, as a check that numbering is per core. */
	snprintf(last_path, sizeof(last_path), SYS_CPU "/cpu%d/topology/thread_siblings_list",
		 cpus - 2);
	snprintf(last_on, sizeof(last_on), "%d-%d", cpus - 2, cpus - 1);
	snprintf(last_off, sizeof(last_off), "%d", cpus - 2);
	{
		const struct {
			const char *path, *want_on, *want_off;
		} checks[] = {
			{ SYS_CPU "/online", all, evens },
			{ SYS_CPU "/cpu0/topology/thread_siblings_list", "0-1", "0" },
			{ last_path, last_on, last_off },
			{ SYS_CPU "/smt/control", "on", "off" },
		};

		for (i = 0; i < sizeof(checks) / sizeof(checks[0]); i++) {
			const char *want = off ? checks[i].want_off : checks[i].want_on;

			if (read_line_into(checks[i].path, got, sizeof(got)) ||
			    strcmp(got, want)) {
				snprintf(err, len, "mode %s: %s is '%s', expected '%s'",
					 mode_name(m), checks[i].path, got, want);
				return -1;
			}
		}
	}
	return 0;
}

void tenant_cgroup_path(const char *tenant, char *buf, size_t len)
{
	snprintf(buf, len, CGROOT "/" TENANT_CGROUP_PREFIX "%s", tenant);
}

int tenant_cgroup_setup(const char *tenant, enum csb_mode m, char *err,
			size_t len)
{
	char dir[256], file[300];
	int ret;

	tenant_cgroup_path(tenant, dir, sizeof(dir));
	if (mkdir(dir, 0755) && errno != EEXIST) {
		snprintf(err, len, "cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(file, sizeof(file), "%s/cpu.tag", dir);
	ret = write_str_once(file, mode_cookie(m) == COOKIE_CGROUP_TAG ? "1" : "0");
	/* Without the patch series there is no cpu.tag: fine unless needed. */
	if (ret && (mode_cookie(m) == COOKIE_CGROUP_TAG || ret != -ENOENT)) {
		snprintf(err, len, "cannot write %s: %s", file, strerror(-ret));
		return -1;
	}
	return 0;
}

int tenant_cgroup_remove(const char *tenant)
{
	char dir[256];

	tenant_cgroup_path(tenant, dir, sizeof(dir));
	return rmdir(dir) ? -errno : 0;
}

static int cookie_of(pid_t tid, unsigned long long *cookie)
{
	*cookie = 0;
	return prctl(PR_SCHED_CORE, PR_SCHED_CORE_GET, tid, 0,
		     (unsigned long)cookie) ? -errno : 0;
}

pid_t tenant_spawn(const char *tenant, enum csb_mode m, pid_t share_from,
		   char *const argv[], const char *out_path)
{
	char procs[300], dir[256], pid[32];
	pid_t child = fork();
	int fd;

	if (child)
		return child;
	tenant_cgroup_path(tenant, dir, sizeof(dir));
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (write_str_once(procs, pid))
		_exit(120);
	if (mode_cookie(m) == COOKIE_PRCTL && share_from) {
		unsigned long long c = 0;
		int tries;

		/* The first process may not have taken its cookie yet. */
		for (tries = 0; tries < 200 && !c; tries++) {
			if (cookie_of(share_from, &c))
				_exit(121);
			if (!c)
				usleep(5000);
		}
		if (!c || prctl(PR_SCHED_CORE, PR_SCHED_CORE_SHARE_FROM, share_from, 0, 0))
			_exit(121);
	} else if (mode_cookie(m) == COOKIE_PRCTL &&
		   prctl(PR_SCHED_CORE, PR_SCHED_CORE_CREATE, 0, 0, 0)) {
		_exit(121);
	}
	fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		_exit(122);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	execvp(argv[0], argv);
	_exit(127);
}

static int read_threads(const char *tenant, pid_t *tids, int max)
{
	char path[300], dir[256];
	FILE *f;
	int n = 0, tid;

	tenant_cgroup_path(tenant, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/cgroup.threads", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (n < max && fscanf(f, "%d", &tid) == 1)
		tids[n++] = tid;
	fclose(f);
	return n;
}

int mode_check_cookies(enum csb_mode m, const char *const *tenants,
		       int ntenants, char *err, size_t len)
{
	static pid_t tids[MODESET_MAX_PIDS];
	unsigned long long first[16], c;
	int t, i, n, u;

	if (ntenants > 16) {
		snprintf(err, len, "at most 16 tenants");
		return -1;
	}
	for (t = 0; t < ntenants; t++) {
		int have_first = 0;

		n = read_threads(tenants[t], tids, MODESET_MAX_PIDS);
		if (n <= 0) {
			snprintf(err, len, "tenant %s has no threads in its cgroup", tenants[t]);
			return -1;
		}
		for (i = 0; i < n; i++) {
			/* A thread that exited meanwhile proves nothing either way. */
			if (cookie_of(tids[i], &c) == -ESRCH)
				continue;
			if (!have_first) {
				first[t] = c;
				have_first = 1;
			}
			if (!mode_has_cookies(m) && c) {
				snprintf(err, len, "mode %s: tenant %s thread %d has cookie 0x%llx, expected none",
					 mode_name(m), tenants[t], tids[i], c);
				return -1;
			}
			if (mode_has_cookies(m) && !c) {
				snprintf(err, len, "mode %s: tenant %s thread %d has no cookie",
					 mode_name(m), tenants[t], tids[i]);
				return -1;
			}
			if (mode_has_cookies(m) && c != first[t]) {
				snprintf(err, len, "mode %s: tenant %s thread %d has cookie 0x%llx, its first thread 0x%llx",
					 mode_name(m), tenants[t], tids[i], c, first[t]);
				return -1;
			}
		}
		if (!have_first) {
			snprintf(err, len, "tenant %s: every thread exited before the check", tenants[t]);
			return -1;
		}
		for (u = 0; mode_has_cookies(m) && u < t; u++)
			if (first[u] == first[t]) {
				snprintf(err, len, "mode %s: tenants %s and %s share cookie 0x%llx",
					 mode_name(m), tenants[u], tenants[t], first[t]);
				return -1;
			}
	}
	return 0;
}

int tenant_wait_ready(const char *tenant, enum csb_mode m, pid_t pid,
		      int timeout_ms)
{
	char path[64], line[256], want[300];
	unsigned long long c;
	int waited;

	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	snprintf(want, sizeof(want), "0::/" TENANT_CGROUP_PREFIX "%s", tenant);
	for (waited = 0; waited <= timeout_ms; waited += 5) {
		int in_group = !read_line_into(path, line, sizeof(line)) &&
			       !strcmp(line, want);

		if (in_group && (!mode_has_cookies(m) ||
				 (!cookie_of(pid, &c) && c)))
			return 0;
		usleep(5000);
	}
	return -1;
}
