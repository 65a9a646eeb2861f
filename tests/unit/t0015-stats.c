// SPDX-License-Identifier: GPL-2.0
/*
 * Sample statistics against values worked out independently: textbook
 * samples, Wikipedia's Welch example, hand-adjusted p-values. t quantiles
 * quoted below are from tables (and GSL agrees to the digits given).
 */
#include <errno.h>
#include <math.h>

#include "../../bench/lib/stats.h"
#include "../tap.h"

#define N(x) ((int)(sizeof(x) / sizeof((x)[0])))

static void test_arith(void)
{
	/*
	 * mean 11, deviations -1 1 -2 0 2, SS 10, sd sqrt(10/4) = 1.58114;
	 * t(0.975, 4) = 2.776445, half-width 2.776445 * 1.58114 / sqrt(5)
	 * = 1.96324.
	 */
	const double x[] = { 10, 12, 9, 11, 13 };
	struct summary s;

	check_int(stats_summarise(x, N(x), MEAN_ARITH, 0.95, &s), ==, 0,
		  "arith: summarise");
	check_int(s.n, ==, 5, "arith: n");
	check_near(s.mean, 11, 1e-12, "arith: mean 11");
	check_near(s.sd, sqrt(2.5), 1e-12, "arith: sd sqrt(2.5)");
	check_near(s.cv, sqrt(2.5) / 11, 1e-12, "arith: cv sd/mean");
	check_near(s.ci_lo, 11 - 1.963243, 1e-5, "arith: CI low 9.0368");
	check_near(s.ci_hi, 11 + 1.963243, 1e-5, "arith: CI high 12.9632");

	/* 90%: t(0.95, 4) = 2.131847, half-width 1.507443. */
	check_int(stats_summarise(x, N(x), MEAN_ARITH, 0.90, &s), ==, 0,
		  "arith: summarise at 90 percent");
	check_near(s.ci_hi - s.mean, 1.507443, 1e-5, "arith: 90%% half-width");

	check_int(stats_summarise(x, 1, MEAN_ARITH, 0.95, &s), ==, 0,
		  "arith: one value");
	tap_ok(s.mean == 10 && isnan(s.sd) && isnan(s.cv) && isnan(s.ci_lo) &&
	       isnan(s.ci_hi), "arith: one value has a mean, NAN spread");
}

static void test_harmonic(void)
{
	const double x[] = { 1, 2, 4 };
	const double y[] = { 10, 12, 9, 11, 13 };
	struct summary s;

	/*
	 * 3 / (1 + 1/2 + 1/4) = 12/7. Reciprocals 1, .5, .25: mean 7/12,
	 * sd 0.381881; t(0.975, 2) = 4.302653, half-width 0.948688, so the
	 * reciprocals' CI is [-0.365312, 1.531979]: it reaches below 0, the
	 * rate has no upper bound, and the lower end is 1/1.531979.
	 */
	check_int(stats_summarise(x, N(x), MEAN_HARMONIC, 0.95, &s), ==, 0,
		  "harmonic: summarise {1,2,4}");
	check_near(s.mean, 12.0 / 7, 1e-12, "harmonic: mean 12/7");
	check_near(s.sd, 1.527525, 1e-6, "harmonic: sd is of the raw values");
	check_near(s.cv, 1.527525 / (7.0 / 3), 1e-6,
		   "harmonic: cv is of the raw values");
	check_near(s.ci_lo, 0.652750, 1e-5, "harmonic: CI low 1/1.531979");
	tap_ok(isinf(s.ci_hi) && s.ci_hi > 0,
	       "harmonic: CI high unbounded when 1/x's CI reaches 0");

	/*
	 * Reciprocals of 10 12 9 11 13: mean 0.0924553, sd 0.0135260,
	 * half-width 2.776445 * 0.0135260 / sqrt(5) = 0.0167944, so the
	 * CI is 1/0.1092497 .. 1/0.0756609.
	 */
	check_int(stats_summarise(y, N(y), MEAN_HARMONIC, 0.95, &s), ==, 0,
		  "harmonic: summarise {10,12,9,11,13}");
	check_near(s.mean, 1 / 0.0924553, 1e-4, "harmonic: mean 10.81603");
	check_near(s.ci_lo, 9.153310, 1e-4, "harmonic: CI low 9.15331");
	check_near(s.ci_hi, 13.216927, 1e-4, "harmonic: CI high 13.21693");
	tap_ok(s.ci_lo < s.mean && s.mean < s.ci_hi,
	       "harmonic: CI ends swapped back into order");
}

