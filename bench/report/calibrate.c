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

static double mean_of(const double *x, int n, enum mean_kind kind, int *bad)
{
	struct summary s;

	if (stats_summarise(x, n, kind, 0.95, &s)) {
		*bad = 1;
		return NAN;
	}
	return s.mean;
}

double calibrate_band(const double *values, int n, enum mean_kind kind, int *splits)
{
	double a[CALIBRATE_MAX_N / 2], b[CALIBRATE_MAX_N / 2], band = 0;
	unsigned int mask, half;
	int bad = 0;

	n &= ~1;
	if (n < 4 || n > CALIBRATE_MAX_N)
		return -EINVAL;
	half = n / 2;
	*splits = 0;
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
		/* Symmetric on the log scale: A/B = 1.05 and B/A = 1.05 alike. */
		band = fmax(band, fmax(ratio, 1 / ratio) - 1);
		(*splits)++;
	}
	return band;
}

void calibrate_default_path(const char *run_dir, const char *profile, char *path,
			    size_t len)
{
	char parent[4096];

	snprintf(parent, sizeof(parent), "%s", run_dir);
	while (strlen(parent) > 1 && parent[strlen(parent) - 1] == '/')
		parent[strlen(parent) - 1] = '\0';
	if (strrchr(parent, '/'))
		*strrchr(parent, '/') = '\0';
	else
		snprintf(parent, sizeof(parent), ".");
	snprintf(path, len, "%s/calibration-%s.json", parent, profile);
}

int calibrate_write(const char *run_dir, const char *mode, char *path,
		    size_t pathlen, char *err, size_t errlen)
{
	static struct report r;
	json_t *rows = json_array(), *o;
	int m = mode_lookup(mode), i, n = 0;
	char *text;

	if (m < 0) {
		snprintf(err, errlen, "unknown mode '%s'", mode);
		json_decref(rows);
		return -1;
	}
	if (report_load(run_dir, &r, err, errlen)) {
		json_decref(rows);
		return -1;
	}
	for (i = 0; i < r.nrows; i++) {
		const struct report_row *row = &r.rows[i];
		int splits = 0, cnt = row->m[m].n;
		double band;

		if (cnt > CALIBRATE_MAX_N)
			cnt = CALIBRATE_MAX_N;
		band = calibrate_band(row->m[m].values, cnt, row->kind == ROW_HARMONIC ?
				      MEAN_HARMONIC : MEAN_ARITH, &splits);
		if (band < 0)
			continue;
		json_array_append_new(rows, json_pack("{s:s,s:s,s:s,s:i,s:i,s:f}",
			"workload", row->workload, "tenant", row->tenant, "metric", row->metric,
			"n", cnt, "splits", splits, "band", band));
		n++;
	}
	report_free(&r);
	if (!n) {
		snprintf(err, errlen, "%s: no row has 4 or more ok cells in mode %s "
			 "(calibrate needs --reps 4 or more)", run_dir, mode);
		json_decref(rows);
		return -1;
	}
	if (!path[0])
		calibrate_default_path(r.dir, r.profile, path, pathlen);
	/* Noise under TCG says nothing about a KVM host, and back. */
	o = json_pack("{s:i,s:s,s:s,s:s,s:s,s:o}", "schema", 1, "profile", r.profile,
		      "accel", r.accel, "mode", mode, "run", r.run, "rows", rows);
	text = json_dumps(o, JSON_INDENT(1) | JSON_SORT_KEYS);
	json_decref(o);
	if (!text || write_atomic(path, text, strlen(text))) {
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
		free(text);
		return -1;
	}
	free(text);
	return n;
}
