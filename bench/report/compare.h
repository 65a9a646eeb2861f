/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two runs side by side (e.g. two revisions of the patch series): every
 * row and mode both have, NEW against OLD, paired by block when the runs
 * are the two sides of one A/B session, else Welch's t on the logs; Holm
 * over each mode. A regression is a significant change for the worse
 * beyond the threshold, in a row, a workload's mean or forced idle, or
 * any new unexplained co-residency window.
 */
#ifndef CSBENCH_COMPARE_H
#define CSBENCH_COMPARE_H

#include <stdio.h>

#include "report.h"

struct compare_line {
	const struct report_row *old_row, *new_row;
	enum csb_mode mode;
	struct comparison c;	/* new / old; gain > 1: NEW is better */
};

/* A workload's figure in one mode, NEW against OLD, paired by block. */
struct compare_wl {
	char workload[64];
	enum csb_mode mode;
	struct comparison c;	/* gain > 1: NEW is better */
	double old_fi, new_fi;	/* forced idle, percent of CPU time (mean) */
	struct comparison fi;	/* forced idle: gain > 1: NEW idles less */
	long old_unexplained, new_unexplained;
	double old_handoff_p99_us, new_handoff_p99_us;	/* largest cell p99 */
	int isolation_lost;	/* NEW shows unexplained windows, OLD none */
};

struct compare {
	struct compare_line *lines;
	int n;
	struct compare_wl *wls;	/* paired runs only */
	int nwl;
	int regressions, improvements;
	int wl_regressions, fi_regressions, isolation_regressions;
	int paired;		/* one A/B session: blocks paired */
};

/* Are @old_r and @new_r the two sides of one interleaved A/B session? */
int compare_paired(const struct report *old_r, const struct report *new_r);

/*
 * Fill @cmp from two computed reports (on failure too: compare_free() it). A significant change for the worse
 * counts as a regression only if it loses more than the threshold, and
 * likewise for improvements. Holm's correction runs over the rows and
 * modes compared, so narrowing them to what a patch touches (workloads,
 * modes) is what makes a small change detectable. 0, or -ENOMEM.
 */
struct compare_opts {
	double threshold;	/* 0.05: a change must exceed 5% to count */
	const char *workloads;	/* comma-separated, or NULL for all */
	unsigned int modes;	/* bit per csb_mode, 0 for all */
};

int compare_reports(const struct report *old_r, const struct report *new_r,
		    const struct compare_opts *opts, struct compare *cmp);
void compare_free(struct compare *cmp);
/* Did anything regress? */
int compare_failed(const struct compare *cmp);
/* Markdown: the changes first, then the verdicts of both runs. */
void compare_write_md(const struct report *old_r, const struct report *new_r,
		      const struct compare *cmp, int all, FILE *out);

#endif
