// SPDX-License-Identifier: GPL-2.0
/*
 * The cell schema's checks: a cell as the agent writes it passes, cells
 * of the committed reference run (schema 1, written before the table)
 * pass, and each kind of damage is refused with the key named.
 */
#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/lib/cell_schema.h"
#include "../tap.h"

/* A schema 2 ok cell with a latency histogram, as the agent writes one. */
static const char good[] =
	"{\"schema\": 2, \"cell\": \"lat.coresched.r3\", \"workload\": \"lat\","
	" \"mode\": \"coresched\", \"status\": \"ok\", \"duration_s\": 5, \"warmup_s\": 1,"
	" \"measured_s\": 5.2, \"wall_s\": 8.1, \"context_switches\": 1000, \"cpu_util\": 0.8,"
	" \"force_idle_usec\": {\"rt\": 10, \"hog\": 20},"
	" \"task_forceidle_ms\": {\"rt\": 0.01, \"hog\": 0.02},"
	" \"corun\": {\"span_s\": 5, \"windows\": 3, \"pair_share\": 0.1, \"corun_pct\": 10,"
	"  \"handoff\": 3, \"handoff_ms\": 0.2, \"handoff_p50_us\": 50, \"handoff_p99_us\": 90,"
	"  \"handoff_max_us\": 95, \"unexplained\": 0, \"unexplained_ms\": 0, \"truncated\": 0,"
	"  \"core_events\": true, \"one_busy_s\": 4, \"both_busy_s\": 1},"
	" \"metrics\": ["
	"  {\"tenant\": \"rt\", \"metric\": \"p99\", \"unit\": \"us\", \"higher_is_better\": false,"
	"   \"value\": 150, \"censored\": false, \"percentile\": 99,"
	"   \"hist\": {\"unit\": \"us\", \"sub_bucket_bits\": 6, \"limit\": 20000, \"overflow\": 0,"
	"    \"buckets\": [[40, 900], [148, 100]]}},"
	"  {\"tenant\": \"hog\", \"metric\": \"ops\", \"unit\": \"ops/s\", \"higher_is_better\": true,"
	"   \"value\": 84.1, \"censored\": false}]}";

static json_t *good_cell(void)
{
	return json_loads(good, 0, NULL);
}

/* Apply @damage to a good cell: it must be refused, naming @expect. */
static void refused(const char *what, void (*damage)(json_t *), const char *file,
		    const char *expect)
{
	json_t *c = good_cell();
	char err[256] = "";

	damage(c);
	tap_ok(cell_validate(c, file, err, sizeof(err)) == -1 && strstr(err, expect),
	       "%s: refused (%s)", what, err);
	json_decref(c);
}

static void no_measured(json_t *c) { json_object_del(c, "measured_s"); }
static void measured_string(json_t *c)
{
	json_object_set_new(c, "measured_s", json_string("5"));
}
static void turbo(json_t *c) { json_object_set_new(c, "mode", json_string("turbo")); }
static void extra_key(json_t *c) { json_object_set_new(c, "speed", json_integer(1)); }
static void newer(json_t *c) { json_object_set_new(c, "schema", json_integer(99)); }
static void dup_metric(json_t *c)
{
	json_t *m = json_array_get(json_object_get(c, "metrics"), 1);

	json_array_append_new(json_object_get(c, "metrics"), json_deep_copy(m));
}
static void no_value(json_t *c)
{
	json_object_del(json_array_get(json_object_get(c, "metrics"), 1), "value");
}
static void bad_bucket(json_t *c)
{
	json_t *h = json_object_get(json_array_get(json_object_get(c, "metrics"), 0), "hist");

	json_array_append_new(json_object_get(h, "buckets"), json_pack("[i]", 5));
}
static void old_hist(json_t *c)
{
	json_object_set_new(json_array_get(json_object_get(c, "metrics"), 0),
			    "hist_buckets_us", json_pack("[i,i]", 1, 2));
}
static void counts_string(json_t *c)
{
	json_object_set_new(json_object_get(c, "force_idle_usec"), "rt", json_string("x"));
}
static void corun_missing(json_t *c)
{
	json_object_del(json_object_get(c, "corun"), "unexplained");
}
static void nothing(json_t *c) { (void)c; }

