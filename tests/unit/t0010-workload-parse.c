// SPDX-License-Identifier: GPL-2.0
/*
 * The workload parser: every shipped workload parses, and every kind of
 * mistake is reported as file:line with what was expected.
 */
#include <dirent.h>

#include "../../bench/lib/workload.h"
#include "../tap.h"

#ifndef WORKLOADS
#define WORKLOADS "workloads"
#endif

#define GOOD_TOP \
	"name t\n" \
	"profile smoke duration=1\nprofile quick duration=2 warmup=1\nprofile full duration=3\n"
#define GOOD_TENANT \
	"tenant a\nthreads 2\ncommand run --n={threads} --t={duration}\n" \
	"metric m u higher after \"x:\"\n"

static const struct {
	const char *text, *want, *desc;
} bad[] = {
	{ GOOD_TENANT, "t.wl: expected a 'name NAME' line", "missing name" },
	{ GOOD_TOP, "expected at least one 'tenant NAME' block", "no tenant" },
	{ "name t\n" GOOD_TENANT, "expected a 'profile smoke duration=SEC' line", "missing profile" },
	{ GOOD_TOP "bogus 1\n", "t.wl:5: unknown directive 'bogus'", "unknown directive" },
	{ GOOD_TOP "threads 2\n", "t.wl:5: 'threads' belongs inside a tenant block", "threads outside tenant" },
	{ GOOD_TOP GOOD_TENANT "name u\n", "t.wl:9: 'name' must come before the first tenant", "name after tenant" },
	{ GOOD_TOP "tenant a\nthreads 0\n", "t.wl:6: threads: expected a whole number in 1..1024, cores, cpus, N*cores or N*cpus, got '0'", "threads 0" },
	{ GOOD_TOP "tenant a\nthreads two\n", "t.wl:6: threads: expected a whole number", "threads not a number" },
	{ GOOD_TOP "tenant a\nthreads\n", "t.wl:6: expected 'threads N|cores|cpus|N*cores|N*cpus'", "threads without value" },
	{ GOOD_TOP "tenant a\nthreads 1\ncommand x {cpu}\n", "t.wl:7: unknown placeholder {cpu} (expected {threads}, {duration}, {cores} or {cpus})", "bad placeholder" },
	{ GOOD_TOP "tenant a\nthreads 0*cores\n", "t.wl:6: threads: expected N*cores with N a whole number in 1..64, got '0*cores'", "threads 0*cores" },
	{ GOOD_TOP "tenant a\nthreads 65*cpus\n", "t.wl:6: threads: expected N*cpus with N", "threads 65*cpus" },
	{ GOOD_TOP "tenant a\nthreads *cores\n", "t.wl:6: threads: expected N*cores", "threads *cores" },
	{ GOOD_TOP "tenant a\nthreads 2*sockets\n", "t.wl:6: threads: expected a whole number in 1..1024, cores, cpus", "threads 2*sockets" },
	{ GOOD_TOP "tenant a\nthreads 2*cores*2\n", "t.wl:6: threads: expected", "threads 2*cores*2" },
	{ GOOD_TOP "tenant a\nthreads 1\ncommand x {threads\n", "unterminated '{'", "open placeholder" },
	{ GOOD_TOP "tenant a\nthreads 1\ncommand x\ncommand y\n", "a second 'command'", "second command" },
	{ GOOD_TOP "tenant a\nthreads 1\nthreads 2\n", "a second 'threads'", "second threads" },
	{ "name a\nname b\n", "a second 'name'", "second name" },
	{ "name a\ndescription x\ndescription y\n", "a second 'description'", "second description" },
	{ GOOD_TOP "tenant a\nthreads 1\ncommand x\rrm -rf y\n", "carriage return", "CR inside a command" },
	{ GOOD_TOP "tenant a\nthreads 1\ncommand x\nmetric m u higher after \"a:\"\n"
	  "metric m u higher after \"b:\"\n", "metric 'm' twice", "a metric twice in a tenant" },
	{ GOOD_TOP "tenant a\nmetric m u sideways after x\n", "t.wl:6: expected higher or lower, got 'sideways'", "bad direction" },
	{ GOOD_TOP "tenant a\nmetric m u higher grep x\n", "expected an extractor after, json or hist, got 'grep'", "bad extractor" },
	{ GOOD_TOP "tenant a\nmetric m u lower hist median\n", "t.wl:6: hist: expected pNN (e.g. p99.9) or max, got 'median'", "bad percentile" },
	{ GOOD_TOP "tenant a\nmetric m u higher json jobs.0.iops\n", "json: expected a JSON pointer starting with '/'", "dotted json path" },
	{ GOOD_TOP "tenant a\nmetric m u higher after\n", "expected 'metric NAME UNIT higher|lower after|json|hist ARG'", "metric too short" },
	{ GOOD_TOP "tenant a\nmetric m u higher after \"x\n", "t.wl:6: unterminated or misplaced quote", "open quote" },
	{ GOOD_TOP "tenant a\nthreads 1\nmetric m u higher after x\n", "tenant a: expected a 'command ...' line", "tenant without command" },
	{ GOOD_TOP "tenant a\nthreads 1\ncommand x\n", "tenant a: expected at least one 'metric ...' line", "tenant without metric" },
	{ GOOD_TOP GOOD_TENANT "tenant a\n", "tenant a given twice", "duplicate tenant" },
	{ GOOD_TOP "profile quick duration=5\n", "t.wl:5: profile quick given twice", "duplicate profile" },
	{ "profile fast duration=1\n", "t.wl:1: expected profile smoke, quick or full, got 'fast'", "unknown profile" },
	{ "profile quick duration=0\n", "duration: expected a whole number of seconds in 1..86400, got '0'", "zero duration" },
	{ "profile quick time=5\n", "expected duration=SECONDS, got 'time=5'", "misspelt duration" },
	{ "profile quick duration=5 warmup=-1\n", "warmup: expected a whole number of seconds in 0..86400", "negative warmup" },
	{ "name a/b\n", "expected a name of letters, digits", "name with a slash" },
	{ "name a\0b\n", "t.wl:1: unexpected NUL byte", "NUL byte" },
};

