/* SPDX-License-Identifier: GPL-2.0 */
/* Reading a guest's serial console log after (or while) it runs. */
#ifndef CSBENCH_CONSOLE_H
#define CSBENCH_CONSOLE_H

#include <stddef.h>

/*
 * Find the first line showing the kernel in trouble (panic, oops, BUG,
 * WARNING, lockdep, a fatal trap). Copies it to @line and returns the name
 * of the pattern that matched, or NULL when the log is clean.
 */
const char *console_scan(const char *path, char *line, size_t len);
/* Same, on text already in memory (for tests). */
const char *console_scan_text(const char *text, char *line, size_t len);
/*
 * The same, incrementally, for watching a running guest: scans only what
 * @path gained since *@offset (from the start of the line that was
 * incomplete then) and advances *@offset past the last complete line.
 */
const char *console_scan_new(const char *path, long *offset, char *line, size_t len);
/* Print the last @n lines of @path to stderr, indented. */
void console_tail(const char *path, int n);
/* Does @path contain @needle? */
int console_has(const char *path, const char *needle);

#endif
