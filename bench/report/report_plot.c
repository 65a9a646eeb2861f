// SPDX-License-Identifier: GPL-2.0
/*
 * What the report's plots show (see report_plot.h): the data file and the
 * gnuplot script of each kind of plot. report_plot_run.c names the files
 * and runs gnuplot on them.
 *
 * gnuplot runs inside the output directory and the scripts name their
 * files without a directory, so no path ever has to be quoted for gnuplot
 * and a moved run directory can still be re-plotted. Everything a script
 * shows that comes from the run (workload, tenant, metric names) is a
 * single-quoted gnuplot string, in which gnuplot expands neither
 * backquotes (shell commands) nor macros, and is drawn noenhanced, so an
 * '_' stays an underscore rather than starting a subscript.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report_plot.h"
#include "report_plot_kinds.h"

#define PLOT_TERMINAL \
	"set terminal svg size 900,500 dynamic enhanced font 'sans,11'"
#define CLUSTER_WIDTH	0.8	/* of the 1.0 between two clusters' centres */
#define ROTATE_TICS	6	/* more clusters than this: slanted labels */


/* A mode or comparison added without a colour still plots, in black. */
static const char *colour(const char *c)
{
	return c ? c : "#000000";
}

/* ---- gnuplot text -------------------------------------------------------- */

/* @s as a single-quoted gnuplot string, where '' stands for a quote. */
void gp_str(FILE *gp, const char *s)
{
	fputc('\'', gp);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("''", gp);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', gp);
		else
			fputc(*s, gp);
	}
	fputc('\'', gp);
}

static void gp_preamble(FILE *gp, const char *stem, const char *title)
{
	fprintf(gp, "# csbench report plot; redraw with: gnuplot %s.gp\n", stem);
	fprintf(gp, "%s\nset output '%s.svg'\n", PLOT_TERMINAL, stem);
	fputs("set title ", gp);
	gp_str(gp, title);
	fputs(" noenhanced\nset key noenhanced\nset grid ytics\n", gp);
}

/* Cluster @i's tic label: one line, or two when @line2 is given. */
static void gp_tic(FILE *gp, int i, const char *line1, const char *line2)
{
	fputs(i ? ", " : "", gp);
	gp_str(gp, line1);
	if (line2) {
		fputs(" . \"\\n\" . ", gp);
		gp_str(gp, line2);
	}
	fprintf(gp, " %d", i);
}

static int slanted(int nclusters)
{
	return nclusters > ROTATE_TICS;
}

static void gp_tics_begin(FILE *gp, int nclusters)
{
	fprintf(gp, "set xrange [-0.6:%g]\n", nclusters - 0.4);
	fprintf(gp, "set xtics noenhanced %s(",
		slanted(nclusters) ? "rotate by -30 " : "");
}

/* The plot command's next clause, for data block @index of @stem.dat. */
static void gp_clause(FILE *gp, int index, const char *stem)
{
	fprintf(gp, "%s'%s.dat' index %d ", index ? ", \\\n     " : "plot ",
		stem, index);
}

/* Bar @slot of @nslots within cluster @i: centres spread over its width. */
static double slot_x(int i, int slot, int nslots)
{
	return i + (slot - (nslots - 1) / 2.0) * CLUSTER_WIDTH / nslots;
}

/* An interval end, or the value itself when there is none (n < 2). */
static double end_or(double end, double value)
{
	return isfinite(end) ? end : value;
}

/* ---- gains.svg ----------------------------------------------------------- */

/* Cluster @i: workload i, and after the last workload the overall one. */
static const struct comparison *gain_of(const struct report *r, int i, int k)
{
	return i < r->nwl ? &r->wl[i].verdict[k] : &r->overall[k];
}

static int gain_shown(const struct comparison *c)
{
	return c->valid && isfinite(c->gain);
}

static double gain_pct(double g)
{
	return (g - 1) * 100;
}