static int parse_text(const char *text, size_t len, struct workload *w,
		      char *err, size_t errlen)
{
	FILE *f = fmemopen((void *)text, len, "r");
	int ret = workload_parse(f, "t.wl", w, err, errlen);

	fclose(f);
	return ret;
}

int main(void)
{
	static const struct wl_topology topo = { 2, 4 };
	static struct workload w;
	char err[512], cmd[256], path[512], longline[2000];
	struct dirent *de;
	DIR *d;
	size_t i;
	int n = 0;

	tap_plan_start();

	d = opendir(WORKLOADS);
	while (d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len < 4 || strcmp(de->d_name + len - 3, ".wl"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", WORKLOADS, de->d_name);
		if (!tap_ok(workload_load(path, &w, err, sizeof(err)) == 0,
			    "shipped workload %s parses", de->d_name))
			tap_diag("  %s", err);
		n++;
	}
	if (d)
		closedir(d);
	check_int(n, >=, 7, "at least the seven workloads the driver issue asks for");

	check_int(parse_text(GOOD_TOP GOOD_TENANT, strlen(GOOD_TOP GOOD_TENANT), &w,
			     err, sizeof(err)), ==, 0, "a minimal workload parses");
	check_int(w.profiles[WL_QUICK].duration_s, ==, 2, "quick duration");
	check_int(w.profiles[WL_QUICK].warmup_s, ==, 1, "quick warmup");
	check_int(w.tenants[0].metrics[0].higher_is_better, ==, 1, "direction");
	check_str(w.tenants[0].metrics[0].arg, "x:", "quoted argument unquoted");
	check_int(workload_command(&w.tenants[0], 7, &topo, cmd, sizeof(cmd)), ==, 0,
		  "command expands");
	check_str(cmd, "run --n=2 --t=7", "placeholders substituted");
	check_int(workload_command(&w.tenants[0], 7, &topo, cmd, 5), ==, -1,
		  "expansion into too small a buffer is refused");

	/* Thread counts relative to the guest: one file, any topology. */
	{
		static const char rel[] = GOOD_TOP "tenant a\nthreads 2*cores\n"
			"command run {threads} {cores} {cpus}\nmetric m u higher after \"x:\"\n"
			"tenant b\nthreads cpus\ncommand run {threads}\n"
			"metric m u higher after \"x:\"\n";
		static const struct wl_topology one = { 1, 2 }, eight = { 8, 16 };
		char spec[32];

		check_int(parse_text(rel, strlen(rel), &w, err, sizeof(err)), ==, 0,
			  "threads 2*cores and threads cpus parse");
		check_int(workload_threads(&w.tenants[0], &one), ==, 2, "2*cores on 1 core");
		check_int(workload_threads(&w.tenants[0], &eight), ==, 16, "2*cores on 8 cores");
		check_int(workload_threads(&w.tenants[1], &one), ==, 2, "cpus on 1 core");
		check_int(workload_threads(&w.tenants[1], &eight), ==, 16, "cpus on 8 cores");
		workload_command(&w.tenants[0], 7, &eight, cmd, sizeof(cmd));
		check_str(cmd, "run 16 8 16", "{threads}, {cores} and {cpus} expand for the guest");
		check_str(workload_threads_spec(&w.tenants[0], spec, sizeof(spec)), "2*cores",
			  "the spec reads back as written");
		check_str(workload_threads_spec(&w.tenants[1], spec, sizeof(spec)), "cpus",
			  "and a bare unit too");
	}

	/* Valid shell passes through as written; CRLF endings are fine. */
	{
		static const char shell[] = GOOD_TOP "tenant a\r\nthreads 1\r\n"
			"command sh -c \"x\"|cat; awk '{print $0}' f ${HOME} {threads}\r\n"
			"metric m u higher after \"x:\"\r\n";

		tap_ok(parse_text(shell, strlen(shell), &w, err, sizeof(err)) == 0,
		       "shell quoting, awk braces and CRLF are accepted (%s)", err);
		workload_command(&w.tenants[0], 7, &topo, cmd, sizeof(cmd));
		check_str(cmd, "sh -c \"x\"|cat; awk '{print $0}' f ${HOME} 1",
			  "the command is kept whole, only {threads} replaced");
	}

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		size_t len = strlen(bad[i].text);

		/* The NUL case carries its byte past strlen(). */
		if (strstr(bad[i].desc, "NUL"))
			len = sizeof("name a\0b\n") - 1;
		err[0] = '\0';
		if (!tap_ok(parse_text(bad[i].text, len, &w, err, sizeof(err)) == -1 &&
			    strstr(err, bad[i].want), "rejects %s", bad[i].desc))
			tap_diag("  got '%s', want it to contain '%s'", err, bad[i].want);
	}

	memset(longline, 'x', sizeof(longline) - 2);
	memcpy(longline, "name ", 5);
	longline[sizeof(longline) - 2] = '\n';
	longline[sizeof(longline) - 1] = '\0';
	check_int(parse_text(longline, strlen(longline), &w, err, sizeof(err)), ==, -1,
		  "an over-long line is refused");
	tap_ok(strstr(err, "t.wl:1: line longer than") != NULL, "and named (%s)", err);
	return tap_finish();
}
