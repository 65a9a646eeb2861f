// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/fileio.h"
#include "../lib/log.h"
#include "../lib/paths.h"
#include "smtcap.h"

#define PARENT_PREFIX	"csbench-"

/* Control files csbench writes in its groups, per cgroup version. */
static const char *const v1_files[] = { "cpu.cfs_period_us", "cpu.cfs_quota_us", "tasks", NULL };
static const char *const v2_files[] = { "cgroup.type", "cpu.max", "cgroup.threads",
					"cgroup.procs", "cgroup.subtree_control", NULL };

long smtcap_quota_us(double yield, int period_us)
{
	long q = (long)(period_us / yield + 0.5);

	return q < 1000 ? 1000 : q;
}

/*
 * One write(): cgroup control files take one value per write. O_CREAT
 * opens an existing control file as it is, and lets the unit tests use a
 * plain directory tree as the hierarchy.
 */
static int write_control(const char *path, const char *value)
{
	return write_file_flags(path, value, strlen(value), O_CREAT | O_TRUNC);
}

static int write_to(const char *dir, const char *file, const char *value, char *err,
		    size_t len)
{
	char path[1024];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	ret = write_control(path, value);
	if (ret)
		snprintf(err, len, "cannot write '%s' to %s: %s", value, path, strerror(-ret));
	return ret;
}

static int is_file(const char *dir, const char *name)
{
	char path[1024];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !stat(path, &st) && S_ISREG(st.st_mode);
}

int smtcap_find(const char *cgroup_base, struct smtcap *c, char *err, size_t len)
{
	char path[600], controllers[256] = "";

	memset(c, 0, sizeof(*c));
	snprintf(path, sizeof(path), "%s/cpu", cgroup_base);
	if (is_file(path, "cpu.cfs_quota_us")) {
		xsnprintf(c->root, sizeof(c->root), "%s", path);
	} else {
		snprintf(path, sizeof(path), "%s/cgroup.controllers", cgroup_base);
		if (read_line_into(path, controllers, sizeof(controllers)) ||
		    !strstr(controllers, "cpu")) {
			snprintf(err, len, "%s has no CPU controller (neither cgroup v1's cpu/ "
				 "nor cpu in cgroup v2's cgroup.controllers): --smt-yield needs "
				 "one to cap vCPU threads", cgroup_base);
			return -1;
		}
		snprintf(c->root, sizeof(c->root), "%s", cgroup_base);
		c->v2 = 1;
	}
	if (access(c->root, W_OK)) {
		snprintf(err, len, "%s: %s (--smt-yield creates cgroups there; run as root)",
			 c->root, strerror(errno));
		return -1;
	}
	return 0;
}

/* Best effort: the files csbench wrote (a real cgroupfs refuses), then the dir. */
static int remove_group(const char *dir, int v2)
{
	const char *const *f;
	char path[1024];

	for (f = v2 ? v2_files : v1_files; *f; f++) {
		snprintf(path, sizeof(path), "%s/%s", dir, *f);
		unlink(path);
	}
	return rmdir(dir) && errno != ENOENT ? -1 : 0;
}

