/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small file helpers shared by host and guest code: whole files into
 * memory, one-line reads and single-write() writes of sysfs, cgroup and
 * tracefs files (whose errors only show on that one write()).
 */
#ifndef CSBENCH_FILEIO_H
#define CSBENCH_FILEIO_H

#include <stddef.h>

/* The whole of @path, NUL-terminated, malloc'ed; NULL on error. */
char *read_file(const char *path);
/* First line of @path without its newline into @buf. 0 or -errno. */
int read_line_into(const char *path, char *buf, size_t len);
/* @len bytes of @buf in one write() to @path. 0 or -errno. */
int write_file_once(const char *path, const char *buf, size_t len);
/* The same, opened with O_WRONLY | @flags (e.g. O_CREAT | O_TRUNC). */
int write_file_flags(const char *path, const char *buf, size_t len, int flags);
/* Same for a string. */
int write_str_once(const char *path, const char *s);

#endif
