// SPDX-License-Identifier: GPL-2.0
/*
 * Reading a run directory for a report: the manifest, boot.info (how the
 * guest was accelerated and pinned), and every cell. Cells that are not ok
 * are listed, never averaged in; a metric without a value is skipped.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/json_file.h"
#include "../lib/cell_schema.h"
#include "../lib/hist_json.h"
#include "../lib/paths.h"
#include "blocks.h"
#include "report.h"

const struct report_cmp_def report_cmps[CMP_COUNT] = {
#define X(id, ma, mb, text, col) [CMP_##id] = { .a = ma, .b = mb, .label = text, .colour = col },
	REPORT_CMPS(X)
#undef X
};

const char *verdict_name(enum verdict v)
{
	static const char *const names[] = {
		[V_NONE] = "no data", [V_BETTER] = "better",
		[V_WORSE] = "worse", [V_SAME] = "not distinguishable",
		[V_UNTESTED] = "no test",
	};

	return names[v];
}

static void copy_str(char *dst, size_t len, json_t *v)
{
	snprintf(dst, len, "%s", json_string_value(v) ?: "");
}

static void load_adaptive(struct report *r, json_t *a)
{
	json_t *w = json_object_get(a, "widest_half_width_pct");

	copy_str(r->adaptive_stop, sizeof(r->adaptive_stop), json_object_get(a, "stopped_by"));
	copy_str(r->adaptive_widest_wl, sizeof(r->adaptive_widest_wl),
		 json_object_get(a, "widest_workload"));
	r->adaptive_target_pct = json_number_value(json_object_get(a, "target_pct"));
	r->adaptive_budget_min = json_number_value(json_object_get(a, "budget_min"));
	r->adaptive_widest_pct = json_is_number(w) ? json_number_value(w) : INFINITY;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* "smt_yield": the target and each boot's measured yield. */
