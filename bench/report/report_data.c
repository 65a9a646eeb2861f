// SPDX-License-Identifier: GPL-2.0
/*
 * report.csv and report.json: the same figures as report.md for programs.
 * The CSV has one record per row and mode, with the comparisons in which
 * that mode comes first. The JSON is versioned (REPORT_SCHEMA) and keeps
 * the per-cell values, so compare and history can test differences.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <string.h>

#include "../lib/paths.h"
#include "report.h"

static const char *const row_kinds[] = {
	[ROW_ARITH] = "arithmetic", [ROW_HARMONIC] = "harmonic",
	[ROW_PERCENTILE] = "percentile",
};

/*
 * No figure (NAN) is an empty field; an unbounded one (an interval end in
 * a histogram's overflow) is "inf", as in report.md and report.json.
 */
static void csv_num(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, ",%.6g", v);
	else if (isinf(v))
		fputs(v > 0 ? ",inf" : ",-inf", out);
	else
		fputs(",", out);
}

/*
 * A text field as RFC 4180 has it: quoted, with quotes doubled, when it
 * holds a comma, a quote or a line break (a unit such as "ops, total"
 * must not shift the columns after it); as is otherwise. @sep goes first.
 */
static void csv_text(FILE *out, const char *sep, const char *s)
{
	fputs(sep, out);
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, out);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

int report_write_csv(const struct report *r, FILE *out)
{
	int i, m, k;

	fprintf(out, "workload,tenant,metric,unit,higher_is_better,mean_kind,mode,n,"
		"mean,ci_lo,ci_hi,sd,cv,censored");
	/* Named by both modes: smt-off is the reference of two comparisons. */
	for (k = 0; k < CMP_COUNT; k++)
		fprintf(out, ",%1$s_vs_%2$s_ratio,%1$s_vs_%2$s_lo,%1$s_vs_%2$s_hi,"
			"%1$s_vs_%2$s_p_adj,%1$s_vs_%2$s_mde,%1$s_vs_%2$s_verdict",
			mode_name(report_cmps[k].a), mode_name(report_cmps[k].b));
	fputc('\n', out);
	for (i = 0; i < r->nrows; i++) {
		const struct report_row *row = &r->rows[i];

		for (m = 0; m < MODE_COUNT; m++) {
			const struct mode_stats *ms = &row->m[m];

			if (!ms->n)
				continue;
			csv_text(out, "", row->workload);
			csv_text(out, ",", row->tenant);
			csv_text(out, ",", row->metric);
			csv_text(out, ",", row->unit);
			fprintf(out, ",%d,%s,%s,%d", row->higher_is_better,
				ms->arith_fallback ? row_kinds[ROW_ARITH] : row_kinds[row->kind],
				mode_name(m), ms->n);
			csv_num(out, ms->s.mean);
			csv_num(out, ms->s.ci_lo);
			csv_num(out, ms->s.ci_hi);
			csv_num(out, ms->s.sd);
			csv_num(out, ms->s.cv);
			fprintf(out, ",%d", ms->censored);
			for (k = 0; k < CMP_COUNT; k++) {
				const struct comparison *c = &row->cmp[k];

				if ((int)report_cmps[k].a != m || !c->valid) {
					fputs(",,,,,,", out);
					continue;
				}
				csv_num(out, c->ratio);
				csv_num(out, c->lo);
				csv_num(out, c->hi);
				csv_num(out, c->p_adj);
				csv_num(out, c->mde);
				fprintf(out, ",%s", verdict_name(c->verdict));
			}
			fputc('\n', out);
		}
	}
	return ferror(out) ? -EIO : 0;
}

