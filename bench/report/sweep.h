/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A yield sweep: one run directory per emulated SMT yield (csbench run
 * --smt-yield Y, scripts/sweep.sh), the same matrix in each, their blocks
 * interleaved boot by boot. Per workload it puts side by side the
 * throughput gains of coresched and smt-on over smt-off at each yield,
 * the measured crossover yield (where the gain first reaches 0), and the
 * breakeven yield the model (smtyield.h) predicts from the run at Y = 1.0,
 * and says whether the two agree within their intervals.
 *
 * Crossover. The yields are the ones the boots measured (the median of
 * each run's boots), not the targets. Between two neighbouring yields the
 * log gain is taken as linear in the yield. The point estimate is where
 * the gain first reaches 0 going up in yield; its range runs from where
 * the upper end of the gains' 95% intervals first reaches 0 to where the
 * lower end does. These are pointwise intervals joined, not a joint band:
 * a range, not a confidence interval of its own. Below the lowest yield
 * or above the highest the range is open (shown as <= or >).
 */
#ifndef CSBENCH_SWEEP_H
#define CSBENCH_SWEEP_H

#include <stdio.h>

#include "report.h"

#define SWEEP_MAX_POINTS	8
#define SWEEP_CMPS		2	/* coresched vs smt-off, smt-on vs smt-off */

/* The comparisons a sweep shows, as indices into report_cmps. */
extern const int sweep_cmp[SWEEP_CMPS];

struct sweep_cross {
	/*
	 * @at: -INFINITY when at or below the lowest yield, INFINITY when
	 * above the highest. The range: @range_lo -INFINITY when open below,
	 * @range_hi INFINITY when open above; @range_lo is the highest yield
	 * when even the intervals' upper ends never reach 0 (above it).
	 */
	double at, range_lo, range_hi;
	int valid;		/* some gain at every yield */
};

struct sweep_workload {
	char name[64];
	/* Per comparison and point: the throughput gain (ratio) and its CI. */
	double gain[SWEEP_CMPS][SWEEP_MAX_POINTS];
	double lo[SWEEP_CMPS][SWEEP_MAX_POINTS], hi[SWEEP_CMPS][SWEEP_MAX_POINTS];
	struct sweep_cross cross[SWEEP_CMPS];
	/*
	 * The model's breakeven from the Y = 1.0 run at the yield it
	 * measured (smt_breakeven_yield_at()); NAN: no such run.
	 */
	double predicted, predicted_lo, predicted_hi;
	int agree;		/* 1, 0, or -1: nothing to compare */
};

struct sweep {
	char dir[4096];
	struct report *pt[SWEEP_MAX_POINTS];	/* by ascending target */
	double yield[SWEEP_MAX_POINTS];		/* measured median (else the target) */
	int npt;
	int base;				/* index of the Y = 1.0 run; -1: none */
	struct sweep_workload wl[REPORT_MAX_WORKLOADS];
	int nwl;
};

/*
 * Where the curve @g (ratios, > 0; NAN skipped) over the ascending @x
 * first reaches 1: interpolated in log g; -INFINITY when it is there at
 * the first point, INFINITY when never, NAN with fewer than one point.
 */
double sweep_first_reach(const double *x, const double *g, int n);

/* The crossover of gains @g with interval ends @lo, @hi over @x. */
struct sweep_cross sweep_crossover(const double *x, const double *g, const double *lo,
				   const double *hi, int n);

/*
 * Fill @s's workloads from its points (s->pt, s->yield, s->npt, s->base
 * set, every report computed). -1 with @err set when the points do not
 * hold the same workloads.
 */
int sweep_compute(struct sweep *s, char *err, size_t errlen);

/* sweep.md and sweep.json. */
void sweep_write_md(const struct sweep *s, FILE *out);
int sweep_write_json(const struct sweep *s, const char *path);

/*
 * gain-vs-yield.svg (with its .dat and .gp) under @outdir: 1 made, or a
 * negative errno (-ENOENT: no gnuplot; the script is still written).
 */
int sweep_plot(const struct sweep *s, const char *outdir);

#endif
