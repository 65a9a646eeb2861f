/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kinds of plot (report_plot.c), for report_plot_run.c: each writes
 * one plot's data to @dat and its script to @gp, for workload @wl (unused
 * by whole-run plots), and returns 1 if there was something to plot, 0 if
 * not, or a negative errno.
 */
#ifndef CSBENCH_REPORT_PLOT_KINDS_H
#define CSBENCH_REPORT_PLOT_KINDS_H

#include <stdio.h>

#include "report.h"

typedef int (*plot_fn)(const struct report *r, int wl, const char *stem,
		       FILE *dat, FILE *gp);

int plot_gains(const struct report *r, int wl, const char *stem, FILE *dat, FILE *gp);
int plot_latency(const struct report *r, int wl, const char *stem, FILE *dat, FILE *gp);
/* @s as a single-quoted gnuplot string, where '' stands for a quote. */
void gp_str(FILE *gp, const char *s);

int plot_metrics(const struct report *r, int wl, const char *stem, FILE *dat, FILE *gp);

#endif
