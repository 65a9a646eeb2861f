/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A run's report: the raw cells of a run directory, reduced to one row per
 * workload x tenant x metric with a summary per mode, the comparisons
 * between modes, per-workload verdicts with the cost (forced idle) and the
 * protection (co-residency) beside them, and the overall verdict.
 *
 * report_load() reads the run; report_compute() does the statistics;
 * report_write_*() render it. Reports are always rebuilt from the raw
 * cells, which are never modified.
 */
#ifndef CSBENCH_REPORT_H
#define CSBENCH_REPORT_H

#include <stdio.h>

#include "../lib/histstats.h"
#include "../lib/mode.h"
#include "../lib/stats.h"

#define REPORT_SCHEMA		2	/* 2: blocked comparisons, mde, holm_family */
#define REPORT_MAX_ROWS		256
#define REPORT_MAX_WORKLOADS	32
#define REPORT_MAX_VALUES	128
#define REPORT_MAX_FAILED	64
#define REPORT_LEVEL		0.95	/* every interval in a report */
#define REPORT_ALPHA		0.05	/* after the multiple-comparison correction */
#define REPORT_BOOT_ITERS	2000	/* bootstrap resamples per percentile */
#define REPORT_BOOT_MIN_REPS	8	/* fewer: a log-t interval instead */

/* The comparisons every report makes, as "a vs b" (ratio a / b). */
#define REPORT_CMPS(X)							\
	X(CS_OFF, MODE_CORESCHED, MODE_SMT_OFF, "coresched vs smt-off", "#1f77b4") \
	X(CS_ON, MODE_CORESCHED, MODE_SMT_ON, "coresched vs smt-on", "#ff7f0e") \
	X(CS_PRCTL, MODE_CORESCHED, MODE_CORESCHED_PRCTL,		\
	  "coresched vs coresched-prctl", "#9467bd")			\
	X(ON_OFF, MODE_SMT_ON, MODE_SMT_OFF, "smt-on vs smt-off", "#d62728")

enum report_cmp {
#define X(id, a, b, label, colour) CMP_##id,
	REPORT_CMPS(X)
#undef X
	CMP_COUNT
};

struct report_cmp_def {
	enum csb_mode a, b;
	const char *label;
	const char *colour;	/* the comparison's colour in every plot */
};
extern const struct report_cmp_def report_cmps[CMP_COUNT];

/* V_UNTESTED: a figure, but no test (one block, a maximum, a censored conflict). */
enum verdict { V_NONE, V_BETTER, V_WORSE, V_SAME, V_UNTESTED };
const char *verdict_name(enum verdict v);

/* One mode's figures for one row. */
struct mode_stats {
	int n;
	double values[REPORT_MAX_VALUES];	/* one per ok cell */
	int block[REPORT_MAX_VALUES];		/* its block: the repetition */
	unsigned char cens[REPORT_MAX_VALUES];	/* a lower bound, not a value */
	struct summary s;	/* mean of the row's kind; percentile rows: merged */
	int censored;		/* the merged percentile is a lower bound */
	int arith_fallback;	/* a rate <= 0: the mean is arithmetic, not harmonic */
	struct hist hist;	/* percentile rows: merged over repetitions */
	struct hist *rep_hist;	/* and each repetition's, for the bootstrap */
	int nrep_hist;
	double se_log;		/* percentile rows: se of the log repetitions */
};

/*
 * a vs b, paired by block (blocks.h): the geometric mean of the per-block
 * ratios, and "gain" oriented so that > 1 is better for a.
 */
struct comparison {
	int valid;
	double ratio, lo, hi;
	double gain, gain_lo, gain_hi;
	double p, p_adj;	/* paired t on the logs, then Holm; NAN: none */
	double se_log, df;	/* standard error of the mean log ratio, its df */
	int n_blocks;		/* blocks in the estimate */
	int n_censored;		/* blocks left out as bounds */
	int censor_conflict;	/* a bound left out could reverse it: no verdict */
	int family;		/* tests in its Holm family; 0: not tested */
	double mde;		/* smallest change seen at 80% power; NAN: none */
	double band;		/* A/A noise band, as a fraction; 0: none */
	enum verdict verdict;
};

enum row_kind { ROW_ARITH, ROW_HARMONIC, ROW_PERCENTILE };

