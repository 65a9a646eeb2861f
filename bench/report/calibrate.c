// SPDX-License-Identifier: GPL-2.0
/* A/A noise bands from one mode's repetitions (see calibrate.h). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/paths.h"
#include "calibrate.h"
#include "report.h"

/* At most C(16, 8) / 2 splits. */
#define MAX_SPLITS	6435

static double mean_of(const double *x, int n, enum mean_kind kind, int *bad)
{
	struct summary s;

	if (stats_summarise(x, n, kind, 0.95, &s)) {
		*bad = 1;
		return NAN;
	}
	return s.mean;
}

int calibrate_split_logs(const double *values, int n, enum mean_kind kind,
			 double *logs)
{
	double a[CALIBRATE_MAX_N / 2], b[CALIBRATE_MAX_N / 2];
	unsigned int mask, half;
	int bad = 0, splits = 0;

	n &= ~1;
	if (n < 4 || n > CALIBRATE_MAX_N)
		return -EINVAL;
	half = n / 2;
	/* Value 0 always in A: each split once, not once per side. */
	for (mask = 1; mask < 1u << n; mask += 2) {
		int na = 0, nb = 0, i;
		double ratio;

		if ((unsigned int)__builtin_popcount(mask) != half)
			continue;
		for (i = 0; i < n; i++) {
			if (mask & (1u << i))
				a[na++] = values[i];
			else
				b[nb++] = values[i];
		}
		ratio = mean_of(a, na, kind, &bad) / mean_of(b, nb, kind, &bad);
		if (bad || !isfinite(ratio) || ratio <= 0)
			return -EDOM;
		logs[splits++] = log(ratio);
	}
	return splits;
}

/* The widest split, as a fraction: log-symmetric, A/B = 1.05 and B/A alike. */
static double widest(const double *logs, int splits)
{
	double band = 0;
	int i;

	for (i = 0; i < splits; i++)
		band = fmax(band, fabs(logs[i]));
	return expm1(band);
}

double calibrate_band(const double *values, int n, enum mean_kind kind, int *splits)
{
	double logs[MAX_SPLITS];

	*splits = calibrate_split_logs(values, n, kind, logs);
	return *splits < 0 ? *splits : widest(logs, *splits);
}

void calibrate_default_path(const char *run_dir, const char *profile,
			    const char *accel, char *path, size_t len)
{
	char parent[4096];

	snprintf(parent, sizeof(parent), "%s", run_dir);
	while (strlen(parent) > 1 && parent[strlen(parent) - 1] == '/')
		parent[strlen(parent) - 1] = '\0';
	if (strrchr(parent, '/'))
		*strrchr(parent, '/') = '\0';
	else
		snprintf(parent, sizeof(parent), ".");
	snprintf(path, len, "%s/calibration-%s-%s.json", parent, profile, accel);
}

/*
 * Per workload (and over all of them) the same splits of the repetitions,
 * averaged over the rows on the log scale: what a workload's geometric
 * mean does between two halves of one mode, which is the band its verdict
 * must clear. Rows of one workload move together, so this is wider than
 * the rows' bands averaged as if independent.
 */
struct spread {
	double sum[MAX_SPLITS];
	int rows, splits;
};

static void spread_add(struct spread *s, const double *logs, int splits)
{
	int i;

	if (s->rows && splits != s->splits)
		return;		/* a row with other repetitions: not comparable */
	s->splits = splits;
	for (i = 0; i < splits; i++)
		s->sum[i] += logs[i];
	s->rows++;
}

static double spread_band(const struct spread *s)
{
	double mean[MAX_SPLITS];
	int i;

	for (i = 0; i < s->splits; i++)
		mean[i] = s->sum[i] / s->rows;
	return widest(mean, s->splits);
}

int calibrate_write(const char *run_dir, const char *mode, const char *out_dir,
		    char *path, size_t pathlen, char *err, size_t errlen)
{
	static struct report r;
	static struct spread wl[REPORT_MAX_WORKLOADS], all;
	static double logs[MAX_SPLITS], wl_logs[MAX_SPLITS];
	json_t *rows = json_array(), *wls = json_array(), *o;
	int m = mode_lookup(mode), i, w, n = 0, splits;
	char *text, accel[48];

	memset(wl, 0, sizeof(wl));
	memset(&all, 0, sizeof(all));
	if (m < 0) {
		snprintf(err, errlen, "unknown mode '%s'", mode);
		goto fail;
	}
	if (report_load(run_dir, &r, err, errlen)) {
		json_decref(rows);
		json_decref(wls);
		return -2;
	}
	for (i = 0; i < r.nrows; i++) {
		const struct report_row *row = &r.rows[i];
		int cnt = row->m[m].n < CALIBRATE_MAX_N ? row->m[m].n : CALIBRATE_MAX_N;

		splits = calibrate_split_logs(row->m[m].values, cnt, row->kind == ROW_HARMONIC ?
					      MEAN_HARMONIC : MEAN_ARITH, logs);
		if (splits < 0)
			continue;
		w = report_find_workload(&r, row->workload);
		/* Maxima carry no verdict; they would only widen the band. */
		if (w >= 0 && !(row->kind == ROW_PERCENTILE && row->percentile >= 100))
			spread_add(&wl[w], logs, splits);
		json_array_append_new(rows, json_pack("{s:s,s:s,s:s,s:i,s:i,s:f}",
			"workload", row->workload, "tenant", row->tenant, "metric", row->metric,
			"n", cnt, "splits", splits, "band", widest(logs, splits)));
		n++;
	}
	for (w = 0; w < r.nwl; w++) {
		if (!wl[w].rows)
			continue;
		for (i = 0; i < wl[w].splits; i++)
			wl_logs[i] = wl[w].sum[i] / wl[w].rows;
		spread_add(&all, wl_logs, wl[w].splits);
		json_array_append_new(wls, json_pack("{s:s,s:i,s:f}", "workload", r.wl[w].name,
						     "rows", wl[w].rows, "band", spread_band(&wl[w])));
	}
	report_free(&r);
	if (!n) {
		snprintf(err, errlen, "%s: no row has 4 or more ok cells in mode %s "
			 "(calibrate needs --reps 4 or more)", run_dir, mode);
		goto fail;
	}
	/* Bands at an emulated yield are not the uncapped ones: their own file. */
	if (r.yield_period_us)
		snprintf(accel, sizeof(accel), "%s-y%.2f", r.accel, r.yield_target);
	else
		snprintf(accel, sizeof(accel), "%s", r.accel);
	if (!path[0] && out_dir)
		snprintf(path, pathlen, "%s/calibration-%s-%s.json", out_dir, r.profile, accel);
	else if (!path[0])
		calibrate_default_path(r.dir, r.profile, accel, path, pathlen);
	/* Noise under TCG says nothing about a KVM host, and back. */
	o = json_pack("{s:i,s:s,s:s,s:s,s:s,s:o,s:o,s:f}", "schema", 2, "profile", r.profile,
		      "accel", r.accel, "mode", mode, "run", r.run, "rows", rows,
		      "workloads", wls, "overall_band", all.rows ? spread_band(&all) : 0.0);
	text = json_dumps(o, JSON_INDENT(1) | JSON_SORT_KEYS);
	json_decref(o);
	if (!text || write_atomic(path, text, strlen(text))) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		free(text);
		return -1;
	}
	free(text);
	return n;
fail:
	json_decref(rows);
	json_decref(wls);
	return -1;
}
