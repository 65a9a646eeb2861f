// SPDX-License-Identifier: GPL-2.0
/* A yield sweep's comparison across yields (see sweep.h). */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../lib/paths.h"
#include "smtyield.h"
#include "sweep.h"

const int sweep_cmp[SWEEP_CMPS] = { CMP_CS_OFF, CMP_ON_OFF };

double sweep_first_reach(const double *x, const double *g, int n)
{
	double px = NAN, pg = NAN;
	int i;

	for (i = 0; i < n; i++) {
		if (isnan(g[i]) || g[i] <= 0)
			continue;
		if (g[i] >= 1) {
			if (isnan(px))
				return -INFINITY;
			/* log g linear in x between the two points */
			return px + (x[i] - px) * (0 - log(pg)) / (log(g[i]) - log(pg));
		}
		px = x[i];
		pg = g[i];
	}
	return isnan(px) ? NAN : INFINITY;
}

struct sweep_cross sweep_crossover(const double *x, const double *g, const double *lo,
				   const double *hi, int n)
{
	struct sweep_cross c = { NAN, NAN, NAN, 0 };
	double first = NAN;
	int i;

	for (i = 0; i < n; i++) {
		if (isnan(g[i]))
			return c;
		if (isnan(first))
			first = x[i];
	}
	if (!n)
		return c;
	c.valid = 1;
	c.at = sweep_first_reach(x, g, n);
	/* The optimistic end of the intervals gets there first. */
	c.range_lo = sweep_first_reach(x, hi, n);
	c.range_hi = sweep_first_reach(x, lo, n);
	/* Even the pessimistic end is there at the first yield: at most that. */
	if (c.range_hi == -INFINITY)
		c.range_hi = first;
	/* Not even the optimistic end gets there: above the highest yield. */
	if (c.range_lo == INFINITY)
		c.range_lo = x[n - 1];
	if (isnan(c.range_lo))
		c.range_lo = -INFINITY;	/* no upper interval ends: open */
	if (isnan(c.range_hi))
		c.range_hi = INFINITY;
	return c;
}

/* Do [a, b] and [c, d] overlap (infinite ends allowed)? */
static int overlap(double a, double b, double c, double d)
{
	return a <= d && c <= b;
}

/*
 * The model's breakeven from the Y = 1.0 run alone, taken at the yield
 * that run measured (the crossover is read on measured yields too), with
 * the range its throughput interval allows.
 */
static void predict(const struct sweep *s, struct sweep_workload *sw)
{
	const struct report *base;
	const struct comparison *thr;
	double c, y0;

	sw->predicted = sw->predicted_lo = sw->predicted_hi = NAN;
	if (s->base < 0)
		return;
	base = s->pt[s->base];
	thr = &base->wl[report_find_workload(base, sw->name)].throughput[CMP_CS_OFF];
	c = base->wl[report_find_workload(base, sw->name)].x[MODE_CORESCHED].both_busy_share;
	y0 = s->yield[s->base] < 1 ? 1 : s->yield[s->base];
	if (!thr->valid || isnan(c))
		return;
	sw->predicted = smt_breakeven_yield_at(thr->gain, c, y0);
	/* A higher gain needs less yield: the ends swap. */
	sw->predicted_lo = isnan(thr->gain_hi) ? sw->predicted :
			   smt_breakeven_yield_at(thr->gain_hi, c, y0);
	sw->predicted_hi = isnan(thr->gain_lo) ? sw->predicted :
			   smt_breakeven_yield_at(thr->gain_lo, c, y0);
}

int sweep_compute(struct sweep *s, char *err, size_t errlen)
{
	const struct report *first = s->pt[0];
	int w, k, p;

	s->nwl = first->nwl;
	for (w = 0; w < first->nwl; w++) {
		struct sweep_workload *sw = &s->wl[w];

		snprintf(sw->name, sizeof(sw->name), "%s", first->wl[w].name);
		for (p = 0; p < s->npt; p++) {
			int i = report_find_workload(s->pt[p], sw->name);

			if (i < 0 || s->pt[p]->nwl != first->nwl) {
				snprintf(err, errlen, "%s and %s do not hold the same workloads "
					 "(%s): a sweep runs one matrix at every yield",
					 first->dir, s->pt[p]->dir, sw->name);
				return -1;
			}
			for (k = 0; k < SWEEP_CMPS; k++) {
				const struct comparison *c = &s->pt[p]->wl[i].throughput[sweep_cmp[k]];

				sw->gain[k][p] = c->valid ? c->ratio : NAN;
				sw->lo[k][p] = c->valid && !isnan(c->lo) ? c->lo : NAN;
				sw->hi[k][p] = c->valid && !isnan(c->hi) ? c->hi : NAN;
			}
		}
		for (k = 0; k < SWEEP_CMPS; k++)
			sw->cross[k] = sweep_crossover(s->yield, sw->gain[k], sw->lo[k], sw->hi[k],
						       s->npt);
		predict(s, sw);
		sw->agree = -1;
		if (!isnan(sw->predicted) && sw->cross[0].valid)
			sw->agree = overlap(sw->cross[0].range_lo, sw->cross[0].range_hi,
					    sw->predicted_lo, sw->predicted_hi);
	}
	return 0;
}

