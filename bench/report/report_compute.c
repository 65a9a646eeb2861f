// SPDX-License-Identifier: GPL-2.0
/*
 * The statistics of a report. Per row and mode: the kind's mean with a
 * t-based interval (percentiles: from the histogram merged over the
 * repetitions, with a bootstrap interval). Per row and comparison: the
 * ratio with its interval and Welch's p, corrected over the whole table
 * with Holm's method; percentile rows have no p and count as significant
 * when their interval excludes 1. A verdict needs significance, an
 * interval clear of 1, and a difference outside the A/A noise band.
 * Workloads and the whole run get the geometric mean of their rows' gains.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "report.h"
#include "smtyield.h"


/* Mean and standard error of the logs of the repetitions' values. */
static int log_moments(const double *v, int n, double *mean, double *se)
{
	double logs[REPORT_MAX_VALUES];
	struct summary s;
	int i;

	for (i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return -1;
		logs[i] = log(v[i]);
	}
	if (stats_summarise(logs, n, MEAN_ARITH, REPORT_LEVEL, &s))
		return -1;
	*mean = s.mean;
	*se = s.sd / sqrt(n);
	return 0;
}

static void summarise_percentile(struct mode_stats *ms, double pct,
				 unsigned long seed)
{
	double v, lo, hi, lmean;
	int cens = 0, cens_hi = 0, ret;

	ms->s.n = ms->n;
	ms->s.mean = ms->s.ci_lo = ms->s.ci_hi = NAN;
	ms->s.sd = ms->s.cv = ms->se_log = NAN;
	/*
	 * The maximum is exact in each repetition (cyclictest counts past its
	 * histogram's end): the largest of them, with no interval.
	 */
	if (pct >= 100) {
		ms->s.mean = ms->values[0];
		for (int i = 1; i < ms->n; i++)
			ms->s.mean = fmax(ms->s.mean, ms->values[i]);
		return;
	}
	if (!ms->hist.count || histstats_percentile(&ms->hist, pct / 100, &v, &cens))
		return;
	ms->s.mean = v;
	ms->censored = cens;
	/* The repetitions' spread on the log scale drives every comparison. */
	if (ms->n >= 2 && !log_moments(ms->values, ms->n, &lmean, &ms->se_log)) {
		struct summary per_rep;

		if (!stats_summarise(ms->values, ms->n, MEAN_ARITH, REPORT_LEVEL, &per_rep)) {
			ms->s.sd = per_rep.sd;
			ms->s.cv = per_rep.cv;
		}
	}
	/*
	 * Few repetitions: a bootstrap over them cannot reach 95% (with 3 it
	 * returns their range, about 75% coverage), so the interval is a t
	 * interval on the log scale around the merged value. Enough of them:
	 * resample whole repetitions. One: resample its samples.
	 */
	if (ms->n >= 2 && ms->n < REPORT_BOOT_MIN_REPS) {
		double h = stats_t_mult(REPORT_LEVEL, ms->n - 1) * ms->se_log;

		if (isnan(h))
			return;
		ms->s.ci_lo = v * exp(-h);
		ms->s.ci_hi = v * exp(h);
		/* Past the histogram's end the upper bound is unknown. */
		if (ms->s.ci_hi >= ms->hist.nbuckets)
			ms->s.ci_hi = INFINITY;
		return;
	}
	ret = ms->nrep_hist >= 2 ?
	      histstats_bootstrap_reps_ci(ms->rep_hist, ms->nrep_hist, pct / 100,
					  REPORT_LEVEL, REPORT_BOOT_ITERS, seed, &lo, &hi,
					  &cens_hi) :
	      histstats_bootstrap_ci(&ms->hist, pct / 100, REPORT_LEVEL,
				     REPORT_BOOT_ITERS, seed, &lo, &hi, &cens_hi);
	if (ret)
		return;
	ms->s.ci_lo = lo;
	/* An upper end in the overflow is no bound at all. */
	ms->s.ci_hi = cens_hi ? INFINITY : hi;
}

/*
 * The interval and two-sided p of a ratio known on the log scale: @log_ratio
 * with standard error @se at @df degrees of freedom.
 */
static void log_t_interval(struct comparison *c, double log_ratio, double se, double df)
{
	double h = stats_t_mult(REPORT_LEVEL, df) * se;

	c->se_log = se;
	c->df = df;
	c->lo = exp(log_ratio - h);
	c->hi = exp(log_ratio + h);
	c->p = se > 0 ? 2 * gsl_cdf_tdist_Q(fabs(log_ratio) / se, df) : (log_ratio ? 0 : 1);
}

