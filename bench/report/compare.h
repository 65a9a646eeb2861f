/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Two runs side by side (e.g. two revisions of the patch series): every
 * row and mode both have, NEW against OLD, with the same statistics as a
 * report (ratio and interval, Welch's p, Holm over the whole comparison,
 * noise bands). A regression is a significant change for the worse.
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

struct compare {
	struct compare_line *lines;
	int n;
	int regressions, improvements;
};

/*
 * Fill @cmp from two computed reports. A significant change for the worse
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
/* Markdown: the changes first, then the verdicts of both runs. */
void compare_write_md(const struct report *old_r, const struct report *new_r,
		      const struct compare *cmp, int all, FILE *out);

#endif
