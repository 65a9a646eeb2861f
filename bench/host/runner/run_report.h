/* SPDX-License-Identifier: GPL-2.0 */
/* Reading a run directory's raw cells: progress lines and the raw table. */
#ifndef CSBENCH_RUN_REPORT_H
#define CSBENCH_RUN_REPORT_H

#include <stdio.h>

enum progress { PROGRESS_TEXT, PROGRESS_JSON, PROGRESS_NONE };

/*
 * One line on stderr for a finished cell: "[k/n] id: ..., elapsed, ETA",
 * or the same as one JSON object, or nothing, as @how says.
 */
void run_report_progress(const char *dir, const char *id, int done, int total,
			 int done_before, double elapsed_s, enum progress how);
/*
 * The raw mean of every metric per workload and mode, as a Markdown table
 * on @out, from the JSON files in DIR/cells. Returns 0, or -1 if there
 * were no cells.
 */
int run_report_table(const char *dir, FILE *out);

/*
 * Check a finished run: every cell of the manifest present with status ok,
 * readable and well formed by the cell schema, and no unexplained
 * co-residency window in a coresched mode. Prints each problem on @out;
 * returns 0 if there is none, -2 when @dir has no manifest (not a run
 * directory), -1 otherwise.
 */
int run_report_verify(const char *dir, FILE *out);

#endif
