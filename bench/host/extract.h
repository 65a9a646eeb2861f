/* SPDX-License-Identifier: GPL-2.0 */
/* Taking a metric's value out of a tool's output (see workloads/README.md). */
#ifndef CSBENCH_EXTRACT_H
#define CSBENCH_EXTRACT_H

#include <stddef.h>

#include "workload.h"

#define HIST_MAX_BUCKETS	100000

/* A cyclictest histogram, threads merged: one bucket per microsecond. */
struct latency_hist {
	long *count;		/* count[us], nbuckets of them */
	int nbuckets;
	long overflow;		/* samples at or beyond nbuckets us */
	long max_us;		/* largest latency seen, overflows included */
};

/*
 * The value of @m in @output. *@censored is set when the true value lies
 * beyond what the tool recorded (a percentile in the histogram's overflow:
 * the value returned is then the histogram's limit, a lower bound).
 * Returns 0, or -1 with the reason in @err.
 */
int extract_metric(const struct wl_metric *m, const char *output,
		   double *value, int *censored, char *err, size_t errlen);

/* Parse cyclictest -h output; free with hist_free(). 0 or -1. */
int hist_parse(const char *output, struct latency_hist *h);
void hist_free(struct latency_hist *h);
/*
 * Percentile @p (0 < p <= 100) in microseconds over all samples, overflows
 * included in the count. Sets *@censored if it falls in the overflow.
 */
double hist_percentile(const struct latency_hist *h, double p, int *censored);

#endif