/* ---- markdown ------------------------------------------------------------ */

static const char *fmt_gain(double g, double lo, double hi, char *buf, size_t len)
{
	if (isnan(g))
		snprintf(buf, len, "n/a");
	else if (isnan(lo))
		snprintf(buf, len, "%+.1f%%", (g - 1) * 100);
	else
		snprintf(buf, len, "%+.1f%% [%+.1f, %+.1f]", (g - 1) * 100, (lo - 1) * 100,
			 (hi - 1) * 100);
	return buf;
}

/* A yield, or an open end: "<= 1.00" below the lowest, "> 1.30" above. */
static const char *fmt_yield(const struct sweep *s, double y, char *buf, size_t len)
{
	if (isnan(y))
		snprintf(buf, len, "n/a");
	else if (y == -INFINITY)
		snprintf(buf, len, "<= %.2f", s->yield[0]);
	else if (y == INFINITY)
		snprintf(buf, len, "> %.2f", s->yield[s->npt - 1]);
	else
		snprintf(buf, len, "%.2f", y);
	return buf;
}

static const char *fmt_cross(const struct sweep *s, const struct sweep_cross *c, char *buf,
			     size_t len)
{
	char at[32];

	if (!c->valid) {
		snprintf(buf, len, "n/a (a yield without gain)");
		return buf;
	}
	fmt_yield(s, c->at, at, sizeof(at));
	if (c->range_lo == -INFINITY && c->range_hi == INFINITY)
		snprintf(buf, len, "%s [anywhere]", at);
	else if (c->range_lo == -INFINITY)
		snprintf(buf, len, "%s [<= %.2f]", at, c->range_hi);
	else if (c->range_hi == INFINITY && c->range_lo == s->yield[s->npt - 1])
		snprintf(buf, len, "%s [> %.2f]", at, c->range_lo);
	else if (c->range_hi == INFINITY)
		snprintf(buf, len, "%s [>= %.2f]", at, c->range_lo);
	else
		snprintf(buf, len, "%s [%.2f, %.2f]", at, c->range_lo, c->range_hi);
	return buf;
}

static const char *fmt_model_yield(double y, char *buf, size_t len)
{
	if (isnan(y))
		snprintf(buf, len, "n/a");
	else if (y > 2)
		snprintf(buf, len, ">2");
	else
		snprintf(buf, len, "%.2f", y);
	return buf;
}

static void md_points(const struct sweep *s, FILE *out)
{
	int p;

	fprintf(out, "| run | target yield | measured yield (median [min, max] of its boots) "
		"| boots off by >%.0f%% | blocks | cells ok |\n|---|---|---|---|---|---|\n",
		REPORT_YIELD_TOLERANCE * 100);
	for (p = 0; p < s->npt; p++) {
		const struct report *r = s->pt[p];

		if (r->yield_boots)
			fprintf(out, "| %s | %.2f | %.3f [%.3f, %.3f] of %d | %d | %d | %d/%d |\n",
				r->run, r->yield_target, r->yield_median, r->yield_min,
				r->yield_max, r->yield_boots, r->yield_off_boots, r->nblocks,
				r->ok, r->expected_cells ?: r->cells);
		else
			fprintf(out, "| %s | %.2f | not measured (the target is used) | - | %d "
				"| %d/%d |\n", r->run, r->yield_target, r->nblocks, r->ok,
				r->expected_cells ?: r->cells);
	}
}