/* One child group capping thread @tid. */
static int cap_thread(const struct smtcap *c, int i, int tid, long quota, int period_us,
		      char *err, size_t len)
{
	char dir[700], value[64];

	snprintf(dir, sizeof(dir), "%s/vcpu%d", c->parent, i);
	if (mkdir(dir, 0755)) {
		snprintf(err, len, "cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	if (c->v2) {
		snprintf(value, sizeof(value), "%ld %d", quota, period_us);
		if (write_to(dir, "cgroup.type", "threaded", err, len) ||
		    write_to(dir, "cpu.max", value, err, len))
			return -1;
		snprintf(value, sizeof(value), "%d", tid);
		return write_to(dir, "cgroup.threads", value, err, len);
	}
	snprintf(value, sizeof(value), "%d", period_us);
	if (write_to(dir, "cpu.cfs_period_us", value, err, len))
		return -1;
	snprintf(value, sizeof(value), "%ld", quota);
	if (write_to(dir, "cpu.cfs_quota_us", value, err, len))
		return -1;
	snprintf(value, sizeof(value), "%d", tid);
	return write_to(dir, "tasks", value, err, len);
}

int smtcap_apply(struct smtcap *c, pid_t owner, pid_t process, const int *tids, int n,
		 double yield, int period_us, char *err, size_t len)
{
	long quota = smtcap_quota_us(yield, period_us);
	char value[32];
	int i;

	if (yield < SMTCAP_MIN_YIELD || yield > SMTCAP_MAX_YIELD) {
		snprintf(err, len, "yield %.3g: expected %.1f to %.1f", yield, SMTCAP_MIN_YIELD,
			 SMTCAP_MAX_YIELD);
		return -1;
	}
	snprintf(c->parent, sizeof(c->parent), "%s/" PARENT_PREFIX "%d", c->root, (int)owner);
	if (mkdir(c->parent, 0755) && errno != EEXIST) {
		snprintf(err, len, "cannot create %s: %s", c->parent, strerror(errno));
		c->parent[0] = '\0';
		return -1;
	}
	c->nthreads = 0;
	/*
	 * v2: the threads' process must live in the parent before its
	 * threads can go to threaded children; cpu must be enabled on the
	 * way down.
	 */
	if (c->v2) {
		snprintf(value, sizeof(value), "%d", (int)process);
		if (write_to(c->root, "cgroup.subtree_control", "+cpu", err, len) ||
		    write_to(c->parent, "cgroup.procs", value, err, len) ||
		    write_to(c->parent, "cgroup.subtree_control", "+cpu", err, len))
			goto fail;
	}
	for (i = 0; i < n; i++) {
		c->nthreads = i + 1;
		if (cap_thread(c, i, tids[i], quota, period_us, err, len))
			goto fail;
	}
	return 0;
fail:
	smtcap_remove(c);
	return -1;
}

/* Move every task still in @dir's children and @dir to @root. */
static void evacuate(const char *root, const char *dir, int v2)
{
	char path[1024], line[32];
	struct dirent *de;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d))) {
		FILE *f;

		if (strncmp(de->d_name, "vcpu", 4))
			continue;
		xsnprintf(path, sizeof(path), "%s/%s/%s", dir, de->d_name,
			  v2 ? "cgroup.threads" : "tasks");
		f = fopen(path, "r");
		while (f && fgets(line, sizeof(line), f)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(path, sizeof(path), "%s/%s", root, v2 ? "cgroup.procs" : "tasks");
			write_control(path, line);
		}
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
}

static int remove_parent(const char *parent, int v2)
{
	char child[1024];
	struct dirent *de;
	int ret = 0;
	DIR *d = opendir(parent);

	while (d && (de = readdir(d))) {
		if (strncmp(de->d_name, "vcpu", 4))
			continue;
		snprintf(child, sizeof(child), "%s/%s", parent, de->d_name);
		ret |= remove_group(child, v2);
	}
	if (d)
		closedir(d);
	return remove_group(parent, v2) | ret;
}

int smtcap_remove(struct smtcap *c)
{
	int ret;

	if (!c->parent[0])
		return 0;
	ret = remove_parent(c->parent, c->v2);
	if (ret)
		warn("cannot remove %s: %s (remove it with rmdir once its threads are gone)",
		     c->parent, strerror(errno));
	else
		c->parent[0] = '\0';
	return ret;
}

int smtcap_remove_stale(const struct smtcap *c)
{
	char parent[1024];
	struct dirent *de;
	int removed = 0, pid;
	DIR *d = opendir(c->root);

	while (d && (de = readdir(d))) {
		if (sscanf(de->d_name, PARENT_PREFIX "%d", &pid) != 1 || pid <= 0)
			continue;
		if (!kill(pid, 0) || errno != ESRCH)
			continue;	/* its csbench still runs */
		snprintf(parent, sizeof(parent), "%s/%s", c->root, de->d_name);
		/* A guest that outlived its csbench keeps running, uncapped. */
		evacuate(c->root, parent, c->v2);
		if (!remove_parent(parent, c->v2)) {
			warn("removed %s: vCPU caps left by csbench %d, which no longer runs",
			     parent, pid);
			removed++;
		} else {
			warn("cannot remove %s, left by csbench %d: %s", parent, pid,
			     strerror(errno));
		}
	}
	if (d)
		closedir(d);
	return removed;
}
