/* SPDX-License-Identifier: GPL-2.0 */
/* Taking a metric's value out of a tool's output (see workloads/README.md). */
#ifndef CSBENCH_EXTRACT_H
#define CSBENCH_EXTRACT_H

#include <stddef.h>

#include "hist.h"
#include "workload.h"

/* cyclictest -h takes at most this many buckets (its own limit is 1e6). */
#define HIST_MAX_BUCKETS	1000000

/*
 * The value of @m in @output. *@censored is set when the true value lies
 * beyond what the tool recorded (a percentile in the histogram's overflow:
 * the value returned is then the histogram's limit, a lower bound).
 * Returns 0, or -1 with the reason in @err.
 */
int extract_metric(const struct wl_metric *m, const char *output,
		   double *value, int *censored, char *err, size_t errlen);

/*
 * Parse cyclictest -h output into @h (threads merged; free with
 * hist_free()): its one-microsecond lines are recorded into the
 * log-linear layout, the limit is the number of lines, "# Histogram
 * Overflows:" the overflow. *@max_us is the largest "# Max Latencies:"
 * entry (overflows included), -1 without that line. 0, or -1 when the
 * output has no histogram or memory ran out.
 */
int cyclictest_parse(const char *output, struct hist *h, long *max_us);

#endif
