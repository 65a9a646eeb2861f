/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Adaptive repetitions (csbench run --target PCT --budget MIN): after each
 * block, the run's own report says whether every workload's coresched vs
 * smt-off interval is already narrower than the target; if not, and the
 * budget allows another block, one more block runs. Whatever stopped it is
 * recorded in the manifest ("adaptive") and in the report.
 */
#ifndef CSBENCH_ADAPTIVE_H
#define CSBENCH_ADAPTIVE_H

#include <stddef.h>

enum adaptive_stop {
	STOP_NONE,	/* go on */
	STOP_TARGET,	/* every interval narrower than the target */
	STOP_BUDGET,	/* another block would not fit */
	STOP_MAX_REPS,	/* --reps blocks done */
};

const char *adaptive_stop_name(enum adaptive_stop s);

struct adaptive_state {
	double target;		/* half-width, fraction (0.1: +-10%) */
	double budget_s;	/* 0: none */
	int blocks;		/* finished so far */
	double widest;		/* widest half-width now; INFINITY: some without one */
	char widest_wl[64];	/* whose */
};

/*
 * Look at run DIR after @st->blocks blocks: the widest coresched vs
 * smt-off half-width over its workloads (into @st). -1 with @err when the
 * run cannot be analysed.
 */
int adaptive_measure(const char *dir, struct adaptive_state *st, char *err, size_t errlen);

/*
 * Whether to stop, given @elapsed_s so far and the time one block took
 * (@block_s) for the budget's forecast, and @max_blocks.
 */
enum adaptive_stop adaptive_decide(const struct adaptive_state *st, double elapsed_s,
				   double block_s, int max_blocks);

/* Record the decision and the last widths in DIR/manifest.json. */
int adaptive_record(const char *dir, const struct adaptive_state *st, enum adaptive_stop s,
		    int min_blocks);

#endif