static void load_yield(struct report *r, json_t *y)
{
	json_t *achieved = json_object_get(y, "achieved"), *e;
	double v[256];
	size_t i;
	int n = 0;

	r->yield_target = json_number_value(json_object_get(y, "target"));
	r->yield_period_us = json_integer_value(json_object_get(y, "period_us"));
	r->yield_spin_us = json_integer_value(json_object_get(y, "max_spin_us"));
	/* Runs from before the core cap capped only the threads. */
	r->yield_core_pct = json_integer_value(json_object_get(y, "core_pct")) ?: 100;
	/*
	 * Each boot's distance from the target is computed here, not read:
	 * the manifest's "off_pct" is the runner's arithmetic, and an edited
	 * one would hide a boot that missed its yield.
	 */
	json_array_foreach(achieved, i, e) {
		double y = json_number_value(json_object_get(e, "yield"));

		if (!json_is_number(json_object_get(e, "yield")) || n == 256)
			continue;
		v[n++] = y;
		if (!(r->yield_target > 0) || !isfinite(y) ||
		    fabs(y / r->yield_target - 1) > REPORT_YIELD_TOLERANCE)
			r->yield_off_boots++;
	}
	r->yield_boots = n;
	if (!n)
		return;
	qsort(v, n, sizeof(v[0]), cmp_double);
	r->yield_min = v[0];
	r->yield_max = v[n - 1];
	r->yield_median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* "image" (or, in runs from before it, "root_image": the built one). */
static void load_image(struct report *r, json_t *m)
{
	json_t *img = json_object_get(m, "image"), *b;
	const char *path = json_string_value(json_object_get(img, "path")) ?:
			   json_string_value(json_object_get(m, "root_image")) ?: "";
	const char *after = json_string_value(json_object_get(img, "sha256_after"));
	size_t i;
	int nbg = 0;

	r->image_background_pct = 0;
	snprintf(r->image_kind, sizeof(r->image_kind), "%s",
		 json_string_value(json_object_get(img, "kind")) ?: "built");
	snprintf(r->image_name, sizeof(r->image_name), "%s",
		 strrchr(path, '/') ? strrchr(path, '/') + 1 : path);
	copy_str(r->image_format, sizeof(r->image_format), json_object_get(img, "format"));
	copy_str(r->image_sha256, sizeof(r->image_sha256), json_object_get(img, "sha256"));
	r->image_changed = after && strcmp(after, r->image_sha256);
	json_array_foreach(json_object_get(img, "boots"), i, b) {
		r->image_boots++;
		r->image_boots_clean += !strcmp(json_string_value(json_object_get(b,
				"cloud_init_status")) ?: "", "done") &&
			!json_array_size(json_object_get(b, "cloud_init_errors")) &&
			!strcmp(json_string_value(json_object_get(b, "runner")) ?: "", "service");
		if (json_is_number(json_object_get(b, "background_pct"))) {
			r->image_background_pct += json_number_value(json_object_get(b,
							"background_pct"));
			nbg++;
		}
	}
	r->image_background_pct = nbg ? r->image_background_pct / nbg : -1;
}

static void load_manifest(struct report *r, json_t *m)
{
	json_t *k = json_object_get(m, "kernel");

	copy_str(r->profile, sizeof(r->profile), json_object_get(m, "profile"));
	copy_str(r->accel, sizeof(r->accel), json_object_get(m, "accel"));
	copy_str(r->host_cpu, sizeof(r->host_cpu), json_object_get(m, "host_cpu"));
	copy_str(r->revision, sizeof(r->revision), json_object_get(k, "revision"));
	copy_str(r->kernel_key, sizeof(r->kernel_key), json_object_get(k, "key"));
	copy_str(r->release, sizeof(r->release), json_object_get(k, "release"));
	copy_str(r->csbench_version, sizeof(r->csbench_version),
		 json_object_get(m, "csbench_version"));
	copy_str(r->topology, sizeof(r->topology), json_object_get(m, "guest_topology"));
	/* "1 socket x N core[s] x T threads, MODEL" (run_manifest.c). */
	if (sscanf(r->topology, "%*d socket x %d %*s x %d", &r->guest_cores,
		   &r->guest_threads) != 2)
		r->guest_cores = r->guest_threads = 0;
	copy_str(r->emulation_key, sizeof(r->emulation_key),
		 json_object_get(json_object_get(m, "emulation"), "key"));
	copy_str(r->emulation_name, sizeof(r->emulation_name),
		 json_object_get(json_object_get(m, "emulation"), "name"));
	copy_str(r->ab_session, sizeof(r->ab_session),
		 json_object_get(json_object_get(m, "ab"), "session"));
	copy_str(r->ab_side, sizeof(r->ab_side), json_object_get(json_object_get(m, "ab"), "side"));
	r->host_cpus = json_integer_value(json_object_get(m, "host_cpus"));
	load_adaptive(r, json_object_get(m, "adaptive"));
	load_yield(r, json_object_get(m, "smt_yield"));
	load_image(r, m);
	r->reps = json_integer_value(json_object_get(m, "reps"));
	r->expected_cells = json_integer_value(json_object_get(m, "cells"));
}

/*
 * The value of the last "@key=" line of the boot.info @path into @out
 * (cut to fit). 0, or -1 when the file or the key is missing.
 */
static int info_value(const char *path, const char *key, char *out, size_t len)
{
	size_t klen = strlen(key);
	char line[512];
	int found = -1;
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == '=') {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, len, "%.*s", (int)len - 1, line + klen + 1);
			found = 0;
		}
	if (f)
		fclose(f);
	return found;
}

/* boot.info's "pinning=" line says how vCPUs met host CPUs. */
static void load_pinning(struct report *r)
{
	char path[4200];

	snprintf(path, sizeof(path), "%s/boot.info", r->dir);
	if (info_value(path, "pinning", r->pinning, sizeof(r->pinning)))
		snprintf(r->pinning, sizeof(r->pinning), "unknown (no boot.info)");
}

int report_find_workload(const struct report *r, const char *name)
{
	int i;

	for (i = 0; i < r->nwl; i++)
		if (!strcmp(r->wl[i].name, name))
			return i;
	return -1;
}

struct report_row *report_find_row(const struct report *r, const char *wl,
				   const char *tenant, const char *metric)
{
	int i;

	for (i = 0; i < r->nrows; i++)
		if (!strcmp(r->rows[i].workload, wl) && !strcmp(r->rows[i].tenant, tenant) &&
		    !strcmp(r->rows[i].metric, metric))
			return (struct report_row *)&r->rows[i];
	return NULL;
}

