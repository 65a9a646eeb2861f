// SPDX-License-Identifier: GPL-2.0
/*
 * Report plots: a small report built by hand, plotted by the real
 * gnuplot, and the SVGs checked for the names they must show; then the
 * errors a report run must survive (no gnuplot, a failing gnuplot).
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../bench/lib/paths.h"
#include "../../bench/report/report_plot.h"
#include "../tap.h"

static char top[] = "/tmp/csbench-t0018-XXXXXX";
static char dir[512];	/* where the plots go: top/plots */

static char *slurp(const char *name)
{
	char path[1024], *buf = NULL;
	size_t len = 0;
	FILE *f, *mem;
	int c;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return NULL;
	mem = open_memstream(&buf, &len);
	while ((c = fgetc(f)) != EOF)
		fputc(c, mem);
	fclose(mem);
	fclose(f);
	return buf;
}

static int exists(const char *name)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !access(path, F_OK);
}

static int has(const char *name, const char *word)
{
	char *text = slurp(name);
	int ret = text && strstr(text, word);

	free(text);
	return ret;
}

static void set_row(struct report_row *row, const char *wl, const char *tenant,
		    const char *metric, const char *unit, enum row_kind kind)
{
	snprintf(row->workload, sizeof(row->workload), "%s", wl);
	snprintf(row->tenant, sizeof(row->tenant), "%s", tenant);
	snprintf(row->metric, sizeof(row->metric), "%s", metric);
	snprintf(row->unit, sizeof(row->unit), "%s", unit);
	row->kind = kind;
}

/* Modes' means @base * (1, 1.1, 0.9, 0.95), with a 2% CI; smt-off as given. */
static void set_means(struct report_row *row, double base, int with_smt_off)
{
	static const double f[MODE_COUNT] = { 1, 1.1, 0.9, 0.95 };
	struct summary *s;
	int m;

	for (m = 0; m < MODE_COUNT; m++) {
		if (m == MODE_SMT_OFF && !with_smt_off)
			continue;
		row->m[m].n = 3;
		s = &row->m[m].s;
		s->n = 3;
		s->mean = base * f[m];
		s->ci_lo = s->mean * 0.98;
		s->ci_hi = s->mean * 1.02;
	}
}

/* Latencies spread over 1..60 us, smt-on with a tail past the end. */
static void set_hists(struct report_row *row)
{
	int m, i;

	row->percentile = 99;
	for (m = 0; m < MODE_COUNT; m++) {
		hist_init(&row->m[m].hist);
		row->m[m].hist.limit = 100;
		for (i = 1; i < 60; i++)
			hist_record(&row->m[m].hist, i, 1000 / (i * (m + 1)) + 1);
	}
	row->m[MODE_SMT_ON].hist.overflow = 7;
}

static void set_cmp(struct comparison *c, double gain)
{
	c->valid = 1;
	c->gain = gain;
	c->gain_lo = gain - 0.03;
	c->gain_hi = gain + 0.03;
}

static struct report *make_report(void)
{
	struct report *r = calloc(1, sizeof(*r));
	int i, k;

	if (!r)
		return NULL;
	r->nwl = 2;
	snprintf(r->wl[0].name, sizeof(r->wl[0].name), "kbuild_mix");
	snprintf(r->wl[1].name, sizeof(r->wl[1].name), "rt lat");
	set_row(&r->rows[0], "kbuild_mix", "build", "elapsed", "s", ROW_ARITH);
	set_means(&r->rows[0], 120, 1);
	set_row(&r->rows[1], "kbuild_mix", "db", "ops", "ops/s", ROW_HARMONIC);
	r->rows[1].higher_is_better = 1;
	set_means(&r->rows[1], 5000, 0);
	set_row(&r->rows[2], "rt lat", "rt", "p99", "us", ROW_PERCENTILE);
	set_hists(&r->rows[2]);
	set_row(&r->rows[3], "rt lat", "rt", "wakeups", "1/s", ROW_ARITH);
	set_means(&r->rows[3], 800, 1);
	r->nrows = 4;

	/* coresched vs coresched-prctl is never valid: it must vanish. */
	for (k = 0; k < CMP_COUNT; k++) {
		if (k == CMP_CS_PRCTL)
			continue;
		for (i = 0; i < r->nwl; i++)
			set_cmp(&r->wl[i].verdict[k], 1 + 0.05 * (k - 1) + 0.02 * i);
		set_cmp(&r->overall[k], 1 + 0.04 * (k - 1));
	}
	/* ... and one workload lacks smt-on vs smt-off. */
	r->wl[1].verdict[CMP_ON_OFF].valid = 0;
	return r;
}

