// SPDX-License-Identifier: GPL-2.0
/*
 * The bootstrap CI of a histogram percentile against the exact bootstrap
 * distribution (binomial tails) and against brute-force multinomial
 * resampling; the histogram type itself is t0021's.
 */
#include <errno.h>
#include <math.h>
#include <time.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "../../bench/lib/histstats.h"
#include "../tap.h"

/* One sample at each of 0..n-1 us, each count times @per. */
static void flat(struct hist *h, int n, long per)
{
	int i;

	hist_init(h);
	for (i = 0; i < n; i++)
		hist_record(h, i, per);
}

/*
 * The exact bootstrap distribution of the nearest-rank percentile (for q
 * where q * N is computed exactly): a
 * resample's rank-th value is <= bucket k iff at least rank of its N
 * draws are, a Binomial(N, cum[k] / N) tail. The quantile is the first
 * k where that reaches @alpha, reported as that bucket's value.
 */
static double exact_boot_quantile(const struct hist *h, double q, double alpha)
{
	long n = hist_total(h), rank = (long)ceil(q * n), cum = 0;
	int k;

	for (k = 0; k < h->nbuckets; k++) {
		cum += h->count[k];
		if (gsl_cdf_binomial_Q(rank - 1, (double)cum / n, n) >= alpha)
			return hist_bucket_value(h, k);
	}
	return hist_bucket_value(h, h->nbuckets);
}

/* Brute force: @iters multinomial resamples, the percentile of each. */
static void brute_boot(const struct hist *h, double q, int iters,
		       unsigned long seed, double *lo, double *hi)
{
	long n = hist_total(h);
	int k, i, ncat = h->nbuckets + 1;
	double p[ncat], v, pct[iters];
	unsigned int draw[ncat];
	struct hist r;
	gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);

	gsl_rng_set(rng, seed);
	for (k = 0; k < h->nbuckets; k++)
		p[k] = h->count[k];
	p[h->nbuckets] = h->overflow;
	for (i = 0; i < iters; i++) {
		gsl_ran_multinomial(rng, ncat, n, p, draw);
		hist_init(&r);
		for (k = 0; k < h->nbuckets; k++)
			hist_record(&r, hist_bucket_low(k), draw[k]);
		r.limit = h->limit;
		r.overflow = draw[h->nbuckets];
		hist_percentile(&r, q, &v, NULL);
		hist_free(&r);
		/* Insertion sort: a few thousand values. */
		for (k = i; k > 0 && pct[k - 1] > v; k--)
			pct[k] = pct[k - 1];
		pct[k] = v;
	}
	*lo = pct[(int)ceil(0.025 * iters) - 1];
	*hi = pct[(int)ceil(0.975 * iters) - 1];
	gsl_rng_free(rng);
}

