// SPDX-License-Identifier: GPL-2.0
/*
 * csbench calibrate: run one mode several times (A/A) and record, per
 * workload metric, how far two halves of those repetitions can land apart
 * by noise alone (bench/report/calibrate.h). It takes every csbench run
 * option but --modes (its own --mode replaces it); --from DIR skips the
 * run and uses an existing one.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "../../lib/log.h"
#include "../../lib/mode.h"
#include "../../lib/paths.h"
#include "../../report/calibrate.h"
#include "cmd.h"
#include "../runner/run_args.h"

#define CALIBRATE_REPS	6	/* two halves of three: the least a band needs is 4 */

int cmd_calibrate(int argc, char **argv)
{
	const char *mode = "smt-on", *from = NULL, *out_arg = NULL, *out_dir = NULL;
	struct opt opts[RUN_NOPTS + 5];
	struct run_args a;
	char out[4096] = "", err[4400], dir[4096];
	int idx, n, ret;

	run_args_init(&a);
	n = run_args_opts(&a, opts);
	opts[n++] = (struct opt){ "mode", OPT_STR, &mode, 0, 0, "MODE",
				  "the mode to repeat (default smt-on)" };
	opts[n++] = (struct opt){ "from", OPT_STR, &from, 0, 0, "RUN_DIR",
				  "compute the bands from this run instead of running one" };
	opts[n++] = (struct opt){ "out", OPT_STR, &out_arg, 0, 0, "FILE",
				  "where the bands go (default: calibration-PROFILE-ACCEL.json "
				  "beside the run directory, where csbench report looks)" };
	opts[n++] = (struct opt){ "out-dir", OPT_STR, &out_dir, 0, 0, "DIR",
				  "the default name, in DIR (make calibrate: results/)" };
	opts[n] = (struct opt){ NULL };
	idx = opts_parse_only("calibrate", "[--mode MODE] [--from RUN_DIR] [--out FILE] "
			      "[RUN OPTIONS; --reps default 6]", opts, argc, argv);
	if (idx == -2)
		return EXIT_OK;
	if (idx < 0)
		return EXIT_USAGE;
	if (mode_lookup(mode) < 0) {
		mode_list_all(err, sizeof(err), ", ");
		err_msg("--mode %s: unknown mode (valid: %s)", mode, err);
		return EXIT_USAGE;
	}
	if (a.modes) {
		err_msg("--modes: calibrate repeats one mode; use --mode");
		return EXIT_USAGE;
	}
	if (out_arg)
		snprintf(out, sizeof(out), "%s", out_arg);
	if (from) {
		if (input_missing("--from", from, S_IFDIR))
			return EXIT_USAGE;
	} else {
		a.modes = mode;
		if (!a.reps)
			a.reps = CALIBRATE_REPS;
		ret = run_execute(&a, dir, sizeof(dir));
		if (ret != EXIT_OK || !dir[0]) {
			err_msg("the calibration run did not finish cleanly (exit %d)", ret);
			return ret ?: EXIT_FAIL;
		}
		from = dir;
	}
	ret = calibrate_write(from, mode, out_dir, out, sizeof(out), err, sizeof(err));
	if (ret < 0) {
		err_msg("%s", err);
		return ret == -2 ? EXIT_USAGE : EXIT_FAIL;
	}
	printf("%s: noise bands for %d rows (mode %s, from %s)\n", out, ret, mode, from);
	return EXIT_OK;
}