/* The workload's index, added if new; -1 when the table is full. */
static int find_workload(struct report *r, const char *name)
{
	int i = report_find_workload(r, name);

	if (i >= 0)
		return i;
	if (r->nwl == REPORT_MAX_WORKLOADS)
		return -1;
	memset(&r->wl[r->nwl], 0, sizeof(r->wl[0]));
	snprintf(r->wl[r->nwl].name, sizeof(r->wl[0].name), "%s", name);
	for (i = 0; i < MODE_COUNT; i++)
		r->wl[r->nwl].x[i].both_busy_share = NAN;
	return r->nwl++;
}

static struct report_row *find_row(struct report *r, const char *wl, json_t *m)
{
	const char *tenant = json_string_value(json_object_get(m, "tenant")) ?: "?";
	const char *metric = json_string_value(json_object_get(m, "metric")) ?: "?";
	struct report_row *row = report_find_row(r, wl, tenant, metric);
	json_t *pct = json_object_get(m, "percentile");

	if (row)
		return row;
	if (r->nrows == REPORT_MAX_ROWS)
		return NULL;
	row = &r->rows[r->nrows++];
	memset(row, 0, sizeof(*row));
	snprintf(row->workload, sizeof(row->workload), "%s", wl);
	snprintf(row->tenant, sizeof(row->tenant), "%s", tenant);
	snprintf(row->metric, sizeof(row->metric), "%s", metric);
	copy_str(row->unit, sizeof(row->unit), json_object_get(m, "unit"));
	row->higher_is_better = json_is_true(json_object_get(m, "higher_is_better"));
	/*
	 * Rates take the harmonic mean, times and latencies the arithmetic
	 * one (as mmtests does); a percentile of a histogram is neither.
	 * Runs from before "percentile" was recorded name it "pNN" or "max".
	 */
	if (json_is_number(pct)) {
		row->kind = ROW_PERCENTILE;
		row->percentile = json_number_value(pct);
	} else if (json_object_get(m, "hist") || json_object_get(m, "hist_buckets_us") ||
		   (!strcmp(row->unit, "us") && (metric[0] == 'p' || !strcmp(metric, "max")))) {
		row->kind = ROW_PERCENTILE;
		row->percentile = !strcmp(metric, "max") ? 100 : strtod(metric + 1, NULL);
	} else {
		row->kind = row->higher_is_better ? ROW_HARMONIC : ROW_ARITH;
	}
	return row;
}

/* The tenant's histogram sits on its first percentile metric. */
static json_t *tenant_hist(json_t *metrics, const char *tenant)
{
	json_t *m;
	size_t i;

	json_array_foreach(metrics, i, m)
		if (!strcmp(json_string_value(json_object_get(m, "tenant")) ?: "", tenant) &&
		    (json_is_object(json_object_get(m, "hist")) ||
		     json_is_array(json_object_get(m, "hist_buckets_us"))))
			return m;
	return NULL;
}

/*
 * Keep each repetition's histogram (for the bootstrap) and their sum.
 * Schema 1 cells carry one count per microsecond, later ones the sparse
 * log-linear form; both load into the same type. -1 with the cause in
 * @err for a malformed histogram.
 */
static int add_hist(struct mode_stats *ms, json_t *m, char *err, size_t errlen)
{
	json_t *o = json_object_get(m, "hist");
	struct hist *more;

	more = realloc(ms->rep_hist, (ms->nrep_hist + 1) * sizeof(*more));
	if (!more) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ms->rep_hist = more;
	if (o ? hist_from_json(o, &more[ms->nrep_hist], err, errlen) :
		hist_from_legacy_json(m, &more[ms->nrep_hist], err, errlen))
		return -1;
	if (hist_add(&ms->hist, &more[ms->nrep_hist++])) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return 0;
}

static double sum_object(json_t *o)
{
	const char *key;
	double sum = 0;
	json_t *v;

	json_object_foreach(o, key, v)
		sum += json_number_value(v);
	return sum;
}

/* A running mean over the cells that have the figure, counted in *n. */
static void running_mean(double *mean, int *n, double v)
{
	*mean = (*n)++ ? *mean + (v - *mean) / *n : v;
}