static void free_report(struct report *r)
{
	int m;

	for (m = 0; m < MODE_COUNT; m++)
		hist_free(&r->rows[2].m[m].hist);
	free(r);
}

static void check_svg(const char *name, const char *const *words)
{
	char *text = slurp(name);
	int ok = 1;

	tap_ok(text && (!strncmp(text, "<?xml", 5) || strstr(text, "<svg")),
	       "%s is an SVG", name);
	for (; text && *words; words++)
		if (!strstr(text, *words)) {
			tap_diag("%s lacks '%s'", name, *words);
			ok = 0;
		}
	tap_ok(text && ok, "%s shows its names", name);
	free(text);
}

static void check_plots(void)
{
	static const char *const gains[] = {
		"kbuild_mix", "rt lat", "all", "coresched vs smt-off",
		"coresched vs smt-on", "smt-on vs smt-off", NULL,
	};
	static const char *const latency[] = {
		"rt lat", "smt-off", "smt-on", "coresched", "coresched-prctl",
		"beyond 100 us: smt-on 7", NULL,
	};
	static const char *const metrics_kbuild[] = {
		"kbuild_mix", "build.elapsed", "db.ops", "vs smt-on",
		"smt-off", "coresched", NULL,
	};
	static const char *const metrics_rt[] = {
		"rt lat", "rt.wakeups", "smt-on", NULL,
	};

	check_svg("gains.svg", gains);
	check_svg("latency-rt_lat.svg", latency);
	check_svg("metrics-kbuild_mix.svg", metrics_kbuild);
	check_svg("metrics-rt_lat.svg", metrics_rt);
	tap_ok(!exists("latency-kbuild_mix.svg") && !exists("latency-kbuild_mix.gp"),
	       "no latency plot (nor script) without histograms");
	tap_ok(exists("gains.gp") && exists("gains.dat") &&
	       exists("latency-rt_lat.dat") && exists("gnuplot.log"),
	       "data, scripts and gnuplot.log kept beside the SVGs");
	tap_ok(exists("gains.svg") && !has("gains.svg", "coresched-prctl"),
	       "a comparison valid nowhere is left out of the gains");
}

/* A directory whose only "gnuplot" is @script, or none when NULL. */
static void fake_path(const char *name, const char *script)
{
	char bin[1024], path[1100];

	snprintf(bin, sizeof(bin), "%s/%s", top, name);
	mkdirs(bin, 0755);
	if (script) {
		snprintf(path, sizeof(path), "%s/gnuplot", bin);
		write_atomic(path, script, strlen(script));
		chmod(path, 0755);
	}
	setenv("PATH", bin, 1);
}

int main(void)
{
	const char *path = getenv("PATH");
	char *saved = strdup(path ? path : "/usr/bin:/bin");
	char cmd[600];
	struct report *r = make_report(), *empty = calloc(1, sizeof(*empty));
	int ret;

	tap_plan_start();
	if (!mkdtemp(top) || !r || !empty || !saved)
		return KSFT_FAIL;
	snprintf(dir, sizeof(dir), "%s/plots", top);

	ret = report_plot(r, dir);
	if (ret == -ENOENT)
		tap_skip_test("gnuplot not installed (make deps)", "plots drawn");
	else if (check_int(ret, ==, 4, "gains, one latency and two metrics plots"))
		check_plots();
	check_int(report_plot(empty, dir), ==, 0, "an empty report makes no plots");

	fake_path("nobin", NULL);
	check_int(report_plot(r, dir), ==, -ENOENT, "no gnuplot in PATH: -ENOENT");
	tap_ok(exists("gains.gp"), "... with the scripts still written");
	fake_path("failbin", "#!/bin/sh\necho 'line 1: oops' >&2\nexit 1\n");
	check_int(report_plot(r, dir), ==, -EIO, "a failing gnuplot: -EIO");
	tap_ok(has("gnuplot.log", "oops"), "gnuplot's stderr is in gnuplot.log");
	setenv("PATH", saved, 1);

	free_report(r);
	free(empty);
	free(saved);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	if (system(cmd))
		tap_diag("could not remove %s", top);
	return tap_finish();
}
