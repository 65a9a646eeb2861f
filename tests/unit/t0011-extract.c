// SPDX-License-Identifier: GPL-2.0
/*
 * Metric extraction on the real tool outputs in tests/fixtures, with the
 * values read off those files by hand.
 */
#include <math.h>

#include "../../bench/lib/extract.h"
#include "../../bench/lib/fileio.h"
#include "../tap.h"

static char *slurp(const char *name)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", FIXTURES, name);
	return read_file(path);
}

static void expect(const char *file, enum wl_extract kind, const char *arg,
		   double want, int want_censored)
{
	struct wl_metric m = { .extract = kind };
	char *out = slurp(file), err[256] = "";
	double v = NAN;
	int censored = -1, ret;

	snprintf(m.arg, sizeof(m.arg), "%s", arg);
	ret = out ? extract_metric(&m, out, &v, &censored, err, sizeof(err)) : -1;
	if (!tap_ok(ret == 0 && fabs(v - want) < 1e-6 * fabs(want) + 1e-9 &&
		    censored == want_censored, "%s: %s -> %g%s", file, arg, want,
		    want_censored ? " (censored)" : ""))
		tap_diag("  got %g censored=%d ret=%d err='%s'", v, censored, ret, err);
	free(out);
}

static void expect_error(const char *file, enum wl_extract kind, const char *arg,
			 const char *want)
{
	struct wl_metric m = { .extract = kind };
	char *out = slurp(file), err[256] = "";
	double v;
	int censored, ret;

	snprintf(m.arg, sizeof(m.arg), "%s", arg);
	ret = extract_metric(&m, out, &v, &censored, err, sizeof(err));
	if (!tap_ok(ret == -1 && strstr(err, want), "%s: %s is refused: %s", file, arg, want))
		tap_diag("  got ret=%d err='%s'", ret, err);
	free(out);
}

int main(void)
{
	tap_plan_start();
	expect("sysbench-cpu.txt", WL_AFTER, "events per second:", 595.38, 0);
	expect("sysbench-mutex.txt", WL_AFTER, "total time:", 3.2611, 0);
	expect("sysbench-threads.txt", WL_AFTER, "total number of events:", 181, 0);
	expect("hackbench.txt", WL_AFTER, "Time:", 24.729, 0);
	expect("perf-bench-sched-pipe.txt", WL_AFTER, "Total time:", 11.380, 0);
	expect("stress-ng-cpu.yaml", WL_AFTER, "bogo-ops-per-second-real-time:", 100.848814, 0);
	expect("fio-randrw.json", WL_JSON, "/jobs/0/read/iops", 4471.8427, 0);
	expect_error("sysbench-cpu.txt", WL_AFTER, "bogo ops", "no \"bogo ops\" in the output");
	expect_error("fio-randrw.json", WL_JSON, "/jobs/7/read/iops", "no number at /jobs/7/read/iops");
	expect_error("fio-randrw.json", WL_JSON, "/jobs/0/read", "no number at /jobs/0/read");
	expect_error("sysbench-cpu.txt", WL_JSON, "/a", "no JSON object in the output");

	/*
	 * cyclictest -t2 -h 400: 1475 + 1523 samples in the buckets, 1476 +
	 * 1362 overflows, max latencies 5309 and 5687 us. Of 5836 samples the
	 * median (rank 2918) is at 393 us, which the log-linear layout keeps
	 * in the bucket [392, 395] and reports as its highest value; p99 lies
	 * in the overflow.
	 */
	expect("cyclictest-hist.txt", WL_HIST, "p50", 395, 0);
	expect("cyclictest-hist.txt", WL_HIST, "p99", 400, 1);
	expect("cyclictest-hist.txt", WL_HIST, "max", 5687, 0);
	expect_error("cyclictest-hist.txt", WL_HIST, "median", "expected pNN");
	expect_error("sysbench-cpu.txt", WL_HIST, "p50", "no cyclictest histogram");

	{
		char *out = slurp("cyclictest-hist.txt");
		struct hist h;
		long sum = 0, max_us;
		double v;
		int i, c;

		check_int(cyclictest_parse(out, &h, &max_us), ==, 0, "histogram parses");
		for (i = 0; i < h.nbuckets; i++)
			sum += h.count[i];
		check_int(sum, ==, 1475 + 1523, "threads merged: bucket counts add up");
		check_int(h.overflow, ==, 1476 + 1362, "overflows of both threads counted");
		check_int(h.limit, ==, 400, "limit 400 us (-h 400)");
		check_int(max_us, ==, 5687, "largest of the max latencies");
		/* Rank 2998 of 5836 is the last sample inside the buckets. */
		hist_percentile(&h, 0.5137, &v, &c);
		check_int(c, ==, 0, "rank 2998 is inside the histogram");
		tap_ok(v < 400, "and below the limit (%g)", v);
		hist_percentile(&h, 0.5139, &v, &c);
		tap_ok(v == 400 && c, "rank 3000 is in the overflow: the limit, censored");
		hist_free(&h);
		free(out);
	}
	{
		/* 1000 samples, one per microsecond: p99.9 is rank 999, not 1000. */
		struct hist even;
		double v;
		int i, c;

		hist_init(&even);
		for (i = 0; i < 1000; i++)
			hist_record(&even, i, 1);
		hist_percentile(&even, 0.999, &v, &c);
		/* 998 us lies in [992, 999] of the log-linear layout. */
		tap_ok(v == 999 && !c, "p99.9 of 1000 samples is the 999th (%g)", v);
		hist_percentile(&even, 0.998, &v, &c);
		tap_ok(v == 999, "rank 998 is in the same bucket (%g)", v);
		hist_percentile(&even, 0.99, &v, &c);
		/* Rank 990, 989 us: [984, 991]. Rank 991 would still give 991. */
		tap_ok(v == 991, "p99 of 1000 samples is 991, the bucket's top (%g)", v);
		hist_free(&even);
	}
	return tap_finish();
}