/*
 * Numbers a verdict depends on, each set out of its range: every one of
 * these passed verify before the ranges, and each would have moved a row
 * (a rate of 0 drops its block, 1e308 overflows a sum, -5 windows or a
 * share of 1.5 reads as co-residency that never happened).
 */
static const struct {
	const char *what, *where, *key, *counts_key;
	double value;
	int integer;
	const char *expect;
} out_of_range[] = {
	{ "a rate of 0", "metric1", "value", NULL, 0, 0, "a rate must be above 0" },
	{ "a negative rate", "metric1", "value", NULL, -84.1, 0, "outside 0..1e+15" },
	{ "a rate of 1e308", "metric1", "value", NULL, 1e308, 0, "outside 0..1e+15" },
	{ "a negative latency", "metric0", "value", NULL, -1, 0, "outside" },
	{ "percentile 101", "metric0", "percentile", NULL, 101, 0, "\"percentile\"" },
	{ "-5 unexplained windows", "corun", "unexplained", NULL, -5, 1, "\"unexplained\"" },
	{ "a pair share of 1.5", "corun", "pair_share", NULL, 1.5, 0, "outside 0..1" },
	{ "corun_pct -3", "corun", "corun_pct", NULL, -3, 0, "\"corun_pct\"" },
	{ "negative forced idle", "cell", "force_idle_usec", "rt", -10, 0,
	  "\"force_idle_usec\".rt is -10" },
	{ "cpu_util 3", "cell", "cpu_util", NULL, 3, 0, "\"cpu_util\"" },
	{ "measured_s -1", "cell", "measured_s", NULL, -1, 0, "\"measured_s\"" },
	{ "a duration of 1e12 s", "cell", "duration_s", NULL, 1e12, 0, "\"duration_s\"" },
	{ "schema 4294967295", "cell", "schema", NULL, 4294967295.0, 1, "newer than" },
};

static void test_ranges(void)
{
	json_t *big;
	size_t i;

	for (i = 0; i < sizeof(out_of_range) / sizeof(out_of_range[0]); i++) {
		json_t *c = good_cell(), *o = c;
		json_t *v = out_of_range[i].integer ?
			    json_integer((json_int_t)out_of_range[i].value) :
			    json_real(out_of_range[i].value);
		char err[256] = "";

		if (!strcmp(out_of_range[i].where, "corun"))
			o = json_object_get(c, "corun");
		else if (!strncmp(out_of_range[i].where, "metric", 6))
			o = json_array_get(json_object_get(c, "metrics"),
					   atoi(out_of_range[i].where + 6));
		if (out_of_range[i].counts_key)
			o = json_object_get(o, out_of_range[i].key);
		json_object_set_new(o, out_of_range[i].counts_key ?: out_of_range[i].key, v);
		tap_ok(cell_validate(c, "lat.coresched.r3.json", err, sizeof(err)) == -1 &&
		       strstr(err, out_of_range[i].expect),
		       "%s: refused (%s)", out_of_range[i].what, err);
		json_decref(c);
	}
	big = json_pack("{s:I}", "schema", (json_int_t)4294967295LL);
	check_int(cell_schema_version(big), >, CELL_SCHEMA_VERSION,
		  "a schema of 2^32-1 stays a future version");
	json_decref(big);
	tap_ok(cell_value_problem(0, 0) == NULL, "a latency of 0 is a value");
	tap_ok(cell_value_problem(0, 1) != NULL, "a rate of 0 is not");
	tap_ok(cell_value_problem(NAN, 0) != NULL, "NaN is not");
}

