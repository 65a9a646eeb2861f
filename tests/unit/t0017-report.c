// SPDX-License-Identifier: GPL-2.0
/*
 * Reports on constructed runs whose answers are known: the right mean per
 * metric kind, ratios and verdicts in both directions, percentiles from
 * merged histograms (and censored ones left out), failed cells listed and
 * never averaged, noise bands overriding a t-test, the breakeven SMT
 * yield model, calibration bands, and compare's regression count.
 */
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "../../bench/lib/paths.h"
#include "../../bench/report/calibrate.h"
#include "../../bench/report/compare.h"
#include "../../bench/report/report.h"
#include "../../bench/report/smtyield.h"
#include "../tap.h"

static char top[] = "/tmp/csbench-t0017-XXXXXX";
static struct report rep, rep2;

static void put(const char *run, const char *name, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s/%s", top, run, name);
	write_atomic(path, text, strlen(text));
}

/* A manifest for @cells cells in @reps blocks (report checks the blocks). */
static void make_run(const char *run, int cells, int reps)
{
	char path[512], text[256];

	snprintf(path, sizeof(path), "%s/%s/cells", top, run);
	mkdirs(path, 0755);
	snprintf(text, sizeof(text), "{\"profile\": \"quick\", \"accel\": \"tcg\", \"reps\": %d,"
		 " \"cells\": %d, \"kernel\": {\"revision\": \"v1\"}}", reps, cells);
	put(run, "manifest.json", text);
}

/* A cell with one rate metric (events/s, higher better) and one time. */
static void cell(const char *run, const char *mode, int rep, double rate, double secs,
		 double fi_usec, double one_busy, double both_busy)
{
	char name[128], text[1024];

	snprintf(name, sizeof(name), "cells/w.%s.r%d.json", mode, rep);
	snprintf(text, sizeof(text),
		 "{\"workload\": \"w\", \"mode\": \"%s\", \"status\": \"ok\", \"measured_s\": 1,"
		 " \"cpu_util\": 0.9, \"force_idle_usec\": {\"a\": %g},"
		 " \"corun\": {\"windows\": 2, \"handoff\": 2, \"unexplained\": 0,"
		 " \"handoff_p99_us\": 1500, \"one_busy_s\": %g, \"both_busy_s\": %g},"
		 " \"metrics\": [{\"tenant\": \"a\", \"metric\": \"rate\", \"unit\": \"events/s\","
		 " \"higher_is_better\": true, \"value\": %g},"
		 " {\"tenant\": \"b\", \"metric\": \"time\", \"unit\": \"s\","
		 " \"higher_is_better\": false, \"value\": %g}]}",
		 mode, fi_usec, one_busy, both_busy, rate, secs);
	put(run, name, text);
}

/* A latency cell: @n samples at @us, the rest of @total in the overflow. */
static void lat_cell(const char *run, const char *mode, int rep, int us, int n, int over)
{
	/* Each repetition's own p50: the histogram's, a little apart per block. */
	double own = us + 0.01 * rep * rep * (us % 7 + 1);
	char name[128], text[4096], *p = text;
	int i;

	snprintf(name, sizeof(name), "cells/l.%s.r%d.json", mode, rep);
	p += sprintf(p, "{\"workload\": \"l\", \"mode\": \"%s\", \"status\": \"ok\","
		     " \"metrics\": [{\"tenant\": \"rt\", \"metric\": \"p50\", \"unit\": \"us\","
		     " \"higher_is_better\": false, \"percentile\": 50, \"value\": %g,"
		     " \"censored\": %s, \"hist_overflow\": %d, \"hist_buckets_us\": [",
		     mode, over > n ? 100 : own, over > n ? "true" : "false", over);
	for (i = 0; i < 100; i++)
		p += sprintf(p, "%s%d", i ? "," : "", i == us ? n : (i == us + 1 ? n / 10 : 0));
	p += sprintf(p, "]}, {\"tenant\": \"rt\", \"metric\": \"max\", \"unit\": \"us\","
		     " \"higher_is_better\": false, \"percentile\": 100, \"value\": %d}]}",
		     90 + rep);
	put(run, name, text);
}

