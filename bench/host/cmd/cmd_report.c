// SPDX-License-Identifier: GPL-2.0
/*
 * csbench report DIR: rebuild a run's report from its raw cells into
 * DIR/report.md, report.csv, report.json and DIR/plots/, and print the
 * verdict table. Raw cells are only read.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/log.h"
#include "../../lib/opts.h"
#include "../../report/calibrate.h"
#include "../../report/report.h"
#include "../../report/report_plot.h"
#include "cmd.h"

static int write_md(const struct report *r, const char *name, int csv)
{
	char path[4200];
	FILE *f;
	int bad;

	snprintf(path, sizeof(path), "%s/%s", r->dir, name);
	f = fopen(path, "w");
	if (!f) {
		err_errno(errno, "cannot write %s", path);
		return -1;
	}
	if (csv)
		report_write_csv(r, f);
	else
		report_write_md(r, f);
	bad = ferror(f);
	if (fclose(f) || bad) {
		err_msg("cannot write %s", path);
		return -1;
	}
	return 0;
}

int report_open(const char *dir, const char *calibration, struct report *r)
{
	char err[4400];

	/* A missing or unreadable run directory is bad input (exit 2). */
	if (report_load(dir, r, err, sizeof(err))) {
		err_msg("%s", err);
		return EXIT_USAGE;
	}
	/*
	 * Noise bands only on request: the blocked test controls the A/A
	 * rate itself, and bands measured across blocks would hide the
	 * within-block changes it can see.
	 */
	if (calibration && report_load_calibration(r, calibration, err, sizeof(err))) {
		err_msg("%s", err);
		report_free(r);
		return EXIT_USAGE;
	}
	if (report_compute(r)) {
		err_msg("%s: statistics failed (out of memory?)", dir);
		report_free(r);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

int report_build(const char *dir, const char *calibration, int plots, int full)
{
	static struct report r;
	char path[4200];
	int ret, n;

	ret = report_open(dir, calibration, &r);
	if (ret != EXIT_OK)
		return ret;
	/* Plots first: report.md embeds whichever were drawn. */
	if (plots) {
		snprintf(path, sizeof(path), "%s/plots", r.dir);
		n = report_plot(&r, path);
		if (n < 0)
			warn("no plots (%s)", strerror(-n));
	}
	snprintf(path, sizeof(path), "%s/report.json", r.dir);
	if (write_md(&r, "report.md", 0) || write_md(&r, "report.csv", 1) ||
	    report_write_json(&r, path)) {
		err_msg("%s: cannot write the report", r.dir);
		ret = EXIT_FAIL;
	}
	if (full) {
		report_write_md(&r, stdout);
	} else {
		printf("\n%s: %d cells, %d ok; accelerator %s (%s)\n\n", r.run, r.cells, r.ok,
		       r.accel, r.pinning);
		report_write_summary(&r, stdout);
		printf("\nFull report: %s/report.md%s\n", r.dir,
		       !r.accel[0] || !strcmp(r.accel, "kvm") ? "" : r.yield_period_us ?
		       " (an emulated SMT yield: read its hardware model)" :
		       " (under TCG SMT adds no throughput: read its hardware model)");
	}
	if (!r.ok) {
		err_msg("%s: no cell is ok: the report has no figures", r.dir);
		ret = EXIT_FAIL;
	}
	report_free(&r);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	const char *calibration = NULL;
	int no_plots = 0, full = 0, idx;
	const struct opt opts[] = {
		{ "calibration", OPT_STR, &calibration, 0, 0, "FILE",
		  "A/A noise bands a verdict must also clear (csbench calibrate); default none" },
		{ "no-plots", OPT_FLAG, &no_plots, 0, 0, NULL, "skip gnuplot" },
		{ "full", OPT_FLAG, &full, 0, 0, NULL, "print all of report.md, not only the verdicts" },
		{ NULL }
	};

	idx = opts_parse("report", "[OPTIONS] RUN_DIR", opts, argc, argv);
	if (idx == -2)
		return EXIT_OK;
	if (idx < 0 || idx != argc - 1) {
		if (idx >= 0)
			err_msg("expected one run directory");
		return EXIT_USAGE;
	}
	return report_build(argv[idx], calibration, !no_plots, full);
}
