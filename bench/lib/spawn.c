// SPDX-License-Identifier: GPL-2.0
/* Programs by argv, trees by nftw(): no shell anywhere (spawn.h). */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn.h"

extern char **environ;

/*
 * Start @argv with stdout on @out_fd (-1: /dev/null) and stderr there too
 * when @merge_err, else left as ours (a build's progress stays visible).
 * Its pid or -errno.
 */
static pid_t start(char *const argv[], int out_fd, int merge_err)
{
	posix_spawn_file_actions_t fa;
	pid_t pid;
	int err;

	if (!argv || !argv[0])
		return -EINVAL;
	err = posix_spawn_file_actions_init(&fa);
	if (err)
		return -err;
	err = posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	if (!err && out_fd < 0)
		err = posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	else if (!err && out_fd != 1)
		err = posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
	if (!err && merge_err)
		err = posix_spawn_file_actions_adddup2(&fa, 1, 2);
	if (!err)
		err = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	return err ? -err : pid;
}

static int reap(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	return 128 + WTERMSIG(status);
}

int spawn_wait(char *const argv[], int out_fd)
{
	pid_t pid = start(argv, out_fd, 1);

	return pid < 0 ? (int)pid : reap(pid);
}

static int spawn_line(char *const argv[], char *buf, size_t len, int last, int merge_err)
{
	char line[4096];
	int fds[2], kept = 0, status;
	FILE *in;
	pid_t pid;

	if (len)
		buf[0] = '\0';
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = start(argv, fds[1], merge_err);
	close(fds[1]);
	if (pid < 0) {
		close(fds[0]);
		return (int)pid;
	}
	in = fdopen(fds[0], "r");
	if (!in) {
		status = -errno;
		close(fds[0]);
		reap(pid);
		return status;
	}
	/* Read to the end either way: a full pipe must not block the child. */
	while (fgets(line, sizeof(line), in)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || (kept && !last))
			continue;
		snprintf(buf, len, "%s", line);
		kept = 1;
	}
	fclose(in);
	return reap(pid);
}

int spawn_last_line(char *const argv[], char *buf, size_t len)
{
	return spawn_line(argv, buf, len, 1, 0);
}

int spawn_first_line(char *const argv[], char *buf, size_t len)
{
	return spawn_line(argv, buf, len, 0, 1);
}

int on_path(const char *name)
{
	const char *path = getenv("PATH"), *p, *colon;
	char file[4096];
	struct stat st;

	if (!name || !*name)
		return 0;
	if (strchr(name, '/'))
		return !stat(name, &st) && S_ISREG(st.st_mode) && !access(name, X_OK);
	for (p = path ? path : "/usr/bin:/bin"; ; p = colon + 1) {
		size_t dlen;

		colon = strchr(p, ':');
		dlen = colon ? (size_t)(colon - p) : strlen(p);
		if (snprintf(file, sizeof(file), "%.*s/%s", (int)dlen, dlen ? p : ".", name) <
		    (int)sizeof(file) &&
		    !stat(file, &st) && S_ISREG(st.st_mode) && !access(file, X_OK))
			return 1;
		if (!colon)
			return 0;
	}
}

/* nftw() passes no user pointer: remove_tree() is not thread-safe. */
static int first_error;

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	if (remove(path) && errno != ENOENT && !first_error)
		first_error = -errno;
	return 0;
}

int remove_tree(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	first_error = 0;
	/* Depth first, physical: a link is removed, never followed. */
	if (nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS) && !first_error)
		first_error = -errno;
	return first_error;
}
