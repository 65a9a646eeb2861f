// SPDX-License-Identifier: GPL-2.0
/*
 * Histogram percentiles on histograms whose answer is plain by eye, and
 * the bootstrap CI against the exact bootstrap distribution (binomial
 * tails) and against brute-force multinomial resampling.
 */
#include <errno.h>
#include <math.h>
#include <time.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "../../bench/lib/histstats.h"
#include "../tap.h"

/* One sample in each bucket 0..n-1, each count times @per. */
static void flat(struct hist *h, int n, long per)
{
	int i;

	histstats_init(h, n);
	for (i = 0; i < n; i++)
		h->count[i] = per;
}

static void test_percentile(void)
{
	struct hist h, big;
	double v;
	int cens = -1;

	flat(&h, 100, 1);
	check_int(histstats_total(&h), ==, 100, "total of 1 x 100 buckets");
	check_int(histstats_percentile(&h, 0.5, &v, &cens), ==, 0, "p50");
	check_near(v, 49, 0, "p50 of 0..99 is 49 (50th value)");
	check_int(cens, ==, 0, "p50 not censored");
	histstats_percentile(&h, 0.99, &v, &cens);
	check_near(v, 98, 0, "p99 of 0..99 is 98");
	histstats_percentile(&h, 1, &v, &cens);
	check_near(v, 99, 0, "q = 1 is the max, 99");
	histstats_percentile(&h, 0.001, &v, NULL);
	check_near(v, 0, 0, "tiny q is the min; censored may be NULL");
	/* 0.07 * 100 = 7.000000000000001 in doubles: still the 7th value. */
	histstats_percentile(&h, 0.07, &v, NULL);
	check_near(v, 6, 0, "p7 is the 7th value despite rounding");
	histstats_free(&h);

	/* 99.9% of 1000 is 999.0000000000001 in doubles. */
	flat(&big, 1000, 1);
	histstats_percentile(&big, 0.999, &v, NULL);
	check_near(v, 998, 0, "p99.9 of 0..999 is 998");
	histstats_free(&big);

	check_int(histstats_percentile(&h, 0.5, &v, &cens), ==, -ENODATA,
		  "freed (all-zero) histogram is -ENODATA");
	histstats_init(&h, 10);
	check_int(histstats_percentile(&h, 0.5, &v, &cens), ==, -ENODATA,
		  "empty histogram is -ENODATA");
	h.count[3] = 1;
	check_int(histstats_percentile(&h, 0, &v, &cens), ==, -EINVAL,
		  "q = 0 is -EINVAL");
	check_int(histstats_percentile(&h, 1.01, &v, &cens), ==, -EINVAL,
		  "q > 1 is -EINVAL");
	histstats_free(&h);
	check_int(histstats_init(&h, 0), ==, -EINVAL, "0 buckets is -EINVAL");
}

static void test_overflow(void)
{
	struct hist h;
	double v;
	int cens;

	/* 10 samples at 0..9 us, 10 more above 9 us. */
	flat(&h, 10, 1);
	h.overflow = 10;
	check_int(histstats_total(&h), ==, 20, "total counts the overflow");
	histstats_percentile(&h, 0.5, &v, &cens);
	tap_ok(v == 9 && !cens, "p50 = rank 10 = bucket 9, exact");
	check_int(histstats_percentile(&h, 0.6, &v, &cens), ==, 0,
		  "p60 in the overflow");
	check_near(v, 10, 0, "overflow percentile is nbuckets");
	check_int(cens, ==, 1, "overflow percentile is censored");
	histstats_free(&h);
}

static void test_merge(void)
{
	struct hist a, b, z = { 0 };
	double v;

	flat(&a, 10, 1);
	histstats_init(&b, 20);
	b.count[15] = 5;
	b.count[3] = 2;

	check_int(histstats_add(&z, &a), ==, 0, "merge into an all-zero hist");
	tap_ok(z.nbuckets == 10 && histstats_total(&z) == 10 && z.count[9] == 1,
	       "all-zero dst takes src's shape");
	check_int(histstats_add(&z, &b), ==, 0, "merge a bigger histogram");
	check_int(z.nbuckets, ==, 20, "dst grew to 20 buckets");
	check_int(histstats_total(&z), ==, 17, "merged total 10 + 7");
	tap_ok(z.count[3] == 3 && z.count[15] == 5 && z.count[12] == 0 &&
	       z.overflow == 0, "merged bucket counts");
	histstats_percentile(&z, 1, &v, NULL);
	check_near(v, 15, 0, "merged max is b's 15 us");
	check_int(histstats_add(&z, &a), ==, 0, "merge a smaller histogram");
	tap_ok(z.nbuckets == 20 && z.count[3] == 4 && z.count[15] == 5 &&
	       histstats_total(&z) == 27, "smaller src leaves dst's size");
	histstats_free(&z);

	/*
	 * a's 2 overflow samples are only "above 9 us": a 20-bucket result
	 * could not place them, so b's 15-us samples join them instead.
	 */
	a.overflow = 2;
	check_int(histstats_add(&b, &a), ==, 0, "merge src with overflow");
	tap_ok(b.nbuckets == 10 && b.overflow == 7 && b.count[3] == 3 &&
	       histstats_total(&b) == 19,
	       "dst cut to src's size, its tail moved to the overflow");
	histstats_free(&a);
	histstats_free(&b);
}