static const struct report_row *row(const struct report *r, const char *wl,
				    const char *metric)
{
	int i;

	for (i = 0; i < r->nrows; i++)
		if (!strcmp(r->rows[i].workload, wl) && !strcmp(r->rows[i].metric, metric))
			return &r->rows[i];
	return NULL;
}

static int load(const char *run, struct report *r)
{
	char dir[512], err[512];

	snprintf(dir, sizeof(dir), "%s/%s", top, run);
	report_free(r);
	if (report_load(dir, r, err, sizeof(err))) {
		tap_diag("%s", err);
		return -1;
	}
	return report_compute(r);
}

static void test_means_and_verdicts(void)
{
	/* Blocks drift (100, 130, 80); inside each the modes differ a little. */
	const double off[] = { 100, 130, 80 }, on[] = { 101, 129, 81 };
	const double jit[] = { 1.01, 0.99, 1.0 };
	const struct report_row *rate, *time;
	int k;

	make_run("a", 12, 3);
	for (k = 0; k < 3; k++) {
		cell("a", "smt-off", k + 1, off[k], 1000 / off[k], 0, 1, 0);
		cell("a", "smt-on", k + 1, on[k], 1000 / on[k], 0, 0.5, 0.5);
		/* coresched: half the rate, twice the time, 10% forced idle. */
		cell("a", "coresched", k + 1, off[k] / 2 * jit[k], 2000 / off[k] / jit[k],
		     400000, 0.75, 0.25);
		cell("a", "coresched-prctl", k + 1, off[k] / 2 * jit[2 - k],
		     2000 / off[k] / jit[2 - k], 400000, 0.75, 0.25);
	}
	check_int(load("a", &rep), ==, 0, "constructed run loads and computes");
	check_int(rep.cells, ==, 12, "12 cells");
	rate = row(&rep, "w", "rate");
	time = row(&rep, "w", "time");
	if (!rate || !time) {
		tap_ok(0, "rows found");
		return;
	}
	check_int(rate->kind, ==, ROW_HARMONIC, "a rate takes the harmonic mean");
	check_int(time->kind, ==, ROW_ARITH, "a time takes the arithmetic mean");
	check_near(rate->m[MODE_SMT_OFF].s.mean, 3 / (1 / 100.0 + 1 / 130.0 + 1 / 80.0), 1e-9,
		   "harmonic mean of 100, 130, 80");
	/* Paired: the geometric mean of the per-block ratios. */
	check_near(rate->cmp[CMP_CS_OFF].ratio, 0.5 * cbrt(1.01 * 0.99), 1e-9,
		   "coresched / smt-off: geometric mean of the block ratios");
	tap_ok(rate->cmp[CMP_CS_OFF].lo > 0.48 && rate->cmp[CMP_CS_OFF].hi < 0.52,
	       "the drift between blocks does not widen the interval [%.3f, %.3f]",
	       rate->cmp[CMP_CS_OFF].lo, rate->cmp[CMP_CS_OFF].hi);
	check_int(rate->cmp[CMP_CS_OFF].n_blocks, ==, 3, "three blocks");
	check_int(rate->cmp[CMP_CS_OFF].verdict, ==, V_WORSE, "half the rate: worse");
	check_near(time->cmp[CMP_CS_OFF].gain, 0.5 * cbrt(1.01 * 0.99), 1e-5,
		   "twice the time: gain 0.5");
	check_int(time->cmp[CMP_CS_OFF].verdict, ==, V_WORSE, "twice the time: worse");
	check_int(rate->cmp[CMP_CS_PRCTL].verdict, ==, V_SAME,
		  "cgroup vs prctl cookies within noise: not distinguishable");
	check_int(rate->cmp[CMP_ON_OFF].verdict, ==, V_SAME, "smt-on vs smt-off: the same");
	tap_ok(!isnan(rate->cmp[CMP_CS_OFF].p_adj) &&
	       rate->cmp[CMP_CS_OFF].p_adj >= rate->cmp[CMP_CS_OFF].p,
	       "Holm never lowers a p-value (p %.3g, adjusted %.3g)",
	       rate->cmp[CMP_CS_OFF].p, rate->cmp[CMP_CS_OFF].p_adj);
	check_near(rep.wl[0].verdict[CMP_CS_OFF].gain, 0.5 * cbrt(1.01 * 0.99), 1e-5,
		   "workload gain: block means of its rows");
	check_int(rep.wl[0].verdict[CMP_CS_OFF].n_blocks, ==, 3,
		  "two rows of the same cells: still three pieces of evidence");
	tap_ok(rep.wl[0].verdict[CMP_CS_OFF].mde > 0 && rep.wl[0].verdict[CMP_CS_OFF].mde < 0.5,
	       "with a minimum detectable effect (%.3f)", rep.wl[0].verdict[CMP_CS_OFF].mde);
	check_int(rep.wl[0].verdict[CMP_CS_OFF].family, ==, 1,
		  "Holm family: the column's one workload");
	check_int(rep.overall[CMP_CS_OFF].verdict, ==, V_WORSE, "overall: worse");
	check_near(rep.wl[0].x[MODE_CORESCHED].forced_idle_pct, 10, 1e-9,
		   "forced idle: 0.4 s of 4 CPUs x 1 s = 10 percent");
	check_near(rep.wl[0].x[MODE_CORESCHED].both_busy_share, 0.25, 1e-9,
		   "both siblings busy a quarter of the busy core time");
	/* r = 0.5, c = 0.25: Y = 1 + 0.5 / 0.125 = 5. */
	check_near(rep.wl[0].breakeven_yield, 5, 1e-3, "breakeven SMT yield 5.0");

	/* A noise band wider than the difference takes the verdict away. */
	put("a", "../calibration-quick.json", "{\"profile\": \"quick\", \"accel\": \"tcg\","
	    " \"workloads\": [{\"workload\": \"w\", \"band\": 0.2}], \"rows\": ["
	    "{\"workload\": \"w\", \"tenant\": \"a\", \"metric\": \"rate\", \"band\": 1.5},"
	    "{\"workload\": \"w\", \"tenant\": \"b\", \"metric\": \"time\", \"band\": 1.5}]}");
	{
		char err[512], path[512];

		snprintf(path, sizeof(path), "%s/calibration-quick.json", top);
		load("a", &rep);
		check_int(report_load_calibration(&rep, path, err, sizeof(err)), ==, 0,
			  "calibration loads");
		report_compute(&rep);
		rate = row(&rep, "w", "rate");
		check_int(rate->cmp[CMP_CS_OFF].verdict, ==, V_SAME,
			  "half the rate inside a 150 percent band (log-symmetric): not distinguishable");
		check_near(rep.wl[0].verdict[CMP_CS_OFF].band, 0.2, 0,
			   "a workload's band: its own, measured by calibrate");
		check_int(rep.wl[0].verdict[CMP_CS_OFF].verdict, ==, V_WORSE,
			  "and half the rate is outside it: worse");
		put("a", "../calibration-full.json", "{\"profile\": \"full\", \"accel\": \"tcg\","
		    " \"rows\": []}");
		snprintf(path, sizeof(path), "%s/calibration-full.json", top);
		check_int(report_load_calibration(&rep, path, err, sizeof(err)), ==, -1,
			  "a calibration of another profile is refused");
		tap_ok(strstr(err, "profile full") != NULL, "saying which (%s)", err);
		put("a", "../calibration-kvm.json", "{\"profile\": \"quick\", \"accel\": \"kvm\","
		    " \"rows\": []}");
		snprintf(path, sizeof(path), "%s/calibration-kvm.json", top);
		check_int(report_load_calibration(&rep, path, err, sizeof(err)), ==, -1,
			  "a calibration under another accelerator is refused");
		tap_ok(strstr(err, "under kvm, this run is tcg") != NULL, "saying which (%s)", err);
	}
}

