// SPDX-License-Identifier: GPL-2.0
/*
 * The statistics of a report. Per row and mode: the kind's mean with a
 * t-based interval (percentiles: from the histogram merged over the
 * repetitions). Per row and comparison: the paired, blocked estimate of
 * blocks.h (interval and p from one t model on the per-block log ratios),
 * corrected over the whole row table with Holm's method. Workloads and the
 * whole run average their rows' log gains inside each block first, and are
 * corrected over their own tables. A verdict needs the corrected p below
 * alpha and, where a noise band was given, a difference outside it.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>

#include "blocks.h"
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
	if (!ms->hist.count || hist_percentile(&ms->hist, pct / 100, &v, &cens))
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
		if (ms->s.ci_hi >= ms->hist.limit)
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

/* A fitted series of log gains as a comparison (ratio = gain). */
void report_fit_comparison(const struct block_series *s, struct comparison *c)
{
	double band = c->band;
	struct block_fit f;

	memset(c, 0, sizeof(*c));
	c->band = band;
	c->p = c->p_adj = c->mde = NAN;
	block_fit(s, REPORT_LEVEL, &f);
	c->n_blocks = f.n;
	c->n_censored = f.n_censored;
	c->censor_conflict = f.censor_conflict;
	if (!f.n)
		return;
	c->valid = 1;
	c->gain = c->ratio = exp(f.mean);
	c->gain_lo = c->lo = exp(f.lo);
	c->gain_hi = c->hi = exp(f.hi);
	c->se_log = f.se;
	c->df = f.df;
	c->p = f.p;
}

/*
 * Ratio <-> gain with its interval: the same for a higher-is-better row,
 * inverted (ends swapped) for a lower-is-better one. Its own inverse.
 */
static void reorient(double v, double lo, double hi, int same, double *out,
		     double *out_lo, double *out_hi)
{
	*out = same ? v : 1 / v;
	*out_lo = same ? lo : 1 / hi;
	*out_hi = same ? hi : 1 / lo;
}

/* A maximum is one extreme sample per block: shown, never tested or pooled. */
int report_row_is_maximum(const struct report_row *row)
{
	return row->kind == ROW_PERCENTILE && row->percentile >= 100;
}

/*
 * The row's per-block log gains of mode @a over mode @b (+ is better for
 * a). A value that is only a lower bound (a percentile in the histogram's
 * overflow) makes its block a bound; a value <= 0 has no log and leaves
 * its block out.
 */
void report_row_series(const struct report_row *row, const struct mode_stats *a,
		       const struct mode_stats *b, struct block_series *s)
{
	int i, j;

	block_series_init(s);
	for (i = 0; i < a->n; i++)
		for (j = 0; j < b->n; j++) {
			enum block_state st = BS_EXACT;

			if (a->block[i] != b->block[j] || !(a->values[i] > 0 && b->values[j] > 0))
				continue;
			if (a->cens[i] && b->cens[j])
				st = BS_UNKNOWN;
			else if (a->cens[i])
				st = BS_GE;
			else if (b->cens[j])
				st = BS_LE;
			block_series_set(s, a->block[i], log(a->values[i] / b->values[j]), st);
		}
	if (!row->higher_is_better)
		block_series_negate(s);
}

int report_compare_stats(const struct mode_stats *a, const struct mode_stats *b,
			 const struct report_row *row, struct comparison *c)
{
	struct block_series s;

	report_row_series(row, a, b, &s);
	report_fit_comparison(&s, c);
	if (!c->valid)
		return 0;
	if (report_row_is_maximum(row))
		c->p = c->lo = c->hi = c->gain_lo = c->gain_hi = c->se_log = NAN;
	/* Back from the gain to the ratio a / b. */
	reorient(c->gain, c->gain_lo, c->gain_hi, row->higher_is_better,
		 &c->ratio, &c->lo, &c->hi);
	return 1;
}

/* The uncensored values' logs; -1 if a value is <= 0. */
static int exact_logs(const struct mode_stats *ms, double *out, int *ncens)
{
	int i, n = 0;

	for (i = 0; i < ms->n; i++) {
		if (ms->cens[i]) {
			(*ncens)++;
			continue;
		}
		if (!(ms->values[i] > 0))
			return -1;
		out[n++] = log(ms->values[i]);
	}
	return n;
}

