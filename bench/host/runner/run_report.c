// SPDX-License-Identifier: GPL-2.0
/*
 * The raw view of a run: arithmetic means per workload x metric x mode,
 * straight from the cells, for csbench show and for a run that stops
 * early; statistics proper (right means, CIs, tests, the verdict) are
 * csbench report's (bench/report/). Also the per-cell progress lines and
 * the checks csbench verify makes.
 */
#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/json_file.h"
#include "../../lib/cell_schema.h"
#include "../../lib/mode.h"
#include "../../lib/paths.h"
#include "run_image.h"
#include "run_report.h"

#define MAX_ROWS	256

struct row {
	char workload[64], metric[96], unit[32];
	int harmonic;		/* a rate: mean as csbench report takes it */
	double sum[MODE_COUNT];	/* of the values, or of 1/value for a rate */
	int n[MODE_COUNT];
	int censored[MODE_COUNT];	/* values that are only lower bounds */
};

void run_report_progress(const char *dir, const char *id, int done, int total,
			 int done_before, double elapsed_s, enum progress how)
{
	char path[4096];
	json_t *c, *m0;
	/* Cells a resumed run found finished took none of this run's time. */
	int ran = done - done_before;
	double eta = ran > 0 ? elapsed_s / ran * (total - done) : 0;

	if (how == PROGRESS_NONE)
		return;
	snprintf(path, sizeof(path), "%s/cells/%s.json", dir, id);
	c = json_load_regular(path, NULL);
	if (how == PROGRESS_JSON) {
		json_t *line = json_pack("{s:i,s:i,s:s,s:O,s:f,s:f}", "done", done,
					 "total", total, "cell", id, "status",
					 json_object_get(c, "status") ?: json_null(),
					 "elapsed_s", elapsed_s, "eta_s", eta);
		char *text = json_dumps(line, JSON_COMPACT);

		fprintf(stderr, "%s\n", text);
		free(text);
		json_decref(line);
		json_decref(c);
		return;
	}
	m0 = json_array_get(json_object_get(c, "metrics"), 0);
	fprintf(stderr, "[%d/%d] %s: %s", done, total, id,
		json_string_value(json_object_get(c, "status")) ?: "?");
	if (json_object_get(m0, "value"))
		fprintf(stderr, ", %s.%s %.4g %s",
			json_string_value(json_object_get(m0, "tenant")),
			json_string_value(json_object_get(m0, "metric")),
			json_number_value(json_object_get(m0, "value")),
			json_string_value(json_object_get(m0, "unit")));
	fprintf(stderr, ", elapsed %.0f s, ETA %.0f s\n", elapsed_s, eta);
	json_decref(c);
}

static struct row *find_row(struct row *rows, int *n, const char *wl,
			    const char *metric, const char *unit, int harmonic)
{
	int i;

	for (i = 0; i < *n; i++)
		if (!strcmp(rows[i].workload, wl) && !strcmp(rows[i].metric, metric))
			return &rows[i];
	if (*n == MAX_ROWS)
		return NULL;
	memset(&rows[*n], 0, sizeof(rows[*n]));
	snprintf(rows[*n].workload, sizeof(rows[*n].workload), "%s", wl);
	snprintf(rows[*n].metric, sizeof(rows[*n].metric), "%s", metric);
	snprintf(rows[*n].unit, sizeof(rows[*n].unit), "%s", unit);
	rows[*n].harmonic = harmonic;
	return &rows[(*n)++];
}