static void gains_block(const struct report *r, int k, int slot, int nslots,
			FILE *dat)
{
	double w = CLUSTER_WIDTH / nslots;
	const struct comparison *c;
	int i;

	for (i = 0; i <= r->nwl; i++) {
		c = gain_of(r, i, k);
		if (!gain_shown(c))
			continue;
		fprintf(dat, "%.6g %.6g %.6g %.6g %.6g\n", slot_x(i, slot, nslots),
			gain_pct(c->gain), gain_pct(end_or(c->gain_lo, c->gain)),
			gain_pct(end_or(c->gain_hi, c->gain)), w);
	}
	fputs("\n\n", dat);
}

int plot_gains(const struct report *r, int wl, const char *stem,
		      FILE *dat, FILE *gp)
{
	int shown[CMP_COUNT] = { 0 };
	int nshown = 0, slot = 0, i, k;

	(void)wl;
	/* A comparison no workload could make is left out of the key too. */
	for (k = 0; k < CMP_COUNT; k++) {
		for (i = 0; i <= r->nwl; i++)
			shown[k] |= gain_shown(gain_of(r, i, k));
		nshown += shown[k];
	}
	if (!nshown)
		return 0;

	gp_preamble(gp, stem,
		    "Gain per workload (+ is better for the first mode), 95% CI");
	fputs("set ylabel 'gain (%)'\nset xzeroaxis lt -1 lw 1.5\n"
	      "set style fill solid 0.8 border -1\n"
	      "set key outside bottom center horizontal\n", gp);
	/* "all" sums up the workloads; a rule keeps it apart from them. */
	if (r->nwl)
		fprintf(gp, "set arrow from %g, graph 0 to %g, graph 1 nohead dt 2 lc rgb '#999999'\n",
			r->nwl - 0.5, r->nwl - 0.5);
	gp_tics_begin(gp, r->nwl + 1);
	for (i = 0; i < r->nwl; i++)
		gp_tic(gp, i, r->wl[i].name, NULL);
	gp_tic(gp, r->nwl, "all", NULL);
	fputs(")\n", gp);

	for (k = 0; k < CMP_COUNT; k++) {
		if (!shown[k])
			continue;
		gains_block(r, k, slot, nshown, dat);
		gp_clause(gp, slot, stem);
		fprintf(gp, "using 1:2:3:4:5 with boxerrorbars lc rgb '%s' title ",
			colour(report_cmps[k].colour));
		gp_str(gp, report_cmps[k].label);
		slot++;
	}
	fputc('\n', gp);
	return 1;
}

/* ---- latency-<workload>.svg ---------------------------------------------- */

static int hist_usable(const struct hist *h)
{
	return h->count && h->nbuckets > 0 && hist_total(h) > 0;
}

static int is_hist_row(const struct report_row *row, const char *wl)
{
	int m;

	if (row->kind != ROW_PERCENTILE || strcmp(row->workload, wl))
		return 0;
	for (m = 0; m < MODE_COUNT; m++)
		if (hist_usable(&row->m[m].hist))
			return 1;
	return 0;
}

/*
 * The next row, from @from on, whose histograms the latency plot shows:
 * a tenant's percentile rows (p50, p99, max...) all merge the same
 * histograms, so its first such row stands for them. -1 when none is left.
 */
static int next_hist_row(const struct report *r, const char *wl, int from)
{
	int i, j;

	for (i = from; i < r->nrows; i++) {
		if (!is_hist_row(&r->rows[i], wl))
			continue;
		for (j = 0; j < i; j++)
			if (is_hist_row(&r->rows[j], wl) &&
			    !strcmp(r->rows[j].tenant, r->rows[i].tenant))
				break;
		if (j == i)
			return i;
	}
	return -1;
}

/*
 * P(latency >= x) at each bucket's end x (one past its highest value),
 * written only where it changes (the plot draws steps between the
 * points). It stops where it drops to 0, which a log axis cannot show,
 * or at the recorder's limit, past which the overflow samples have no
 * known latency.
 */
static void write_survival(FILE *dat, const struct hist *h)
{
	long total = hist_total(h), left = total, x = 1;
	double prev = 1;
	int i;

	for (i = 0; i < h->nbuckets; i++) {
		left -= h->count[i];
		x = (long)hist_bucket_value(h, i) + 1;
		if (!left) {
			/* The last level reaches x, then falls to 0. */
			fprintf(dat, "%ld %.6g\n", x, prev);
			break;
		}
		prev = (double)left / total;
		if (!i || h->count[i])
			fprintf(dat, "%ld %.6g\n", x, prev);
	}
	if (left && h->limit != HIST_NO_LIMIT && h->limit > x)
		fprintf(dat, "%ld %.6g\n", h->limit, prev);
	fputs("\n\n", dat);
}

