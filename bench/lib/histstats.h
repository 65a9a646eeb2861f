/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Bootstrap confidence intervals for percentiles of the kit's latency
 * histograms (hist.h), so that reports can say whether two
 * configurations' tail latencies really differ. Host only: it needs GSL,
 * which the guest agent does not link.
 *
 * Functions return 0 or a negative errno: -EINVAL for bad arguments,
 * -ENODATA for an empty histogram, -ENOMEM.
 */
#ifndef CSBENCH_HISTSTATS_H
#define CSBENCH_HISTSTATS_H

#include "hist.h"

/*
 * Percentile bootstrap CI at @level for the @q percentile: @iters >= 1
 * resamples of total samples from the histogram's own distribution, and
 * the (1 - level)/2 and (1 + level)/2 nearest-rank quantiles of their
 * percentiles. The same @seed gives the same interval. *censored (may be
 * NULL) is 1 when the upper end lies in the overflow, and *hi is then
 * the histogram's limit. Bounds are bucket values (hist_bucket_value()).
 */
int histstats_bootstrap_ci(const struct hist *h, double q, double level,
			   int iters, unsigned long seed, double *lo,
			   double *hi, int *censored);

/*
 * Bootstrap CI for a percentile of @n >= 2 repetitions' merged histogram
 * (same limit), resampling whole repetitions: each resample
 * merges n repetitions drawn with replacement. This is the interval to
 * quote when the repetitions differ more than their samples' noise says.
 * Same arguments and results as histstats_bootstrap_ci(); -EINVAL for
 * n < 2, or when a repetition with overflow samples had another limit
 * than the rest (their merge would need the cut of hist_add()).
 */
int histstats_bootstrap_reps_ci(const struct hist *reps, int n, double q,
				double level, int iters, unsigned long seed,
				double *lo, double *hi, int *censored);

#endif
