// SPDX-License-Identifier: GPL-2.0
/*
 * The sweep's plot: throughput gain against the measured yield, one line
 * per workload with its 95% intervals, coresched vs smt-off above and
 * smt-on vs smt-off below, each crossover marked on the zero line.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "../lib/log.h"
#include "../lib/paths.h"
#include "report_plot.h"
#include "report_plot_kinds.h"
#include "sweep.h"

#define STEM	"gain-vs-yield"

/* Data: per comparison, per workload, one index block of yield gain lo hi. */
static void write_data(const struct sweep *s, FILE *dat)
{
	int k, w, p;

	fputs("# yield gain_pct lo_pct hi_pct (throughput rows); crossover blocks last\n", dat);
	for (k = 0; k < SWEEP_CMPS; k++)
		for (w = 0; w < s->nwl; w++) {
			const struct sweep_workload *sw = &s->wl[w];

			fprintf(dat, "# %s: %s\n", report_cmps[sweep_cmp[k]].label, sw->name);
			for (p = 0; p < s->npt; p++)
				if (!isnan(sw->gain[k][p]))
					fprintf(dat, "%.4f %.3f %.3f %.3f\n", s->yield[p],
						(sw->gain[k][p] - 1) * 100,
						isnan(sw->lo[k][p]) ? (sw->gain[k][p] - 1) * 100 :
						(sw->lo[k][p] - 1) * 100,
						isnan(sw->hi[k][p]) ? (sw->gain[k][p] - 1) * 100 :
						(sw->hi[k][p] - 1) * 100);
			fputs("\n\n", dat);
		}
	/* One block per comparison: the crossovers inside the sweep's range. */
	for (k = 0; k < SWEEP_CMPS; k++) {
		fprintf(dat, "# crossovers: %s\n", report_cmps[sweep_cmp[k]].label);
		for (w = 0; w < s->nwl; w++)
			if (s->wl[w].cross[k].valid && isfinite(s->wl[w].cross[k].at))
				fprintf(dat, "%.4f 0\n", s->wl[w].cross[k].at);
		fputs("0 NaN\n\n\n", dat);	/* never empty: gnuplot refuses that */
	}
}

/*
 * Each crossover inside the sweep's range, labelled with its workload and
 * yield above the point on the zero line (the legend names the colours;
 * the labels say which dot is whose).
 */
static void write_labels(const struct sweep *s, int k, FILE *gp)
{
	int w, n = 0;

	for (w = 0; w < s->nwl; w++) {
		const struct sweep_cross *c = &s->wl[w].cross[k];
		char text[96];

		if (!c->valid || !isfinite(c->at))
			continue;
		snprintf(text, sizeof(text), "%s %.2f", s->wl[w].name, c->at);
		fprintf(gp, "set label %d ", ++n);
		gp_str(gp, text);
		/* Staggered upwards so labels of close crossovers do not overlap. */
		fprintf(gp, " at %.4f,0 offset 0.5,%.1f rotate by 30 noenhanced font ',9' "
			"textcolor lt %d\n", c->at, 1.0 + 1.2 * ((n - 1) % 4), w + 1);
	}
}

/* Both panels, for the terminal set before. */
static void write_panels(const struct sweep *s, FILE *gp)
{
	int k, w;

	fprintf(gp, "set multiplot layout %d,1\n", SWEEP_CMPS);
	for (k = 0; k < SWEEP_CMPS; k++) {
		fputs("set title ", gp);
		gp_str(gp, report_cmps[sweep_cmp[k]].label);
		fputs(" noenhanced\n", gp);
		write_labels(s, k, gp);
		fputs("plot 0 with lines lc rgb '#888888' notitle", gp);
		for (w = 0; w < s->nwl; w++) {
			fprintf(gp, ", \\\n  '%s.dat' index %d using 1:2:3:4 with yerrorlines "
				"lc %d title ", STEM, k * s->nwl + w, w + 1);
			gp_str(gp, s->wl[w].name);
		}
		fprintf(gp, ", \\\n  '%s.dat' index %d using 1:2 with points pt 7 ps 1.5 "
			"lc rgb '#000000' title 'crossover (gain 0)'\n", STEM,
			SWEEP_CMPS * s->nwl + k);
		fputs("unset label\n", gp);
	}
	fputs("unset multiplot\n", gp);
}

static void write_script(const struct sweep *s, FILE *gp)
{
	fprintf(gp, "# csbench sweep plot; redraw with: gnuplot %s.gp\n", STEM);
	fprintf(gp, "set key outside right noenhanced title 'workload'\nset grid\n"
		"set xlabel 'measured SMT yield'\n"
		"set ylabel 'throughput gain (%%)'\nset xrange [%.3f:%.3f]\n",
		s->yield[0] - 0.05, s->yield[s->npt - 1] + 0.05);
	fprintf(gp, "set terminal svg size 900,%d dynamic enhanced font 'sans,11'\n"
		"set output '%s.svg'\n", 420 * SWEEP_CMPS, STEM);
	write_panels(s, gp);
	/* The same plot as PNG, for viewers without SVG (multiplot: no replot). */
	fprintf(gp, "set terminal pngcairo size 900,%d font 'sans,10'\n"
		"set output '%s.png'\n", 420 * SWEEP_CMPS, STEM);
	write_panels(s, gp);
}

int sweep_plot(const struct sweep *s, const char *outdir)
{
	char path[4300];
	FILE *dat, *gp = NULL;
	int ret;

	ret = mkdirs(outdir, 0755);
	if (ret) {
		err_errno(-ret, "cannot create %s", outdir);
		return ret;
	}
	xsnprintf(path, sizeof(path), "%s/%s.dat", outdir, STEM);
	dat = fopen(path, "w");
	if (dat) {
		xsnprintf(path, sizeof(path), "%s/%s.gp", outdir, STEM);
		gp = fopen(path, "w");
	}
	if (!gp) {
		ret = -errno;
		err_errno(-ret, "cannot write %s", path);
		if (dat)
			fclose(dat);
		return ret;
	}
	write_data(s, dat);
	write_script(s, gp);
	if ((fclose(dat) | fclose(gp)) != 0) {
		err_msg("cannot write the plot files in %s", outdir);
		return -EIO;
	}
	ret = report_gnuplot(outdir, STEM);
	return ret ? ret : 1;
}