int run_report_table(const char *dir, FILE *out)
{
	static struct row rows[MAX_ROWS];
	char path[4096], key[96], file[256];
	struct dirent **names;
	int nrows = 0, ncells = 0, failed = 0, expected, i, k, n;
	json_t *man;

	snprintf(path, sizeof(path), "%s/cells", dir);
	n = scandir(path, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]->d_name);
		json_t *c, *m;
		const char *wl, *status;
		int mode;
		size_t j;

		if (len < 6 || strcmp(names[i]->d_name + len - 5, ".json")) {
			free(names[i]);
			continue;
		}
		snprintf(path, sizeof(path), "%s/cells/%s", dir, names[i]->d_name);
		snprintf(file, sizeof(file), "%s", names[i]->d_name);
		free(names[i]);
		c = json_load_regular(path, NULL);
		wl = json_string_value(json_object_get(c, "workload"));
		status = json_string_value(json_object_get(c, "status"));
		mode = mode_lookup(json_string_value(json_object_get(c, "mode")) ?: "");
		ncells++;
		/* Unreadable or malformed cells count as not ok, as in report. */
		if (!c || cell_validate(c, file, key, sizeof(key)) ||
		    !wl || mode < 0 || !status || strcmp(status, "ok")) {
			failed++;
			json_decref(c);
			continue;
		}
		json_array_foreach(json_object_get(c, "metrics"), j, m) {
			struct row *r;

			/* Only numbers count; a string or null is no value at all. */
			if (!json_is_number(json_object_get(m, "value")) ||
			    !json_is_string(json_object_get(m, "tenant")) ||
			    !json_is_string(json_object_get(m, "metric")))
				continue;
			snprintf(key, sizeof(key), "%s.%s%s",
				 json_string_value(json_object_get(m, "tenant")),
				 json_string_value(json_object_get(m, "metric")),
				 json_is_true(json_object_get(m, "higher_is_better")) ?
				 " (higher better)" : " (lower better)");
			r = find_row(rows, &nrows, wl, key,
				     json_string_value(json_object_get(m, "unit")) ?: "",
				     json_is_true(json_object_get(m, "higher_is_better")) &&
				     !json_is_number(json_object_get(m, "percentile")));
			if (r) {
				double v = json_number_value(json_object_get(m, "value"));

				/* Rates: the harmonic mean, as report's (a zero rate makes it 0). */
				r->sum[mode] += !r->harmonic ? v : v > 0 ? 1 / v : INFINITY;
				r->n[mode]++;
				r->censored[mode] += json_is_true(json_object_get(m, "censored"));
			}
		}
		json_decref(c);
	}
	if (n > 0)
		free(names);
	if (!ncells)
		return -1;

	/* Counted against what the manifest planned: a run cut short says so. */
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	man = json_load_regular(path, NULL);
	expected = json_integer_value(json_object_get(man, "cells"));
	json_decref(man);
	if (expected > ncells)
		fprintf(out, "\nIncomplete run: %d of the %d cells its manifest plans "
			"are present.\n", ncells, expected);
	fprintf(out, "\nRaw means per cell group (%d cells, %d not ok; rates: harmonic means, "
		"as in csbench report; percentiles: the mean of the repetitions' own, where "
		"report merges their histograms; \">=\": a value past the histogram's end, a "
		"lower bound)\n\n| workload | metric | unit |",
		ncells, failed);
	for (k = 0; k < MODE_COUNT; k++)
		fprintf(out, " %s |", mode_name(k));
	fprintf(out, "\n|---|---|---|");
	for (k = 0; k < MODE_COUNT; k++)
		fprintf(out, "---:|");
	fputc('\n', out);
	for (i = 0; i < nrows; i++) {
		fprintf(out, "| %s | %s | %s |", rows[i].workload, rows[i].metric,
			rows[i].unit);
		for (k = 0; k < MODE_COUNT; k++)
			if (rows[i].n[k])
				fprintf(out, " %s%.4g (n=%d) |", rows[i].censored[k] ? ">=" : "",
					rows[i].harmonic ? rows[i].n[k] / rows[i].sum[k] :
					rows[i].sum[k] / rows[i].n[k], rows[i].n[k]);
			else
				fprintf(out, " - |");
		fputc('\n', out);
	}
	return 0;
}

int run_report_verify(const char *dir, FILE *out)
{
	char path[4096];
	json_t *man;
	struct dirent **names;
	int expected, n, i, found = 0, problems = 0;
	json_error_t jerr;
	char why[256];

	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	man = json_load_regular(path, NULL);
	if (!man) {
		fprintf(out, "%s: no manifest.json (not a run directory?)\n", dir);
		return -2;
	}
	expected = json_integer_value(json_object_get(man, "cells"));
	json_decref(man);
	snprintf(path, sizeof(path), "%s/cells", dir);
	n = scandir(path, &names, NULL, alphasort);
	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]->d_name);
		const char *status, *mode;
		json_t *c, *corun;

		if (len > 5 && !strcmp(names[i]->d_name + len - 5, ".json")) {
			snprintf(path, sizeof(path), "%s/cells/%s", dir, names[i]->d_name);
			c = json_load_regular(path, &jerr);
			status = json_string_value(json_object_get(c, "status")) ?: "none";
			mode = json_string_value(json_object_get(c, "mode")) ?: "";
			corun = json_object_get(c, "corun");
			found++;
			if (!c) {
				fprintf(out, "%s: cannot be read: %s\n", names[i]->d_name,
					json_error_where(why, sizeof(why), names[i]->d_name,
							 &jerr));
				problems++;
			} else if (cell_validate(c, names[i]->d_name, why, sizeof(why))) {
				fprintf(out, "%s: malformed: %s\n", names[i]->d_name, why);
				problems++;
			} else if (strcmp(status, "ok")) {
				fprintf(out, "%s: status %s: %s\n", names[i]->d_name, status,
					json_string_value(json_object_get(c, "error")) ?: "");
				problems++;
			} else if (mode_has_cookies(mode_lookup(mode)) &&
				   json_integer_value(json_object_get(corun, "unexplained"))) {
				fprintf(out, "%s: %lld unexplained co-residency windows\n",
					names[i]->d_name,
					(long long)json_integer_value(json_object_get(corun, "unexplained")));
				problems++;
			} else if (mode_has_cookies(mode_lookup(mode)) && !corun) {
				fprintf(out, "%s: no co-residency figures\n", names[i]->d_name);
				problems++;
			}
			json_decref(c);
		}
		free(names[i]);
	}
	if (n > 0)
		free(names);
	if (found != expected) {
		fprintf(out, "%s: %d of %d cells present\n", dir, found, expected);
		problems++;
	}
	problems += run_image_verify(dir, out);
	fprintf(out, "%s: %d cells, %d problems\n", dir, found, problems);
	return problems ? -1 : 0;
}
