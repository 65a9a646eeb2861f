/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Diagnostics for every csbench program: one prefix, to stderr, with the
 * errno text appended where a system call failed (after rt-tests' error.c).
 */
#ifndef CSBENCH_LOG_H
#define CSBENCH_LOG_H

#include <stdarg.h>

extern const char *log_prog;	/* prefix, set once in main() */
extern int log_quiet;		/* suppress info() */

void info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void err_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Like err_msg() but appends ": strerror(err)". */
void err_errno(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void fatal(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));

#endif
