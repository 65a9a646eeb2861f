// SPDX-License-Identifier: GPL-2.0
/*
 * csbench sweep DIR: the yield sweep in DIR (one run directory per
 * emulated SMT yield, as scripts/sweep.sh makes them) compared across
 * yields: DIR/sweep.md, sweep.json and plots/gain-vs-yield.svg, and
 * sweep.md on stdout. See bench/report/sweep.h for what it computes.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/log.h"
#include "../../lib/opts.h"
#include "../../lib/paths.h"
#include "../../report/sweep.h"
#include "cmd.h"

static int by_target(const void *a, const void *b)
{
	const struct report *x = *(struct report *const *)a, *y = *(struct report *const *)b;

	return (x->yield_target > y->yield_target) - (x->yield_target < y->yield_target);
}

/* Every run directory in @dir, opened and computed, into s->pt. */
static int open_points(struct sweep *s, const char *dir)
{
	char sub[4200], manifest[4300];
	struct dirent **names;
	int n, i, ret = EXIT_OK;

	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		err_errno(errno, "%s", dir);
		return EXIT_USAGE;
	}
	for (i = 0; i < n; i++) {
		struct report *r;

		xsnprintf(sub, sizeof(sub), "%s/%s", dir, names[i]->d_name);
		xsnprintf(manifest, sizeof(manifest), "%s/manifest.json", sub);
		if (ret || names[i]->d_name[0] == '.' || access(manifest, F_OK))
			goto next;
		if (s->npt == SWEEP_MAX_POINTS) {
			err_msg("%s: more than %d run directories; a sweep takes at most %d "
				"yields", dir, SWEEP_MAX_POINTS, SWEEP_MAX_POINTS);
			ret = EXIT_USAGE;
			goto next;
		}
		r = calloc(1, sizeof(*r));
		if (!r) {
			err_msg("out of memory");
			ret = EXIT_FAIL;
			goto next;
		}
		ret = report_open(sub, NULL, r);
		if (ret) {
			free(r);
			goto next;
		}
		s->pt[s->npt++] = r;
next:
		free(names[i]);
	}
	free(names);
	return ret;
}

/*
 * What a sweep holds fixed: a point on another kernel, profile or guest is
 * another experiment, and its gain would be read as the yield's doing.
 */
static const struct {
	const char *what;
	size_t offset;
} sweep_fixed[] = {
	{ "kernel", offsetof(struct report, kernel_key) },
	{ "profile", offsetof(struct report, profile) },
	{ "accelerator", offsetof(struct report, accel) },
	{ "emulation", offsetof(struct report, emulation_key) },
	{ "guest topology", offsetof(struct report, topology) },
	{ "image", offsetof(struct report, image_sha256) },
};

static int same_setup(const struct report *a, const struct report *b)
{
	size_t i;

	for (i = 0; i < sizeof(sweep_fixed) / sizeof(sweep_fixed[0]); i++) {
		const char *x = (const char *)a + sweep_fixed[i].offset;
		const char *y = (const char *)b + sweep_fixed[i].offset;

		if (strcmp(x, y)) {
			err_msg("%s ran %s %s, %s %s: a sweep changes only the yield",
				b->dir, sweep_fixed[i].what, *y ? y : "(not recorded)", a->dir,
				*x ? x : "(not recorded)");
			return 0;
		}
	}
	return 1;
}

