// SPDX-License-Identifier: GPL-2.0
/*
 * Bootstrap CIs for percentiles of latency histograms (see histstats.h).
 * Resamples work on bucket indices; the bounds are bucket values.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "histstats.h"

/* Smallest k with cum[k] >= target; cum rises, and cum[n - 1] >= target. */
static int cum_search(const long *cum, int n, long target)
{
	int lo = 0, hi = n - 1, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (cum[mid] >= target)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

static int cmp_int(const void *x, const void *y)
{
	int a = *(const int *)x, b = *(const int *)y;

	return (a > b) - (a < b);
}

/*
 * A resample is N draws from the histogram, and its percentile is its
 * rank-th smallest draw. Drawing it as F^-1(U) with U uniform, that draw
 * is F^-1 of the rank-th smallest of N uniforms, which is
 * Beta(rank, N - rank + 1). So each resample costs one beta variate and a
 * binary search, not N draws (or one binomial per bucket, as a
 * multinomial would), yet has exactly the multinomial resample's
 * distribution.
 */
int histstats_bootstrap_ci(const struct hist *h, double q, double level,
			   int iters, unsigned long seed, double *lo,
			   double *hi, int *censored)
{
	int ncat, i, err = -ENOMEM;
	long total, rank, target;
	long *cum = NULL;
	int *val = NULL;
	gsl_rng *rng;
	double u;

	if (!hist_valid(h) || !(q > 0 && q <= 1) || !(level > 0 && level < 1) ||
	    iters < 1 || !lo || !hi)
		return -EINVAL;
	total = hist_total(h);
	if (!total)
		return -ENODATA;

	/* The overflow is one more category past the last bucket. */
	ncat = h->nbuckets + 1;
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	cum = malloc(sizeof(*cum) * ncat);
	val = malloc(sizeof(*val) * iters);
	if (!rng || !cum || !val)
		goto out;
	gsl_rng_set(rng, seed);

	for (i = 0; i < h->nbuckets; i++)
		cum[i] = (i ? cum[i - 1] : 0) + h->count[i];
	cum[ncat - 1] = total;

	rank = hist_nearest_rank(q, total);
	for (i = 0; i < iters; i++) {
		u = gsl_ran_beta(rng, rank, total - rank + 1);
		/* cum[k] >= u * total, for integer cum[k], is this. */
		target = (long)ceil(u * total);
		if (target < 1)
			target = 1;
		if (target > total)
			target = total;
		val[i] = cum_search(cum, ncat, target);
	}
	qsort(val, iters, sizeof(*val), cmp_int);
	i = val[hist_nearest_rank((1 + level) / 2, iters) - 1];
	*lo = hist_bucket_value(h, val[hist_nearest_rank((1 - level) / 2, iters) - 1]);
	*hi = hist_bucket_value(h, i);
	if (censored)
		*censored = i == h->nbuckets;
	err = 0;
out:
	free(val);
	free(cum);
	if (rng)
		gsl_rng_free(rng);
	return err;
}

/* Smallest bucket k with sum over the picked reps of cum[k] >= target. */
static int cum_search_sum(long *const *cum, const int *pick, int n, int ncat,
			  long target)
{
	int lo = 0, hi = ncat - 1, mid, j;
	long s;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		for (s = 0, j = 0; j < n; j++)
			s += cum[pick[j]][mid];
		if (s >= target)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo;
}

/*
 * Resampling whole repetitions keeps what the sample bootstrap above
 * ignores: repetitions differ from each other (boots, host load) far more
 * than samples within one do. Each resample picks n repetitions with
 * replacement and takes the percentile of their merged histogram, found
 * by a binary search over the sum of their cumulative counts.
 */
int histstats_bootstrap_reps_ci(const struct hist *reps, int n, double q,
				double level, int iters, unsigned long seed,
				double *lo, double *hi, int *censored)
{
	int ncat, i, j, err = -ENOMEM, *pick = NULL, *val = NULL;
	long **cum = NULL, total;
	struct hist shape = { 0 };
	gsl_rng *rng = NULL;

	if (n < 2 || !(q > 0 && q <= 1) || !(level > 0 && level < 1) || iters < 1 ||
	    !lo || !hi)
		return -EINVAL;
	/* The repetitions share one layout: pad to the widest, one limit. */
	shape.nbuckets = 0;
	shape.limit = HIST_NO_LIMIT;
	for (i = 0; i < n; i++) {
		if (!hist_valid(&reps[i]))
			return -EINVAL;
		if (reps[i].nbuckets > shape.nbuckets)
			shape.nbuckets = reps[i].nbuckets;
		if (reps[i].limit > 0 && reps[i].limit < shape.limit)
			shape.limit = reps[i].limit;
	}
	for (i = 0; i < n; i++)
		if (reps[i].overflow && reps[i].limit != shape.limit)
			return -EINVAL;
	ncat = shape.nbuckets + 1;
	cum = calloc(n, sizeof(*cum));
	pick = malloc(sizeof(*pick) * n);
	val = malloc(sizeof(*val) * iters);
	rng = gsl_rng_alloc(gsl_rng_mt19937);
	if (!cum || !pick || !val || !rng)
		goto out;
	gsl_rng_set(rng, seed);
	for (i = 0; i < n; i++) {
		cum[i] = malloc(sizeof(long) * ncat);
		if (!cum[i])
			goto out;
		for (j = 0; j < ncat - 1; j++)
			cum[i][j] = (j ? cum[i][j - 1] : 0) +
				    (j < reps[i].nbuckets ? reps[i].count[j] : 0);
		cum[i][ncat - 1] = hist_total(&reps[i]);
	}
	for (i = 0; i < iters; i++) {
		for (total = 0, j = 0; j < n; j++) {
			pick[j] = gsl_rng_uniform_int(rng, n);
			total += cum[pick[j]][ncat - 1];
		}
		val[i] = total ? cum_search_sum(cum, pick, n, ncat, hist_nearest_rank(q, total)) :
			 ncat - 1;
	}
	qsort(val, iters, sizeof(*val), cmp_int);
	i = val[hist_nearest_rank((1 + level) / 2, iters) - 1];
	*lo = hist_bucket_value(&shape, val[hist_nearest_rank((1 - level) / 2, iters) - 1]);
	*hi = hist_bucket_value(&shape, i);
	if (censored)
		*censored = i == shape.nbuckets;
	err = 0;
out:
	for (i = 0; cum && i < n; i++)
		free(cum[i]);
	free(cum);
	free(pick);
	free(val);
	if (rng)
		gsl_rng_free(rng);
	return err;
}
