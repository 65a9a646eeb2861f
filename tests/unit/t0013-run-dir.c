// SPDX-License-Identifier: GPL-2.0
/*
 * Reading run directories: the raw table and the checks make check relies
 * on (every cell present and ok, no unexplained co-residency in the
 * coresched modes), on constructed runs whose answers are known.
 */
#include <stdlib.h>
#include <sys/stat.h>

#include "../../bench/host/runner/run_report.h"
#include "../../bench/lib/paths.h"
#include "../tap.h"

static char dir[] = "/tmp/csbench-t0013-XXXXXX";

static void put(const char *name, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	write_atomic(path, text, strlen(text));
}

static const char *cell(const char *id, const char *mode, const char *status,
			double value, int unexplained)
{
	static char buf[1024];

	snprintf(buf, sizeof(buf),
		 "{\"cell\": \"%s\", \"workload\": \"w\", \"mode\": \"%s\", \"status\": \"%s\","
		 " \"metrics\": [{\"tenant\": \"a\", \"metric\": \"m\", \"unit\": \"u\","
		 " \"higher_is_better\": true, \"value\": %g}],"
		 " \"corun\": {\"unexplained\": %d}}", id, mode, status, value, unexplained);
	return buf;
}

static int verify(void)
{
	FILE *out = fopen("/dev/null", "w");
	int ret = run_report_verify(dir, out);

	fclose(out);
	return ret;
}

int main(void)
{
	char path[512], table[4096];
	FILE *mem;

	tap_plan_start();
	if (!mkdtemp(dir))
		return KSFT_FAIL;
	snprintf(path, sizeof(path), "%s/cells", dir);
	mkdirs(path, 0755);

	check_int(verify(), ==, -2, "no manifest: not a run directory (-2)");
	put("manifest.json", "{\"cells\": 3}");
	put("cells/w.smt-on.r1.json", cell("w.smt-on.r1", "smt-on", "ok", 10, 5));
	put("cells/w.coresched.r1.json", cell("w.coresched.r1", "coresched", "ok", 20, 0));
	check_int(verify(), ==, -1, "a missing cell fails verify");
	put("cells/w.coresched.r2.json", cell("w.coresched.r2", "coresched", "ok", 30, 0));
	check_int(verify(), ==, 0, "all present and ok (smt-on may co-run) passes");
	put("cells/w.coresched.r2.json", cell("w.coresched.r2", "coresched", "ok", 30, 1));
	check_int(verify(), ==, -1, "an unexplained window in coresched fails verify");
	put("cells/w.coresched.r2.json", cell("w.coresched.r2", "coresched", "mode-check-failed", 30, 0));
	check_int(verify(), ==, -1, "a failed mode check fails verify");
	put("cells/w.coresched.r2.json", cell("w.coresched.r2", "coresched", "ok", 30, 0));
	put("cells/v.smt-off.r1.json", "{\"cell\": \"v.smt-off.r1\", \"workload\": \"v\","
	    " \"mode\": \"smt-off\", \"status\": \"ok\", \"metrics\": [{\"tenant\": \"rt\","
	    " \"metric\": \"p99\", \"unit\": \"us\", \"higher_is_better\": false,"
	    " \"value\": 20000, \"censored\": true}]}");

	mem = fmemopen(table, sizeof(table), "w");
	check_int(run_report_table(dir, mem), ==, 0, "table from the cells");
	fclose(mem);
	/* A rate: the harmonic mean of 20 and 30 is 24, as csbench report has it. */
	tap_ok(strstr(table, "| w | a.m (higher better) | u | - | 10 (n=1) | 24 (n=2) | - |") != NULL,
	       "harmonic means per mode, n counted, absent modes dashed");
	tap_ok(strstr(table, "| v | rt.p99 (lower better) | us | >=2e+04 (n=1) |") != NULL,
	       "a censored value is marked as a lower bound");
	if (!strstr(table, "24 (n=2)"))
		tap_diag("%s", table);

	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path))
		tap_diag("could not remove %s", dir);
	return tap_finish();
}