static void md_table(const struct sweep *s, int k, FILE *out)
{
	char buf[96], cross[96], lo[16], hi[16], at[16];
	int w, p;

	fprintf(out, "| workload |");
	for (p = 0; p < s->npt; p++)
		fprintf(out, " Y %.2f |", s->yield[p]);
	fprintf(out, " measured crossover |%s\n|---|", k ? "" :
		" predicted breakeven (Y = 1.0 run) | model vs measurement |");
	for (p = 0; p < s->npt + 1 + (k ? 0 : 2); p++)
		fprintf(out, "---|");
	fprintf(out, "\n");
	for (w = 0; w < s->nwl; w++) {
		const struct sweep_workload *sw = &s->wl[w];

		fprintf(out, "| %s |", sw->name);
		for (p = 0; p < s->npt; p++)
			fprintf(out, " %s |", fmt_gain(sw->gain[k][p], sw->lo[k][p], sw->hi[k][p],
						      buf, sizeof(buf)));
		fprintf(out, " %s |", fmt_cross(s, &sw->cross[k], cross, sizeof(cross)));
		if (!k) {
			fmt_model_yield(sw->predicted, at, sizeof(at));
			fmt_model_yield(sw->predicted_lo, lo, sizeof(lo));
			fmt_model_yield(sw->predicted_hi, hi, sizeof(hi));
			if (isnan(sw->predicted))
				fprintf(out, " n/a |");
			else
				fprintf(out, " %s [%s, %s] |", at, lo, hi);
			fprintf(out, " %s |", sw->agree < 0 ? "-" : sw->agree ? "agree" :
				"**disagree**");
		}
		fprintf(out, "\n");
	}
}

/* The kinds of crossover a workload can have, in the order md_answer says them. */
enum cross_kind { CROSS_AT, CROSS_BEYOND, CROSS_UNPLACED, CROSS_NONE, CROSS_KINDS };

static enum cross_kind cross_kind(const struct sweep_cross *c)
{
	if (!c->valid)
		return CROSS_NONE;
	if (c->range_lo == -INFINITY && c->range_hi == INFINITY)
		return CROSS_UNPLACED;
	return c->at == INFINITY ? CROSS_BEYOND : CROSS_AT;
}

/*
 * The sweep's answer in one line: per workload where coresched's
 * throughput reaches smt-off's, in words, grouped by kind.
 */
static void md_answer(const struct sweep *s, FILE *out)
{
	static const char *const lead[CROSS_KINDS] = {
		[CROSS_AT] = "coresched's throughput reaches smt-off's at",
		[CROSS_BEYOND] = "not by %.2f for",
		[CROSS_UNPLACED] = "no crossover placed (its range spans the sweep) for",
		[CROSS_NONE] = "no gain at some yield, so no crossover, for",
	};
	char cross[96];
	int k, w, n, said = 0;

	fprintf(out, "**Answer:** ");
	for (k = 0; k < CROSS_KINDS; k++) {
		for (w = n = 0; w < s->nwl; w++) {
			const struct sweep_cross *c = &s->wl[w].cross[0];

			if (cross_kind(c) != (enum cross_kind)k)
				continue;
			if (!n++) {
				fprintf(out, "%s", said++ ? "; " : "");
				fprintf(out, lead[k], s->yield[s->npt - 1]);
			}
			fmt_cross(s, c, cross, sizeof(cross));
			fprintf(out, "%s ", n > 1 ? "," : "");
			if (k == CROSS_AT)	/* "Y 1.04 [<= 1.36] for cpu-vs-cpu" */
				fprintf(out, "Y %s for %s", cross, s->wl[w].name);
			else if (k == CROSS_BEYOND)	/* the range only: "> 1.44" is said */
				fprintf(out, "%s (range %s)", s->wl[w].name,
					strchr(cross, '[') ? strchr(cross, '[') : cross);
			else
				fprintf(out, "%s", s->wl[w].name);
		}
	}
	if (!said)
		fprintf(out, "no workloads");
	fprintf(out, ". Yields are the measured ones; ranges in [ ] are pointwise intervals "
		"joined, not confidence intervals.\n\n");
}

