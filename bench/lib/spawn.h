/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Running programs and removing trees without a shell. A path, an option
 * or a workload file's field reaches a program only as one argv element,
 * so a quote, a space, "$()" or a newline in it is just a character
 * (issue: a results path with a quote once ran a command through
 * system("rm -rf '...'")). The only shell csbench still starts on purpose
 * runs a workload's tenant command, which is written in sh by design.
 */
#ifndef CSBENCH_SPAWN_H
#define CSBENCH_SPAWN_H

#include <stddef.h>

/*
 * Run @argv (argv[0] searched on PATH) with stdin from /dev/null and both
 * stdout and stderr into @out_fd (or /dev/null for -1); wait for it.
 * Its exit status (0..255), 128 + signal if it was killed, or -errno if
 * it could not be started.
 */
int spawn_wait(char *const argv[], int out_fd);

/*
 * Run @argv as spawn_wait() does with its output piped back and keep one
 * line of it in @buf: spawn_last_line() the last non-empty line of its
 * stdout (stderr stays ours: a build script's progress shows),
 * spawn_first_line() the first non-empty line of stdout and stderr
 * together (a tool's version). The exit status as spawn_wait(); @buf is
 * "" when the program printed nothing.
 */
int spawn_last_line(char *const argv[], char *buf, size_t len);
int spawn_first_line(char *const argv[], char *buf, size_t len);

/* Is @name an executable on PATH (or, with a '/', at that path)? */
int on_path(const char *name);

/*
 * Remove @path and, if a directory, everything below it, never
 * following a symbolic link out of it. 0, or -errno of the first
 * failure (the walk goes on past it; ENOENT for @path itself is 0).
 */
int remove_tree(const char *path);

#endif