static void orient(struct comparison *c, int higher_is_better)
{
	if (higher_is_better) {
		c->gain = c->ratio;
		c->gain_lo = c->lo;
		c->gain_hi = c->hi;
	} else {
		c->gain = 1 / c->ratio;
		c->gain_lo = 1 / c->hi;
		c->gain_hi = 1 / c->lo;
	}
}

int report_compare_stats(const struct mode_stats *a, const struct mode_stats *b,
			 const struct report_row *row, struct comparison *c)
{
	double band = c->band;
	struct ratio rt;

	memset(c, 0, sizeof(*c));
	c->band = band;
	c->p = c->p_adj = NAN;
	/* A lower bound compared with anything proves nothing: no figure. */
	if (!a->n || !b->n || a->censored || b->censored)
		return 0;
	if (row->kind == ROW_PERCENTILE) {
		double va = a->se_log * a->se_log, vb = b->se_log * b->se_log;

		if (!(a->s.mean > 0 && b->s.mean > 0))
			return 0;
		c->ratio = a->s.mean / b->s.mean;
		c->lo = c->hi = c->se_log = NAN;
		/*
		 * Repetitions on both sides: Welch on the logs of their own
		 * percentiles, for the interval, its df and the p-value alike.
		 */
		if (a->n >= 2 && b->n >= 2 && !isnan(va + vb))
			log_t_interval(c, log(c->ratio), sqrt(va + vb), va + vb > 0 ?
				       stats_ws_df(va, a->n, vb, b->n) : a->n + b->n - 2);
	} else {
		if (stats_ratio(a->values, a->n, b->values, b->n,
				row->kind == ROW_HARMONIC ? MEAN_HARMONIC : MEAN_ARITH,
				REPORT_LEVEL, &rt))
			return 0;
		c->ratio = rt.ratio;
		c->lo = rt.lo;
		c->hi = rt.hi;
		c->p = rt.p;
		c->se_log = rt.se_log;
		c->df = rt.df;
	}
	c->valid = 1;
	orient(c, row->higher_is_better);
	return 1;
}

static enum verdict judge(const struct comparison *c, int significant)
{
	if (!c->valid)
		return V_NONE;
	/* Bands are symmetric on the log scale: a 10% band is 1/1.1 to 1.1. */
	if (!significant || isnan(c->gain_lo) || fmax(c->gain, 1 / c->gain) - 1 <= c->band)
		return V_SAME;
	if (c->gain_lo > 1)
		return V_BETTER;
	if (c->gain_hi < 1)
		return V_WORSE;
	return V_SAME;
}

/*
 * Holm's correction over one table of comparisons, then a verdict for each.
 * Without a p (one repetition, a maximum, a censored value) there is no
 * verdict either way.
 */
static int holm_and_judge(struct comparison **cs, int n)
{
	double *p = calloc(n + 1, sizeof(double));
	int i;

	if (!p)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		p[i] = cs[i]->p;
	if (n && stats_holm(p, n, p)) {
		free(p);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		cs[i]->p_adj = p[i];
		cs[i]->verdict = judge(cs[i], !isnan(p[i]) && p[i] < REPORT_ALPHA);
	}
	free(p);
	return 0;
}

/*
 * Geometric mean of gains with a t interval and p for "no change" on the
 * log scale, the gains taken as independent (Satterthwaite df). Rows
 * without an interval (a maximum, one repetition) are left out when others
 * have one; if none has, the mean has none either. Censored rows are
 * invalid and never count.
 */
static void combine(const struct comparison *const *cs, int n, struct comparison *out)
{
	double sum = 0, var = 0, var2_df = 0, band = 0, v;
	int used = 0, with_ci = 0, i;

	memset(out, 0, sizeof(*out));
	out->p = out->p_adj = out->se_log = out->df = NAN;
	for (i = 0; i < n; i++)
		with_ci += cs[i]->valid && cs[i]->gain > 0 && !isnan(cs[i]->se_log);
	for (i = 0; i < n; i++) {
		if (!cs[i]->valid || !(cs[i]->gain > 0) || (with_ci && isnan(cs[i]->se_log)))
			continue;
		sum += log(cs[i]->gain);
		if (with_ci) {
			v = cs[i]->se_log * cs[i]->se_log;
			var += v;
			var2_df += v * v / cs[i]->df;
		}
		/*
		 * Rows of one workload move together (read and write IOPS of one
		 * fio job), so their noise does not average out: keep the widest
		 * band unless calibrate measured the workload's own.
		 */
		band = fmax(band, cs[i]->band);
		used++;
	}
	if (!used)
		return;
	out->valid = 1;
	out->band = band;
	out->gain = out->ratio = exp(sum / used);
	out->gain_lo = out->lo = out->gain_hi = out->hi = NAN;
	if (!with_ci)
		return;
	/* Satterthwaite: the df of a sum of variances with their own df. */
	log_t_interval(out, sum / used, sqrt(var) / used,
		       var2_df > 0 ? var * var / var2_df : 1e6);
	out->gain_lo = out->lo;
	out->gain_hi = out->hi;
}