int report_compare_unpaired(const struct mode_stats *a, const struct mode_stats *b,
			    const struct report_row *row, struct comparison *c)
{
	double la[REPORT_MAX_VALUES], lb[REPORT_MAX_VALUES], va, vb;
	double band = c->band, h, t, d;
	struct summary sa, sb;
	int na, nb, ncens = 0;

	memset(c, 0, sizeof(*c));
	c->band = band;
	c->p = c->p_adj = c->mde = c->se_log = c->df = NAN;
	na = exact_logs(a, la, &ncens);
	nb = exact_logs(b, lb, &ncens);
	if (na < 1 || nb < 1 || stats_summarise(la, na, MEAN_ARITH, REPORT_LEVEL, &sa) ||
	    stats_summarise(lb, nb, MEAN_ARITH, REPORT_LEVEL, &sb))
		return 0;
	/* Variances of the two means (s^2 / n); a lone value has none. */
	va = na > 1 ? sa.sd * sa.sd / na : 0;
	vb = nb > 1 ? sb.sd * sb.sd / nb : 0;
	c->valid = 1;
	c->n_censored = ncens;
	/* Values left out as bounds could push either way between runs. */
	c->censor_conflict = ncens > 0;
	d = sa.mean - sb.mean;
	c->ratio = exp(d);
	c->lo = c->hi = NAN;
	if (na > 1 && nb > 1 && va + vb > 0 && !report_row_is_maximum(row)) {
		c->se_log = sqrt(va + vb);
		c->df = stats_ws_df(va, na, vb, nb);
		h = stats_t_mult(REPORT_LEVEL, c->df) * c->se_log;
		c->lo = exp(d - h);
		c->hi = exp(d + h);
		t = fabs(d) / c->se_log;
		c->p = 2 * gsl_cdf_tdist_Q(t, c->df);
	}
	reorient(c->ratio, c->lo, c->hi, row->higher_is_better,
		 &c->gain, &c->gain_lo, &c->gain_hi);
	c->n_blocks = na + nb;
	return 1;
}

static enum verdict judge(const struct comparison *c, int significant)
{
	if (!c->valid)
		return V_NONE;
	if (isnan(c->p) || c->censor_conflict)
		return V_UNTESTED;
	/* Bands are symmetric on the log scale: a 10% band is 1/1.1 to 1.1. */
	if (!significant || fmax(c->gain, 1 / c->gain) - 1 <= c->band)
		return V_SAME;
	/* One model gives p and interval: significant means clear of 1. */
	return c->gain > 1 ? V_BETTER : V_WORSE;
}

int report_holm_and_judge(struct comparison **cs, int n)
{
	double *p = calloc(n + 1, sizeof(double));
	int i, family = 0;

	if (!p)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		p[i] = cs[i]->censor_conflict ? NAN : cs[i]->p;
		family += !isnan(p[i]);
	}
	if (n && stats_holm(p, n, p)) {
		free(p);
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		struct comparison *c = cs[i];

		c->p_adj = p[i];
		c->family = isnan(p[i]) ? 0 : family;
		/* Holm's first step tests at alpha / m: the change it surely sees. */
		c->mde = c->family ? exp(block_mde_log(c->se_log, c->df,
						       REPORT_ALPHA / family)) - 1 : NAN;
		c->verdict = judge(c, !isnan(p[i]) && p[i] < REPORT_ALPHA);
	}
	free(p);
	return 0;
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

static int has_bound(const struct block_series *s)
{
	int j;

	for (j = 1; j <= BLOCKS_MAX; j++)
		if (s->st[j] != BS_NONE && s->st[j] != BS_EXACT)
			return 1;
	return 0;
}

int report_rows_mean(const struct block_series *rows, int n, struct block_series *out)
{
	const struct block_series *in[REPORT_MAX_ROWS];
	int i, used = 0;

	for (i = 0; i < n && used < REPORT_MAX_ROWS; i++)
		/*
		 * A row with a bound in any block (a percentile in the
		 * histogram's overflow) is judged on its own row only: in the
		 * mean it would cost the workload that whole block.
		 */
		if (!has_bound(&rows[i]))
			in[used++] = &rows[i];
	block_series_mean(in, used, out);
	return used;
}