/* JSON has no NAN or infinity: null is "no figure", "inf" unbounded. */
static json_t *num(double v)
{
	if (isinf(v))
		return json_string(v > 0 ? "inf" : "-inf");
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *cmp_json(const struct comparison *c)
{
	if (!c->valid)
		return json_null();
	return json_pack("{s:o,s:[o,o],s:o,s:[o,o],s:o,s:o,s:o,s:s,s:i,s:i,s:b,s:i,s:o,s:o}",
			 "ratio", num(c->ratio), "ci", num(c->lo), num(c->hi),
			 "gain", num(c->gain), "gain_ci", num(c->gain_lo), num(c->gain_hi),
			 "p", num(c->p), "p_adj", num(c->p_adj), "noise_band", num(c->band),
			 "verdict", verdict_name(c->verdict), "blocks", c->n_blocks,
			 "censored_blocks", c->n_censored, "censor_conflict", c->censor_conflict,
			 "holm_family", c->family, "mde", num(c->mde),
			 "se_log", num(c->se_log));
}

static json_t *row_json(const struct report_row *row)
{
	json_t *o = json_pack("{s:s,s:s,s:s,s:s,s:b,s:s}", "workload", row->workload,
			      "tenant", row->tenant, "metric", row->metric, "unit", row->unit,
			      "higher_is_better", row->higher_is_better,
			      "mean_kind", row_kinds[row->kind]);
	json_t *modes = json_object(), *cmps = json_object();
	int m, k, i;

	if (row->kind == ROW_PERCENTILE)
		json_object_set_new(o, "percentile", json_real(row->percentile));
	for (m = 0; m < MODE_COUNT; m++) {
		const struct mode_stats *ms = &row->m[m];
		json_t *values;

		/* A mode without values gets no entry (and allocates nothing). */
		if (!ms->n)
			continue;
		values = json_array();
		for (i = 0; i < ms->n; i++)
			json_array_append_new(values, json_real(ms->values[i]));
		json_object_set_new(modes, mode_name(m), json_pack(
			"{s:i,s:o,s:o,s:[o,o],s:o,s:o,s:b,s:s}", "n", ms->n, "values", values,
			"mean", num(ms->s.mean), "ci", num(ms->s.ci_lo), num(ms->s.ci_hi),
			"sd", num(ms->s.sd), "cv", num(ms->s.cv), "censored", ms->censored,
			"mean_kind", ms->arith_fallback ? row_kinds[ROW_ARITH] :
			row_kinds[row->kind]));
	}
	for (k = 0; k < CMP_COUNT; k++)
		json_object_set_new(cmps, report_cmps[k].label, cmp_json(&row->cmp[k]));
	json_object_set_new(o, "modes", modes);
	json_object_set_new(o, "comparisons", cmps);
	return o;
}

/* One comparison object per label, from @c[CMP_COUNT]. */
static json_t *cmps_json(const struct comparison *c)
{
	json_t *o = json_object();
	int k;

	for (k = 0; k < CMP_COUNT; k++)
		json_object_set_new(o, report_cmps[k].label, cmp_json(&c[k]));
	return o;
}

static json_t *workload_json(const struct report_workload *wl)
{
	json_t *o = json_pack("{s:s,s:o,s:[o,o]}", "name", wl->name,
			      "breakeven_smt_yield", num(wl->breakeven_yield),
			      "breakeven_smt_yield_range", num(wl->breakeven_lo),
			      num(wl->breakeven_hi));
	json_t *modes = json_object();
	int m;

	json_object_set_new(o, "throughput", cmps_json(wl->throughput));
	json_object_set_new(o, "latency", cmps_json(wl->latency));
	json_object_set_new(o, "emulation_biased", wl->emulation_biased < 0 ? json_null() :
			    json_boolean(wl->emulation_biased));
	for (m = 0; m < MODE_COUNT; m++) {
		const struct mode_extra *x = &wl->x[m];

		if (!x->cells)
			continue;
		json_object_set_new(modes, mode_name(m), json_pack(
			"{s:i,s:o,s:o,s:I,s:I,s:I,s:I,s:o,s:o,s:o}", "cells", x->cells,
			"forced_idle_pct", num(x->forced_idle_pct),
			"cpu_util_pct", num(x->cpu_util_pct), "windows", (json_int_t)x->windows,
			"handoff", (json_int_t)x->handoff, "unexplained", (json_int_t)x->unexplained,
			"truncated", (json_int_t)x->truncated,
			"handoff_max_us", num(x->handoff_max_us),
			"pair_share_pct", num(x->pair_share_pct),
			"both_busy_share", num(x->both_busy_share)));
	}
	json_object_set_new(o, "verdicts", cmps_json(wl->verdict));
	json_object_set_new(o, "modes", modes);
	return o;
}

int report_write_json(const struct report *r, const char *path)
{
	json_t *o, *rows = json_array(), *wls = json_array(), *overall = cmps_json(r->overall);
	json_t *failed = json_array();
	int i, ret;

	for (i = 0; i < r->nrows; i++)
		json_array_append_new(rows, row_json(&r->rows[i]));
	for (i = 0; i < r->nwl; i++)
		json_array_append_new(wls, workload_json(&r->wl[i]));
	for (i = 0; i < r->nfailed; i++)
		json_array_append_new(failed, json_string(r->failed[i]));
	o = json_pack("{s:i,s:s,s:s,s:{s:s,s:s,s:s,s:s,s:s,s:i,s:s,s:s,s:s,s:i},"
		      "s:{s:i,s:i,s:i,s:o},s:{s:f,s:f,s:s,s:i,s:I,s:s},s:o,s:o,s:o}",
		      "schema", REPORT_SCHEMA, "csbench_version", CSBENCH_VERSION, "run", r->run,
		      "setup", "profile", r->profile, "revision", r->revision,
		      "kernel_key", r->kernel_key, "release", r->release, "accel", r->accel,
		      "reps", r->reps, "pinning", r->pinning, "host_cpu", r->host_cpu,
		      "guest_topology", r->topology, "host_cpus", r->host_cpus,
		      "cells", "total", r->cells, "ok", r->ok, "expected", r->expected_cells,
		      "failed", failed,
		      "method", "level", REPORT_LEVEL, "alpha", REPORT_ALPHA,
		      "correction", r->correction, "bootstrap_iters", REPORT_BOOT_ITERS,
		      "seed", (json_int_t)r->seed, "calibration", report_calibration_name(r),
		      "overall", overall, "workloads", wls, "rows", rows);
	if (!o)
		return -ENOMEM;
	json_object_set_new(o, "overall_throughput", cmps_json(r->overall_throughput));
	json_object_set_new(o, "overall_latency", cmps_json(r->overall_latency));
	json_object_set_new(json_object_get(o, "setup"), "emulation",
			    json_pack("{s:s,s:s}", "key", r->emulation_key, "name", r->emulation_name));
	if (r->fid_boots)
		json_object_set_new(json_object_get(o, "setup"), "fidelity",
			json_pack("{s:i,s:f,s:f,s:f,s:f,s:f}", "boots", r->fid_boots,
				  "sibling_idle_avg_us", r->fid_idle_avg_us,
				  "sibling_busy_avg_us", r->fid_busy_avg_us,
				  "sibling_busy_p99_us", r->fid_busy_p99_us,
				  "sibling_busy_missed_pct", r->fid_busy_missed_pct,
				  "sibling_rtt_avg_us", r->fid_rtt_avg_us));
	json_object_set_new(json_object_get(o, "setup"), "image",
			    json_pack("{s:s,s:s,s:s,s:s,s:b,s:i,s:i,s:o}", "kind", r->image_kind,
				      "name", r->image_name, "format", r->image_format,
				      "sha256", r->image_sha256, "changed", r->image_changed,
				      "boots", r->image_boots, "boots_clean", r->image_boots_clean,
				      "background_pct", r->image_background_pct >= 0 ?
				      json_real(r->image_background_pct) : json_null()));
	ret = json_write_atomic(path, o, JSON_INDENT(1) | JSON_SORT_KEYS | JSON_REAL_PRECISION(10));
	json_decref(o);
	return ret;
}
