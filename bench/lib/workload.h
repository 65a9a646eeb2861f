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

/* What a tenant's thread count is relative to (`threads 2*cores`). */
enum wl_per { WL_PER_GUEST, WL_PER_CORE, WL_PER_CPU };

/* The guest a command is expanded for: its cores and CPUs (cores x threads). */
struct wl_topology {
	int cores, cpus;
};

struct wl_tenant {
	char name[WL_NAME];
	int threads;			/* N of `threads N`, `N*cores`, `N*cpus` */
	enum wl_per threads_per;
	char command[WL_COMMAND];	/* with {threads}, {duration}, {cores}, {cpus} */
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

/* @t's thread count on guest @topo: N, N x cores or N x CPUs. */
int workload_threads(const struct wl_tenant *t, const struct wl_topology *topo);

/* `threads` as written: "2", "cores", "2*cpus"; into @buf of @len bytes. */
const char *workload_threads_spec(const struct wl_tenant *t, char *buf, size_t len);

/*
 * Expand {threads}, {duration}, {cores} and {cpus} in @t's command for
 * @duration_s on guest @topo into @out. Returns 0 or -1 if @out is too small.
 */
int workload_command(const struct wl_tenant *t, int duration_s,
		     const struct wl_topology *topo, char *out, size_t len);

#endif