static void add_extra(struct mode_extra *x, json_t *c, int mode, int block)
{
	json_t *co = json_object_get(c, "corun");
	json_t *measured = json_object_get(c, "measured_s"), *util = json_object_get(c, "cpu_util");
	json_t *one = json_object_get(co, "one_busy_s"), *both = json_object_get(co, "both_busy_s");
	int cpus = mode_online_cpus(mode);

	x->cells++;
	if (json_number_value(measured) > 0) {
		double fi = sum_object(json_object_get(c, "force_idle_usec")) /
			    (json_number_value(measured) * 1e6 * cpus) * 100;

		running_mean(&x->forced_idle_pct, &x->n_forced_idle, fi);
		if (x->ncell_fig < REPORT_MAX_VALUES) {
			x->fi_block[x->ncell_fig] = block;
			x->unexplained_cell[x->ncell_fig] =
				json_integer_value(json_object_get(co, "unexplained"));
			x->fi_cell[x->ncell_fig++] = fi;
		}
	}
	if (json_is_number(util))
		running_mean(&x->cpu_util_pct, &x->n_cpu_util, json_number_value(util) * 100);
	if (!co)
		return;
	x->windows += json_integer_value(json_object_get(co, "windows"));
	x->handoff += json_integer_value(json_object_get(co, "handoff"));
	x->unexplained += json_integer_value(json_object_get(co, "unexplained"));
	x->truncated += json_integer_value(json_object_get(co, "truncated"));
	x->handoff_max_us = fmax(x->handoff_max_us,
				 json_number_value(json_object_get(co, "handoff_max_us")));
	x->handoff_p99_us_max = fmax(x->handoff_p99_us_max,
				     json_number_value(json_object_get(co, "handoff_p99_us")));
	running_mean(&x->pair_share_pct, &x->n_corun,
		     json_number_value(json_object_get(co, "pair_share")) * 100);
	if (json_number_value(one) + json_number_value(both) > 0)
		running_mean(&x->both_busy_share, &x->n_both_busy, json_number_value(both) /
			     (json_number_value(one) + json_number_value(both)));
}

/*
 * The block a cell belongs to: its repetition, the N of
 * "<workload>.<mode>.rN.json". 0 if the name has none.
 */
static int cell_block(const char *file)
{
	const char *dot = strrchr(file, '.'), *p = dot;
	long n;

	if (!dot)
		return 0;
	while (p > file && p[-1] >= '0' && p[-1] <= '9')
		p--;
	if (p == dot || p - file < 2 || p[-1] != 'r' || p[-2] != '.')
		return 0;
	n = strtol(p, NULL, 10);
	return n >= 1 && n <= BLOCKS_MAX ? (int)n : 0;
}

static int load_cell(struct report *r, json_t *c, const char *file, char *err,
		     size_t errlen)
{
	int block = cell_block(file);
	const char *wl = json_string_value(json_object_get(c, "workload"));
	const char *status = json_string_value(json_object_get(c, "status"));
	int mode = mode_lookup(json_string_value(json_object_get(c, "mode")) ?: "");
	json_t *metrics = json_object_get(c, "metrics"), *m;
	char why[256];
	size_t i;
	int w;

	r->cells++;
	/* A cell the schema refuses is listed with the reason, never averaged. */
	if (cell_validate(c, file, why, sizeof(why))) {
		if (r->nfailed < REPORT_MAX_FAILED)
			snprintf(r->failed[r->nfailed++], sizeof(r->failed[0]),
				 "%.50s: malformed: %.90s", file, why);
		return 0;
	}
	if (!wl || mode < 0 || !status || strcmp(status, "ok")) {
		if (r->nfailed < REPORT_MAX_FAILED)
			snprintf(r->failed[r->nfailed++], sizeof(r->failed[0]), "%s: %s: %s",
				 file, status ?: "no status",
				 json_string_value(json_object_get(c, "error")) ?: "");
		return 0;
	}
	if (!block) {
		if (r->nfailed < REPORT_MAX_FAILED)
			snprintf(r->failed[r->nfailed++], sizeof(r->failed[0]),
				 "%s: no repetition (rN) in the name, or above %d", file,
				 BLOCKS_MAX);
		return 0;
	}
	r->ok++;
	r->nblocks = block > r->nblocks ? block : r->nblocks;
	r->modes_seen |= 1u << mode;
	w = find_workload(r, wl);
	if (w < 0) {
		snprintf(err, errlen, "more than %d workloads", REPORT_MAX_WORKLOADS);
		return -1;
	}
	add_extra(&r->wl[w].x[mode], c, mode, block);
	json_array_foreach(metrics, i, m) {
		struct report_row *row;
		struct mode_stats *ms;
		json_t *h;

		if (!json_is_number(json_object_get(m, "value")))
			continue;
		row = find_row(r, wl, m);
		if (!row) {
			snprintf(err, errlen, "more than %d rows", REPORT_MAX_ROWS);
			return -1;
		}
		ms = &row->m[mode];
		if (ms->n < REPORT_MAX_VALUES) {
			ms->block[ms->n] = block;
			ms->cens[ms->n] = json_is_true(json_object_get(m, "censored"));
			ms->values[ms->n++] = json_number_value(json_object_get(m, "value"));
		}
		h = row->kind == ROW_PERCENTILE ? tenant_hist(metrics, row->tenant) : NULL;
		if (h && add_hist(ms, h, err, errlen))
			return -1;
	}
	return 0;
}