/* The points make a sweep: capped runs at two or more distinct yields. */
static int check_points(struct sweep *s)
{
	int p;

	if (s->npt < 2) {
		err_msg("%s: %d run director%s with a manifest; a sweep needs one per yield, "
			"two or more (scripts/sweep.sh makes them)", s->dir, s->npt,
			s->npt == 1 ? "y" : "ies");
		return EXIT_USAGE;
	}
	qsort(s->pt, s->npt, sizeof(s->pt[0]), by_target);
	s->base = -1;
	for (p = 0; p < s->npt; p++) {
		const struct report *r = s->pt[p];

		if (!r->yield_period_us) {
			err_msg("%s: not run with --smt-yield (its yield is not the sweep's to "
				"set): every run of a sweep caps its vCPUs", r->dir);
			return EXIT_USAGE;
		}
		/*
		 * Another share or period is another emulation, not another
		 * yield; the plugin's period follows from the yield, so its
		 * runs must share the longest spin instead.
		 */
		if (p && !same_setup(s->pt[0], r))
			return EXIT_USAGE;
		if (p && r->yield_spin_us != s->pt[0]->yield_spin_us) {
			err_msg("%s spins at most %d us, %s %d us: a sweep changes only the yield",
				r->dir, r->yield_spin_us, s->pt[0]->dir, s->pt[0]->yield_spin_us);
			return EXIT_USAGE;
		}
		if (p && !r->yield_spin_us && (r->yield_core_pct != s->pt[0]->yield_core_pct ||
			  r->yield_period_us != s->pt[0]->yield_period_us)) {
			err_msg("%s caps at %d%% per %d us, %s at %d%% per %d us: a sweep "
				"changes only the yield", r->dir, r->yield_core_pct,
				r->yield_period_us, s->pt[0]->dir, s->pt[0]->yield_core_pct,
				s->pt[0]->yield_period_us);
			return EXIT_USAGE;
		}
		if (p && fabs(r->yield_target - s->pt[p - 1]->yield_target) < 1e-6) {
			err_msg("%s and %s: both at yield %.3g", s->pt[p - 1]->dir, r->dir,
				r->yield_target);
			return EXIT_USAGE;
		}
		if (!r->ok) {
			err_msg("%s: no cell finished ok", r->dir);
			return EXIT_USAGE;
		}
		if (fabs(r->yield_target - 1.0) < 1e-6)
			s->base = p;
		s->yield[p] = r->yield_boots ? r->yield_median : r->yield_target;
		if (p && s->yield[p] <= s->yield[p - 1]) {
			err_msg("%s measured yield %.3f, not above %.3f at the target below it "
				"(%s): the emulation did not order the yields, so no crossover "
				"can be read", r->dir, s->yield[p], s->yield[p - 1],
				s->pt[p - 1]->dir);
			return EXIT_FAIL;
		}
	}
	return EXIT_OK;
}

static int write_outputs(const struct sweep *s, int plots)
{
	char path[4200];
	FILE *f;
	int bad;

	xsnprintf(path, sizeof(path), "%s/sweep.md", s->dir);
	f = fopen(path, "w");
	if (!f) {
		err_errno(errno, "cannot write %s", path);
		return EXIT_FAIL;
	}
	sweep_write_md(s, f);
	bad = ferror(f);
	if (fclose(f) || bad) {
		err_msg("cannot write %s", path);
		return EXIT_FAIL;
	}
	xsnprintf(path, sizeof(path), "%s/sweep.json", s->dir);
	if (sweep_write_json(s, path)) {
		err_msg("cannot write %s", path);
		return EXIT_FAIL;
	}
	if (plots) {
		xsnprintf(path, sizeof(path), "%s/plots", s->dir);
		if (sweep_plot(s, path) < 0)
			warn("no plot (the tables in sweep.md stand)");
	}
	sweep_write_md(s, stdout);
	return EXIT_OK;
}

int cmd_sweep(int argc, char **argv)
{
	int no_plots = 0, idx, ret, p;
	struct opt opts[] = {
		{ "no-plots", OPT_FLAG, &no_plots, 0, 0, NULL, "no gain-vs-yield.svg" },
		{ NULL }
	};
	struct sweep *s;
	char err[8400];

	idx = opts_parse("sweep", "[--no-plots] SWEEP_DIR", opts, argc, argv);
	if (idx == -2)
		return EXIT_OK;
	if (idx < 0 || argc - idx != 1) {
		if (idx >= 0)
			err_msg("expected one sweep directory (a run directory per yield in it)");
		return EXIT_USAGE;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		err_msg("out of memory");
		return EXIT_FAIL;
	}
	snprintf(s->dir, sizeof(s->dir), "%s", argv[idx]);
	ret = open_points(s, s->dir);
	if (!ret)
		ret = check_points(s);
	if (!ret && sweep_compute(s, err, sizeof(err))) {
		err_msg("%s", err);
		ret = EXIT_USAGE;
	}
	if (!ret)
		ret = write_outputs(s, !no_plots);
	for (p = 0; p < s->npt; p++) {
		report_free(s->pt[p]);
		free(s->pt[p]);
	}
	free(s);
	return ret;
}