/*
 * The exact bootstrap distribution of the nearest-rank percentile (for q
 * where q * N is computed exactly): a
 * resample's rank-th value is <= bucket k iff at least rank of its N
 * draws are, a Binomial(N, cum[k] / N) tail. The quantile is the first
 * k where that reaches @alpha.
 */
static int exact_boot_quantile(const struct hist *h, double q, double alpha)
{
	long n = histstats_total(h), rank = (long)ceil(q * n), cum = 0;
	int k;

	for (k = 0; k < h->nbuckets; k++) {
		cum += h->count[k];
		if (gsl_cdf_binomial_Q(rank - 1, (double)cum / n, n) >= alpha)
			return k;
	}
	return h->nbuckets;
}

/* Brute force: @iters multinomial resamples, the percentile of each. */
static void brute_boot(const struct hist *h, double q, int iters,
		       unsigned long seed, double *lo, double *hi)
{
	long n = histstats_total(h);
	int k, i, ncat = h->nbuckets + 1;
	double p[ncat], v, pct[iters];
	unsigned int draw[ncat];
	struct hist r;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(rng, seed);
	for (k = 0; k < h->nbuckets; k++)
		p[k] = h->count[k];
	p[h->nbuckets] = h->overflow;
	histstats_init(&r, h->nbuckets);
	for (i = 0; i < iters; i++) {
		gsl_ran_multinomial(rng, ncat, n, p, draw);
		for (k = 0; k < h->nbuckets; k++)
			r.count[k] = draw[k];
		r.overflow = draw[h->nbuckets];
		histstats_percentile(&r, q, &v, NULL);
		/* Insertion sort: a few thousand values. */
		for (k = i; k > 0 && pct[k - 1] > v; k--)
			pct[k] = pct[k - 1];
		pct[k] = v;
	}
	*lo = pct[(int)ceil(0.025 * iters) - 1];
	*hi = pct[(int)ceil(0.975 * iters) - 1];
	histstats_free(&r);
	gsl_rng_free(rng);
}

static void test_bootstrap(void)
{
	struct hist h, h100, one, cens, fast, empty;
	double lo, hi, lo2, hi2, lo100, hi100, v;
	struct timespec t0, t1;
	int c = -1, i;

	/* 0..999 us once each: p99 is the 990th value, 989. */
	flat(&h, 1000, 1);
	histstats_percentile(&h, 0.99, &v, NULL);
	check_int(histstats_bootstrap_ci(&h, 0.99, 0.95, 1000, 42, &lo, &hi,
					 &c), ==, 0, "bootstrap p99");
	tap_diag("p99 %g, 95%% CI [%g, %g]", v, lo, hi);
	tap_ok(lo <= v && v <= hi && lo < hi, "CI contains the estimate 989");
	check_int(c, ==, 0, "CI not censored");
	histstats_bootstrap_ci(&h, 0.99, 0.95, 1000, 42, &lo2, &hi2, NULL);
	tap_ok(lo2 == lo && hi2 == hi, "same seed, same CI");

	/*
	 * Exactly, P(<= 980) = 0.0175, P(<= 981) = 0.0293, P(<= 993) =
	 * 0.9579, P(<= 994) = 0.9865: [981, 994], each end 4 or more Monte
	 * Carlo standard errors (0.0011 at 20,000 resamples) from a
	 * neighbour, so an interval one bucket off is a bug, not noise.
	 */
	histstats_bootstrap_ci(&h, 0.99, 0.95, 20000, 7, &lo2, &hi2, NULL);
	check_near(lo2, exact_boot_quantile(&h, 0.99, 0.025), 0,
		   "CI low is the exact bootstrap 2.5%% quantile");
	check_near(hi2, exact_boot_quantile(&h, 0.99, 0.975), 0,
		   "CI high is the exact bootstrap 97.5%% quantile");
	brute_boot(&h, 0.99, 2000, 11, &lo2, &hi2);
	tap_diag("brute-force multinomial CI [%g, %g]", lo2, hi2);
	check_near(lo, lo2, 2, "CI low matches multinomial resampling");
	check_near(hi, hi2, 2, "CI high matches multinomial resampling");

	flat(&h100, 1000, 100);
	histstats_bootstrap_ci(&h100, 0.99, 0.95, 1000, 42, &lo100, &hi100,
			       NULL);
	tap_diag("x100 samples: 95%% CI [%g, %g]", lo100, hi100);
	tap_ok(hi100 - lo100 < (hi - lo) / 3 && lo100 <= v && v <= hi100,
	       "100x the samples: CI much narrower, still around 989");

	histstats_init(&one, 50);
	one.count[7] = 1000;
	histstats_bootstrap_ci(&one, 0.99, 0.95, 500, 1, &lo, &hi, &c);
	tap_ok(lo == 7 && hi == 7 && !c, "all in bucket 7: CI [7, 7]");
	one.count[7] = 0;
	one.count[3] = 1;
	histstats_bootstrap_ci(&one, 0.5, 0.95, 100, 1, &lo, &hi, &c);
	tap_ok(lo == 3 && hi == 3 && !c, "a single sample at 3: CI [3, 3]");

	/* 10 samples in 0..9 and 90 past them: p99 is only "at least 10". */
	flat(&cens, 10, 1);
	cens.overflow = 90;
	histstats_bootstrap_ci(&cens, 0.99, 0.95, 500, 1, &lo, &hi, &c);
	tap_ok(hi == 10 && c == 1, "upper end in the overflow: censored, 10");

	histstats_init(&empty, 5);
	check_int(histstats_bootstrap_ci(&empty, 0.99, 0.95, 10, 1, &lo, &hi,
					 &c), ==, -ENODATA,
		  "bootstrap of an empty histogram is -ENODATA");
	check_int(histstats_bootstrap_ci(&h, 0.99, 0.95, 0, 1, &lo, &hi, &c),
		  ==, -EINVAL, "0 iterations is -EINVAL");
	check_int(histstats_bootstrap_ci(&h, 0.99, 1, 10, 1, &lo, &hi, &c),
		  ==, -EINVAL, "level 1 is -EINVAL");

	/* 30,000 samples over 20,000 buckets, 1,000 resamples. */
	histstats_init(&fast, 20000);
	for (i = 0; i < 20000; i++)
		fast.count[i] = 1 + !(i % 2);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	check_int(histstats_bootstrap_ci(&fast, 0.99, 0.95, 1000, 3, &lo, &hi,
					 &c), ==, 0,
		  "bootstrap 30k samples in 20k buckets");
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	v = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	tap_diag("1000 resamples took %.4f s of CPU", v);
	tap_ok(v < 0.5, "1000 resamples well under a second");

	histstats_free(&h);
	histstats_free(&h100);
	histstats_free(&one);
	histstats_free(&cens);
	histstats_free(&empty);
	histstats_free(&fast);
}