struct report_row {
	char workload[64], tenant[64], metric[64], unit[32];
	int higher_is_better;
	enum row_kind kind;
	double percentile;	/* ROW_PERCENTILE: 50, 99, 99.9, 100 (max) */
	struct mode_stats m[MODE_COUNT];
	struct comparison cmp[CMP_COUNT];
};

/* Per workload and mode: what the cells say beside the metrics. */
struct mode_extra {
	int cells;
	double forced_idle_pct;		/* mean over cells, of 4 CPUs' time */
	double cpu_util_pct;
	long windows, handoff, unexplained, truncated;
	double handoff_max_us, handoff_p99_us_max;
	double pair_share_pct;		/* mean */
	double both_busy_share;		/* both/(one+both) busy; NAN: no data */
	/* How many cells had each figure (older runs lack some). */
	int n_forced_idle, n_cpu_util, n_corun, n_both_busy;
	/* Per cell, for comparisons paired by block (A/B runs). */
	double fi_cell[REPORT_MAX_VALUES];	/* forced idle, percent */
	long unexplained_cell[REPORT_MAX_VALUES];
	int fi_block[REPORT_MAX_VALUES];
	int ncell_fig;
};

struct report_workload {
	char name[64];
	struct mode_extra x[MODE_COUNT];
	struct comparison verdict[CMP_COUNT];	/* block means of its rows */
	/*
	 * The same over its throughput rows only (rates, fixed-work run
	 * times) and over its latency rows only (everything else but maxima),
	 * each judged in its own Holm family per column (report_compute.c).
	 * Invalid where the workload has no such rows.
	 */
	struct comparison throughput[CMP_COUNT];
	struct comparison latency[CMP_COUNT];
	double breakeven_yield;		/* see smtyield.h; NAN: no data */
	double breakeven_lo, breakeven_hi;	/* from the throughput gain's CI */
	double cal_band;		/* A/A band of the workload's mean; 0: none */
	/*
	 * Under TCG at an emulated yield of 1.0 the hardware model says
	 * smt-on and smt-off do the same work: 1 when the throughput rows'
	 * smt-on vs smt-off interval excludes "equal" (the emulation, not
	 * SMT, made the difference), 0 when it includes it, -1 when there is
	 * no such model (another yield, KVM) or no interval.
	 */
	int emulation_biased;
};

/* A boot's measured SMT yield further than this from the target is said. */
#define REPORT_YIELD_TOLERANCE	0.10

struct report {
	char dir[4096];
	char run[256];			/* the directory's base name */
	/* From the manifest and boot.info. */
	char profile[16], accel[16], pinning[160], host_cpu[128], revision[64];
	char kernel_key[64], release[64], csbench_version[32], topology[96];
	int guest_cores, guest_threads;	/* read from topology; 0: unknown */
	/* How siblings were emulated (manifest "emulation"; empty before it). */
	char emulation_key[24], emulation_name[64];
	/*
	 * The fidelity probe (csbench-fidelity), means over the boots that ran
	 * it: wake-up lateness beside an idle and a busy sibling, missed
	 * wake-ups beside a busy one, the sibling wake round trip (-1: none).
	 */
	double fid_idle_avg_us, fid_busy_avg_us, fid_busy_p99_us, fid_busy_missed_pct;
	double fid_rtt_avg_us;
	int fid_boots;
	int host_cpus, reps, expected_cells;
	/*
	 * The SMT yield: the target (1.0 without --smt-yield; 0 in runs from
	 * before it was measured), and what the boots measured.
	 */
	double yield_target;
	int yield_period_us;		/* 0: no caps, no plugin */
	int yield_spin_us;		/* the plugin's longest spin; 0: caps */
	int yield_core_pct;		/* the core's share S; 100: threads capped only */
	int yield_boots, yield_off_boots;	/* measured; further than the tolerance */
	double yield_median, yield_min, yield_max;	/* over the boots' medians */
	char ab_session[64], ab_side[8];	/* an A/B run's side; "" otherwise */
	/*
	 * The root image: kind "built" or "cloud", its file's name, and for a
	 * cloud image its sha256 (before; changed: the file differed after),
	 * its boots on record and those cloud-init finished cleanly.
	 */
	char image_kind[16], image_name[256], image_format[16], image_sha256[72];
	int image_changed, image_boots, image_boots_clean;
	double image_background_pct;	/* mean over boots; -1: not measured */
	/* An adaptive run (csbench run --target): what stopped it, or "". */
	char adaptive_stop[32], adaptive_widest_wl[64];
	double adaptive_target_pct, adaptive_budget_min, adaptive_widest_pct;
	/* Cells. */
	int cells, ok;
	int nblocks;			/* highest block id (repetition) of an ok cell */
	unsigned int modes_seen;	/* 1 << mode for every mode with an ok cell */
	char failed[REPORT_MAX_FAILED][160];	/* "id: status: error" */
	int nfailed;
	struct report_row rows[REPORT_MAX_ROWS];
	int nrows;
	struct report_workload wl[REPORT_MAX_WORKLOADS];
	int nwl;
	struct comparison overall[CMP_COUNT];	/* every row of every workload */
	/* Over the workloads' throughput and latency figures, apart. */
	struct comparison overall_throughput[CMP_COUNT], overall_latency[CMP_COUNT];
	const char *correction;		/* "Holm" */
	char calibration[4096];		/* file the noise bands came from, or "" */
	double cal_band_overall;	/* A/A band of the overall mean; 0: none */
	unsigned long seed;		/* bootstrap seed, for reproducibility */
};

