// SPDX-License-Identifier: GPL-2.0
/*
 * csbench calibrate: run one mode several times (A/A) and record, per
 * workload metric, how far two halves of those repetitions can land apart
 * by noise alone (bench/report/calibrate.h). Every option not its own goes
 * to csbench run; --from DIR skips the run and uses an existing one.
 */
#include <stdio.h>
#include <string.h>

#include "../lib/log.h"
#include "../report/calibrate.h"
#include "cmd.h"

#define MAX_ARGS	128

static const char usage[] =
	"usage: csbench calibrate [--mode MODE] [--from RUN_DIR] [--out FILE] [RUN OPTIONS]\n"
	"  --mode MODE     the mode to repeat (default smt-on)\n"
	"  --from RUN_DIR  compute the bands from this run instead of running one\n"
	"  --out FILE      where the bands go (default: calibration-PROFILE-ACCEL.json\n"
	"                  beside the run directory, where csbench report looks)\n"
	"  --out-dir DIR   the default name, in DIR (make calibrate: results/)\n"
	"  RUN OPTIONS     passed to csbench run (--profile, --reps: default 6, --kernel, ...)\n";

int cmd_calibrate(int argc, char **argv)
{
	const char *mode = "smt-on", *from = NULL, *out_dir = NULL;
	char *run_argv[MAX_ARGS], out[4096] = "", err[4400];
	int i, n = 0, have_reps = 0, ret;

	log_prog = "csbench calibrate";
	run_argv[n++] = "run";
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			fputs(usage, stdout);
			return EXIT_OK;
		}
		if ((!strcmp(a, "--mode") || !strcmp(a, "--from") || !strcmp(a, "--out") ||
		     !strcmp(a, "--out-dir")) && i + 1 == argc) {
			err_msg("%s needs a value\n%s", a, usage);
			return EXIT_USAGE;
		}
		if (!strcmp(a, "--mode"))
			mode = argv[++i];
		else if (!strcmp(a, "--from"))
			from = argv[++i];
		else if (!strcmp(a, "--out"))
			snprintf(out, sizeof(out), "%s", argv[++i]);
		else if (!strcmp(a, "--out-dir"))
			out_dir = argv[++i];
		else if (!strcmp(a, "--modes")) {
			err_msg("--modes: calibrate repeats one mode; use --mode");
			return EXIT_USAGE;
		} else if (n < MAX_ARGS - 6) {
			have_reps |= !strcmp(a, "--reps");
			run_argv[n++] = argv[i];
		}
	}
	if (!from) {
		run_argv[n++] = "--modes";
		run_argv[n++] = (char *)mode;
		if (!have_reps) {
			run_argv[n++] = "--reps";
			run_argv[n++] = "6";
		}
		run_argv[n] = NULL;
		ret = cmd_run(n, run_argv);
		if (ret != EXIT_OK || !cmd_run_dir[0]) {
			err_msg("the calibration run did not finish cleanly (exit %d)", ret);
			return ret ?: EXIT_FAIL;
		}
		from = cmd_run_dir;
	}
	ret = calibrate_write(from, mode, out_dir, out, sizeof(out), err, sizeof(err));
	if (ret < 0) {
		err_msg("%s", err);
		return EXIT_FAIL;
	}
	printf("%s: noise bands for %d rows (mode %s, from %s)\n", out, ret, mode, from);
	return EXIT_OK;
}