static void test_failed_and_percentiles(void)
{
	const struct report_row *p50, *max;
	int k;

	make_run("b", 9, 3);
	for (k = 1; k <= 3; k++) {
		lat_cell("b", "smt-off", k, 10, 1000, 0);
		lat_cell("b", "coresched", k, 40, 1000, 0);
		/* Mostly beyond the histogram: the median is only a lower bound. */
		lat_cell("b", "smt-on", k, 10, 100, 5000);
	}
	put("b", "cells/l.coresched-prctl.r1.json", "{\"workload\": \"l\", \"mode\":"
	    " \"coresched-prctl\", \"status\": \"guest-failed\", \"error\": \"crashed: panic\"}");
	check_int(load("b", &rep), ==, 0, "latency run loads");
	check_int(rep.nfailed, ==, 1, "the failed cell is listed");
	tap_ok(strstr(rep.failed[0], "crashed: panic") != NULL, "with its error (%s)",
	       rep.failed[0]);
	p50 = row(&rep, "l", "p50");
	max = row(&rep, "l", "max");
	if (!p50 || !max) {
		tap_ok(0, "percentile rows found");
		return;
	}
	check_int(p50->kind, ==, ROW_PERCENTILE, "p50 is a percentile row");
	check_int(p50->m[MODE_CORESCHED_PRCTL].n, ==, 0, "a failed cell adds no value");
	check_near(p50->m[MODE_SMT_OFF].s.mean, 10, 0, "p50 of the merged histogram: 10 us");
	check_int(p50->m[MODE_SMT_OFF].hist.count[10], ==, 3000, "3 x 1000 samples merged");
	tap_ok(fabs(p50->cmp[CMP_CS_OFF].ratio - 4) < 0.1, "coresched p50 4x smt-off's (%.3f)",
	       p50->cmp[CMP_CS_OFF].ratio);
	check_int(p50->cmp[CMP_CS_OFF].verdict, ==, V_WORSE, "4x the latency: worse");
	check_int(p50->m[MODE_SMT_ON].censored, ==, 1, "median in the overflow: censored");
	check_int(p50->cmp[CMP_ON_OFF].valid, ==, 0,
		  "censored in every block: no estimate at all");
	check_int(p50->cmp[CMP_ON_OFF].n_censored, ==, 3, "three blocks left out as bounds");
	check_int(p50->cmp[CMP_ON_OFF].verdict, ==, V_NONE, "and judged neither way");
	check_near(max->m[MODE_SMT_OFF].s.mean, 93, 0,
		   "max: the largest repetition's (exact even past the histogram)");
	check_int(max->m[MODE_SMT_ON].censored, ==, 0, "and never censored");
}

