/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cell schema: every key a cell file (<run>/cells/<cell>.json) may
 * hold, in one table that the guest agent's writer, the host's writer of
 * guest-failed cells and the report's loader all use. docs/cell-schema.md
 * is this table printed (csbench schema); a test keeps the two equal.
 *
 * Versions: a cell names the table's version it was written by in
 * "schema". Cells without it are version 1 (written before the table):
 * of them only workload, mode and status are required and other keys are
 * checked when present. A key is only required of a cell whose version
 * has it, and unknown keys are refused only in cells that claim the
 * current version. Bump CELL_SCHEMA_VERSION
 * when a key is added, removed or changes meaning, and give the key its
 * first ("since") or last ("until") version.
 */
#ifndef CSBENCH_CELL_SCHEMA_H
#define CSBENCH_CELL_SCHEMA_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#define CELL_SCHEMA_VERSION	2

/* Where a key lives: the cell, one entry of "metrics", "corun", "hist". */
enum cell_part { CP_CELL, CP_METRIC, CP_CORUN, CP_HIST, CP_COUNT };

enum cell_type {
	CT_STRING, CT_INT, CT_NUMBER, CT_BOOL,
	CT_MODE,	/* a mode's name (mode.h) */
	CT_COUNTS,	/* an object of numbers, one per tenant */
	CT_OBJECT, CT_ARRAY,
};

/*
 * Version 1 had no written schema: of its cells only the CN_CORE keys are
 * required, everything else is checked when present.
 */
enum cell_need {
	CN_CORE,	/* in every cell of every version */
	CN_ALWAYS,	/* in every cell, whatever its status */
	CN_OK,		/* in every cell whose status is "ok" */
	CN_OPTIONAL,
};

/*
 * X(id, part, key, type, need, since, until, meaning); until 0 means the
 * key is still written.
 */
