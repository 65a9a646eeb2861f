// SPDX-License-Identifier: GPL-2.0
/*
 * Sample statistics for benchmark reports (see stats.h). Means and
 * variances are plain two-pass sums; GSL supplies the t distribution.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_cdf.h>

#include "stats.h"

/* The scale a sample is averaged on: raw, reciprocals, logs. */
enum scale {
	SCALE_RAW,
	SCALE_RECIP,
	SCALE_LOG,
};

static double xform(double v, enum scale s)
{
	switch (s) {
	case SCALE_RECIP:
		return 1 / v;
	case SCALE_LOG:
		return log(v);
	default:
		return v;
	}
}

/*
 * At least @min_n finite values; reciprocals and logs also need every
 * value positive, which is a domain error rather than bad input.
 */
static int check_sample(const double *x, int n, int min_n, enum scale s)
{
	int i;

	if (!x || n < min_n)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			return -EINVAL;
		if (s != SCALE_RAW && x[i] <= 0)
			return -EDOM;
	}
	return 0;
}

static int check_level(double level)
{
	/* Written so that NAN fails too. */
	return level > 0 && level < 1 ? 0 : -EINVAL;
}

/*
 * Mean and sample sd of @x on scale @s. Two passes rather than running
 * sums: the samples are small and the sd stays accurate when the values
 * are large and close together, as run times are.
 */
static void moments(const double *x, int n, enum scale s, double *mean,
		    double *sd)
{
	double sum = 0, ss = 0, d;
	int i;

	for (i = 0; i < n; i++)
		sum += xform(x[i], s);
	*mean = sum / n;
	if (n < 2) {
		*sd = NAN;
		return;
	}
	for (i = 0; i < n; i++) {
		d = xform(x[i], s) - *mean;
		ss += d * d;
	}
	*sd = sqrt(ss / (n - 1));
}

/* Two-sided t multiplier for a CI at @level. */
static double t_mult(double level, double df)
{
	return gsl_cdf_tdist_Pinv((1 + level) / 2, df);
}

/*
 * Welch-Satterthwaite df for a sum of two variance terms @va and @vb from
 * samples of @na and @nb. Normalised by their sum first: squaring tiny
 * variances would underflow to 0/0.
 */
static double ws_df(double va, int na, double vb, int nb)
{
	double fa = va / (va + vb), fb = vb / (va + vb);

	return 1 / (fa * fa / (na - 1) + fb * fb / (nb - 1));
}

/* Welch's test from means and sds; na, nb >= 2. */
static void welch(double ma, double sa, int na, double mb, double sb, int nb,
		  double *t, double *df, double *p)
{
	double va = sa * sa / na, vb = sb * sb / nb;

	if (va + vb == 0) {
		/* No spread at all: the means either match or surely differ. */
		*df = na + nb - 2;
		*t = ma == mb ? 0 : copysign(INFINITY, ma - mb);
		*p = ma == mb;
		return;
	}
	*t = (ma - mb) / sqrt(va + vb);
	*df = ws_df(va, na, vb, nb);
	*p = fmin(1, 2 * gsl_cdf_tdist_Q(fabs(*t), *df));
}

int stats_summarise(const double *x, int n, enum mean_kind kind, double level,
		    struct summary *out)
{
	double m, sd, rm, rsd, h;
	int err;

	if (kind != MEAN_ARITH && kind != MEAN_HARMONIC)
		return -EINVAL;
	err = check_sample(x, n, 1,
			   kind == MEAN_HARMONIC ? SCALE_RECIP : SCALE_RAW);
	if (err)
		return err;
	if (check_level(level) || !out)
		return -EINVAL;

	moments(x, n, SCALE_RAW, &m, &sd);
	out->n = n;
	out->sd = sd;
	out->cv = m != 0 ? sd / m : NAN;
	if (kind == MEAN_ARITH) {
		out->mean = m;
		h = n > 1 ? t_mult(level, n - 1) * sd / sqrt(n) : NAN;
		out->ci_lo = m - h;
		out->ci_hi = m + h;
		return 0;
	}

	/*
	 * A rate's mean is the reciprocal of the mean time per unit, so the
	 * interval is built where the sample is averaged and turned over.
	 */
	moments(x, n, SCALE_RECIP, &rm, &rsd);
	out->mean = 1 / rm;
	if (n < 2) {
		out->ci_lo = out->ci_hi = NAN;
		return 0;
	}
	h = t_mult(level, n - 1) * rsd / sqrt(n);
	out->ci_lo = 1 / (rm + h);
	/* A mean reciprocal that may be 0 puts no upper bound on the rate. */
	out->ci_hi = rm - h > 0 ? 1 / (rm - h) : INFINITY;
	return 0;
}

int stats_welch(const double *a, int na, const double *b, int nb, double *t,
		double *df, double *p)
{
	double ma, sa, mb, sb;
	int err;

	err = check_sample(a, na, 2, SCALE_RAW);
	if (!err)
		err = check_sample(b, nb, 2, SCALE_RAW);
	if (err)
		return err;
	if (!t || !df || !p)
		return -EINVAL;
	moments(a, na, SCALE_RAW, &ma, &sa);
	moments(b, nb, SCALE_RAW, &mb, &sb);
	welch(ma, sa, na, mb, sb, nb, t, df, p);
	return 0;
}