/* The accelerator every boot.info of the run names, or NULL (none, or mixed). */
static const char *boots_accel(const char *dir, char *acc, size_t len, int *mixed)
{
	char path[4400], v[32];
	struct dirent **names;
	int n, i, k;

	acc[0] = '\0';
	*mixed = 0;
	snprintf(path, sizeof(path), "%s/boots", dir);
	n = scandir(path, &names, NULL, alphasort);
	for (i = -1; i < n; i++) {
		if (i < 0)
			snprintf(path, sizeof(path), "%s/boot.info", dir);
		else
			snprintf(path, sizeof(path), "%s/boots/%s/boot.info", dir, names[i]->d_name);
		if (info_value(path, "accel", v, sizeof(v)))
			continue;
		if (acc[0] && strcmp(acc, v))
			*mixed = 1;
		snprintf(acc, len, "%s", v);
	}
	for (k = 0; k < n; k++)
		free(names[k]);
	if (n >= 0)
		free(names);
	return acc[0] ? acc : NULL;
}

/*
 * The mean of @key over the boot.info files of the run's boots (and the
 * run's own), -1 if none has it; how many had it in *@n.
 */
static double boots_mean(const char *dir, const char *key, int *n)
{
	char path[4400], v[64];
	struct dirent **names;
	double sum = 0;
	int count, i;

	*n = 0;
	snprintf(path, sizeof(path), "%s/boots", dir);
	count = scandir(path, &names, NULL, alphasort);
	for (i = -1; i < count; i++) {
		char *end;
		double x;

		if (i < 0)
			snprintf(path, sizeof(path), "%s/boot.info", dir);
		else
			snprintf(path, sizeof(path), "%s/boots/%s/boot.info", dir, names[i]->d_name);
		if (info_value(path, key, v, sizeof(v)))
			continue;
		x = strtod(v, &end);
		if (end == v)
			continue;
		sum += x;
		(*n)++;
	}
	for (i = 0; i < count; i++)
		free(names[i]);
	if (count >= 0)
		free(names);
	return *n ? sum / *n : -1;
}

static void load_fidelity(struct report *r)
{
	int n;

	r->fid_idle_avg_us = boots_mean(r->dir, "fidelity_sibling_idle_avg_us", &n);
	r->fid_boots = n;
	r->fid_busy_avg_us = boots_mean(r->dir, "fidelity_sibling_busy_avg_us", &n);
	r->fid_busy_p99_us = boots_mean(r->dir, "fidelity_sibling_busy_p99_us", &n);
	r->fid_busy_missed_pct = boots_mean(r->dir, "fidelity_sibling_busy_missed_pct", &n);
	r->fid_rtt_avg_us = boots_mean(r->dir, "fidelity_sibling_rtt_avg_us", &n);
}

/* 1 if the comma-separated @list (a manifest's "modes") holds @word. */
static int list_has(const char *list, const char *word)
{
	size_t len = strlen(word);
	const char *p = list;

	while ((p = strstr(p, word))) {
		if ((p == list || p[-1] == ',') && (p[len] == ',' || !p[len]))
			return 1;
		p += len;
	}
	return 0;
}

