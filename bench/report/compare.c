// SPDX-License-Identifier: GPL-2.0
/* NEW against OLD, row by row and mode by mode (see compare.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "compare.h"

/*
 * NEW's mode against OLD's: paired by block when both runs are the two
 * sides of one interleaved A/B session (their blocks ran in neighbouring
 * boots), else unpaired.
 */
static int compare_one(const struct report_row *o, const struct report_row *n,
		       enum csb_mode m, int paired, struct comparison *c)
{
	/* The newer run's noise band stands for both. */
	c->band = n->cmp[0].band;
	return paired ? report_compare_stats(&n->m[m], &o->m[m], n, c) :
			report_compare_unpaired(&n->m[m], &o->m[m], n, c);
}

int compare_paired(const struct report *old_r, const struct report *new_r)
{
	return old_r->ab_session[0] && !strcmp(old_r->ab_session, new_r->ab_session) &&
	       strcmp(old_r->ab_side, new_r->ab_side);
}

/* Is @name in the comma-separated @list (NULL: everything is)? */
static int in_list(const char *list, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	if (!list)
		return 1;
	for (p = list; (p = strstr(p, name)); p += len)
		if ((p == list || p[-1] == ',') && (p[len] == ',' || !p[len]))
			return 1;
	return 0;
}

static int line_mode(const void *l)
{
	return ((const struct compare_line *)l)->mode;
}

static int wl_mode(const void *l)
{
	return ((const struct compare_wl *)l)->mode;
}

/*
 * Holm over each mode's comparisons (@cs[i] belongs to element i of
 * @items, whose mode @mode_of tells): one family per mode, as each
 * comparison column of a report is one.
 */
static int holm_per_mode(struct comparison **cs, int n, int (*mode_of)(const void *),
			 const void *items, size_t size)
{
	struct comparison **fam = malloc(sizeof(*fam) * (n + 1));
	int m, i, k, ret = 0;

	if (!fam)
		return -ENOMEM;
	for (m = 0; !ret && m < MODE_COUNT; m++) {
		for (i = k = 0; i < n; i++)
			if (mode_of((const char *)items + i * size) == m)
				fam[k++] = cs[i];
		ret = report_holm_and_judge(fam, k);
	}
	free(fam);
	return ret;
}

/*
 * Forced idle moves between 0.1% and tens of percent: its change is a
 * ratio, and this floor (percentage points) keeps a change from 0.01% to
 * 0.03% from counting as tripled.
 */
#define FI_FLOOR_PCT	0.5

static void fi_series(const struct mode_extra *n, const struct mode_extra *o,
		      struct block_series *s)
{
	int i, j;

	block_series_init(s);
	for (i = 0; i < n->ncell_fig; i++)
		for (j = 0; j < o->ncell_fig; j++)
			if (n->fi_block[i] == o->fi_block[j])
				/* + is better: NEW idles less. */
				block_series_set(s, n->fi_block[i],
						 log((o->fi_cell[j] + FI_FLOOR_PCT) /
						     (n->fi_cell[i] + FI_FLOOR_PCT)), BS_EXACT);
}

/* A workload's rows (no maxima, no censored ones) in mode @m, paired. */
static int workload_change(const struct report *old_r, const struct report *new_r,
			   const char *wl, enum csb_mode m, struct comparison *c)
{
	struct block_series *rs, mean;
	int i, n = 0;

	rs = malloc(sizeof(*rs) * REPORT_MAX_ROWS);
	if (!rs)
		return -ENOMEM;
	for (i = 0; i < new_r->nrows; i++) {
		const struct report_row *nr = &new_r->rows[i], *orow;

		if (strcmp(nr->workload, wl) || report_row_is_maximum(nr))
			continue;
		orow = report_find_row(old_r, wl, nr->tenant, nr->metric);
		if (!orow || !nr->m[m].n || !orow->m[m].n)
			continue;
		report_row_series(nr, &nr->m[m], &orow->m[m], &rs[n++]);
	}
	n = report_rows_mean(rs, n, &mean);
	report_fit_comparison(&mean, c);
	free(rs);
	return n;
}

