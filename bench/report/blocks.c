// SPDX-License-Identifier: GPL-2.0
/* Blocked, paired comparisons on the log scale (see blocks.h). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "blocks.h"

void block_series_init(struct block_series *s)
{
	memset(s, 0, sizeof(*s));
}

int block_series_set(struct block_series *s, int id, double v, enum block_state st)
{
	if (id < 1 || id > BLOCKS_MAX || !isfinite(v))
		return -1;
	s->v[id] = v;
	s->st[id] = st;
	return 0;
}

void block_series_negate(struct block_series *s)
{
	static const unsigned char flip[] = {
		[BS_NONE] = BS_NONE, [BS_EXACT] = BS_EXACT, [BS_GE] = BS_LE,
		[BS_LE] = BS_GE, [BS_UNKNOWN] = BS_UNKNOWN,
	};
	int j;

	for (j = 1; j <= BLOCKS_MAX; j++) {
		s->v[j] = -s->v[j];
		s->st[j] = flip[s->st[j]];
	}
}

void block_series_mean(const struct block_series *const *in, int n,
		       struct block_series *out)
{
	int j, i;

	block_series_init(out);
	if (n < 1)
		return;
	for (j = 1; j <= BLOCKS_MAX; j++) {
		enum block_state st = BS_EXACT;
		double sum = 0;

		for (i = 0; i < n; i++) {
			enum block_state s = in[i]->st[j];

			if (s == BS_NONE) {
				st = BS_NONE;
				break;
			}
			sum += in[i]->v[j];
			if (s == BS_EXACT)
				continue;
			/* Bounds that agree in direction make a bound on the mean. */
			st = st == BS_EXACT || st == s ? s : BS_UNKNOWN;
		}
		if (st == BS_NONE)
			continue;
		out->v[j] = sum / n;
		out->st[j] = st;
	}
}

/*
 * A bound that can only make the estimate stronger: the true value lies
 * beyond the estimate itself, on its side of 0. (A bound between 0 and
 * the estimate could pull the mean down and widen the spread.)
 */
static int bound_agrees(double v, enum block_state st, double mean)
{
	if (st == BS_GE)
		return mean > 0 && v >= mean;
	if (st == BS_LE)
		return mean < 0 && v <= mean;
	return 0;
}

void block_fit(const struct block_series *s, double level, struct block_fit *f)
{
	double sum = 0, ss = 0, h;
	int j;

	memset(f, 0, sizeof(*f));
	f->mean = f->sd = f->se = f->df = f->lo = f->hi = f->p = NAN;
	for (j = 1; j <= BLOCKS_MAX; j++) {
		if (s->st[j] == BS_EXACT) {
			sum += s->v[j];
			f->n++;
		} else if (s->st[j] != BS_NONE) {
			f->n_censored++;
		}
	}
	if (!f->n)
		return;
	f->mean = sum / f->n;
	for (j = 1; j <= BLOCKS_MAX; j++)
		if (s->st[j] == BS_EXACT)
			ss += (s->v[j] - f->mean) * (s->v[j] - f->mean);
		else if (s->st[j] != BS_NONE && !bound_agrees(s->v[j], s->st[j], f->mean))
			f->censor_conflict = 1;
	if (f->n < 2)
		return;
	f->sd = sqrt(ss / (f->n - 1));
	f->df = f->n - 1;
	/* Relative to the mean's size: rounding leaves a tiny sd on equal values. */
	if (!(f->sd > 1e-12 * fmax(1, fabs(f->mean))))
		return;
	f->se = f->sd / sqrt(f->n);
	h = gsl_cdf_tdist_Pinv(0.5 + level / 2, f->df) * f->se;
	f->lo = f->mean - h;
	f->hi = f->mean + h;
	f->p = 2 * gsl_cdf_tdist_Q(fabs(f->mean) / f->se, f->df);
}

double block_mde_log_at(double se, double df, double alpha, double power)
{
	if (!(se > 0) || !(df >= 1) || !(alpha > 0 && alpha < 1) || !(power > 0 && power < 1))
		return NAN;
	return (gsl_cdf_tdist_Pinv(1 - alpha / 2, df) + gsl_cdf_tdist_Pinv(power, df)) * se;
}

double block_mde_log(double se, double df, double alpha)
{
	return block_mde_log_at(se, df, alpha, BLOCKS_POWER);
}
