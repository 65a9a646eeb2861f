// SPDX-License-Identifier: GPL-2.0
/* NEW against OLD, row by row and mode by mode (see compare.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"

/* NEW's mode against OLD's. */
static int compare_one(const struct report_row *o, const struct report_row *n,
		       enum csb_mode m, struct comparison *c)
{
	/* The newer run's noise band stands for both. */
	c->band = n->cmp[0].band;
	return report_compare_stats(&n->m[m], &o->m[m], n, c);
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

int compare_reports(const struct report *old_r, const struct report *new_r,
		    const struct compare_opts *opts, struct compare *cmp)
{
	int i, m, k;
	double *p;

	memset(cmp, 0, sizeof(*cmp));
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
			if (compare_one(o, n, m, &l->c)) {
				l->old_row = o;
				l->new_row = n;
				l->mode = m;
				cmp->n++;
			}
		}
	}
	p = malloc(sizeof(double) * (cmp->n + 1));
	if (!p)
		return -ENOMEM;
	for (k = 0; k < cmp->n; k++)
		p[k] = cmp->lines[k].c.p;
	stats_holm(p, cmp->n, p);
	for (k = 0; k < cmp->n; k++) {
		struct comparison *c = &cmp->lines[k].c;
		int significant = isnan(c->p) ? !isnan(c->gain_lo) : p[k] < REPORT_ALPHA;

		c->p_adj = p[k];
		c->verdict = V_SAME;
		if (significant && fmax(c->gain, 1 / c->gain) - 1 > fmax(c->band, opts->threshold) &&
		    !isnan(c->gain_lo)) {
			if (c->gain_lo > 1)
				c->verdict = V_BETTER;
			else if (c->gain_hi < 1)
				c->verdict = V_WORSE;
		}
		cmp->regressions += c->verdict == V_WORSE;
		cmp->improvements += c->verdict == V_BETTER;
	}
	free(p);
	return 0;
}

void compare_free(struct compare *cmp)
{
	free(cmp->lines);
	cmp->lines = NULL;
}

void compare_write_md(const struct report *old_r, const struct report *new_r,
		      const struct compare *cmp, int all, FILE *out)
{
	char g[96];
	int k, shown = 0;

	fprintf(out, "# csbench compare\n\n- old: %s (series %s, kernel %s, %s, %s)\n"
		"- new: %s (series %s, kernel %s, %s, %s)\n\n",
		old_r->run, old_r->revision, old_r->kernel_key, old_r->profile, old_r->accel,
		new_r->run, new_r->revision, new_r->kernel_key, new_r->profile, new_r->accel);
	if (strcmp(old_r->profile, new_r->profile) || strcmp(old_r->accel, new_r->accel))
		fprintf(out, "**Warning:** the runs differ in profile or accelerator; "
			"their figures are not comparable.\n\n");
	fprintf(out, "%d rows x modes compared: %d regressions, %d improvements "
		"(Welch, %s-corrected over all of them, alpha %.2f; beyond the threshold "
		"and the new run's noise band where calibrated). Change: new vs old, + is "
		"better.\n\n", cmp->n, cmp->regressions, cmp->improvements,
		new_r->correction, REPORT_ALPHA);
	fprintf(out, "| workload | metric | mode | old | new | change [95%% CI] | verdict |\n"
		"|---|---|---|---:|---:|---|---|\n");
	for (k = 0; k < cmp->n; k++) {
		const struct compare_line *l = &cmp->lines[k];

		if (!all && l->c.verdict == V_SAME)
			continue;
		report_fmt_gain(&l->c, g, sizeof(g));
		fprintf(out, "| %s | %s.%s | %s | %.4g | %.4g | %s | %s |\n",
			l->new_row->workload, l->new_row->tenant, l->new_row->metric,
			mode_name(l->mode), l->old_row->m[l->mode].s.mean,
			l->new_row->m[l->mode].s.mean, g,
			l->c.verdict == V_WORSE ? "**regression**" :
			l->c.verdict == V_BETTER ? "improvement" : "not distinguishable");
		shown++;
	}
	if (!shown)
		fprintf(out, "| (no significant change) | | | | | | |\n");
	fprintf(out, "\n## Verdicts, old then new\n\n### old: %s\n\n", old_r->run);
	report_write_summary(old_r, out);
	fprintf(out, "\n### new: %s\n\n", new_r->run);
	report_write_summary(new_r, out);
}