static int compare_workloads(const struct report *old_r, const struct report *new_r,
			     const struct compare_opts *opts, struct compare *cmp)
{
	struct comparison **cs, **fs;
	struct block_series s;
	int w, m, k, o, ret;

	cmp->wls = calloc(new_r->nwl * MODE_COUNT + 1, sizeof(*cmp->wls));
	cs = calloc(new_r->nwl * MODE_COUNT + 1, sizeof(*cs));
	fs = calloc(new_r->nwl * MODE_COUNT + 1, sizeof(*fs));
	if (!cmp->wls || !cs || !fs) {
		free(cs);
		free(fs);
		return -ENOMEM;	/* cmp->wls: compare_free() */
	}
	for (w = 0; w < new_r->nwl; w++) {
		const struct report_workload *nw = &new_r->wl[w];

		o = report_find_workload(old_r, nw->name);
		if (o < 0 || !in_list(opts->workloads, nw->name))
			continue;
		for (m = 0; m < MODE_COUNT; m++) {
			struct compare_wl *l = &cmp->wls[cmp->nwl];
			const struct mode_extra *nx = &nw->x[m], *ox = &old_r->wl[o].x[m];

			if ((opts->modes && !(opts->modes & (1u << m))) || !nx->cells || !ox->cells)
				continue;
			snprintf(l->workload, sizeof(l->workload), "%s", nw->name);
			l->mode = m;
			if (workload_change(old_r, new_r, nw->name, m, &l->c) < 0) {
				free(cs);
				free(fs);
				return -ENOMEM;
			}
			l->c.band = opts->threshold;
			l->old_fi = ox->forced_idle_pct;
			l->new_fi = nx->forced_idle_pct;
			l->old_unexplained = ox->unexplained;
			l->old_handoff_p99_us = ox->handoff_p99_us_max;
			l->new_handoff_p99_us = nx->handoff_p99_us_max;
			l->new_unexplained = nx->unexplained;
			/* Isolation is all or nothing: any new cross-tenant window. */
			l->isolation_lost = mode_has_cookies(m) && nx->unexplained > 0 &&
					    !ox->unexplained;
			fi_series(nx, ox, &s);
			report_fit_comparison(&s, &l->fi);
			l->fi.band = opts->threshold;
			cs[cmp->nwl] = &l->c;
			fs[cmp->nwl] = &l->fi;
			cmp->nwl++;
		}
	}
	ret = holm_per_mode(cs, cmp->nwl, wl_mode, cmp->wls, sizeof(*cmp->wls)) ?:
	      holm_per_mode(fs, cmp->nwl, wl_mode, cmp->wls, sizeof(*cmp->wls));
	for (k = 0; k < cmp->nwl; k++) {
		const struct compare_wl *l = &cmp->wls[k];

		cmp->wl_regressions += l->c.verdict == V_WORSE;
		/* Only where cookies force idle does more of it mean anything. */
		cmp->fi_regressions += mode_has_cookies(l->mode) && l->fi.verdict == V_WORSE;
		cmp->isolation_regressions += l->isolation_lost;
	}
	free(cs);
	free(fs);
	return ret;
}

int compare_reports(const struct report *old_r, const struct report *new_r,
		    const struct compare_opts *opts, struct compare *cmp)
{
	int i, m, k, ret, paired = compare_paired(old_r, new_r);
	struct comparison **cs;

	memset(cmp, 0, sizeof(*cmp));
	cmp->paired = paired;
	cmp->lines = calloc(new_r->nrows * MODE_COUNT + 1, sizeof(*cmp->lines));
	if (!cmp->lines)
		return -ENOMEM;
	for (i = 0; i < new_r->nrows; i++) {
		const struct report_row *n = &new_r->rows[i];
		const struct report_row *o = report_find_row(old_r, n->workload, n->tenant,
							     n->metric);

		if (!in_list(opts->workloads, n->workload))
			continue;
		for (m = 0; o && m < MODE_COUNT; m++) {
			struct compare_line *l = &cmp->lines[cmp->n];

			if (opts->modes && !(opts->modes & (1u << m)))
				continue;
			if (compare_one(o, n, m, paired, &l->c)) {
				l->old_row = o;
				l->new_row = n;
				l->mode = m;
				cmp->n++;
			}
		}
	}
	cs = malloc(sizeof(*cs) * (cmp->n + 1));
	if (!cs)
		return -ENOMEM;	/* cmp->lines: compare_free() */
	/* The threshold is a band a change must clear, like a noise band. */
	for (k = 0; k < cmp->n; k++) {
		cs[k] = &cmp->lines[k].c;
		cs[k]->band = fmax(cs[k]->band, opts->threshold);
	}
	ret = holm_per_mode(cs, cmp->n, line_mode, cmp->lines, sizeof(*cmp->lines));
	for (k = 0; k < cmp->n; k++) {
		cmp->regressions += cs[k]->verdict == V_WORSE;
		cmp->improvements += cs[k]->verdict == V_BETTER;
	}
	free(cs);
	if (!ret && paired)
		ret = compare_workloads(old_r, new_r, opts, cmp);
	return ret;
}

void compare_free(struct compare *cmp)
{
	free(cmp->lines);
	free(cmp->wls);
	cmp->lines = NULL;
	cmp->wls = NULL;
}

int compare_failed(const struct compare *cmp)
{
	return cmp->regressions || cmp->wl_regressions || cmp->fi_regressions ||
	       cmp->isolation_regressions;
}

static const char *change_text(enum verdict v)
{
	return v == V_WORSE ? "**regression**" : v == V_BETTER ? "improvement" :
	       v == V_UNTESTED ? "no test" : v == V_NONE ? "no data" : "not distinguishable";
}

static void fmt_sees(const struct comparison *c, char *buf, size_t len)
{
	char m[32];

	if (isnan(c->mde)) {
		snprintf(buf, len, "n=%d, no test", c->n_blocks);
	} else {
		report_fmt_mde(c->mde, m, sizeof(m));
		snprintf(buf, len, "p_adj %.2g; n=%d, sees %s", c->p_adj, c->n_blocks, m);
	}
}