/* Censored blocks: left out, and the verdict kept only if they agree. */
static void test_censored_blocks(void)
{
	const struct report_row *p50;
	int k;

	make_run("d", 10, 5);
	for (k = 1; k <= 4; k++) {
		lat_cell("d", "smt-off", k, 10, 1000, 0);
		lat_cell("d", "coresched", k, 40, 1000, 0);
	}
	/* Block 5: coresched beyond the histogram, so even slower: agrees. */
	lat_cell("d", "smt-off", 5, 10, 1000, 0);
	lat_cell("d", "coresched", 5, 40, 100, 5000);
	check_int(load("d", &rep), ==, 0, "run with a censored block loads");
	p50 = row(&rep, "l", "p50");
	if (!p50) {
		tap_ok(0, "p50 row found");
		return;
	}
	check_int(p50->cmp[CMP_CS_OFF].n_blocks, ==, 4, "four exact blocks in the estimate");
	check_int(p50->cmp[CMP_CS_OFF].n_censored, ==, 1, "one left out as a bound");
	check_int(p50->cmp[CMP_CS_OFF].verdict, ==, V_WORSE,
		  "a bound pointing the estimate's way keeps the verdict");
	/* Now the bound is on smt-off's side: it could reverse the estimate. */
	lat_cell("d", "smt-off", 5, 10, 100, 5000);
	lat_cell("d", "coresched", 5, 40, 1000, 0);
	check_int(load("d", &rep), ==, 0, "reloaded");
	p50 = row(&rep, "l", "p50");
	check_int(p50->cmp[CMP_CS_OFF].censor_conflict, ==, 1,
		  "a bound against the estimate is a conflict");
	check_int(p50->cmp[CMP_CS_OFF].verdict, ==, V_UNTESTED, "and takes the verdict away");
	tap_ok(isnan(p50->cmp[CMP_CS_OFF].p_adj) && p50->cmp[CMP_CS_OFF].family == 0,
	       "and leaves the Holm family");
}

