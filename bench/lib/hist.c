// SPDX-License-Identifier: GPL-2.0
/*
 * The log-linear latency histogram shared by guest and host (see hist.h).
 * No floating point in the bucket arithmetic: a value's bucket is its top
 * HIST_SUB_BITS + 1 bits, so the guest and the host always agree.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->limit = HIST_NO_LIMIT;
}

void hist_free(struct hist *h)
{
	free(h->count);
	hist_init(h);
}

int hist_bucket(long value)
{
	int msb, shift;

	if (value < 2 * HIST_SUB)
		return (int)value;
	msb = 63 - __builtin_clzl((unsigned long)value);
	shift = msb - HIST_SUB_BITS;
	return (int)((shift + 1) * HIST_SUB + ((value >> shift) - HIST_SUB));
}

long hist_bucket_low(int i)
{
	int group = i >> HIST_SUB_BITS;

	if (group <= 1)
		return i;
	return (HIST_SUB + (i & (HIST_SUB - 1))) << (group - 1);
}

long hist_bucket_high(int i)
{
	int group = i >> HIST_SUB_BITS;

	return hist_bucket_low(i) + (group <= 1 ? 0 : (1L << (group - 1)) - 1);
}

int hist_valid(const struct hist *h)
{
	return h && h->nbuckets >= 0 && h->nbuckets <= hist_bucket(LONG_MAX) + 1 &&
	       (h->count || !h->nbuckets) && h->overflow >= 0 && h->overflow <= HIST_MAX_COUNT;
}

/* Whether @a + @b samples stay within one bucket's bound (both >= 0). */
static int fits(long a, long b)
{
	return a <= HIST_MAX_COUNT && b <= HIST_MAX_COUNT - a;
}

/* A zeroed struct hist is empty with no limit. */
static long limit_of(const struct hist *h)
{
	return h->limit > 0 ? h->limit : HIST_NO_LIMIT;
}

static int grow(struct hist *h, int nbuckets)
{
	long *c;

	if (nbuckets <= h->nbuckets)
		return 0;
	c = realloc(h->count, sizeof(*c) * nbuckets);
	if (!c)
		return -ENOMEM;
	memset(c + h->nbuckets, 0, sizeof(*c) * (nbuckets - h->nbuckets));
	h->count = c;
	h->nbuckets = nbuckets;
	return 0;
}

int hist_record(struct hist *h, long value, long count)
{
	int i;

	if (!hist_valid(h) || value < 0 || count < 0)
		return -EINVAL;
	h->limit = limit_of(h);
	if (value >= h->limit) {
		if (!fits(h->overflow, count))
			return -EOVERFLOW;
		h->overflow += count;
		return 0;
	}
	i = hist_bucket(value);
	if (grow(h, i + 1))
		return -ENOMEM;
	if (!fits(h->count[i], count))
		return -EOVERFLOW;
	h->count[i] += count;
	return 0;
}

long hist_total(const struct hist *h)
{
	long total = h->overflow;
	int i;

	for (i = 0; i < h->nbuckets; i++)
		total += h->count[i];
	return total;
}

int hist_add(struct hist *dst, const struct hist *src)
{
	long dlim, slim, over, cut = HIST_NO_LIMIT;
	int i, keep;

	if (!hist_valid(dst) || !hist_valid(src))
		return -EINVAL;
	dlim = limit_of(dst);
	slim = limit_of(src);
	/* An empty side knows nothing about the other's samples. */
	if (!hist_total(dst))
		dlim = slim;
	if (!hist_total(src))
		slim = dlim;
	if (dst->overflow)
		cut = dlim;
	if (src->overflow && slim < cut)
		cut = slim;
	dst->limit = cut != HIST_NO_LIMIT ? cut : (dlim > slim ? dlim : slim);

	/* Buckets wholly at or past the cut hold samples the cut side lumped. */
	keep = cut == HIST_NO_LIMIT ? src->nbuckets : hist_bucket(cut - 1) + 1;
	if (keep > src->nbuckets)
		keep = src->nbuckets;
	/* Refuse before changing anything a sum would push past the bound. */
	over = dst->overflow;
	for (i = 0; i < dst->nbuckets || i < src->nbuckets; i++) {
		long d = i < dst->nbuckets ? dst->count[i] : 0;
		long sv = i < src->nbuckets ? src->count[i] : 0;

		if (hist_bucket_low(i) >= cut) {
			if (!fits(over, d) || !fits(over + d, sv))
				return -EOVERFLOW;
			over += d + sv;
		} else if (!fits(d, sv)) {
			return -EOVERFLOW;
		}
	}
	if (!fits(over, src->overflow))
		return -EOVERFLOW;
	if (grow(dst, keep))
		return -ENOMEM;
	for (i = 0; i < dst->nbuckets; i++)
		if (hist_bucket_low(i) >= cut) {
			dst->overflow += dst->count[i];
			dst->count[i] = 0;
		}
	for (i = 0; i < src->nbuckets; i++) {
		if (hist_bucket_low(i) >= cut)
			dst->overflow += src->count[i];
		else
			dst->count[i] += src->count[i];
	}
	dst->overflow += src->overflow;
	return 0;
}

long hist_nearest_rank(double q, long n)
{
	double r = q * n;
	long k = (long)ceil(r);

	/* 0.07 * 100 is 7.000000000000001: that is rank 7, not 8. */
	if (k > 1 && k - 1 >= r * (1 - 8 * DBL_EPSILON))
		k--;
	if (k < 1)
		return 1;
	return k > n ? n : k;
}

double hist_bucket_value(const struct hist *h, int i)
{
	long limit = limit_of(h), v;

	if (i >= h->nbuckets)
		return (double)limit;
	v = hist_bucket_high(i);
	/* A bucket that straddles the limit only holds samples below it. */
	return (double)(v >= limit ? limit - 1 : v);
}

int hist_percentile(const struct hist *h, double q, double *value, int *censored)
{
	long total, rank, cum = 0;
	int i;

	if (!hist_valid(h) || !(q > 0 && q <= 1) || !value)
		return -EINVAL;
	total = hist_total(h);
	if (!total)
		return -ENODATA;
	rank = hist_nearest_rank(q, total);
	for (i = 0; i < h->nbuckets; i++) {
		cum += h->count[i];
		if (cum >= rank)
			break;
	}
	/* Falling off the end means the rank is in the overflow. */
	*value = hist_bucket_value(h, i);
	if (censored)
		*censored = i == h->nbuckets;
	return 0;
}
