// SPDX-License-Identifier: GPL-2.0
/*
 * csbench history [--metric WL:TENANT.METRIC] [RESULTS_DIR]: one line per
 * run (oldest first) with its setup and overall verdicts, then each
 * workload's coresched vs smt-off gain across runs, so a drift between
 * patch series revisions shows; with --metric, that metric's mean per mode
 * over the runs. The tables go to stdout and to RESULTS_DIR/index.md, and
 * RESULTS_DIR/index.json lists the runs with paths relative to it, so the
 * index survives the results being cloned or moved. Every figure is
 * recomputed from the runs' raw cells.
 *
 * The per-workload drift keeps to runs of the newest run's setup (SMT
 * yield, emulation, guest topology: what a mode measures depends on
 * them) and names the runs it left out; --force shows them all.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/log.h"
#include "../../lib/opts.h"
#include "../../lib/paths.h"
#include "../../report/report.h"
#include "../../report/setup_diff.h"
#include "cmd.h"

#define MAX_RUNS	64

/* A run directory: manifest.json and cells/. */
static int is_run(const char *parent, const char *name)
{
	char path[4400];

	if (name[0] == '.')
		return 0;
	snprintf(path, sizeof(path), "%s/%s/manifest.json", parent, name);
	return !access(path, R_OK);
}

static void write_history(struct report **runs, int n, int force, FILE *out)
{
	char g[96], setup[96];
	int i, k, w, left_out = 0, shown[MAX_RUNS];

	fprintf(out, "# csbench history\n\nOne line per run, oldest first; gains are "
		"block means over workloads (the report's overall line), + is better "
		"for the first mode named, [95%% CI]. "
		"Compare runs of the same profile and accelerator only.\n\n"
		"| run | series | kernel | profile | accel | setup | cells ok |");
	for (k = 0; k < CMP_COUNT; k++)
		fprintf(out, " %s |", report_cmps[k].label);
	fprintf(out, "\n|---|---|---|---|---|---|---:|");
	for (k = 0; k < CMP_COUNT; k++)
		fprintf(out, "---|");
	fputc('\n', out);
	for (i = 0; i < n; i++) {
		const struct report *r = runs[i];

		report_setup_brief(r, setup, sizeof(setup));
		fprintf(out, "| [%s](%s/report.md) | %s | %s | %s | %s | %s | %d/%d%s |",
			r->run, r->run, r->revision, r->kernel_key, r->profile, r->accel, setup, r->ok,
			r->expected_cells ?: r->cells,
			r->cells < r->expected_cells ? " (incomplete)" : "");
		for (k = 0; k < CMP_COUNT; k++) {
			report_fmt_gain(&r->overall[k], g, sizeof(g));
			fprintf(out, " %s |", g);
		}
		fputc('\n', out);
	}
	fprintf(out, "\n## coresched vs smt-off per workload\n\n");
	for (i = 0; i < n; i++) {
		shown[i] = force || !report_setup_diff(runs[i], runs[n - 1], "", NULL);
		left_out += !shown[i];
	}
	if (left_out) {
		report_setup_brief(runs[n - 1], setup, sizeof(setup));
		fprintf(out, "Runs of the newest run's setup (%s) only; %d other%s "
			"measured something else (--force shows them).\n\n", setup,
			left_out, left_out == 1 ? "" : "s");
	}
	fprintf(out, "| workload |");
	for (i = 0; i < n; i++)
		if (shown[i])
			fprintf(out, " %s |", runs[i]->run);
	fprintf(out, "\n|---|");
	for (i = 0; i < n; i++)
		if (shown[i])
			fprintf(out, "---|");
	fputc('\n', out);
	/* Workloads in the order the newest run has them. */
	for (w = 0; n && w < runs[n - 1]->nwl; w++) {
		const char *name = runs[n - 1]->wl[w].name;

		fprintf(out, "| %s |", name);
		for (i = 0; i < n; i++) {
			if (!shown[i])
				continue;
			k = report_find_workload(runs[i], name);
			if (k >= 0)
				report_fmt_gain(&runs[i]->wl[k].verdict[CMP_CS_OFF], g, sizeof(g));
			fprintf(out, " %s |", k >= 0 ? g : "-");
		}
		fputc('\n', out);
	}
}

/* "wl:tenant.metric" in one run, or NULL. */
static const struct report_row *find_metric(const struct report *r, const char *spec)
{
	char want[256];
	int i;

	for (i = 0; i < r->nrows; i++) {
		snprintf(want, sizeof(want), "%s:%s.%s", r->rows[i].workload,
			 r->rows[i].tenant, r->rows[i].metric);
		if (!strcmp(want, spec))
			return &r->rows[i];
	}
	return NULL;
}

