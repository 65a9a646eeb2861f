/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Latency percentiles from histograms as cyclictest -h writes them, and
 * bootstrap confidence intervals for those percentiles, so that reports
 * can say whether two configurations' tail latencies really differ.
 *
 * Functions return 0 or a negative errno: -EINVAL for bad arguments,
 * -ENODATA for an empty histogram, -ENOMEM. They are histstats_*, as
 * bench/host/extract.c already has a hist_free() and hist_percentile() of
 * its own for the agent.
 */
#ifndef CSBENCH_HISTSTATS_H
#define CSBENCH_HISTSTATS_H

/*
 * count[i] samples had a latency of i microseconds (1-us buckets,
 * i = 0..nbuckets-1); @overflow samples were above the last bucket.
 */
struct hist {
	long *count;
	int nbuckets;
	long overflow;
};

/* Zeroed histogram of @nbuckets >= 1 buckets. */
int histstats_init(struct hist *h, int nbuckets);
void histstats_free(struct hist *h);

/*
 * Add @src into @dst. dst may also be all-zero (no buckets yet). dst grows
 * to src's size when src has more buckets, but an overflow count only
 * says "beyond this histogram's last bucket": when either side has
 * overflow samples, the result keeps no more buckets than that side had,
 * and the other side's samples past it move to the overflow.
 */
int histstats_add(struct hist *dst, const struct hist *src);

/* All samples, overflow included. */
long histstats_total(const struct hist *h);

/*
 * Nearest-rank percentile, @q in (0, 1] (1 gives the max): the smallest
 * bucket whose cumulative count reaches ceil(q * total). When that rank
 * lies in the overflow, *value is nbuckets (the last bucket's upper bound)
 * and *censored is 1: the percentile is at least that. @censored may be
 * NULL.
 */
int histstats_percentile(const struct hist *h, double q, double *value,
			 int *censored);

/*
 * Percentile bootstrap CI at @level for the @q percentile: @iters >= 1
 * resamples of total samples from the histogram's own distribution, and
 * the (1 - level)/2 and (1 + level)/2 nearest-rank quantiles of their
 * percentiles. The same @seed gives the same interval. *censored (may be
 * NULL) is 1 when the upper end lies in the overflow, and *hi is then
 * nbuckets.
 */
int histstats_bootstrap_ci(const struct hist *h, double q, double level,
			   int iters, unsigned long seed, double *lo,
			   double *hi, int *censored);

/*
 * Bootstrap CI for a percentile of @n >= 2 repetitions' merged histogram
 * (all of @nbuckets alike), resampling whole repetitions: each resample
 * merges n repetitions drawn with replacement. This is the interval to
 * quote when the repetitions differ more than their samples' noise says.
 * Same arguments and results as histstats_bootstrap_ci(); -EINVAL for
 * n < 2 or histograms of different sizes.
 */
int histstats_bootstrap_reps_ci(const struct hist *reps, int n, double q,
				double level, int iters, unsigned long seed,
				double *lo, double *hi, int *censored);

#endif