static int count_tenants(const struct report *r, const char *wl)
{
	int n = 0, i;

	for (i = next_hist_row(r, wl, 0); i >= 0; i = next_hist_row(r, wl, i + 1))
		n++;
	return n;
}

/* "Latency survival: WL; beyond 20000 us: smt-on 7, coresched 11" (short: one line). */
static void latency_title(const struct report *r, const char *wl, char *buf,
			  size_t len)
{
	const struct report_row *row;
	const struct hist *h;
	int i, m, first = 1, ntenants = count_tenants(r, wl);
	size_t used;

	used = snprintf(buf, len, "Latency survival: %s", wl);
	for (i = next_hist_row(r, wl, 0); i >= 0; i = next_hist_row(r, wl, i + 1)) {
		row = &r->rows[i];
		for (m = 0; m < MODE_COUNT && used < len; m++) {
			h = &row->m[m].hist;
			if (!hist_usable(h) || !h->overflow)
				continue;
			if (first)
				used += snprintf(buf + used, len - used, "; beyond %ld us:",
						 h->limit);
			used += snprintf(buf + used, len - used, "%s %s%s%s %ld",
					 first ? "" : ",", ntenants > 1 ? row->tenant : "",
					 ntenants > 1 ? " " : "", mode_name(m), h->overflow);
			first = 0;
		}
	}
}

static void latency_key(const struct report_row *row, int m, int ntenants,
			FILE *gp)
{
	char title[160];

	/* With one tenant, the mode alone says which curve is which. */
	if (ntenants > 1)
		snprintf(title, sizeof(title), "%s %s", row->tenant, mode_name(m));
	else
		snprintf(title, sizeof(title), "%s", mode_name(m));
	gp_str(gp, title);
}

int plot_latency(const struct report *r, int wl, const char *stem,
			FILE *dat, FILE *gp)
{
	const char *name = r->wl[wl].name;
	int ntenants = count_tenants(r, name), t = 0, index = 0, i, m;
	const struct report_row *row;
	char title[512];

	if (!ntenants)
		return 0;
	latency_title(r, name, title, sizeof(title));
	gp_preamble(gp, stem, title);
	/* Tails are what differ between modes: log y shows them. */
	fputs("set logscale xy\nset format y '10^{%L}'\nset yrange [*:1.5]\n"
	      "set xlabel 'latency (us)'\n"
	      "set ylabel 'fraction of samples >= x (1 - CDF)'\n"
	      "set key top right\n", gp);

	for (i = next_hist_row(r, name, 0); i >= 0;
	     i = next_hist_row(r, name, i + 1), t++) {
		row = &r->rows[i];
		for (m = 0; m < MODE_COUNT; m++) {
			if (!hist_usable(&row->m[m].hist))
				continue;
			write_survival(dat, &row->m[m].hist);
			gp_clause(gp, index++, stem);
			fprintf(gp, "using 1:2 with steps lw 1.5 lc rgb '%s' dt %d title ",
				colour(mode_colour(m)), t % 5 + 1);
			latency_key(row, m, ntenants, gp);
		}
	}
	fputc('\n', gp);
	return 1;
}

/* ---- metrics-<workload>.svg ---------------------------------------------- */

static int mean_usable(const struct mode_stats *s)
{
	return s->n > 0 && isfinite(s->s.mean) && s->s.mean != 0;
}

static int is_metric_row(const struct report_row *row, const char *wl)
{
	int m;

	if (row->kind == ROW_PERCENTILE || strcmp(row->workload, wl))
		return 0;
	for (m = 0; m < MODE_COUNT; m++)
		if (mean_usable(&row->m[m]))
			return 1;
	return 0;
}

/* Rows are shown relative to smt-off, or to the first mode that ran. */
static int ref_mode(const struct report_row *row)
{
	int m;

	if (mean_usable(&row->m[MODE_SMT_OFF]))
		return MODE_SMT_OFF;
	for (m = 0; m < MODE_COUNT; m++)
		if (mean_usable(&row->m[m]))
			return m;
	return -1;
}

