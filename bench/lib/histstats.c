// SPDX-License-Identifier: GPL-2.0
/*
 * Latency percentiles and their bootstrap CIs from cyclictest-style
 * histograms (see histstats.h).
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "histstats.h"

static int histstats_valid(const struct hist *h)
{
	return h && h->nbuckets >= 0 && (h->count || !h->nbuckets) &&
	       h->overflow >= 0;
}

int histstats_init(struct hist *h, int nbuckets)
{
	if (!h || nbuckets < 1)
		return -EINVAL;
	h->count = calloc(nbuckets, sizeof(*h->count));
	if (!h->count)
		return -ENOMEM;
	h->nbuckets = nbuckets;
	h->overflow = 0;
	return 0;
}

void histstats_free(struct hist *h)
{
	free(h->count);
	h->count = NULL;
	h->nbuckets = 0;
	h->overflow = 0;
}

int histstats_add(struct hist *dst, const struct hist *src)
{
	int size, i;
	long *c;

	if (!histstats_valid(dst) || !histstats_valid(src))
		return -EINVAL;
	size = dst->nbuckets > src->nbuckets ? dst->nbuckets : src->nbuckets;
	/*
	 * Overflow samples are only known to lie past their own histogram's
	 * end; buckets beyond it would claim more than anyone measured.
	 */
	if (dst->overflow && dst->nbuckets < size)
		size = dst->nbuckets;
	if (src->overflow && src->nbuckets < size)
		size = src->nbuckets;

	if (size > dst->nbuckets) {
		c = realloc(dst->count, sizeof(*c) * size);
		if (!c)
			return -ENOMEM;
		memset(c + dst->nbuckets, 0,
		       sizeof(*c) * (size - dst->nbuckets));
		dst->count = c;
	}
	for (i = size; i < dst->nbuckets; i++)
		dst->overflow += dst->count[i];
	dst->nbuckets = size;

	for (i = 0; i < src->nbuckets; i++) {
		if (i < size)
			dst->count[i] += src->count[i];
		else
			dst->overflow += src->count[i];
	}
	dst->overflow += src->overflow;
	return 0;
}

long histstats_total(const struct hist *h)
{
	long total = h->overflow;
	int i;

	for (i = 0; i < h->nbuckets; i++)
		total += h->count[i];
	return total;
}

/*
 * ceil(q * n), kept within [1, n]. q comes from a decimal such as 0.07,
 * and 0.07 * 100 is 7.000000000000001: a product a few ulps above an
 * integer is taken as that integer, or p7 of 100 samples would be the 8th.
 */
static long nearest_rank(double q, long n)
{
	double r = q * n;
	long k = (long)ceil(r);

	if (k > 1 && k - 1 >= r * (1 - 8 * DBL_EPSILON))
		k--;
	if (k < 1)
		return 1;
	return k > n ? n : k;
}

int histstats_percentile(const struct hist *h, double q, double *value,
			 int *censored)
{
	long total, rank, cum = 0;
	int i;

	if (!histstats_valid(h) || !(q > 0 && q <= 1) || !value)
		return -EINVAL;
	total = histstats_total(h);
	if (!total)
		return -ENODATA;
	rank = nearest_rank(q, total);
	for (i = 0; i < h->nbuckets; i++) {
		cum += h->count[i];
		if (cum >= rank)
			break;
	}
	/* Falling off the end means the rank is in the overflow. */
	*value = i;
	if (censored)
		*censored = i == h->nbuckets;
	return 0;
}

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

	if (!histstats_valid(h) || !(q > 0 && q <= 1) || !(level > 0 && level < 1) ||
	    iters < 1 || !lo || !hi)
		return -EINVAL;
	total = histstats_total(h);
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

	rank = nearest_rank(q, total);
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
	*lo = val[nearest_rank((1 - level) / 2, iters) - 1];
	*hi = val[nearest_rank((1 + level) / 2, iters) - 1];
	if (censored)
		*censored = *hi == h->nbuckets;
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
	gsl_rng *rng = NULL;

	if (n < 2 || !(q > 0 && q <= 1) || !(level > 0 && level < 1) || iters < 1 ||
	    !lo || !hi)
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!histstats_valid(&reps[i]) || reps[i].nbuckets != reps[0].nbuckets)
			return -EINVAL;
	ncat = reps[0].nbuckets + 1;
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
		for (j = 0; j < reps[i].nbuckets; j++)
			cum[i][j] = (j ? cum[i][j - 1] : 0) + reps[i].count[j];
		cum[i][ncat - 1] = histstats_total(&reps[i]);
	}
	for (i = 0; i < iters; i++) {
		for (total = 0, j = 0; j < n; j++) {
			pick[j] = gsl_rng_uniform_int(rng, n);
			total += cum[pick[j]][ncat - 1];
		}
		val[i] = total ? cum_search_sum(cum, pick, n, ncat, nearest_rank(q, total)) :
			 ncat - 1;
	}
	qsort(val, iters, sizeof(*val), cmp_int);
	*lo = val[nearest_rank((1 - level) / 2, iters) - 1];
	*hi = val[nearest_rank((1 + level) / 2, iters) - 1];
	if (censored)
		*censored = *hi == reps[0].nbuckets;
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
