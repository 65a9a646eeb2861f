/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Workloads are data: one file per workload under workloads/, in the line
 * format described in workloads/README.md. A new workload needs a new file,
 * not new C. The parser names file:line and what it expected.
 */
#ifndef CSBENCH_WORKLOAD_H
#define CSBENCH_WORKLOAD_H

#include <stddef.h>
#include <stdio.h>

#define WL_NAME		48
#define WL_TEXT		256
#define WL_COMMAND	512
#define WL_MAX_TENANTS	4
#define WL_MAX_METRICS	8
#define WL_MAX_REQUIRES	8

/* How a metric's value is found in the tenant's output. */
enum wl_extract {
	WL_AFTER,	/* the first number after a literal text */
	WL_JSON,	/* a number at a JSON pointer in JSON output (fio) */
	WL_HIST,	/* a latency histogram (cyclictest -h); arg: percentile */
};

struct wl_metric {
	char name[WL_NAME];
	char unit[WL_NAME];
	int higher_is_better;
	enum wl_extract extract;
	char arg[WL_TEXT];
};

struct wl_tenant {
	char name[WL_NAME];
	int threads;
	char command[WL_COMMAND];	/* with {threads} and {duration} */
	struct wl_metric metrics[WL_MAX_METRICS];
	int nmetrics;
	int line;			/* where the tenant starts, for errors */
};

/* Profiles are fixed (smoke, quick, full); each workload sizes them. */
enum wl_profile_id { WL_SMOKE, WL_QUICK, WL_FULL, WL_NPROFILES };

struct wl_profile {
	int set;
	int duration_s;
	int warmup_s;
};

struct workload {
	char name[WL_NAME];
	char description[WL_TEXT];
	char requires[WL_MAX_REQUIRES][WL_NAME];
	int nrequires;
	struct wl_tenant tenants[WL_MAX_TENANTS];
	int ntenants;
	struct wl_profile profiles[WL_NPROFILES];
};

const char *wl_profile_name(enum wl_profile_id id);
int wl_profile_lookup(const char *name);	/* id or -1 */

/*
 * Parse @f (named @path in messages) into @w. Returns 0, or -1 with
 * "path:line: expected ..." in @err.
 */
int workload_parse(FILE *f, const char *path, struct workload *w,
		   char *err, size_t errlen);
int workload_load(const char *path, struct workload *w, char *err,
		  size_t errlen);

/*
 * Expand {threads} and {duration} in @t's command for @duration_s into
 * @out. Returns 0 or -1 if @out is too small.
 */
int workload_command(const struct wl_tenant *t, int duration_s, char *out,
		     size_t len);

#endif