static void test_yield_model(void)
{
	check_near(smt_breakeven_yield(1, 0.5), 1, 1e-12, "r = 1: breakeven at no gain");
	check_near(smt_breakeven_yield(0.8, 0.5), 1.5, 1e-12, "r = 0.8, c = 0.5: 1.5");
	tap_ok(isinf(smt_breakeven_yield(0.8, 0)), "never both busy: no breakeven");
	check_near(smt_breakeven_yield(1.2, 0.1), 1, 0, "faster even without SMT: 1, never below");
	tap_ok(isnan(smt_breakeven_yield(0, 0.5)) && isnan(smt_breakeven_yield(1, 1.5)),
	       "out-of-range input: NAN");
	check_near(smt_projected_gain(0.8, 0.5, smt_breakeven_yield(0.8, 0.5)), 1, 1e-12,
		   "at the breakeven yield the projected gain is exactly 1");
}

static void test_calibrate_and_compare(void)
{
	const double flat[] = { 10, 10, 10, 10 }, noisy[] = { 9, 11, 10, 10, 12, 8 };
	struct compare cmp;
	struct compare_opts five = { .threshold = 0.05 }, ninety = { .threshold = 0.9 };
	struct compare_opts only_w = { .threshold = 0.05, .workloads = "x,w" };
	struct compare_opts only_other = { .threshold = 0.05, .workloads = "ww" };
	int splits = 0, k;

	check_near(calibrate_band(flat, 4, MEAN_ARITH, &splits), 0, 0, "A/A of equal values: 0");
	check_int(splits, ==, 3, "4 values split into halves 3 ways");
	/* Worst split {11, 12, 10} vs {9, 10, 8}: 33 / 27 - 1. */
	check_near(calibrate_band(noisy, 6, MEAN_ARITH, &splits), 33.0 / 27 - 1, 1e-12,
		   "band: the worst of the 10 splits");
	check_int(splits, ==, 10, "6 values: 10 splits");
	tap_ok(calibrate_band(flat, 3, MEAN_ARITH, &splits) < 0, "3 values: too few");

	/*
	 * Run "c" is run "a" with coresched 18% slower, as the B side of an
	 * A/B session: paired, it regresses; as an unrelated run, the drift
	 * between its blocks (100, 130, 80) hides the change.
	 */
	make_run("c", 12, 3);
	for (k = 0; k < 3; k++) {
		const double off[] = { 100, 130, 80 }, jit[] = { 1.01, 0.99, 1.0 };

		cell("c", "smt-off", k + 1, off[k] * jit[k], 1000 / off[k], 0, 1, 0);
		cell("c", "smt-on", k + 1, off[k] * jit[2 - k], 1000 / off[k], 0, 0.5, 0.5);
		cell("c", "coresched", k + 1, off[k] / 2 * 0.82 * jit[(k + 1) % 3],
		     2000 / off[k], 400000, 0.75, 0.25);
		cell("c", "coresched-prctl", k + 1, off[k] / 2 * jit[k], 2000 / off[k],
		     400000, 0.75, 0.25);
	}
	load("a", &rep);
	load("c", &rep2);
	check_int(compare_reports(&rep, &rep, &five, &cmp), ==, 0, "compare a run with itself");
	check_int(cmp.regressions + cmp.improvements, ==, 0, "no change");
	compare_free(&cmp);
	check_int(compare_reports(&rep, &rep2, &five, &cmp), ==, 0, "compare two runs");
	check_int(cmp.paired, ==, 0, "unrelated runs: unpaired");
	check_int(cmp.regressions, ==, 0, "an 18 percent loss under 25 percent drift: not seen");
	compare_free(&cmp);
	put("a", "manifest.json", "{\"profile\": \"quick\", \"accel\": \"tcg\", \"reps\": 3,"
	    " \"cells\": 12, \"ab\": {\"session\": \"s1\", \"side\": \"a\"}}");
	put("c", "manifest.json", "{\"profile\": \"quick\", \"accel\": \"tcg\", \"reps\": 3,"
	    " \"cells\": 12, \"ab\": {\"session\": \"s1\", \"side\": \"b\"}}");
	load("a", &rep);
	load("c", &rep2);
	check_int(compare_reports(&rep, &rep2, &five, &cmp), ==, 0, "compare the A/B sides");
	check_int(cmp.paired, ==, 1, "one A/B session: paired by block");
	tap_ok(cmp.regressions >= 1, "coresched rate 18 percent down: a regression (%d found)",
	       cmp.regressions);
	tap_ok(cmp.wl_regressions >= 1, "and the workload's mean with it (%d)",
	       cmp.wl_regressions);
	check_int(cmp.fi_regressions, ==, 0, "forced idle unchanged: no regression there");
	tap_ok(compare_failed(&cmp), "compare fails");
	compare_free(&cmp);
	check_int(compare_reports(&rep, &rep2, &ninety, &cmp), ==, 0, "with a 90 percent threshold");
	check_int(cmp.regressions, ==, 0, "an 18 percent loss is below it");
	compare_free(&cmp);
	compare_reports(&rep, &rep2, &only_w, &cmp);
	check_int(cmp.n, ==, 8, "--workloads x,w: both rows, four modes");
	compare_free(&cmp);
	compare_reports(&rep, &rep2, &only_other, &cmp);
	check_int(cmp.n, ==, 0, "--workloads ww does not take w");
	compare_free(&cmp);
}