/*
 * The tic under a row: what it is, then its unit, which way is better and
 * what it is relative to. Two lines, but one when the labels are slanted,
 * where a second line would not sit under the first.
 */
static void metric_tic(FILE *gp, int i, const struct report_row *row,
		       int slanted)
{
	char what[160], how[160], both[330];
	int ref = ref_mode(row);

	if (row->tenant[0])
		snprintf(what, sizeof(what), "%s.%s", row->tenant, row->metric);
	else
		snprintf(what, sizeof(what), "%s", row->metric);
	snprintf(how, sizeof(how), "(%s%s%s better%s%s)", row->unit,
		 row->unit[0] ? ", " : "",
		 row->higher_is_better ? "higher" : "lower",
		 ref != MODE_SMT_OFF ? ", vs " : "",
		 ref != MODE_SMT_OFF ? mode_name(ref) : "");
	if (slanted) {
		snprintf(both, sizeof(both), "%s %s", what, how);
		gp_tic(gp, i, both, NULL);
	} else {
		gp_tic(gp, i, what, how);
	}
}

/* One mode's points: per row, its mean and CI over the reference mean. */
static void metrics_block(const struct report *r, const char *wl, int m,
			  int slot, int nslots, FILE *dat)
{
	const struct report_row *row;
	const struct mode_stats *s;
	double ref, lo, hi;
	int i, x = 0;

	for (i = 0; i < r->nrows; i++) {
		row = &r->rows[i];
		if (!is_metric_row(row, wl))
			continue;
		s = &row->m[m];
		ref = row->m[ref_mode(row)].s.mean;
		lo = end_or(s->s.ci_lo, s->s.mean) / ref;
		hi = end_or(s->s.ci_hi, s->s.mean) / ref;
		if (mean_usable(s))
			fprintf(dat, "%.6g %.6g %.6g %.6g\n", slot_x(x, slot, nslots),
				s->s.mean / ref, fmin(lo, hi), fmax(lo, hi));
		x++;
	}
	fputs("\n\n", dat);
}

int plot_metrics(const struct report *r, int wl, const char *stem,
			FILE *dat, FILE *gp)
{
	const char *name = r->wl[wl].name;
	int present[MODE_COUNT] = { 0 };
	int nrows = 0, nmodes = 0, slot = 0, i, m;
	char title[160];

	for (i = 0; i < r->nrows; i++) {
		if (!is_metric_row(&r->rows[i], name))
			continue;
		for (m = 0; m < MODE_COUNT; m++)
			present[m] |= mean_usable(&r->rows[i].m[m]);
		nrows++;
	}
	if (!nrows)
		return 0;
	for (m = 0; m < MODE_COUNT; m++)
		nmodes += present[m];

	snprintf(title, sizeof(title), "Metrics: %s, mean per mode, 95%% CI", name);
	gp_preamble(gp, stem, title);
	/* Rows have different units; ratios to one mode share an axis. */
	fputs("set ylabel 'mean relative to smt-off (= 1); units differ per row'\n"
	      "set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2 lc rgb '#999999'\n"
	      "set key outside bottom center horizontal\n", gp);
	/* gnuplot leaves room for one line of tic labels, and then the key. */
	if (!slanted(nrows))
		fputs("set bmargin 5\n", gp);
	gp_tics_begin(gp, nrows);
	for (i = 0; i < r->nrows; i++)
		if (is_metric_row(&r->rows[i], name))
			metric_tic(gp, slot++, &r->rows[i], slanted(nrows));
	fputs(")\n", gp);

	for (m = 0, slot = 0; m < MODE_COUNT; m++) {
		if (!present[m])
			continue;
		metrics_block(r, name, m, slot, nmodes, dat);
		gp_clause(gp, slot++, stem);
		fprintf(gp, "using 1:2:3:4 with yerrorbars pt 7 ps 0.8 lw 1.5 lc rgb '%s' title ",
			colour(mode_colour(m)));
		gp_str(gp, mode_name(m));
	}
	fputc('\n', gp);
	return 1;
}