#define CELL_SCHEMA(X)									\
	X(SCHEMA, CP_CELL, "schema", CT_INT, CN_ALWAYS, 2, 0,				\
	  "Version of this table the cell was written by; absent in version 1.")	\
	X(CELL, CP_CELL, "cell", CT_STRING, CN_ALWAYS, 1, 0,				\
	  "Cell id `<workload>.<mode>.r<block>`; the file is `<cell>.json`.")		\
	X(WORKLOAD, CP_CELL, "workload", CT_STRING, CN_CORE, 1, 0,			\
	  "Workload name: its `.wl` file without the suffix.")				\
	X(MODE, CP_CELL, "mode", CT_MODE, CN_CORE, 1, 0,				\
	  "`smt-off`, `smt-on`, `coresched` or `coresched-prctl`.")			\
	X(STATUS, CP_CELL, "status", CT_STRING, CN_CORE, 1, 0,			\
	  "`ok`, or why not: `error`, `timeout`, `missing-tool`, "			\
	  "`mode-check-failed`, `guest-failed`.")					\
	X(ERROR, CP_CELL, "error", CT_STRING, CN_OPTIONAL, 1, 0,			\
	  "What went wrong, in words; set whenever status is not `ok`.")		\
	X(CONSOLE, CP_CELL, "console", CT_STRING, CN_OPTIONAL, 1, 0,			\
	  "guest-failed only: the console log of the boot that died.")		\
	X(DURATION_S, CP_CELL, "duration_s", CT_NUMBER, CN_OK, 1, 0,			\
	  "Measured run length asked of each tenant, seconds.")			\
	X(WARMUP_S, CP_CELL, "warmup_s", CT_NUMBER, CN_OK, 1, 0,			\
	  "Unmeasured warm-up run before it, seconds.")				\
	X(MEASURED_S, CP_CELL, "measured_s", CT_NUMBER, CN_OK, 1, 0,			\
	  "Wall time from the tenants' start to the last one's exit, seconds.")	\
	X(WALL_S, CP_CELL, "wall_s", CT_NUMBER, CN_OK, 1, 0,				\
	  "Wall time of the whole cell, set-up and warm-up included, seconds.")	\
	X(FORCE_IDLE_USEC, CP_CELL, "force_idle_usec", CT_COUNTS, CN_OK, 1, 0,	\
	  "Per tenant: forced idle charged to its cgroup (cpu.stat "		\
	  "core_sched.force_idle_usec) during the measured run, us.")		\
	X(TASK_FORCEIDLE_MS, CP_CELL, "task_forceidle_ms", CT_COUNTS, CN_OK, 1, 0,	\
	  "Per tenant: the sum of its tasks' core_forceidle_sum, sampled "		\
	  "every 100 ms, ms.")								\
	X(CONTEXT_SWITCHES, CP_CELL, "context_switches", CT_INT, CN_OK, 1, 0,	\
	  "Context switches in the guest during the measured run (/proc/stat).")	\
	X(CPU_UTIL, CP_CELL, "cpu_util", CT_NUMBER, CN_OPTIONAL, 1, 0,		\
	  "Busy share of all online guest CPUs during the measured run, 0..1.")	\
	X(METRICS, CP_CELL, "metrics", CT_ARRAY, CN_OK, 1, 0,				\
	  "One object per metric of each tenant (the keys below).")			\
	X(CORUN, CP_CELL, "corun", CT_OBJECT, CN_OPTIONAL, 1, 0,			\
	  "Co-residency of the tenants from the scheduler trace (below); "		\
	  "absent when tracing was off.")						\
	X(M_TENANT, CP_METRIC, "tenant", CT_STRING, CN_ALWAYS, 1, 0,			\
	  "The tenant the metric belongs to.")						\
	X(M_METRIC, CP_METRIC, "metric", CT_STRING, CN_ALWAYS, 1, 0,			\
	  "Metric name, unique within its tenant.")					\
	X(M_UNIT, CP_METRIC, "unit", CT_STRING, CN_ALWAYS, 1, 0,			\
	  "Unit as the workload file gives it.")					\
	X(M_HIGHER, CP_METRIC, "higher_is_better", CT_BOOL, CN_ALWAYS, 1, 0,		\
	  "Whether a larger value is better.")						\
	X(M_VALUE, CP_METRIC, "value", CT_NUMBER, CN_OPTIONAL, 1, 0,			\
	  "The value; absent when it could not be extracted (then `error`).")	\
	X(M_CENSORED, CP_METRIC, "censored", CT_BOOL, CN_OPTIONAL, 1, 0,		\
	  "With value: true when the value is only a lower bound (a percentile "	\
	  "past the histogram's limit).")						\
	X(M_ERROR, CP_METRIC, "error", CT_STRING, CN_OPTIONAL, 1, 0,			\
	  "Why there is no value.")							\
	X(M_PERCENTILE, CP_METRIC, "percentile", CT_NUMBER, CN_OPTIONAL, 1, 0,	\
	  "Histogram metrics: which percentile the value is (max: 100).")		\
	X(M_HIST, CP_METRIC, "hist", CT_OBJECT, CN_OPTIONAL, 2, 0,			\
	  "On a tenant's first histogram metric: its latency histogram "		\
	  "(below), so that repetitions merge before percentiles are taken.")	\
	X(M_HIST_BUCKETS_US, CP_METRIC, "hist_buckets_us", CT_ARRAY, CN_OPTIONAL, 1, 1, \
	  "Version 1's histogram: one count per microsecond up to the limit.")	\
	X(M_HIST_OVERFLOW, CP_METRIC, "hist_overflow", CT_INT, CN_OPTIONAL, 1, 1,	\
	  "Version 1: samples past the last bucket.")					\
	X(H_UNIT, CP_HIST, "unit", CT_STRING, CN_ALWAYS, 2, 0,				\
	  "Always `us`.")								\
	X(H_SUB_BITS, CP_HIST, "sub_bucket_bits", CT_INT, CN_ALWAYS, 2, 0,		\
	  "Layout: each power of two is split into 2^bits buckets (6: 1.6%).")	\
	X(H_LIMIT, CP_HIST, "limit", CT_INT, CN_OPTIONAL, 2, 0,			\
	  "The recorder's limit: samples at or past it are only counted "		\
	  "(cyclictest -h N: N).")							\
	X(H_OVERFLOW, CP_HIST, "overflow", CT_INT, CN_ALWAYS, 2, 0,			\
	  "Samples at or past the limit.")						\
	X(H_BUCKETS, CP_HIST, "buckets", CT_ARRAY, CN_ALWAYS, 2, 0,			\
	  "`[low, count]` of every bucket hit; low is the bucket's lowest value, us.") \
	X(C_SPAN_S, CP_CORUN, "span_s", CT_NUMBER, CN_ALWAYS, 1, 0,			\
	  "Trace length, first to last event, seconds.")					\
	X(C_WINDOWS, CP_CORUN, "windows", CT_INT, CN_ALWAYS, 1, 0,			\
	  "Windows in which tasks of two tenants ran on sibling CPUs at once.")	\
	X(C_PAIR_SHARE, CP_CORUN, "pair_share", CT_NUMBER, CN_ALWAYS, 1, 0,		\
	  "Co-running time over span times sibling pairs, 0..1.")			\
	X(C_CORUN_PCT, CP_CORUN, "corun_pct", CT_NUMBER, CN_ALWAYS, 1, 0,		\
	  "Co-running time over span, percent (up to 100 per pair).")			\
	X(C_HANDOFF, CP_CORUN, "handoff", CT_INT, CN_ALWAYS, 1, 0,			\
	  "Windows explained by a pending reschedule of the sibling (a handoff).") \
	X(C_HANDOFF_MS, CP_CORUN, "handoff_ms", CT_NUMBER, CN_ALWAYS, 1, 0,		\
	  "Their total length, ms.")							\
	X(C_HANDOFF_P50_US, CP_CORUN, "handoff_p50_us", CT_NUMBER, CN_ALWAYS, 1, 0,	\
	  "Median handoff length, us.")						\
	X(C_HANDOFF_P99_US, CP_CORUN, "handoff_p99_us", CT_NUMBER, CN_ALWAYS, 1, 0,	\
	  "99th percentile handoff length, us.")					\
	X(C_HANDOFF_MAX_US, CP_CORUN, "handoff_max_us", CT_NUMBER, CN_ALWAYS, 1, 0,	\
	  "Longest handoff, us.")							\
	X(C_UNEXPLAINED, CP_CORUN, "unexplained", CT_INT, CN_ALWAYS, 1, 0,		\
	  "Windows nothing explains: isolation lost (the cell keeps its trace).")	\
	X(C_UNEXPLAINED_MS, CP_CORUN, "unexplained_ms", CT_NUMBER, CN_ALWAYS, 1, 0,	\
	  "Their total length, ms.")							\
	X(C_TRUNCATED, CP_CORUN, "truncated", CT_INT, CN_ALWAYS, 1, 0,		\
	  "Windows already open when the trace began (cause unknown).")	\
	X(C_CORE_EVENTS, CP_CORUN, "core_events", CT_BOOL, CN_ALWAYS, 1, 0,		\
	  "Whether the kernel's core-scheduling trace events were seen.")		\
	X(C_ONE_BUSY_S, CP_CORUN, "one_busy_s", CT_NUMBER, CN_ALWAYS, 1, 0,		\
	  "Tenant work per core summed over pairs: exactly one sibling busy, s.")		\
	X(C_BOTH_BUSY_S, CP_CORUN, "both_busy_s", CT_NUMBER, CN_ALWAYS, 1, 0,	\
	  "The same with both siblings busy (same tenant or not), seconds.")

