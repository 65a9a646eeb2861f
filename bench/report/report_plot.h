/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Plots of a report, drawn by gnuplot: the gains per workload, each
 * workload's latency tails and its other metrics per mode. The data and
 * the scripts stay beside the SVGs, so a plot can be re-drawn or restyled
 * by hand without rerunning anything.
 */
#ifndef CSBENCH_REPORT_PLOT_H
#define CSBENCH_REPORT_PLOT_H

#include "report.h"

/*
 * Write gnuplot data (*.dat) and scripts (*.gp) under @outdir (created)
 * and run gnuplot on each to make SVGs there; gnuplot's output goes to
 * @outdir/gnuplot.log. Makes:
 *   gains.svg                gain per workload and overall, per comparison
 *   latency-<workload>.svg   survival (1 - CDF) of the merged histograms
 *   metrics-<workload>.svg   the other rows' means, relative to smt-off
 * where <workload> is the name with anything but [A-Za-z0-9_.-] made '_'.
 *
 * Returns the number of plots made (>= 0), or a negative errno: -ENOENT
 * when gnuplot is not installed (the scripts are still written), -EIO
 * when gnuplot failed on a script. Messages go through log.h; never exits.
 */
int report_plot(const struct report *r, const char *outdir);

/*
 * Run gnuplot on @outdir/@stem.gp (made elsewhere), its output appended
 * to @outdir/gnuplot.log. 0, -ENOENT (no gnuplot) or -EIO, said why.
 */
int report_gnuplot(const char *outdir, const char *stem);

#endif