/*
 * A manifest copied from another run would put its profile, accelerator
 * and repetitions over these cells' numbers: check what the cells and the
 * boots themselves say (what the manifest leaves out is not checked). 0,
 * or -1 with the first disagreement in @err.
 */
static int manifest_matches_cells(json_t *m, const struct report *r, char *err,
				  size_t errlen)
{
	json_t *wls = json_object_get(m, "workloads"), *v;
	const char *modes = json_string_value(json_object_get(m, "modes"));
	char acc[32];
	int w, k, mixed, found;
	size_t i;

	if (r->nblocks > r->reps) {
		snprintf(err, errlen, "it says %d repetitions, the cells go to r%d", r->reps,
			 r->nblocks);
		return -1;
	}
	for (k = 0; k < MODE_COUNT; k++)
		if (modes && (r->modes_seen & 1u << k) && !list_has(modes, mode_name(k))) {
			snprintf(err, errlen, "it lists the modes %s, a cell ran %s", modes,
				 mode_name(k));
			return -1;
		}
	for (w = 0; wls && w < r->nwl; w++) {
		found = 0;
		json_array_foreach(wls, i, v)
			found |= !strcmp(json_string_value(v) ?: "", r->wl[w].name);
		if (!found) {
			snprintf(err, errlen, "its workloads do not include %s, which has cells",
				 r->wl[w].name);
			return -1;
		}
	}
	if (boots_accel(r->dir, acc, sizeof(acc), &mixed) && (mixed || strcmp(acc, r->accel))) {
		snprintf(err, errlen, "it says accelerator %s, the boots' boot.info %s", r->accel,
			 mixed ? "names more than one" : acc);
		return -1;
	}
	return 0;
}

int report_load(const char *dir, struct report *r, char *err, size_t errlen)
{
	char path[4200], why[256];
	struct dirent **names;
	json_error_t jerr;
	json_t *m;
	int n, i, ret = 0;

	memset(r, 0, sizeof(*r));
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	snprintf(r->run, sizeof(r->run), "%s", strrchr(dir, '/') ? strrchr(dir, '/') + 1 : dir);
	if (!r->run[0])
		snprintf(r->run, sizeof(r->run), "%s", dir);
	r->correction = "Holm";
	r->seed = 20191011;	/* fixed: a report rebuilt from the same cells is the same */
	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	m = json_load_regular(path, &jerr);
	if (!m) {
		json_error_where(err, errlen, path, &jerr);
		return -1;
	}
	load_manifest(r, m);
	load_pinning(r);
	load_fidelity(r);

	snprintf(path, sizeof(path), "%s/cells", dir);
	n = scandir(path, &names, NULL, alphasort);
	if (n < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		json_decref(m);
		return -1;
	}
	for (i = 0; i < n; i++) {
		const char *name = names[i]->d_name;
		size_t len = strlen(name);
		json_t *c;

		if (ret || len < 6 || strcmp(name + len - 5, ".json"))
			goto next;
		snprintf(path, sizeof(path), "%s/cells/%s", dir, name);
		c = json_load_regular(path, &jerr);
		if (!c) {
			json_error_where(err, errlen, path, &jerr);
			ret = -1;
			goto next;
		}
		if (load_cell(r, c, name, why, sizeof(why))) {
			snprintf(err, errlen, "%s: %s", path, why);
			ret = -1;
		}
		json_decref(c);
next:
		free(names[i]);
	}
	free(names);
	if (!ret && !r->cells) {
		snprintf(err, errlen, "%s/cells: no cells", dir);
		ret = -1;
	}
	if (!ret && manifest_matches_cells(m, r, why, sizeof(why))) {
		snprintf(err, errlen, "%s/manifest.json does not describe these cells: %s "
			 "(a manifest from another run?)", dir, why);
		ret = -1;
	}
	json_decref(m);
	return ret;
}

void report_free(struct report *r)
{
	int i, k;

	for (i = 0; i < r->nrows; i++)
		for (k = 0; k < MODE_COUNT; k++) {
			struct mode_stats *ms = &r->rows[i].m[k];

			hist_free(&ms->hist);
			while (ms->nrep_hist)
				hist_free(&ms->rep_hist[--ms->nrep_hist]);
			free(ms->rep_hist);
			ms->rep_hist = NULL;
		}
}