/* Which of a workload's rows a figure averages. */
enum row_set { ROWS_ALL, ROWS_THROUGHPUT, ROWS_LATENCY, ROW_SETS };

static int in_set(const struct report_row *row, enum row_set set)
{
	if (report_row_is_maximum(row))
		return 0;
	if (set == ROWS_THROUGHPUT)
		return is_throughput_row(row);
	if (set == ROWS_LATENCY)
		return !is_throughput_row(row);
	return 1;
}

/*
 * The block-wise mean of @wl's rows' log gains for comparison @k (every
 * row in @set but maxima and censored rows). Returns the number of rows
 * used.
 */
static int workload_series(const struct report *r, const char *wl, int k,
			   enum row_set set, struct block_series *out)
{
	const struct report_cmp_def *d = &report_cmps[k];
	struct block_series *rs;
	int i, n = 0;

	rs = malloc(sizeof(*rs) * (r->nrows + 1));
	if (!rs)
		return -ENOMEM;
	for (i = 0; i < r->nrows; i++) {
		const struct report_row *row = &r->rows[i];

		if (strcmp(row->workload, wl) || !in_set(row, set))
			continue;
		if (!row->m[d->a].n || !row->m[d->b].n)
			continue;
		report_row_series(row, &row->m[d->a], &row->m[d->b], &rs[n++]);
	}
	n = report_rows_mean(rs, n, out);
	free(rs);
	return n;
}

/* The breakeven yield at the throughput gain and at its interval's ends. */
static void breakeven(struct report_workload *wl)
{
	double c = wl->x[MODE_CORESCHED].both_busy_share;
	const struct comparison *thr = &wl->throughput[CMP_CS_OFF];

	wl->breakeven_yield = wl->breakeven_lo = wl->breakeven_hi = NAN;
	if (isnan(c) || !thr->valid)
		return;
	wl->breakeven_yield = smt_breakeven_yield(thr->gain, c);
	if (isnan(thr->gain_lo))
		return;
	/* A higher gain needs less yield: the ends swap. */
	wl->breakeven_lo = smt_breakeven_yield(thr->gain_hi, c);
	wl->breakeven_hi = smt_breakeven_yield(thr->gain_lo, c);
}

/* The yield at which the model says smt-on equals smt-off in work done. */
#define MODEL_EQUAL_YIELD	1.0

/* wl->emulation_biased (report.h), from its throughput rows. */
static int emulation_bias(const struct report *r, const struct report_workload *wl)
{
	const struct comparison *c = &wl->throughput[CMP_ON_OFF];

	if (strcmp(r->accel, "tcg") || fabs(r->yield_target - MODEL_EQUAL_YIELD) > 0.005 ||
	    !c->valid || isnan(c->gain_lo))
		return -1;
	return c->gain_lo > 1 || c->gain_hi < 1;
}

/* Workload @wl's figure for comparison @k over the rows in @set. */
static struct comparison *set_cmp(struct report_workload *wl, enum row_set set, int k)
{
	return set == ROWS_THROUGHPUT ? &wl->throughput[k] :
	       set == ROWS_LATENCY ? &wl->latency[k] : &wl->verdict[k];
}

static struct comparison *set_overall(struct report *r, enum row_set set)
{
	return set == ROWS_THROUGHPUT ? r->overall_throughput :
	       set == ROWS_LATENCY ? r->overall_latency : r->overall;
}

/*
 * The verdicts over the rows in @set: per workload (one Holm family per
 * column of the verdict table: its workloads with such rows) and overall
 * (one family: its comparisons). The overall gain is the block-wise mean
 * of the workloads' block means. The A/A noise bands were measured on
 * every row's mean, so only ROWS_ALL uses them.
 */
