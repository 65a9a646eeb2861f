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

#include "../../lib/fileio.h"
#include "../../lib/log.h"
#include "../../lib/paths.h"
#include "smtcap.h"

#define PARENT_PREFIX	"csbench-"

/* Control files csbench writes in its groups, per cgroup version. */
static const char *const v1_files[] = { "cpu.cfs_period_us", "cpu.cfs_quota_us", "tasks", NULL };
static const char *const v2_files[] = { "cgroup.type", "cpu.max", "cgroup.threads",
					"cgroup.procs", "cgroup.subtree_control", NULL };

long smtcap_quota_us(double share, int period_us)
{
	return (long)(period_us * share + 0.5);
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

/*
 * Make group @dir with a CPU cap of @quota us per @period_us (-1: none),
 * threaded under v2 with the controller enabled below it if @inner.
 */
static int make_group(const struct smtcap *c, const char *dir, long quota, int period_us,
		      int inner, char *err, size_t len)
{
	char value[64];

	if (mkdir(dir, 0755)) {
		snprintf(err, len, "cannot create %s: %s", dir, strerror(errno));
		return -1;
	}
	if (c->v2) {
		if (quota > 0)
			snprintf(value, sizeof(value), "%ld %d", quota, period_us);
		else
			snprintf(value, sizeof(value), "max %d", period_us);
		if (write_to(dir, "cgroup.type", "threaded", err, len) ||
		    write_to(dir, "cpu.max", value, err, len))
			return -1;
		return inner ? write_to(dir, "cgroup.subtree_control", "+cpu", err, len) : 0;
	}
	snprintf(value, sizeof(value), "%d", period_us);
	if (write_to(dir, "cpu.cfs_period_us", value, err, len))
		return -1;
	snprintf(value, sizeof(value), "%ld", quota > 0 ? quota : -1L);
	return write_to(dir, "cpu.cfs_quota_us", value, err, len);
}

/* Thread @tid joins group @dir. */
static int add_thread(const struct smtcap *c, const char *dir, int tid, char *err, size_t len)
{
	char value[32];

	snprintf(value, sizeof(value), "%d", tid);
	return write_to(dir, c->v2 ? "cgroup.threads" : "tasks", value, err, len);
}

int smtcap_check(const struct smtcap_plan *plan, char *err, size_t len)
{
	long thread_quota;

	if (plan->yield < SMTCAP_MIN_YIELD || plan->yield > SMTCAP_MAX_YIELD) {
		snprintf(err, len, "yield %.3g: expected %.1f to %.1f", plan->yield,
			 SMTCAP_MIN_YIELD, SMTCAP_MAX_YIELD);
		return -1;
	}
	if (plan->core_share < SMTCAP_MIN_CORE_SHARE || plan->core_share > 1.0) {
		snprintf(err, len, "core share %.3g: expected %.2f to 1", plan->core_share,
			 SMTCAP_MIN_CORE_SHARE);
		return -1;
	}
	thread_quota = smtcap_quota_us(plan->core_share / plan->yield, plan->period_us);
	/* The kernel refuses less; rounding it up would change the yield. */
	if (thread_quota < SMTCAP_MIN_QUOTA_US) {
		snprintf(err, len, "a thread's quota would be %ld us of every %d (core share "
			 "%.2f / yield %.3g), below the kernel's %d us: give a longer "
			 "--cap-period-us", thread_quota, plan->period_us, plan->core_share,
			 plan->yield, SMTCAP_MIN_QUOTA_US);
		return -1;
	}
	return 0;
}

int smtcap_apply(struct smtcap *c, pid_t owner, pid_t process, const int *tids, int n,
		 const struct smtcap_plan *plan, char *err, size_t len)
{
	long core_quota, thread_quota;
	char dir[700], value[32];
	int i, per_core = plan->threads_per_core > 0 ? plan->threads_per_core : 1;

	if (smtcap_check(plan, err, len))
		return -1;
	core_quota = plan->core_share < 1.0 ?
		smtcap_quota_us(plan->core_share, plan->period_us) : -1;
	thread_quota = smtcap_quota_us(plan->core_share / plan->yield, plan->period_us);
	snprintf(c->parent, sizeof(c->parent), "%s/" PARENT_PREFIX "%d", c->root, (int)owner);
	if (mkdir(c->parent, 0755) && errno != EEXIST) {
		snprintf(err, len, "cannot create %s: %s", c->parent, strerror(errno));
		c->parent[0] = '\0';
		return -1;
	}
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
		if (i % per_core == 0) {
			snprintf(dir, sizeof(dir), "%s/core%d", c->parent, i / per_core);
			if (make_group(c, dir, core_quota, plan->period_us, 1, err, len))
				goto fail;
		}
		snprintf(dir, sizeof(dir), "%s/core%d/vcpu%d", c->parent, i / per_core, i);
		if (make_group(c, dir, thread_quota, plan->period_us, 0, err, len) ||
		    add_thread(c, dir, tids[i], err, len))
			goto fail;
	}
	return 0;
fail:
	smtcap_remove(c);
	return -1;
}

/*
 * Calls @fn(group, @root, @v2) for each group directory below @dir,
 * deepest first; ORs what it returns.
 */
static int walk_groups(const char *dir, int v2, int (*fn)(const char *, const char *, int),
		       const char *root)
{
	char child[1024];
	struct dirent *de;
	struct stat st;
	int ret = 0;
	DIR *d = opendir(dir);

	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		xsnprintf(child, sizeof(child), "%s/%s", dir, de->d_name);
		/* Not every file system fills in d_type. */
		if (de->d_type != DT_DIR &&
		    (de->d_type != DT_UNKNOWN || lstat(child, &st) || !S_ISDIR(st.st_mode)))
			continue;
		ret |= walk_groups(child, v2, fn, root);
		ret |= fn(child, root, v2);
	}
	if (d)
		closedir(d);
	return ret;
}

/* Move every task in group @dir to @root. */
static int evacuate_group(const char *dir, const char *root, int v2)
{
	char path[1024], line[32];
	FILE *f;

	xsnprintf(path, sizeof(path), "%s/%s", dir, v2 ? "cgroup.threads" : "tasks");
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		xsnprintf(path, sizeof(path), "%s/%s", root, v2 ? "cgroup.procs" : "tasks");
		write_control(path, line);
	}
	if (f)
		fclose(f);
	return 0;
}

static int remove_one(const char *dir, const char *root, int v2)
{
	(void)root;
	return remove_group(dir, v2);
}

/* Move every task still in @dir or below it to @root. */
static void evacuate(const char *root, const char *dir, int v2)
{
	walk_groups(dir, v2, evacuate_group, root);
	evacuate_group(dir, root, v2);
}

static int remove_parent(const char *parent, int v2)
{
	int ret = walk_groups(parent, v2, remove_one, NULL);

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
