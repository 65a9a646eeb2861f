/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the in-guest tests: files, cgroups, core cookies. */
#ifndef CSBENCH_GUEST_UTIL_H
#define CSBENCH_GUEST_UTIL_H

#include <sys/types.h>

#ifndef PR_SCHED_CORE
#define PR_SCHED_CORE			62
#define PR_SCHED_CORE_GET		0
#define PR_SCHED_CORE_CREATE		1
#define PR_SCHED_CORE_SHARE_TO		2
#define PR_SCHED_CORE_SHARE_FROM	3
#endif
#define SCOPE_THREAD			0	/* PIDTYPE_PID */

#define CGROOT		"/sys/fs/cgroup"
#define SYS_CPU		"/sys/devices/system/cpu"
#define TRACEFS		"/sys/kernel/tracing"

/* First line of @path without the newline, in a static buffer, or NULL. */
const char *read_line(const char *path);
/* Write @s to @path in one write(); 0 or -errno. */
int write_str(const char *path, const char *s);
int write_buf(const char *path, const char *buf, size_t len);
int write_fmt(const char *path, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* cgroup v2 group under CGROOT ("a" or "a/b"); created if missing. */
int cg_create(const char *group);
int cg_remove(const char *group);
int cg_move(const char *group, pid_t pid);	/* "" is the root */
int cg_tag(const char *group, int on);		/* 0 or -errno */
int cg_enable_cpu(const char *group);		/* +cpu in subtree_control */

/* The core cookie @pid runs with (PR_SCHED_CORE_GET): 0 or -errno. */
int cookie_get(pid_t pid, unsigned long long *cookie);
/* Same, for tests that only compare: the cookie, or ~0 on error. */
unsigned long long cookie_of(pid_t pid);
int cookie_create(pid_t pid);			/* 0 or -errno */

/* A child that sleeps until killed, or spins if @busy. */
pid_t spawn_child(int busy);
void kill_child(pid_t pid);
/*
 * SIGKILL @pid and reap it within @timeout_us: 0, or -ETIMEDOUT if it was
 * still there (a task that cannot run cannot even exit: beside a sibling
 * left idling, or behind a stale pick).
 */
int kill_and_reap(pid_t pid, long timeout_us);

#endif
