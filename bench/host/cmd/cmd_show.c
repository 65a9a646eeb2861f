// SPDX-License-Identifier: GPL-2.0
/*
 * csbench show DIR: the raw table of a run directory.
 * csbench verify DIR: every cell present and ok, no unexplained
 * co-residency in the coresched modes (make check uses it).
 */
#include <stdio.h>

#include "../../lib/log.h"
#include "../../lib/opts.h"
#include "cmd.h"
#include "../runner/run_report.h"

static int one_dir(const char *cmd, int argc, char **argv)
{
	const struct opt opts[] = { { NULL } };
	int idx = opts_parse(cmd, "RUN_DIR", opts, argc, argv);

	if (idx == -2)
		return -2;
	if (idx < 0 || idx != argc - 1) {
		err_msg("expected one run directory (csbench %s RUN_DIR)", cmd);
		return -1;
	}
	return idx;
}

int cmd_show(int argc, char **argv)
{
	int idx = one_dir("show", argc, argv);

	if (idx == -2)
		return EXIT_OK;
	if (idx < 0)
		return EXIT_USAGE;
	if (run_report_table(argv[idx], stdout)) {
		err_msg("%s: no cells (not a run directory?)", argv[idx]);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_verify(int argc, char **argv)
{
	int idx = one_dir("verify", argc, argv);

	if (idx == -2)
		return EXIT_OK;
	if (idx < 0)
		return EXIT_USAGE;
	switch (run_report_verify(argv[idx], stdout)) {
	case 0:
		return EXIT_OK;
	case -2:
		return EXIT_USAGE;	/* not a run directory */
	default:
		return EXIT_FAIL;
	}
}
