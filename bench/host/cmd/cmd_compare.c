// SPDX-License-Identifier: GPL-2.0
/*
 * csbench compare OLD NEW: regressions between two runs (two revisions of
 * the patch series, two kernels). Exit 1 when anything got significantly
 * worse (a row, a workload, forced idle) or isolation was lost, so scripts
 * and CI can gate on it. The two sides of one A/B session are paired by
 * block; unrelated runs are not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/log.h"
#include "../../lib/mode.h"
#include "../../lib/opts.h"
#include "../../report/compare.h"
#include "../../report/setup_diff.h"
#include "cmd.h"

/*
 * --workloads as a clean comma list of names the new run has: a typo must
 * not narrow the comparison to nothing and pass.
 */
static int check_workloads(const char *arg, const struct report *r, char *out, size_t len)
{
	char copy[1024], *tok, *save = NULL, *end;
	size_t used = 0;

	snprintf(copy, sizeof(copy), "%s", arg);
	out[0] = '\0';
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ')
			tok++;
		for (end = tok + strlen(tok); end > tok && end[-1] == ' '; end--)
			*--end = '\0';
		if (report_find_workload(r, tok) < 0) {
			err_msg("--workloads: %s has no workload '%s'", r->run, tok);
			return -1;
		}
		used += snprintf(out + used, len - used, "%s%s", used ? "," : "", tok);
		if (used >= len)
			return -1;
	}
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	int all = 0, force = 0, idx, ret, modes[MODE_COUNT], nmodes, i, differ;
	long threshold = 5;
	const char *workloads = NULL, *modes_arg = NULL;
	struct compare_opts copts = { 0 };
	char err[256], wl_list[1024];
	const struct opt opts[] = {
		{ "workloads", OPT_STR, &workloads, 0, 0, "LIST",
		  "compare only these workloads (fewer comparisons: more power)" },
		{ "modes", OPT_STR, &modes_arg, 0, 0, "LIST", "compare only these modes" },
		{ "all", OPT_FLAG, &all, 0, 0, NULL, "list unchanged rows too" },
		{ "force", OPT_FLAG, &force, 0, 0, NULL,
		  "compare runs of another SMT yield, emulation or guest topology" },
		{ "threshold", OPT_INT, &threshold, 0, 1000, "PCT",
		  "a significant change counts only beyond PCT% (default 5)" },
		{ NULL }
	};
	struct report *old_r, *new_r;
	struct compare cmp;

	idx = opts_parse("compare", "[OPTIONS] OLD_RUN_DIR NEW_RUN_DIR", opts, argc, argv);
	if (idx == -2)
		return EXIT_OK;
	if (idx < 0 || argc - idx != 2) {
		if (idx >= 0)
			err_msg("expected two run directories: OLD NEW");
		return EXIT_USAGE;
	}
	if (modes_arg) {
		nmodes = mode_parse_list(modes_arg, modes, err, sizeof(err));
		if (nmodes < 0) {
			err_msg("--modes: %s", err);
			return EXIT_USAGE;
		}
		for (i = 0; i < nmodes; i++)
			copts.modes |= 1u << modes[i];
	}
	copts.threshold = threshold / 100.0;
	old_r = calloc(1, sizeof(*old_r));
	new_r = calloc(1, sizeof(*new_r));
	if (!old_r || !new_r) {
		err_msg("out of memory");
		ret = EXIT_FAIL;
		goto out;
	}
	ret = report_open(argv[idx], NULL, old_r);
	if (ret == EXIT_OK)
		ret = report_open(argv[idx + 1], NULL, new_r);
	if (ret != EXIT_OK)
		goto out;
	/*
	 * A yield, emulation or topology apart, the modes measure different
	 * things: a gain would be the setup's, not the revision's.
	 */
	differ = report_setup_diff(old_r, new_r, "  ", stderr);
	if (differ && !force) {
		err_msg("%s and %s differ in setup (above), so their modes do not measure the "
			"same thing; --force compares them anyway", old_r->run, new_r->run);
		ret = EXIT_USAGE;
		goto out;
	}
	if (workloads && check_workloads(workloads, new_r, wl_list, sizeof(wl_list))) {
		ret = EXIT_USAGE;
		goto out;
	}
	copts.workloads = workloads ? wl_list : NULL;
	if (compare_reports(old_r, new_r, &copts, &cmp)) {
		err_msg("out of memory");
		compare_free(&cmp);
		ret = EXIT_FAIL;
		goto out;
	}
	if (!cmp.n) {
		err_msg("nothing to compare (no row and mode in both runs%s)",
			workloads || modes_arg ? " that --workloads/--modes keep" : "");
		ret = EXIT_USAGE;
		compare_free(&cmp);
		goto out;
	}
	compare_write_md(old_r, new_r, &cmp, all, stdout);
	ret = compare_failed(&cmp) ? EXIT_FAIL : EXIT_OK;
	if (ret)
		err_msg("regressions: %d rows x modes, %d workloads x modes, %d in forced "
			"idle, %d with isolation lost", cmp.regressions, cmp.wl_regressions,
			cmp.fi_regressions, cmp.isolation_regressions);
	compare_free(&cmp);
out:
	if (old_r)
		report_free(old_r);
	if (new_r)
		report_free(new_r);
	free(old_r);
	free(new_r);
	return ret;
}
