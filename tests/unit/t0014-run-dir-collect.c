// SPDX-License-Identifier: GPL-2.0
/*
 * The run directory's bookkeeping under csbench run: collecting a finished
 * cell from a boot's share (ID.json last, through a rename; traces along),
 * leaving an unfinished one alone, reporting a cell that cannot be stored,
 * the free-space check, and the matrix a --resume takes from the manifest.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../bench/host/runner/run_dir.h"
#include "../../bench/lib/log.h"
#include "../../bench/lib/paths.h"
#include "../tap.h"

static char dir[] = "/tmp/csbench-t0014-XXXXXX";

static void put(const char *name, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	write_atomic(path, text, strlen(text));
}

static int exists(const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !access(path, F_OK);
}

int main(void)
{
	char run[512], share[512], path[512], err[256];
	struct run_params p;

	tap_plan_start();
	log_quiet = 1;
	if (!mkdtemp(dir))
		return KSFT_FAIL;
	snprintf(run, sizeof(run), "%s/run", dir);
	snprintf(share, sizeof(share), "%s/share", dir);
	snprintf(path, sizeof(path), "%s/run/cells", dir);
	mkdirs(path, 0755);
	snprintf(path, sizeof(path), "%s/share/out", dir);
	mkdirs(path, 0755);

	/* A cell the guest is still running: its trace is there, no JSON. */
	put("share/out/w.smt-on.r1.trace", "trace\n");
	check_int(run_dir_collect(run, share, "w.smt-on.r1"), ==, 0,
		  "no ID.json on the share: not finished, nothing collected");
	tap_ok(!exists("run/cells/w.smt-on.r1.trace"), "its trace is left on the share");
	check_int(run_dir_cell_done(run, "w.smt-on.r1"), ==, 0, "and it is not done");

	put("share/out/w.smt-on.r1.json", "{\"status\": \"ok\"}");
	put("share/out/w.smt-on.r10.json", "{\"status\": \"ok\"}");
	check_int(run_dir_collect(run, share, "w.smt-on.r1"), ==, 1, "finished: collected");
	tap_ok(exists("run/cells/w.smt-on.r1.json") && exists("run/cells/w.smt-on.r1.trace"),
	       "JSON and trace are in cells/");
	tap_ok(!exists("run/cells/w.smt-on.r10.json"), "a cell whose ID extends it is not taken");
	tap_ok(!exists("run/cells/w.smt-on.r1.json.tmp"), "no temporary file left");
	check_int(run_dir_cell_done(run, "w.smt-on.r1"), ==, 1, "now done");

	/* cells/ unwritable stands in for a full disk: same path out. */
	snprintf(path, sizeof(path), "%s/run/cells", dir);
	chmod(path, 0555);
	if (geteuid() == 0) {
		/* root writes anyway; a missing cells/ fails for root too. */
		chmod(path, 0755);
		snprintf(path, sizeof(path), "%s/gone", dir);
		check_int(run_dir_collect(path, share, "w.smt-on.r10"), ==, -ENOENT,
			  "cannot store: negative errno, nothing claimed");
	} else {
		check_int(run_dir_collect(run, share, "w.smt-on.r10"), ==, -EACCES,
			  "cannot store: negative errno, nothing claimed");
		chmod(path, 0755);
	}
	check_int(run_dir_cell_done(run, "w.smt-on.r10"), ==, 0, "the failed cell is not done");

	check_int(run_dir_check_space(dir, 0), ==, 0, "0 MiB needed: room");
	check_int(run_dir_check_space(dir, 1L << 40), ==, -ENOSPC, "1 EiB needed: disk full");

	check_int(run_dir_read_params(run, &p, err, sizeof(err)), ==, -1,
		  "resume without a manifest is refused");
	tap_ok(strstr(err, "manifest.json") != NULL, "naming the manifest (%s)", err);
	put("run/manifest.json", "{\"profile\": \"quick\", \"modes\": \"smt-on,coresched\","
	    " \"reps\": 3, \"workloads\": [\"a\", \"b\"]}");
	check_int(run_dir_read_params(run, &p, err, sizeof(err)), ==, 0, "manifest read");
	check_str(p.profile, "quick", "profile from the manifest");
	check_str(p.modes, "smt-on,coresched", "modes from the manifest");
	check_str(p.workloads, "a,b", "workloads joined with commas");
	check_int(p.reps, ==, 3, "reps from the manifest");
	put("run/manifest.json", "{\"profile\": \"quick\", \"modes\": \"smt-on\", \"reps\": 0,"
	    " \"workloads\": [\"a\"]}");
	check_int(run_dir_read_params(run, &p, err, sizeof(err)), ==, -1, "reps 0 refused");

	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path))
		tap_diag("could not remove %s", dir);
	return tap_finish();
}