enum cell_key_id {
#define X(id, part, key, type, need, since, until, doc) CK_##id,
	CELL_SCHEMA(X)
#undef X
	CK_COUNT
};

struct cell_key {
	enum cell_part part;
	const char *key;
	enum cell_type type;
	enum cell_need need;
	int since, until;
	const char *doc;
};

extern const struct cell_key cell_keys[CK_COUNT];

/* The key's name, for writers: json_object_set_new(o, CK(MEASURED_S), v). */
#define CK(id) (cell_keys[CK_##id].key)

/*
 * Check @cell, read from @file (its base name, "<cell>.json"), against the
 * table: its version, every key's type, the keys its version and status
 * require, that its id matches the file name and its workload and mode,
 * that each metric has a value or an error, that metric names are unique
 * per tenant, that histograms are well formed, and that every number is
 * within its range (docs/cell-schema.md). 0, or -1 with the first
 * problem in @err (key named).
 */
int cell_validate(json_t *cell, const char *file, char *err, size_t errlen);

/*
 * Why @v cannot be a metric's value (NULL if it can): not finite, negative,
 * above 1e15, or a rate (@higher_is_better) of 0. The agent writes such a
 * value as the metric's error; cell_validate() refuses it.
 */
const char *cell_value_problem(double v, int higher_is_better);

/* The cell's schema version: its "schema", or 1 without one. */
int cell_schema_version(json_t *cell);

/* Print the table as Markdown (docs/cell-schema.md). */
void cell_schema_print(FILE *f);

#endif
