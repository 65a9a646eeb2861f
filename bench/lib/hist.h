/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One latency histogram for guest and host: log-linear, mergeable, in
 * microseconds. The guest agent fills it from a tool's output and writes
 * it into the cell; the report merges repetitions and takes percentiles.
 *
 * Layout (as fio's and HdrHistogram's): values below 2 * 2^HIST_SUB_BITS
 * have a bucket each; above, every power of two [2^k, 2^(k+1)) is split
 * into 2^HIST_SUB_BITS equal buckets. With 6 bits a bucket is at most
 * 1/64 (1.6%) of its value wide, latencies up to an hour fit in about
 * 2,100 buckets, and a cell stores only the buckets that were hit.
 *
 * Overflow: a recorder that stops at a limit (cyclictest -h N counts
 * latencies of N us and more only as "overflows") leaves samples whose
 * value is known only to be >= limit. They are kept as a count, and a
 * percentile that falls among them is censored: "at least limit".
 */
#ifndef CSBENCH_HIST_H
#define CSBENCH_HIST_H

#include <limits.h>

#define HIST_SUB_BITS	6
#define HIST_SUB	(1L << HIST_SUB_BITS)
/*
 * The most samples one bucket (or the overflow) may hold: 2^40, a
 * trillion. Cells are read from files a user may have edited, so every
 * count is bounded; with at most a few thousand buckets any total stays
 * far inside a long and exact as a double.
 */
#define HIST_MAX_COUNT	(1L << 40)
/* No recorder limit: every sample has a bucket. */
#define HIST_NO_LIMIT	LONG_MAX

struct hist {
	long *count;		/* count[i]: samples in bucket i */
	int nbuckets;		/* buckets allocated: the highest used + 1 */
	long overflow;		/* samples >= limit, value unknown */
	long limit;		/* the recorder's limit, HIST_NO_LIMIT if none */
};

/* Whether @h is a histogram at all: counts allocated as nbuckets says. */
int hist_valid(const struct hist *h);

/* An empty histogram with no limit (also what a zeroed one becomes). */
void hist_init(struct hist *h);
void hist_free(struct hist *h);

/* Bucket of @value (>= 0), and the values bucket @i holds: [low, high]. */
int hist_bucket(long value);
long hist_bucket_low(int i);
long hist_bucket_high(int i);

/*
 * Add @count samples of @value (>= 0). Values at or past h->limit go to
 * the overflow. 0, -EINVAL, -EOVERFLOW (a bucket past HIST_MAX_COUNT),
 * or -ENOMEM.
 */
int hist_record(struct hist *h, long value, long count);

/*
 * Add @src into @dst (dst may be zeroed). Where either side has overflow
 * samples, their value is only known to be past that side's limit: the
 * result's limit is the lower such limit, and buckets of the other side
 * that lie wholly past it move to the overflow. 0, -EINVAL, -EOVERFLOW
 * (a bucket would pass HIST_MAX_COUNT; @dst is then unchanged) or -ENOMEM.
 */
int hist_add(struct hist *dst, const struct hist *src);

/* All samples, overflow included. */
long hist_total(const struct hist *h);

/*
 * ceil(q * n) kept within [1, n], the nearest rank of quantile @q of @n
 * samples; products a few ulps above an integer count as that integer.
 */
long hist_nearest_rank(double q, long n);

/*
 * The value reported for bucket @i of @h: its highest value (never
 * under-stating a latency), but below the limit; @i == h->nbuckets means
 * the overflow, reported as the limit.
 */
double hist_bucket_value(const struct hist *h, int i);

/*
 * Nearest-rank percentile, @q in (0, 1]: the bucket value where the
 * cumulative count reaches ceil(q * total). In the overflow *value is the
 * limit and *censored (may be NULL) is 1. 0, -EINVAL, or -ENODATA.
 */
int hist_percentile(const struct hist *h, double q, double *value, int *censored);

#endif