static void write_metric(struct report **runs, int n, const char *spec, FILE *out)
{
	int i, m;

	fprintf(out, "\n## %s over runs\n\nMean [95%% CI] per mode.\n\n| run | series |", spec);
	for (m = 0; m < MODE_COUNT; m++)
		fprintf(out, " %s |", mode_name(m));
	fprintf(out, "\n|---|---|");
	for (m = 0; m < MODE_COUNT; m++)
		fprintf(out, "---:|");
	fputc('\n', out);
	for (i = 0; i < n; i++) {
		const struct report_row *row = find_metric(runs[i], spec);

		fprintf(out, "| %s | %s |", runs[i]->run, runs[i]->revision);
		for (m = 0; m < MODE_COUNT; m++) {
			const struct mode_stats *ms = row ? &row->m[m] : NULL;

			if (!ms || !ms->n)
				fprintf(out, " - |");
			else if (isnan(ms->s.ci_lo))
				fprintf(out, " %s%.4g |", ms->censored ? ">=" : "", ms->s.mean);
			else
				fprintf(out, " %s%.4g [%.4g, %.4g] |", ms->censored ? ">=" : "",
					ms->s.mean, ms->s.ci_lo, ms->s.ci_hi);
		}
		fputc('\n', out);
	}
}

/* index.json: the runs, with paths relative to the results directory. */
static int write_index_json(struct report **runs, int n, const char *dir)
{
	json_t *list = json_array(), *o;
	char path[4400], *text;
	int i, ret;

	for (i = 0; i < n; i++)
		json_array_append_new(list, json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:i,s:i}",
			"run", runs[i]->run, "path", runs[i]->run, "revision", runs[i]->revision,
			"kernel_key", runs[i]->kernel_key, "profile", runs[i]->profile,
			"accel", runs[i]->accel, "cells", runs[i]->cells, "ok", runs[i]->ok));
	o = json_pack("{s:i,s:o}", "schema", 1, "runs", list);
	text = json_dumps(o, JSON_INDENT(1));
	json_decref(o);
	snprintf(path, sizeof(path), "%s/index.json", dir);
	ret = text ? write_atomic(path, text, strlen(text)) : -1;
	free(text);
	if (ret)
		err_msg("cannot write %s", path);
	return ret;
}

int cmd_history(int argc, char **argv)
{
	const char *metric = NULL;
	int force = 0;
	const struct opt opts[] = {
		{ "force", OPT_FLAG, &force, 0, 0, NULL,
		  "show every run's drift, whatever its SMT yield, emulation or topology" },
		{ "metric", OPT_STR, &metric, 0, 0, "WL:TENANT.METRIC",
		  "also show this metric per mode over the runs, e.g. latency-noisy:rt.p99" },
		{ NULL }
	};
	const char *dir = "results";
	struct report *runs[MAX_RUNS];
	struct dirent **names;
	char path[4400], err[4400];
	int idx, n, i, nruns = 0, ret = EXIT_OK, total, seen;
	FILE *f;

	idx = opts_parse("history", "[OPTIONS] [RESULTS_DIR]", opts, argc, argv);
	if (idx == -2)
		return EXIT_OK;
	if (idx < 0)
		return EXIT_USAGE;
	if (argc - idx > 1) {
		err_msg("expected at most one results directory, got %d arguments", argc - idx);
		return EXIT_USAGE;
	}
	if (idx < argc)
		dir = argv[idx];
	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		err_errno(errno, "%s", dir);
		return EXIT_USAGE;
	}
	/* The newest MAX_RUNS runs: names sort by date. */
	for (i = 0, total = 0; i < n; i++)
		total += is_run(dir, names[i]->d_name);
	if (total > MAX_RUNS)
		warn("%d runs in %s: showing the newest %d", total, dir, MAX_RUNS);
	for (i = 0, seen = 0; i < n; i++) {
		struct report *r;

		if (is_run(dir, names[i]->d_name) && seen++ >= total - MAX_RUNS &&
		    (r = calloc(1, sizeof(*r)))) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
			snprintf(err, sizeof(err), "statistics failed");
			if (report_load(path, r, err, sizeof(err)) || report_compute(r)) {
				warn("skipping %s: %s", path, err);
				report_free(r);
				free(r);
			} else {
				runs[nruns++] = r;
			}
		}
		free(names[i]);
	}
	free(names);
	if (!nruns) {
		err_msg("%s: no run directories", dir);
		return EXIT_FAIL;
	}
	if (metric) {
		for (i = 0; i < nruns && !find_metric(runs[i], metric); i++)
			;
		if (i == nruns) {
			err_msg("--metric %s: no run has it (form: workload:tenant.metric, "
				"e.g. latency-noisy:rt.p99)", metric);
			ret = EXIT_USAGE;
			goto out;
		}
	}
	write_history(runs, nruns, force, stdout);
	if (metric)
		write_metric(runs, nruns, metric, stdout);
	if (write_index_json(runs, nruns, dir))
		ret = EXIT_FAIL;
	snprintf(path, sizeof(path), "%s/index.md", dir);
	f = fopen(path, "w");
	if (f) {
		write_history(runs, nruns, force, f);
		if (metric)
			write_metric(runs, nruns, metric, f);
		if (fclose(f))
			f = NULL;
	}
	if (!f) {
		err_errno(errno, "cannot write %s", path);
		ret = EXIT_FAIL;
	}
out:
	for (i = 0; i < nruns; i++) {
		report_free(runs[i]);
		free(runs[i]);
	}
	return ret;
}