/* Three repetitions of 1000 samples each, all at @a, @b and @c us. */
static void three_reps(struct hist *reps, int a, int b, int c)
{
	const int at[3] = { a, b, c };

	for (int i = 0; i < 3; i++) {
		histstats_init(&reps[i], 100);
		reps[i].count[at[i]] = 1000;
	}
}

static void test_bootstrap_reps(void)
{
	struct hist reps[3], merged = { 0 };
	double lo, hi, lo2, hi2;
	int cens = 1, i;

	three_reps(reps, 10, 20, 60);
	for (i = 0; i < 3; i++)
		histstats_add(&merged, &reps[i]);
	check_int(histstats_bootstrap_reps_ci(reps, 3, 0.5, 0.95, 2000, 7, &lo, &hi, &cens),
		  ==, 0, "repetition bootstrap runs");
	/* Any resample's median is one of the three repetitions' values. */
	tap_ok(lo == 10 && hi == 60, "it spans the repetitions: [%g, %g]", lo, hi);
	check_int(cens, ==, 0, "nothing censored");
	histstats_bootstrap_ci(&merged, 0.5, 0.95, 2000, 7, &lo2, &hi2, NULL);
	tap_ok(lo2 == 20 && hi2 == 20, "while the sample bootstrap sees no spread: [%g, %g]",
	       lo2, hi2);
	histstats_bootstrap_reps_ci(reps, 3, 0.5, 0.95, 2000, 7, &lo2, &hi2, NULL);
	tap_ok(lo2 == lo && hi2 == hi, "same seed, same interval");
	check_int(histstats_bootstrap_reps_ci(reps, 1, 0.5, 0.95, 100, 7, &lo, &hi, NULL),
		  ==, -EINVAL, "one repetition: -EINVAL (use the sample bootstrap)");
	for (i = 0; i < 3; i++)
		histstats_free(&reps[i]);
	three_reps(reps, 30, 30, 30);
	reps[2].overflow = 5000;
	histstats_bootstrap_reps_ci(reps, 3, 0.99, 0.95, 2000, 7, &lo, &hi, &cens);
	tap_ok(hi == 100 && cens, "an upper end in the overflow is censored (hi %g)", hi);
	histstats_free(&reps[0]);
	histstats_init(&reps[0], 50);
	check_int(histstats_bootstrap_reps_ci(reps, 3, 0.5, 0.95, 100, 7, &lo, &hi, NULL),
		  ==, -EINVAL, "histograms of different sizes: -EINVAL");
	for (i = 0; i < 3; i++)
		histstats_free(&reps[i]);
	histstats_free(&merged);
}

int main(void)
{
	tap_plan_start();
	test_percentile();
	test_overflow();
	test_merge();
	test_bootstrap();
	test_bootstrap_reps();
	return tap_finish();
}