/*
 * A rate of 0 has no log and no harmonic mean: before the cell ranges it
 * was averaged arithmetically and dropped its block from the comparisons
 * without a word. Now the cell is malformed, listed, and left out.
 */
static void test_zero_rate(void)
{
	const struct report_row *rate;

	make_run("zero", 2, 3);
	cell("zero", "smt-on", 1, 0, 1, 0, 1, 1);
	cell("zero", "smt-on", 2, 10, 1, 0, 1, 1);
	if (load("zero", &rep2))
		return;
	rate = row(&rep2, "w", "rate");
	tap_ok(rate && rate->m[MODE_SMT_ON].n == 1 && !rate->m[MODE_SMT_ON].arith_fallback &&
	       fabs(rate->m[MODE_SMT_ON].s.mean - 10) < 1e-9,
	       "rates 0 and 10: only the 10 is averaged");
	tap_ok(rep2.nfailed == 1 && strstr(rep2.failed[0], "w.smt-on.r1.json: malformed") &&
	       strstr(rep2.failed[0], "a rate must be above 0"),
	       "and the zero-rate cell is listed as malformed (%s)",
	       rep2.nfailed ? rep2.failed[0] : "none");
}

int main(void)
{
	char cmd[600];

	tap_plan_start();
	if (!mkdtemp(top))
		return KSFT_FAIL;
	test_means_and_verdicts();
	test_failed_and_percentiles();
	test_censored_blocks();
	test_yield_model();
	test_calibrate_and_compare();
	test_zero_rate();
	report_free(&rep);
	report_free(&rep2);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	if (system(cmd))
		tap_diag("could not remove %s", top);
	return tap_finish();
}
