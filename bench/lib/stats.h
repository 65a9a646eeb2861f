/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Sample statistics for benchmark reports: means with t confidence
 * intervals, Welch's t-test, ratios of means between two configurations,
 * geometric means of ratios and multiple-comparison corrections. The
 * distributions come from GSL; nothing here keeps state.
 *
 * Everything returns 0 or a negative errno: -EINVAL for bad arguments
 * (too few samples, a confidence level outside (0, 1), non-finite input),
 * -EDOM for values a mean kind cannot take, -ENOMEM.
 */
#ifndef CSBENCH_STATS_H
#define CSBENCH_STATS_H

/*
 * Which mean describes a metric: arithmetic for times and latencies,
 * harmonic for rates (ops/s), as mmtests does, so that the mean rate is
 * the rate of the mean time.
 */
enum mean_kind {
	MEAN_ARITH,
	MEAN_HARMONIC,
};

struct summary {
	int n;
	double mean;
	double sd;	/* sample sd (n - 1) of the raw values */
	double cv;	/* sd / arithmetic mean of the raw values */
	double ci_lo;
	double ci_hi;
};

/*
 * Summarise @n >= 1 values. sd, cv and the CI are NAN when n < 2.
 * MEAN_ARITH: arithmetic mean, t-based CI at @level (e.g. 0.95).
 * MEAN_HARMONIC: mean = n / sum(1/x), every x > 0 (else -EDOM); the CI is
 * the t-CI of the mean of the reciprocals, inverted, so its ends swap. When
 * that CI reaches 0 or below, ci_hi is INFINITY.
 */
int stats_summarise(const double *x, int n, enum mean_kind kind, double level,
		    struct summary *out);

/*
 * Welch's unequal-variance t-test of mean(a) == mean(b), na, nb >= 2.
 * Gives t, the Welch-Satterthwaite df and the two-sided p. When both
 * samples have zero variance: t = 0, p = 1 if the means are equal, else
 * t = +-INFINITY, p = 0; df is then na + nb - 2.
 */
int stats_welch(const double *a, int na, const double *b, int nb, double *t,
		double *df, double *p);

struct ratio {
	double ratio;	/* mean(a) / mean(b) in the kind's mean */
	double lo, hi;	/* CI at the requested level */
	double p;	/* Welch's two-sided p on the kind's scale */
	double se_log;	/* standard error of log(ratio); NAN when n < 2 */
	double df;	/* its Welch-Satterthwaite degrees of freedom */
};

/*
 * The ratio of @kind means a/b with a CI at @level, by the delta method on
 * the log scale: se^2 = cv_a^2/na + cv_b^2/nb with the cvs on the kind's
 * scale (the reciprocals for MEAN_HARMONIC), Welch-Satterthwaite df on
 * those two terms, CI = ratio * exp(+-t * se). p is Welch's test on the
 * raw values (MEAN_ARITH) or the reciprocals (MEAN_HARMONIC).
 * Needs na, nb >= 1 and positive means (else -EDOM); lo, hi and p are NAN
 * unless na, nb >= 2.
 */
int stats_ratio(const double *a, int na, const double *b, int nb,
		enum mean_kind kind, double level, struct ratio *out);

/*
 * Holm's step-down and Benjamini-Hochberg adjustments of @n p-values into
 * @adj (which may be @p). NAN entries are skipped, stay NAN and do not
 * count toward the number of tests. The results are monotone in p and
 * capped at 1. -EINVAL for a p outside [0, 1].
 */
/* The two-sided t multiplier for @level at @df degrees of freedom. */
double stats_t_mult(double level, double df);
/* Welch-Satterthwaite df for two variances of means (s^2 / n each). */
double stats_ws_df(double va, int na, double vb, int nb);

int stats_holm(const double *p, int n, double *adj);
int stats_bh(const double *p, int n, double *adj);

/*
 * Geometric mean of @n >= 1 positive ratios (else -EDOM) with the t-CI
 * computed on their logs. sd and cv describe the raw values.
 */
int stats_geomean(const double *r, int n, double level, struct summary *out);

#endif