/* Read DIR's manifest and cells into @r. -1 with @err set on failure. */
int report_load(const char *dir, struct report *r, char *err, size_t errlen);
/* The row of @r for @wl, @tenant and @metric, or NULL (like strchr, not const). */
struct report_row *report_find_row(const struct report *r, const char *wl,
				   const char *tenant, const char *metric);
/* The index in r->wl of workload @name, or -1. */
int report_find_workload(const struct report *r, const char *name);
/*
 * Noise bands per row from a calibration file (csbench calibrate); rows it
 * does not name keep none. -1 with @err set if the file is unusable.
 */
int report_load_calibration(struct report *r, const char *path, char *err,
			    size_t errlen);
/*
 * The calibration file's name without its directory ("" if none): reports
 * must read the same on every machine.
 */
const char *report_calibration_name(const struct report *r);
/* Statistics, comparisons, verdicts. */
int report_compute(struct report *r);
/* Only the comparisons and verdicts (per-mode summaries left as they are). */
int report_compute_verdicts(struct report *r);
/*
 * @a against @b, two modes of rows like @row, paired by block (blocks.h):
 * ratio, interval and p from one t model on the per-block log ratios,
 * gain. Keeps c->band. 1 if there was something to compare, else 0
 * (c->valid 0).
 */
int report_compare_stats(const struct mode_stats *a, const struct mode_stats *b,
			 const struct report_row *row, struct comparison *c);
/*
 * The same between two runs that share no blocks (different boots, days):
 * Welch's t on the logs of the uncensored values, interval and p from that
 * one model; n_blocks counts the values of both sides. Censored values
 * are left out and take the verdict away (censor_conflict).
 */
int report_compare_unpaired(const struct mode_stats *a, const struct mode_stats *b,
			    const struct report_row *row, struct comparison *c);
struct block_series;
/* The per-block log gains of @a over @b in @row (+: better for a). */
void report_row_series(const struct report_row *row, const struct mode_stats *a,
		       const struct mode_stats *b, struct block_series *s);
/*
 * @out = the block-wise mean of the @n row series @rows, leaving out rows
 * with a censored (bound) block anywhere. Returns the rows used.
 */
int report_rows_mean(const struct block_series *rows, int n, struct block_series *out);
/* Fit @s (blocks.h) into @c as a gain and ratio; keeps c->band. */
void report_fit_comparison(const struct block_series *s, struct comparison *c);
/* A maximum: shown, never tested or pooled. */
int report_row_is_maximum(const struct report_row *row);
/*
 * Holm's correction over one table (family) of comparisons, the minimum
 * detectable effect at that family's size, then a verdict for each.
 */
int report_holm_and_judge(struct comparison **cs, int n);
void report_free(struct report *r);

void report_write_md(const struct report *r, FILE *out);
/* The short form csbench prints: verdicts and the overall line. */
void report_write_summary(const struct report *r, FILE *out);
int report_write_csv(const struct report *r, FILE *out);
int report_write_json(const struct report *r, const char *path);

/* Format "+12.3% [+8.1, +16.4]" for a gain. */
void report_fmt_gain(const struct comparison *c, char *buf, size_t len);
/*
 * The smallest detectable change @mde (a fraction): "+-23%" below 100%,
 * above it the factor either way, "x/ 13" (a change of +-1242% would
 * read as a loss beyond -100%).
 */
void report_fmt_mde(double mde, char *buf, size_t len);

#endif