static void test_welch(void)
{
	/*
	 * Wikipedia, "Welch's t-test", example 1.
	 * a: n 15, sum 312.3, mean 20.82, SS 110.144, var 7.867429
	 * b: n 15, sum 344.8, mean 22.986667, SS 53.377333, var 3.812667
	 * se^2 = 7.867429/15 + 3.812667/15 = 0.524495 + 0.254178 = 0.778673
	 * t = (20.82 - 22.986667) / sqrt(0.778673) = -2.166667 / 0.882425
	 *   = -2.455356
	 * df = 0.778673^2 / (0.524495^2/14 + 0.254178^2/14)
	 *    = 0.606332 / (0.019650 + 0.004615) = 24.9885
	 * p = 2 * gsl_cdf_tdist_Q(2.455356, 24.9885) = 0.021378
	 */
	const double a[] = { 27.5, 21.0, 19.0, 23.6, 17.0, 17.9, 16.9, 20.1,
			     21.9, 22.6, 23.1, 19.6, 19.0, 21.7, 21.4 };
	const double b[] = { 27.1, 22.0, 20.8, 23.4, 23.4, 23.5, 25.8, 22.0,
			     24.8, 20.2, 21.9, 22.1, 22.9, 20.5, 24.4 };
	const double c[] = { 3, 3, 3 }, d[] = { 5, 5 };
	double t, df, p;

	check_int(stats_welch(a, N(a), b, N(b), &t, &df, &p), ==, 0,
		  "welch: Wikipedia example 1");
	check_near(t, -2.455356, 1e-6, "welch: t = -2.46");
	check_near(df, 24.98853, 1e-5, "welch: df = 24.9");
	check_near(p, 0.021378, 1e-6, "welch: p = 0.021");

	check_int(stats_welch(b, N(b), a, N(a), &t, &df, &p), ==, 0,
		  "welch: swapped");
	check_near(t, 2.455356, 1e-6, "welch: swapping flips t only");
	check_near(p, 0.021378, 1e-6, "welch: same p swapped");

	check_int(stats_welch(c, N(c), c, N(c), &t, &df, &p), ==, 0,
		  "welch: equal constants");
	tap_ok(t == 0 && p == 1 && isfinite(df),
	       "welch: equal constants give t 0, p 1, no NAN");
	check_int(stats_welch(c, N(c), d, N(d), &t, &df, &p), ==, 0,
		  "welch: different constants");
	tap_ok(isinf(t) && t < 0 && p == 0 && isfinite(df),
	       "welch: different constants give p 0, no NAN");
}