static void write_workloads(const struct compare *cmp, FILE *out)
{
	char g[96], f[96], sees[96];
	int k;

	fprintf(out, "## Workloads and forced idle, paired by block\n\n"
		"Per workload and mode: the block-wise mean of its rows' log changes "
		"(maxima and censored rows left out), and forced idle (share of CPU time; "
		"change in (idle + %.1f points), + is less idle). Holm over each mode's "
		"workloads, for each column. "
		"Isolation: unexplained cross-tenant windows in the cookie modes, old -> new "
		"(any new one is a regression), and the longest handoff p99 of any cell "
		"(shown, not tested: one extreme per run).\n\n"
		"| workload | mode | change [95%% CI] | verdict | forced idle old -> new | "
		"change | verdict | unexplained windows | handoff p99 (largest cell) |\n"
		"|---|---|---|---|---|---|---|---|---|\n", FI_FLOOR_PCT);
	for (k = 0; k < cmp->nwl; k++) {
		const struct compare_wl *l = &cmp->wls[k];

		report_fmt_gain(&l->c, g, sizeof(g));
		fmt_sees(&l->c, sees, sizeof(sees));
		report_fmt_gain(&l->fi, f, sizeof(f));
		fprintf(out, "| %s | %s | %s | %s (%s) | %.2f%% -> %.2f%% | %s | %s | "
			"%ld -> %ld%s | %.1f -> %.1f ms |\n", l->workload, mode_name(l->mode), g,
			change_text(l->c.verdict), sees, l->old_fi, l->new_fi, f,
			mode_has_cookies(l->mode) ? change_text(l->fi.verdict) : "(no cookies)",
			l->old_unexplained, l->new_unexplained,
			l->isolation_lost ? " **isolation lost**" : "",
			l->old_handoff_p99_us / 1000, l->new_handoff_p99_us / 1000);
	}
	fputc('\n', out);
}

void compare_write_md(const struct report *old_r, const struct report *new_r,
		      const struct compare *cmp, int all, FILE *out)
{
	char g[96], sees[96];
	int k, shown = 0;

	fprintf(out, "# csbench compare\n\n- old: %s (series %s, kernel %s, %s, %s)\n"
		"- new: %s (series %s, kernel %s, %s, %s)\n\n",
		old_r->run, old_r->revision, old_r->kernel_key, old_r->profile, old_r->accel,
		new_r->run, new_r->revision, new_r->kernel_key, new_r->profile, new_r->accel);
	if (strcmp(old_r->profile, new_r->profile) || strcmp(old_r->accel, new_r->accel))
		fprintf(out, "**Warning:** the runs differ in profile or accelerator; "
			"their figures are not comparable.\n\n");
	if (cmp->paired)
		fprintf(out, "**Paired:** the two sides of A/B session %s, blocks run in "
			"neighbouring boots (A B B A ...); every change is the mean of the "
			"per-block log changes with a t interval and p from that one model.\n\n",
			new_r->ab_session);
	else
		fprintf(out, "**Unpaired:** two separate runs share no blocks, so the drift "
			"between boots and days is part of every difference (Welch's t on the "
			"logs; censored values take the verdict away). Only large changes show "
			"here: track revisions with an interleaved A/B run (make ab).\n\n");
	fprintf(out, "%d rows x modes compared: %d regressions, %d improvements "
		"(%s-corrected over each mode's rows, alpha %.2f; a change must also "
		"exceed the threshold). Change: new vs old, + is better.\n\n", cmp->n,
		cmp->regressions, cmp->improvements, new_r->correction, REPORT_ALPHA);
	if (cmp->paired)
		write_workloads(cmp, out);
	fprintf(out, "## Rows\n\n| workload | metric | mode | old | new | change [95%% CI] | "
		"verdict |\n|---|---|---|---:|---:|---|---|\n");
	for (k = 0; k < cmp->n; k++) {
		const struct compare_line *l = &cmp->lines[k];

		if (!all && l->c.verdict != V_WORSE && l->c.verdict != V_BETTER)
			continue;
		report_fmt_gain(&l->c, g, sizeof(g));
		fmt_sees(&l->c, sees, sizeof(sees));
		fprintf(out, "| %s | %s.%s | %s | %.4g | %.4g | %s | %s (%s) |\n",
			l->new_row->workload, l->new_row->tenant, l->new_row->metric,
			mode_name(l->mode), l->old_row->m[l->mode].s.mean,
			l->new_row->m[l->mode].s.mean, g, change_text(l->c.verdict), sees);
		shown++;
	}
	if (!shown)
		fprintf(out, "| (no significant change) | | | | | | |\n");
	fprintf(out, "\n## Verdicts, old then new\n\n### old: %s\n\n", old_r->run);
	report_write_summary(old_r, out);
	fprintf(out, "\n### new: %s\n\n", new_r->run);
	report_write_summary(new_r, out);
}
