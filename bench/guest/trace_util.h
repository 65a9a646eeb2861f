/* SPDX-License-Identifier: GPL-2.0 */
/* Recording a window of the boot-time trace events (see VM_TRACE_EVENTS). */
#ifndef CSBENCH_TRACE_UTIL_H
#define CSBENCH_TRACE_UTIL_H

#include "../lib/cotrace.h"

/* Empty the buffers and start recording. 0 or -errno. */
int trace_start(void);
/* Stop recording. */
int trace_stop(void);
/* Do the boot-time events include @name (e.g. "sched_core_pick")? */
int trace_event_enabled(const char *name);
/* Count lines of the recorded trace containing @needle. */
long trace_count(const char *needle);
/* The last line containing @needle, in a static buffer, or NULL. */
const char *trace_last(const char *needle);

/*
 * Copy the recorded trace to @path, headed by "# @title" and the thread to
 * tenant map in the "# pid N tenant T" form `csbench cotrace` reads.
 * 0 or -errno.
 */
int trace_save(const char *path, const char *title,
	       const struct cotrace_tenant *t, int n);

#endif