static void test_ratio(void)
{
	const double a[] = { 10, 12, 9, 11, 13 };
	const double a2[] = { 20, 24, 18, 22, 26 };
	const double h1[] = { 1, 3 }, h2[] = { 2, 2 };
	struct ratio r;

	check_int(stats_ratio(a, N(a), a, N(a), MEAN_ARITH, 0.95, &r), ==, 0,
		  "ratio: identical samples");
	tap_ok(r.ratio == 1 && r.lo < 1 && r.hi > 1 && r.p == 1,
	       "ratio: identical samples: 1, CI around 1, p 1");

	/*
	 * a / 2a: cv 0.143740 in both, se^2 = 2 * cv^2 / 5, se = 1/11;
	 * equal terms give df 8, t(0.975, 8) = 2.306004, so the CI is
	 * 0.5 * exp(+-0.209637) = [0.405439, 0.616615]. p is Welch on the
	 * raw values: t = -11 / sqrt(0.5 + 2) = -6.957011, df 5.882353,
	 * p = 0.000477 (GSL t CDF).
	 */
	check_int(stats_ratio(a, N(a), a2, N(a2), MEAN_ARITH, 0.95, &r), ==, 0,
		  "ratio: a / 2a");
	check_near(r.ratio, 0.5, 0, "ratio: exactly 0.5");
	check_near(r.lo, 0.405439, 1e-6, "ratio: CI low 0.405439");
	check_near(r.hi, 0.616615, 1e-6, "ratio: CI high 0.616615");
	check_near(r.p, 0.000477132, 1e-8, "ratio: Welch p on raw values");
	check_int(stats_ratio(a2, N(a2), a, N(a), MEAN_ARITH, 0.95, &r), ==, 0,
		  "ratio: 2a / a");
	check_near(r.ratio, 2, 0, "ratio: exactly 2");
	check_near(r.lo * r.hi, 4, 1e-12, "ratio: CI symmetric on log scale");
	check_int(stats_ratio(a2, N(a2), a, N(a), MEAN_HARMONIC, 0.95, &r), ==,
		  0, "ratio: 2a / a harmonic");
	check_near(r.ratio, 2, 0, "ratio: harmonic, exactly 2");

	/* Harmonic means 2/(1 + 1/3) = 1.5 and 2; arithmetic both 2. */
	check_int(stats_ratio(h1, N(h1), h2, N(h2), MEAN_HARMONIC, 0.95, &r),
		  ==, 0, "ratio: harmonic {1,3}/{2,2}");
	check_near(r.ratio, 0.75, 1e-15, "ratio: harmonic means, 1.5/2");
	check_int(stats_ratio(h1, N(h1), h2, N(h2), MEAN_ARITH, 0.95, &r),
		  ==, 0, "ratio: arithmetic {1,3}/{2,2}");
	check_near(r.ratio, 1, 1e-15, "ratio: arithmetic means, 2/2");

	check_int(stats_ratio(a, 1, a2, N(a2), MEAN_ARITH, 0.95, &r), ==, 0,
		  "ratio: one value in a");
	tap_ok(r.ratio == 10 / 22.0 && isnan(r.lo) && isnan(r.hi) &&
	       isnan(r.p), "ratio: one value: ratio only, NAN CI and p");
}

static void test_corrections(void)
{
	/*
	 * Sorted 0.005 0.01 0.03 0.04 (m = 4).
	 * Holm: 4*.005 = .02, 3*.01 = .03, 2*.03 = .06, 1*.04 = .04 -> .06
	 * (running max). BH: .04*4/4 = .04, .03*4/3 = .04, .01*4/2 = .02,
	 * .005*4/1 = .02 (running min from the top).
	 */
	const double p[] = { 0.01, 0.04, 0.03, 0.005 };
	const double holm[] = { 0.03, 0.06, 0.06, 0.02 };
	const double bh[] = { 0.02, 0.04, 0.04, 0.02 };
	const double pn[] = { 0.01, NAN, 0.04, 0.03, 0.005 };
	const double big[] = { 0.5, 0.6 };
	double adj[5], inplace[4];
	int i;

	check_int(stats_holm(p, N(p), adj), ==, 0, "holm: 4 p-values");
	for (i = 0; i < N(p); i++)
		check_near(adj[i], holm[i], 1e-12, "holm: p[%d]", i);
	check_int(stats_bh(p, N(p), adj), ==, 0, "bh: 4 p-values");
	for (i = 0; i < N(p); i++)
		check_near(adj[i], bh[i], 1e-12, "bh: p[%d]", i);

	/* The NAN neither counts toward m nor moves the others. */
	check_int(stats_holm(pn, N(pn), adj), ==, 0, "holm: with a NAN");
	tap_ok(isnan(adj[1]), "holm: NAN stays NAN");
	tap_ok(fabs(adj[0] - 0.03) < 1e-12 && fabs(adj[2] - 0.06) < 1e-12 &&
	       fabs(adj[3] - 0.06) < 1e-12 && fabs(adj[4] - 0.02) < 1e-12,
	       "holm: NAN not counted in m");
	check_int(stats_bh(pn, N(pn), adj), ==, 0, "bh: with a NAN");
	tap_ok(isnan(adj[1]), "bh: NAN stays NAN");
	tap_ok(fabs(adj[0] - 0.02) < 1e-12 && fabs(adj[2] - 0.04) < 1e-12 &&
	       fabs(adj[3] - 0.04) < 1e-12 && fabs(adj[4] - 0.02) < 1e-12,
	       "bh: NAN not counted in m");

	/* Holm: 2*.5 = 1, then max(1, .6); BH: min(.6, .5*2/1) = .6. */
	check_int(stats_holm(big, N(big), adj), ==, 0, "holm: large p");
	tap_ok(adj[0] == 1 && adj[1] == 1, "holm: capped at 1");
	check_int(stats_bh(big, N(big), adj), ==, 0, "bh: large p");
	check_near(adj[0], 0.6, 1e-12, "bh: monotone, smaller p lifted to 0.6");

	memcpy(inplace, p, sizeof(inplace));
	check_int(stats_holm(inplace, N(p), inplace), ==, 0, "holm: in place");
	check_near(inplace[1], 0.06, 1e-12, "holm: in place result");
	check_int(stats_bh(big, 0, adj), ==, 0, "bh: no p-values");
	check_int(stats_holm((const double[]){ 1.5 }, 1, adj), ==, -EINVAL,
		  "holm: p above 1 is -EINVAL");
}