/*
 * Throughput rows, for the SMT-yield model: rates, and the run time of a
 * fixed amount of work (seconds). Latencies (percentiles, us or ns) say
 * nothing about how much work a core got through.
 */
static int is_throughput_row(const struct report_row *row)
{
	return row->kind == ROW_HARMONIC ||
	       (row->kind == ROW_ARITH && !strcmp(row->unit, "s"));
}

/* The breakeven yield at the throughput gain and at its interval's ends. */
static void breakeven(const struct report *r, struct report_workload *wl)
{
	const struct comparison *cs[REPORT_MAX_ROWS];
	double c = wl->x[MODE_CORESCHED].both_busy_share;
	struct comparison thr;
	int i, n = 0;

	wl->breakeven_yield = wl->breakeven_lo = wl->breakeven_hi = NAN;
	if (isnan(c))
		return;
	for (i = 0; i < r->nrows; i++)
		if (!strcmp(r->rows[i].workload, wl->name) && is_throughput_row(&r->rows[i]))
			cs[n++] = &r->rows[i].cmp[CMP_CS_OFF];
	combine(cs, n, &thr);
	if (!thr.valid)
		return;
	wl->breakeven_yield = smt_breakeven_yield(thr.gain, c);
	/* A higher gain needs less yield: the ends swap. */
	wl->breakeven_lo = smt_breakeven_yield(thr.gain_hi, c);
	wl->breakeven_hi = smt_breakeven_yield(thr.gain_lo, c);
}

static int workload_verdicts(struct report *r)
{
	const struct comparison *cs[REPORT_MAX_ROWS];
	const struct comparison *overall[CMP_COUNT][REPORT_MAX_WORKLOADS];
	struct comparison *all[REPORT_MAX_WORKLOADS * CMP_COUNT];
	int w, k, i, n, nall = 0;

	for (w = 0; w < r->nwl; w++) {
		struct report_workload *wl = &r->wl[w];

		for (k = 0; k < CMP_COUNT; k++) {
			for (i = n = 0; i < r->nrows; i++)
				if (!strcmp(r->rows[i].workload, wl->name))
					cs[n++] = &r->rows[i].cmp[k];
			combine(cs, n, &wl->verdict[k]);
			/* The workload's own A/A band beats any guess from its rows. */
			if (wl->cal_band > 0)
				wl->verdict[k].band = wl->cal_band;
			overall[k][w] = &wl->verdict[k];
			all[nall++] = &wl->verdict[k];
		}
		breakeven(r, wl);
	}
	/* Workload verdicts are one table of comparisons, the overall line another. */
	if (holm_and_judge(all, nall))
		return -ENOMEM;
	for (k = 0; k < CMP_COUNT; k++) {
		combine(overall[k], r->nwl, &r->overall[k]);
		if (r->cal_band_overall > 0)
			r->overall[k].band = r->cal_band_overall;
		all[k] = &r->overall[k];
	}
	return holm_and_judge(all, CMP_COUNT);
}

int report_compute(struct report *r)
{
	struct comparison **cs = malloc(sizeof(*cs) * (r->nrows * CMP_COUNT + 1));
	int i, k, ret;

	if (!cs)
		return -ENOMEM;
	for (i = 0; i < r->nrows; i++) {
		struct report_row *row = &r->rows[i];

		for (k = 0; k < MODE_COUNT; k++) {
			struct mode_stats *ms = &row->m[k];

			if (!ms->n)
				continue;
			if (row->kind == ROW_PERCENTILE)
				summarise_percentile(ms, row->percentile, r->seed + i * MODE_COUNT + k);
			else if (stats_summarise(ms->values, ms->n, row->kind == ROW_HARMONIC ?
						 MEAN_HARMONIC : MEAN_ARITH, REPORT_LEVEL, &ms->s))
				/* A zero rate has no harmonic mean: report it plainly. */
				stats_summarise(ms->values, ms->n, MEAN_ARITH, REPORT_LEVEL, &ms->s);
		}
		for (k = 0; k < CMP_COUNT; k++) {
			report_compare_stats(&row->m[report_cmps[k].a], &row->m[report_cmps[k].b],
					     row, &row->cmp[k]);
			cs[i * CMP_COUNT + k] = &row->cmp[k];
		}
	}
	/* Every row comparison in one table for Holm. */
	ret = holm_and_judge(cs, r->nrows * CMP_COUNT);
	free(cs);
	return ret ?: workload_verdicts(r);
}