double stats_t_mult(double level, double df)
{
	return t_mult(level, df);
}

double stats_ws_df(double va, int na, double vb, int nb)
{
	return ws_df(va, na, vb, nb);
}

int stats_ratio(const double *a, int na, const double *b, int nb,
		enum mean_kind kind, double level, struct ratio *out)
{
	enum scale s = kind == MEAN_HARMONIC ? SCALE_RECIP : SCALE_RAW;
	double ma, sa, mb, sb, ca, cb, h, t, df;
	int err;

	if (kind != MEAN_ARITH && kind != MEAN_HARMONIC)
		return -EINVAL;
	err = check_sample(a, na, 1, s);
	if (!err)
		err = check_sample(b, nb, 1, s);
	if (err)
		return err;
	if (check_level(level) || !out)
		return -EINVAL;
	moments(a, na, s, &ma, &sa);
	moments(b, nb, s, &mb, &sb);
	/* The log scale needs positive means, and so does a ratio of them. */
	if (ma <= 0 || mb <= 0)
		return -EDOM;

	/* Harmonic means are reciprocals of the mean reciprocals: a/b flips. */
	out->ratio = s == SCALE_RECIP ? mb / ma : ma / mb;
	out->lo = out->hi = out->p = out->se_log = out->df = NAN;
	if (na < 2 || nb < 2)
		return 0;

	/*
	 * Delta method: var(log mean) ~= cv^2 / n. log(a/b) is a difference
	 * of two such terms whichever way the ratio turns, so se and the CI
	 * are the same either way; the CI is symmetric on the log scale.
	 */
	ca = (sa / ma) * (sa / ma) / na;
	cb = (sb / mb) * (sb / mb) / nb;
	out->se_log = sqrt(ca + cb);
	out->df = ca + cb > 0 ? ws_df(ca, na, cb, nb) : na + nb - 2;
	if (ca + cb == 0) {
		out->lo = out->hi = out->ratio;
	} else {
		h = t_mult(level, out->df) * sqrt(ca + cb);
		out->lo = out->ratio * exp(-h);
		out->hi = out->ratio * exp(h);
	}
	welch(ma, sa, na, mb, sb, nb, &t, &df, &out->p);
	return 0;
}

struct pval {
	double p;
	int i;
};

static int cmp_pval(const void *x, const void *y)
{
	const struct pval *a = x, *b = y;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	/* qsort is not stable; keep ties in input order for repeatability. */
	return a->i - b->i;
}

/*
 * The non-NAN p-values of @p sorted ascending into a new array of *m.
 * NAN entries of @adj are set here; @adj may be @p, as the rest are
 * copied out first.
 */
static int sort_pvals(const double *p, int n, double *adj, struct pval **out,
		      int *m)
{
	struct pval *s;
	int i, k = 0;

	if (n < 0 || (n > 0 && (!p || !adj)))
		return -EINVAL;
	for (i = 0; i < n; i++)
		if (!isnan(p[i]) && !(p[i] >= 0 && p[i] <= 1))
			return -EINVAL;
	s = malloc(sizeof(*s) * (n ? n : 1));
	if (!s)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (isnan(p[i])) {
			adj[i] = NAN;
			continue;
		}
		s[k].p = p[i];
		s[k].i = i;
		k++;
	}
	qsort(s, k, sizeof(*s), cmp_pval);
	*out = s;
	*m = k;
	return 0;
}

int stats_holm(const double *p, int n, double *adj)
{
	struct pval *s;
	double run = 0;
	int k, m, err;

	err = sort_pvals(p, n, adj, &s, &m);
	if (err)
		return err;
	/* Step down: the k-th smallest is tested at alpha / (m - k). */
	for (k = 0; k < m; k++) {
		run = fmax(run, (m - k) * s[k].p);
		adj[s[k].i] = fmin(run, 1);
	}
	free(s);
	return 0;
}

int stats_bh(const double *p, int n, double *adj)
{
	struct pval *s;
	double run = 1;
	int k, m, err;

	err = sort_pvals(p, n, adj, &s, &m);
	if (err)
		return err;
	/* Step up from the largest: the k-th smallest at alpha * k / m. */
	for (k = m - 1; k >= 0; k--) {
		run = fmin(run, s[k].p * m / (k + 1));
		adj[s[k].i] = run;
	}
	free(s);
	return 0;
}

int stats_geomean(const double *r, int n, double level, struct summary *out)
{
	double m, sd, lm, lsd, h;
	int err;

	err = check_sample(r, n, 1, SCALE_LOG);
	if (err)
		return err;
	if (check_level(level) || !out)
		return -EINVAL;
	moments(r, n, SCALE_RAW, &m, &sd);
	moments(r, n, SCALE_LOG, &lm, &lsd);
	out->n = n;
	out->sd = sd;
	out->cv = sd / m;
	out->mean = exp(lm);
	if (n < 2) {
		out->ci_lo = out->ci_hi = NAN;
		return 0;
	}
	/* Ratios multiply, so their spread is symmetric on the log scale. */
	h = t_mult(level, n - 1) * lsd / sqrt(n);
	out->ci_lo = exp(lm - h);
	out->ci_hi = exp(lm + h);
	return 0;
}