static void test_geomean(void)
{
	const double r[] = { 2, 8 };
	struct summary s;

	/*
	 * logs ln2 and 3ln2: mean 2ln2 -> 4, sd sqrt(2) ln2; t(0.975, 1)
	 * = tan(0.475 pi) = 12.706205, half-width 12.706205 ln2, so the
	 * CI is 4 * 2^(+-12.706205).
	 */
	check_int(stats_geomean(r, N(r), 0.95, &s), ==, 0, "geomean: {2,8}");
	check_near(s.mean, 4, 1e-12, "geomean: 4");
	check_near(s.ci_lo, 4 * pow(2, -12.706205), 1e-9, "geomean: CI low");
	check_near(s.ci_hi / (4 * pow(2, 12.706205)), 1, 1e-6,
		   "geomean: CI high");
	check_near(s.sd, sqrt(18), 1e-12, "geomean: sd of the raw values");
}

static void test_errors(void)
{
	const double x[] = { 1, 0, 2 }, y[] = { 1, 2 };
	const double inf[] = { 1, INFINITY };
	struct summary s;
	struct ratio r;
	double t, df, p;

	check_int(stats_summarise(x, 0, MEAN_ARITH, 0.95, &s), ==, -EINVAL,
		  "errors: n = 0 is -EINVAL");
	check_int(stats_summarise(x, N(x), MEAN_HARMONIC, 0.95, &s), ==, -EDOM,
		  "errors: harmonic with a 0 is -EDOM");
	check_int(stats_summarise(x, N(x), MEAN_ARITH, 0.95, &s), ==, 0,
		  "errors: arithmetic with a 0 is fine");
	check_int(stats_summarise(y, N(y), MEAN_ARITH, 1, &s), ==, -EINVAL,
		  "errors: level 1 is -EINVAL");
	check_int(stats_summarise(y, N(y), MEAN_ARITH, NAN, &s), ==, -EINVAL,
		  "errors: level NAN is -EINVAL");
	check_int(stats_summarise(inf, N(inf), MEAN_ARITH, 0.95, &s), ==,
		  -EINVAL, "errors: infinite value is -EINVAL");
	check_int(stats_welch(y, 1, y, N(y), &t, &df, &p), ==, -EINVAL,
		  "errors: welch with one value is -EINVAL");
	check_int(stats_ratio(x, N(x), y, N(y), MEAN_HARMONIC, 0.95, &r), ==,
		  -EDOM, "errors: harmonic ratio with a 0 is -EDOM");
	check_int(stats_ratio(y, N(y), (const double[]){ -1, 1 }, 2,
			      MEAN_ARITH, 0.95, &r), ==, -EDOM,
		  "errors: ratio over a zero mean is -EDOM");
	check_int(stats_ratio(y, 0, y, N(y), MEAN_ARITH, 0.95, &r), ==, -EINVAL,
		  "errors: ratio with n = 0 is -EINVAL");
	check_int(stats_geomean(x, N(x), 0.95, &s), ==, -EDOM,
		  "errors: geomean with a 0 is -EDOM");
	check_int(stats_geomean(x, 0, 0.95, &s), ==, -EINVAL,
		  "errors: geomean with n = 0 is -EINVAL");
}

int main(void)
{
	tap_plan_start();
	test_arith();
	test_harmonic();
	test_welch();
	test_ratio();
	test_corrections();
	test_geomean();
	test_errors();
	return tap_finish();
}
