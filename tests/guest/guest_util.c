// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../bench/lib/fileio.h"
#include "guest_util.h"

const char *read_line(const char *path)
{
	static char buf[4096];

	return read_line_into(path, buf, sizeof(buf)) ? NULL : buf;
}

int write_buf(const char *path, const char *buf, size_t len)
{
	return write_file_once(path, buf, len);
}

int write_str(const char *path, const char *s)
{
	return write_buf(path, s, strlen(s));
}

int write_fmt(const char *path, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return write_str(path, buf);
}

static void cg_path(char *buf, size_t len, const char *group, const char *file)
{
	snprintf(buf, len, "%s%s%s%s%s", CGROOT, *group ? "/" : "", group,
		 file ? "/" : "", file ? file : "");
}

int cg_create(const char *group)
{
	char p[512];

	cg_path(p, sizeof(p), group, NULL);
	if (mkdir(p, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

int cg_remove(const char *group)
{
	char p[512];

	cg_path(p, sizeof(p), group, NULL);
	return rmdir(p) ? -errno : 0;
}

int cg_move(const char *group, pid_t pid)
{
	char p[512];

	cg_path(p, sizeof(p), group, "cgroup.procs");
	return write_fmt(p, "%d", (int)pid);
}

int cg_tag(const char *group, int on)
{
	char p[512];

	cg_path(p, sizeof(p), group, "cpu.tag");
	return write_str(p, on ? "1" : "0");
}

int cg_enable_cpu(const char *group)
{
	char p[512];

	cg_path(p, sizeof(p), group, "cgroup.subtree_control");
	return write_str(p, "+cpu");
}

int cookie_get(pid_t pid, unsigned long long *cookie)
{
	*cookie = 0;
	if (prctl(PR_SCHED_CORE, PR_SCHED_CORE_GET, pid, SCOPE_THREAD,
		  (unsigned long)cookie))
		return -errno;
	return 0;
}

unsigned long long cookie_of(pid_t pid)
{
	unsigned long long cookie;

	return cookie_get(pid, &cookie) ? ~0ULL : cookie;
}

int cookie_create(pid_t pid)
{
	if (prctl(PR_SCHED_CORE, PR_SCHED_CORE_CREATE, pid, SCOPE_THREAD, 0))
		return -errno;
	return 0;
}

pid_t spawn_child(int busy)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (;;)
			if (!busy)
				pause();
	}
	return pid;
}

void kill_child(pid_t pid)
{
	if (pid <= 0)
		return;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

int kill_and_reap(pid_t pid, long timeout_us)
{
	long waited;

	kill(pid, SIGKILL);
	for (waited = 0; waited < timeout_us; waited += 1000) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return 0;
		usleep(1000);
	}
	return -ETIMEDOUT;
}