void sweep_write_md(const struct sweep *s, FILE *out)
{
	int w, agree = 0, disagree = 0;

	fprintf(out, "# csbench yield sweep: %s\n\n", s->dir);
	md_answer(s, out);
	fprintf(out, "The same matrix at each emulated SMT yield (TCG, `--smt-yield`), the "
		"runs' blocks interleaved boot by boot. Gains are over the throughput rows "
		"(rates and run times of fixed work), paired by block within each run, "
		"with 95%% intervals; the yields in the column heads are the measured ones.\n\n");
	md_points(s, out);
	fprintf(out, "\n## coresched vs smt-off\n\n");
	md_table(s, 0, out);
	fprintf(out, "\n## smt-on vs smt-off\n\n");
	md_table(s, 1, out);
	for (w = 0; w < s->nwl; w++) {
		agree += s->wl[w].agree == 1;
		disagree += s->wl[w].agree == 0;
	}
	fprintf(out, "\n## How to read it\n\n"
		"The **measured crossover** is the yield at which coresched's throughput "
		"first reaches smt-off's, interpolated (log gain linear in the yield) between "
		"the two measured yields around it; its range runs from where the upper ends "
		"of the gains' intervals reach 0 to where the lower ends do (pointwise "
		"intervals joined: a range, not a confidence interval of its own; `<=` and "
		"`>` are open ends at the sweep's lowest and highest yield). The **predicted "
		"breakeven** is the model's (`bench/report/smtyield.h`) from the Y = 1.0 "
		"run alone, taken at the yield that run measured, with the range its "
		"throughput interval allows. Model and "
		"measurement **disagree** where the two ranges do not overlap: either the "
		"model's assumptions (smt-off independent of Y, pairing carried over) or the "
		"emulation is wrong for that workload.\n\n");
	if (s->base < 0)
		fprintf(out, "No run at Y = 1.0: nothing predicted.\n");
	else
		fprintf(out, "Model vs measurement: %d of %d workloads agree, %d disagree.\n",
			agree, s->nwl, disagree);
}

/* ---- JSON ---------------------------------------------------------------- */

static json_t *num(double x)
{
	if (isnan(x))
		return json_null();
	if (isinf(x))
		return json_string(x > 0 ? "above" : "below");
	return json_real(x);
}

int sweep_write_json(const struct sweep *s, const char *path)
{
	json_t *o = json_object(), *pts = json_array(), *wls = json_array();
	int p, w, k, ret;

	for (p = 0; p < s->npt; p++) {
		const struct report *r = s->pt[p];

		json_array_append_new(pts, json_pack("{s:s,s:f,s:o,s:o,s:o,s:i,s:i,s:i,s:i,s:i}",
			"run", r->run, "target", r->yield_target, "yield", num(s->yield[p]),
			"yield_min", num(r->yield_boots ? r->yield_min : NAN),
			"yield_max", num(r->yield_boots ? r->yield_max : NAN),
			"boots_measured", r->yield_boots, "boots_off", r->yield_off_boots,
			"blocks", r->nblocks, "cells_ok", r->ok,
			"cells_planned", r->expected_cells ?: r->cells));
	}
	for (w = 0; w < s->nwl; w++) {
		const struct sweep_workload *sw = &s->wl[w];
		json_t *o_wl = json_pack("{s:s,s:o,s:[o,o]}", "name", sw->name,
					 "predicted_breakeven", num(sw->predicted),
					 "predicted_breakeven_range", num(sw->predicted_lo),
					 num(sw->predicted_hi));

		for (k = 0; k < SWEEP_CMPS; k++) {
			json_t *gains = json_array();

			for (p = 0; p < s->npt; p++)
				json_array_append_new(gains, json_pack("{s:o,s:[o,o]}",
					"gain", num(sw->gain[k][p]), "ci", num(sw->lo[k][p]),
					num(sw->hi[k][p])));
			json_object_set_new(o_wl, report_cmps[sweep_cmp[k]].label, json_pack(
				"{s:o,s:o,s:[o,o]}", "gains", gains, "crossover",
				num(sw->cross[k].valid ? sw->cross[k].at : NAN), "crossover_range",
				num(sw->cross[k].valid ? sw->cross[k].range_lo : NAN),
				num(sw->cross[k].valid ? sw->cross[k].range_hi : NAN)));
		}
		json_object_set_new(o_wl, "model_vs_measurement", sw->agree < 0 ? json_null() :
				    json_string(sw->agree ? "agree" : "disagree"));
		json_array_append_new(wls, o_wl);
	}
	json_object_set_new(o, "schema", json_integer(1));
	json_object_set_new(o, "dir", json_string(s->dir));
	json_object_set_new(o, "points", pts);
	json_object_set_new(o, "workloads", wls);
	ret = json_write_atomic(path, o, JSON_INDENT(1) | JSON_SORT_KEYS);
	json_decref(o);
	return ret;
}