static void test_constructed(void)
{
	char err[256] = "";
	json_t *c = good_cell(), *failed;

	tap_ok(c && !cell_validate(c, "lat.coresched.r3.json", err, sizeof(err)),
	       "a cell as the agent writes it passes (%s)", err);
	check_int(cell_schema_version(c), ==, 2, "its version is 2");
	json_object_del(c, "schema");
	json_object_del(json_array_get(json_object_get(c, "metrics"), 0), "hist");
	check_int(cell_schema_version(c), ==, 1, "without \"schema\": version 1");
	json_object_set_new(c, "later_key", json_true());
	tap_ok(!cell_validate(c, "lat.coresched.r3.json", err, sizeof(err)),
	       "version 1 is read leniently: an unknown key passes (%s)", err);
	json_decref(c);

	/* The host's record of a guest that died mid-cell. */
	failed = json_pack("{s:i,s:s,s:s,s:s,s:s,s:s,s:s}", "schema", 2, "cell", "w.smt-on.r1",
			   "mode", "smt-on", "workload", "w", "status", "guest-failed",
			   "error", "kernel panic", "console", "boots/1/console.log");
	tap_ok(!cell_validate(failed, "w.smt-on.r1.json", err, sizeof(err)),
	       "a guest-failed cell needs no measurements (%s)", err);
	json_decref(failed);

	refused("no measured_s in an ok cell", no_measured, "lat.coresched.r3.json",
		"no \"measured_s\"");
	refused("measured_s a string", measured_string, "lat.coresched.r3.json",
		"\"measured_s\" is not a number");
	refused("mode turbo", turbo, "lat.coresched.r3.json", "\"mode\" is not a mode name");
	refused("a key schema 2 does not have", extra_key, "lat.coresched.r3.json",
		"unknown key \"speed\"");
	refused("a newer schema", newer, "lat.coresched.r3.json", "newer than");
	refused("a metric twice in one tenant", dup_metric, "lat.coresched.r3.json",
		"metric \"ops\" twice");
	refused("a metric with neither value nor error", no_value, "lat.coresched.r3.json",
		"neither");
	refused("a malformed bucket", bad_bucket, "lat.coresched.r3.json", "[low, count]");
	refused("version 1's histogram in a version 2 cell", old_hist, "lat.coresched.r3.json",
		"unknown key \"hist_buckets_us\"");
	refused("a forced-idle figure that is no number", counts_string,
		"lat.coresched.r3.json", "\"force_idle_usec\" is not a object of numbers");
	refused("corun without unexplained", corun_missing, "lat.coresched.r3.json",
		"corun: no \"unexplained\"");
	refused("a file named after another cell", nothing, "lat.coresched.r4.json",
		"the file name says");
	refused("a file whose name is not .json", nothing, "lat.coresched.r3", ".json");
}

static void test_reference(void)
{
	char path[4096], ref[256] = "", err[256];
	struct dirent *d;
	int n = 0, bad = 0;
	FILE *f = fopen("results/REFERENCE", "r");
	DIR *dir;

	if (!f || !fgets(ref, sizeof(ref), f)) {
		tap_ok(0, "results/REFERENCE names the reference run");
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
	ref[strcspn(ref, "\n")] = '\0';
	snprintf(path, sizeof(path), "results/%s/cells", ref);
	dir = opendir(path);
	while (dir && (d = readdir(dir))) {
		size_t len = strlen(d->d_name);
		char file[4400];
		json_t *c;

		if (len < 6 || strcmp(d->d_name + len - 5, ".json"))
			continue;
		snprintf(file, sizeof(file), "%s/%s", path, d->d_name);
		c = json_load_file(file, 0, NULL);
		n++;
		if (!c || cell_validate(c, d->d_name, err, sizeof(err))) {
			if (!bad++)
				tap_diag("%s: %s", d->d_name, c ? err : "unreadable");
		}
		json_decref(c);
	}
	if (dir)
		closedir(dir);
	tap_ok(n > 0 && !bad, "all %d cells of the reference run (schema 1) pass (%d do not)",
	       n, bad);
}

int main(void)
{
	tap_plan_start();
	test_constructed();
	test_ranges();
	test_reference();
	return tap_finish();
}