static void test_bootstrap(void)
{
	struct hist h, h100, one, cens, fast, empty;
	double lo, hi, lo2, hi2, lo100, hi100, v;
	struct timespec t0, t1;
	int c = -1, i;

	/* 0..999 us once each: p99 is the 990th value, 989, in [984, 991]. */
	flat(&h, 1000, 1);
	hist_percentile(&h, 0.99, &v, NULL);
	check_int(histstats_bootstrap_ci(&h, 0.99, 0.95, 1000, 42, &lo, &hi,
					 &c), ==, 0, "bootstrap p99");
	tap_diag("p99 %g, 95%% CI [%g, %g]", v, lo, hi);
	tap_ok(lo <= v && v <= hi && lo < hi && v == 991, "CI contains the estimate 991");
	check_int(c, ==, 0, "CI not censored");
	histstats_bootstrap_ci(&h, 0.99, 0.95, 1000, 42, &lo2, &hi2, NULL);
	tap_ok(lo2 == lo && hi2 == hi, "same seed, same CI");

	/*
	 * Exactly (one-microsecond values), P(<= 980) = 0.0175, P(<= 981) =
	 * 0.0293, P(<= 993) = 0.9579, P(<= 994) = 0.9865: [981, 994], whose
	 * buckets are [976, 983] and [992, 999]. Each bucket edge is 4 or
	 * more Monte Carlo standard errors (0.0011 at 20,000 resamples) from
	 * the 2.5% and 97.5% points, so a bucket off is a bug, not noise.
	 */
	histstats_bootstrap_ci(&h, 0.99, 0.95, 20000, 7, &lo2, &hi2, NULL);
	check_near(lo2, exact_boot_quantile(&h, 0.99, 0.025), 0,
		   "CI low is the exact bootstrap 2.5%% quantile");
	check_near(hi2, exact_boot_quantile(&h, 0.99, 0.975), 0,
		   "CI high is the exact bootstrap 97.5%% quantile");
	brute_boot(&h, 0.99, 2000, 11, &lo2, &hi2);
	tap_diag("brute-force multinomial CI [%g, %g]", lo2, hi2);
	check_near(lo, lo2, 8, "CI low matches multinomial resampling (a bucket)");
	check_near(hi, hi2, 8, "CI high matches multinomial resampling (a bucket)");

	flat(&h100, 1000, 100);
	histstats_bootstrap_ci(&h100, 0.99, 0.95, 1000, 42, &lo100, &hi100,
			       NULL);
	tap_diag("x100 samples: 95%% CI [%g, %g]", lo100, hi100);
	tap_ok(hi100 - lo100 < (hi - lo) / 3 && lo100 <= v && v <= hi100,
	       "100x the samples: CI much narrower, still around 991");

	hist_init(&one);
	hist_record(&one, 7, 1000);
	histstats_bootstrap_ci(&one, 0.99, 0.95, 500, 1, &lo, &hi, &c);
	tap_ok(lo == 7 && hi == 7 && !c, "all in bucket 7: CI [7, 7]");
	one.count[7] = 0;
	hist_record(&one, 3, 1);
	histstats_bootstrap_ci(&one, 0.5, 0.95, 100, 1, &lo, &hi, &c);
	tap_ok(lo == 3 && hi == 3 && !c, "a single sample at 3: CI [3, 3]");

	/* 10 samples in 0..9 and 90 past them: p99 is only "at least 10". */
	flat(&cens, 10, 1);
	cens.limit = 10;
	cens.overflow = 90;
	histstats_bootstrap_ci(&cens, 0.99, 0.95, 500, 1, &lo, &hi, &c);
	tap_ok(hi == 10 && c == 1, "upper end in the overflow: censored, 10");

	hist_init(&empty);
	check_int(histstats_bootstrap_ci(&empty, 0.99, 0.95, 10, 1, &lo, &hi,
					 &c), ==, -ENODATA,
		  "bootstrap of an empty histogram is -ENODATA");
	check_int(histstats_bootstrap_ci(&h, 0.99, 0.95, 0, 1, &lo, &hi, &c),
		  ==, -EINVAL, "0 iterations is -EINVAL");
	check_int(histstats_bootstrap_ci(&h, 0.99, 1, 10, 1, &lo, &hi, &c),
		  ==, -EINVAL, "level 1 is -EINVAL");

	/* 30,000 samples over 20,000 us, 1,000 resamples. */
	hist_init(&fast);
	for (i = 0; i < 20000; i++)
		hist_record(&fast, i, 1 + !(i % 2));
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
	check_int(histstats_bootstrap_ci(&fast, 0.99, 0.95, 1000, 3, &lo, &hi,
					 &c), ==, 0,
		  "bootstrap 30k samples over 20k us");
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
	v = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	tap_diag("1000 resamples took %.4f s of CPU", v);
	tap_ok(v < 0.5, "1000 resamples well under a second");

	hist_free(&h);
	hist_free(&h100);
	hist_free(&one);
	hist_free(&cens);
	hist_free(&empty);
	hist_free(&fast);
}

/* Three repetitions of 1000 samples each, all at @a, @b and @c us. */
static void three_reps(struct hist *reps, int a, int b, int c)
{
	const int at[3] = { a, b, c };

	for (int i = 0; i < 3; i++) {
		hist_init(&reps[i]);
		reps[i].limit = 100;
		hist_record(&reps[i], at[i], 1000);
	}
}

static void test_bootstrap_reps(void)
{
	struct hist reps[3], merged = { 0 };
	double lo, hi, lo2, hi2;
	int cens = 1, i;

	three_reps(reps, 10, 20, 60);
	for (i = 0; i < 3; i++)
		hist_add(&merged, &reps[i]);
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
		hist_free(&reps[i]);
	three_reps(reps, 30, 30, 30);
	reps[2].overflow = 5000;
	histstats_bootstrap_reps_ci(reps, 3, 0.99, 0.95, 2000, 7, &lo, &hi, &cens);
	tap_ok(hi == 100 && cens, "an upper end in the overflow is censored (hi %g)", hi);
	reps[0].limit = 50;
	reps[0].overflow = 1;
	check_int(histstats_bootstrap_reps_ci(reps, 3, 0.5, 0.95, 100, 7, &lo, &hi, NULL),
		  ==, -EINVAL, "overflows past different limits: -EINVAL");
	reps[0].overflow = reps[2].overflow = 0;
	hist_record(&reps[0], 20, 1);
	check_int(histstats_bootstrap_reps_ci(reps, 3, 0.5, 0.95, 100, 7, &lo, &hi, NULL),
		  ==, 0, "different sizes and limits without overflow: padded");
	for (i = 0; i < 3; i++)
		hist_free(&reps[i]);
	hist_free(&merged);
}

int main(void)
{
	tap_plan_start();
	test_bootstrap();
	test_bootstrap_reps();
	return tap_finish();
}