static int judge_set(struct report *r, enum row_set set)
{
	struct comparison *all[REPORT_MAX_WORKLOADS * CMP_COUNT], *overall_cmp;
	const struct block_series *in[REPORT_MAX_WORKLOADS];
	struct block_series *ws, overall;
	int used[REPORT_MAX_WORKLOADS * CMP_COUNT];
	int w, k, n, ret;

	ws = malloc(sizeof(*ws) * REPORT_MAX_WORKLOADS * CMP_COUNT);
	if (!ws)
		return -ENOMEM;
	for (w = 0; w < r->nwl; w++) {
		for (k = 0; k < CMP_COUNT; k++) {
			struct comparison *c = set_cmp(&r->wl[w], set, k);
			struct block_series *s = &ws[w * CMP_COUNT + k];

			used[w * CMP_COUNT + k] = workload_series(r, r->wl[w].name, k, set, s);
			if (used[w * CMP_COUNT + k] < 0) {
				free(ws);
				return -ENOMEM;
			}
			c->band = set == ROWS_ALL ? r->wl[w].cal_band : 0;
			report_fit_comparison(s, c);
			all[w * CMP_COUNT + k] = c;
		}
	}
	/* Each column of the verdict table is one family: its workloads. */
	for (k = ret = 0; !ret && k < CMP_COUNT; k++) {
		struct comparison *col[REPORT_MAX_WORKLOADS];

		for (w = 0; w < r->nwl; w++)
			col[w] = all[w * CMP_COUNT + k];
		ret = report_holm_and_judge(col, r->nwl);
	}
	overall_cmp = set_overall(r, set);
	for (k = 0; !ret && k < CMP_COUNT; k++) {
		/* A workload with nothing to compare in this column stays out. */
		for (w = n = 0; w < r->nwl; w++)
			if (used[w * CMP_COUNT + k] > 0)
				in[n++] = &ws[w * CMP_COUNT + k];
		block_series_mean(in, n, &overall);
		overall_cmp[k].band = set == ROWS_ALL ? r->cal_band_overall : 0;
		report_fit_comparison(&overall, &overall_cmp[k]);
		all[k] = &overall_cmp[k];
	}
	free(ws);
	return ret ?: report_holm_and_judge(all, CMP_COUNT);
}

static int workload_verdicts(struct report *r)
{
	int set, w, ret = 0;

	for (set = 0; !ret && set < ROW_SETS; set++)
		ret = judge_set(r, set);
	for (w = 0; !ret && w < r->nwl; w++) {
		breakeven(&r->wl[w]);
		r->wl[w].emulation_biased = emulation_bias(r, &r->wl[w]);
	}
	return ret;
}

int report_compute(struct report *r)
{
	int i, k;

	for (i = 0; i < r->nrows; i++) {
		struct report_row *row = &r->rows[i];

		for (k = 0; k < MODE_COUNT; k++) {
			struct mode_stats *ms = &row->m[k];

			if (!ms->n)
				continue;
			if (row->kind == ROW_PERCENTILE)
				summarise_percentile(ms, row->percentile, r->seed + i * MODE_COUNT + k);
			else if (stats_summarise(ms->values, ms->n, row->kind == ROW_HARMONIC ?
						 MEAN_HARMONIC : MEAN_ARITH, REPORT_LEVEL, &ms->s)) {
				/*
				 * A zero or negative rate has no harmonic mean:
				 * report the arithmetic one, and say so.
				 */
				stats_summarise(ms->values, ms->n, MEAN_ARITH, REPORT_LEVEL, &ms->s);
				ms->arith_fallback = 1;
			}
		}
	}
	return report_compute_verdicts(r);
}

int report_compute_verdicts(struct report *r)
{
	struct comparison **cs = malloc(sizeof(*cs) * (r->nrows + 1));
	int i, k, ret;

	if (!cs)
		return -ENOMEM;
	for (i = 0; i < r->nrows; i++)
		for (k = 0; k < CMP_COUNT; k++)
			report_compare_stats(&r->rows[i].m[report_cmps[k].a],
					     &r->rows[i].m[report_cmps[k].b], &r->rows[i],
					     &r->rows[i].cmp[k]);
	/* Each comparison column of the row table is one family. */
	for (k = ret = 0; !ret && k < CMP_COUNT; k++) {
		for (i = 0; i < r->nrows; i++)
			cs[i] = &r->rows[i].cmp[k];
		ret = report_holm_and_judge(cs, r->nrows);
	}
	free(cs);
	return ret ?: workload_verdicts(r);
}
