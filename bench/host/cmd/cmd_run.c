// SPDX-License-Identifier: GPL-2.0
/*
 * csbench run: expand the matrix, boot the guest with the pending cells,
 * collect each cell's JSON into the run directory, boot again for whatever
 * a crashed or hung guest left undone, and print the verdicts (--report)
 * or the raw means. Finished
 * cells are never run again (--resume DIR), and a guest failure costs only
 * the cell it happened in.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../lib/log.h"
#include "../../lib/mode.h"
#include "../../lib/opts.h"
#include "../../lib/paths.h"
#include "../machine/accel.h"
#include "../runner/adaptive.h"
#include "../machine/checkout.h"
#include "cmd.h"
#include "../machine/pin.h"
#include "../runner/run_boots.h"
#include "../runner/run_args.h"
#include "../runner/run_dir.h"
#include "../runner/run_image.h"
#include "../runner/run_manifest.h"
#include "../runner/run_report.h"
#include "../../lib/workload.h"

#define ADAPTIVE_MAX_REPS	40	/* --target without --reps */
#define BOOT_ALLOWANCE_S	20	/* a boot to csbench-init and back, TCG */

static const int default_reps[WL_NPROFILES] = { 1, 3, 5 };

/* Free scandir()'s entries [@from, @n) and its list. */
static void free_names(struct dirent **names, int from, int n)
{
	while (from < n)
		free(names[from++]);
	free(names);
}

static int load_workloads(struct run *r, const char *dir, const char *only)
{
	static char paths[MAX_WORKLOADS][4096];
	char err[512], valid[2048] = "";
	struct dirent **names;
	int n, i, used = 0;

	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		err_errno(errno, "--workload-dir %s", dir);
		return -1;
	}
	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]->d_name);
		struct workload *w = &r->wl[r->nwl];

		if (len > 3 && !strcmp(names[i]->d_name + len - 3, ".wl") &&
		    r->nwl == MAX_WORKLOADS) {
			err_msg("%s: more than %d workload files; run takes at most %d "
				"(pick some with --workloads, or split the directory)",
				dir, MAX_WORKLOADS, MAX_WORKLOADS);
			free_names(names, i, n);
			return -1;
		}
		if (len > 3 && !strcmp(names[i]->d_name + len - 3, ".wl")) {
			snprintf(paths[r->nwl], sizeof(paths[0]), "%s/%s", dir,
				 names[i]->d_name);
			if (workload_load(paths[r->nwl], w, err, sizeof(err))) {
				err_msg("%s", err);
				free_names(names, i, n);
				return -1;
			}
			used += snprintf(valid + used, sizeof(valid) - used, "%s%s",
					 used ? ", " : "", w->name);
			r->wl_path[r->nwl] = paths[r->nwl];
			r->wl_names[r->nwl] = w->name;
			r->nwl++;
		}
		free(names[i]);
	}
	free(names);
	if (!r->nwl) {
		err_msg("--workload-dir %s: no .wl files (expected <name>.wl workload "
			"files; see workloads/README.md)", dir);
		return -1;
	}
	if (!only)
		return 0;
	/* Keep only the named ones, in the order given. */
	{
		struct run *keep = calloc(1, sizeof(*keep));
		char list[1024], *tok, *save;

		snprintf(list, sizeof(list), "%s", only);
		for (tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			for (i = 0; i < r->nwl && strcmp(r->wl[i].name, tok); i++)
				;
			if (i == r->nwl) {
				err_msg("unknown workload '%s' (valid: %s)", tok, valid);
				free(keep);
				return -1;
			}
			for (int k = 0; k < keep->nwl; k++)
				if (!strcmp(keep->wl[k].name, tok)) {
					err_msg("--workloads: '%s' is named twice", tok);
					free(keep);
					return -1;
				}
			keep->wl[keep->nwl] = r->wl[i];
			keep->wl_path[keep->nwl] = r->wl_path[i];
			keep->nwl++;
		}
		memcpy(r->wl, keep->wl, sizeof(r->wl));
		memcpy(r->wl_path, keep->wl_path, sizeof(r->wl_path));
		r->nwl = keep->nwl;
		for (i = 0; i < r->nwl; i++)
			r->wl_names[i] = r->wl[i].name;
		free(keep);
	}
	return 0;
}

/*
 * Adaptive blocks: after the first @min_reps, one more block at a time
 * until adaptive_decide() stops it. Returns -1 when finished, else the
 * exit code run_boots() stopped with.
 */
static int run_adaptive(struct run *r, const struct boot_opts *o, struct adaptive_state *st,
			int min_reps, int *done, int done_before, int *failures)
{
	enum adaptive_stop stop = STOP_NONE;
	char err[4400] = "";
	double block_s;
	time_t before;
	int code;

	r->rep_limit = min_reps < r->reps_max ? min_reps : r->reps_max;
	for (;;) {
		before = time(NULL);
		code = run_boots(r, o, done, done_before, failures);
		if (code >= 0)
			return code;
		st->blocks = r->rep_limit;
		if (adaptive_measure(r->dir, st, err, sizeof(err))) {
			err_msg("adaptive: %s", err);
			return EXIT_FAIL;
		}
		/*
		 * The last block's time forecasts the next one; after the first
		 * boot, which ran min_reps blocks, each added block also pays a
		 * boot of its own.
		 */
		block_s = difftime(time(NULL), before);
		if (st->blocks == min_reps)
			block_s = block_s / min_reps + BOOT_ALLOWANCE_S;
		stop = adaptive_decide(st, difftime(time(NULL), o->t0), block_s, r->reps_max);
		info("adaptive: %d blocks, widest coresched vs smt-off interval +-%.1f%% (%s), "
		     "target +-%.1f%%: %s", st->blocks, st->widest * 100, st->widest_wl,
		     st->target * 100, stop ? adaptive_stop_name(stop) : "one more block");
		if (stop)
			break;
		r->rep_limit++;
	}
	if (adaptive_record(r->dir, st, stop, min_reps) || run_manifest_update(r, st->blocks, 1)) {
		err_msg("cannot record the adaptive outcome in %s/manifest.json", r->dir);
		return EXIT_FAIL;
	}
	return -1;
}

static int has_mode(const int *modes, int n, int mode)
{
	while (n--)
		if (modes[n] == mode)
			return 1;
	return 0;
}

/*
 * A new directory of our own under @results: two runs started in the same
 * second must not share one. mkdir() is atomic; a loser takes the next
 * suffix.
 */
static int claim_run_dir(const char *results, const char *rev, time_t t0, char *dir,
			 size_t len)
{
	char stamp[32];
	int k;

	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&t0));
	if (mkdirs(results, 0755)) {
		err_errno(errno, "cannot create %s", results);
		return EXIT_FAIL;
	}
	for (k = 1; k < 100; k++) {
		if (k == 1)
			snprintf(dir, len, "%s/%s-%s", results, stamp, rev);
		else
			snprintf(dir, len, "%s/%s-%s.%d", results, stamp, rev, k);
		if (!mkdir(dir, 0755))
			return 0;
		if (errno != EEXIST) {
			err_errno(errno, "cannot create %s", dir);
			return EXIT_FAIL;
		}
	}
	err_msg("%s: 99 runs already started in this second", results);
	return EXIT_FAIL;
}

/* The matrix: workloads, modes and repetitions, expanded into r->cells. */
static int expand_matrix(struct run *r, struct run_args *a)
{
	int modes[MODE_COUNT], nmodes;
	char err[512];

	r->profile = a->profile_id;
	nmodes = mode_parse_list(a->modes, modes, err, sizeof(err));
	if (nmodes < 0) {
		err_msg("--modes: %s", err);
		return EXIT_USAGE;
	}
	if (a->target && !(has_mode(modes, nmodes, MODE_CORESCHED) &&
			   has_mode(modes, nmodes, MODE_SMT_OFF))) {
		err_msg("--target needs the modes coresched and smt-off: it narrows their interval");
		return EXIT_USAGE;
	}
	if (load_workloads(r, a->workload_dir, a->workloads))
		return EXIT_USAGE;
	if (!a->reps)
		a->reps = a->target ? ADAPTIVE_MAX_REPS : default_reps[r->profile];
	r->reps_max = a->reps;
	r->rep_limit = a->reps;
	r->nmodes = nmodes;
	r->ncells = matrix_expand(r->wl_names, r->nwl, modes, nmodes, a->reps, r->cells,
				  MAX_CELLS);
	if (r->ncells < 0) {
		err_msg("more than %d cells", MAX_CELLS);
		return EXIT_USAGE;
	}
	return 0;
}

/* The run directory: resumed, given (--dir) or new; with its cells/. */
static int open_run_dir(struct run *r, const struct run_args *a, time_t t0, char *dir,
			size_t len)
{
	char cells[4300];
	int ret;

	if (a->resume || a->dir) {
		snprintf(dir, len, "%s", a->resume ?: a->dir);
		struct run_params caps = { .smt_yield = a->smt_yield,
					   .cap_core_pct = a->cap_core_pct,
					   .cap_period_us = a->cap_period_us };

		if (a->dir && !access(dir, F_OK) &&
		    !run_manifest_same_matrix(dir, a->profile, a->modes, &caps, r))
			return EXIT_USAGE;
	} else if ((ret = claim_run_dir(a->results, a->rev, t0, dir, len))) {
		return ret;
	}
	r->dir = dir;
	snprintf(cells, sizeof(cells), "%s/cells", dir);
	if (mkdirs(cells, 0755)) {
		err_errno(errno, "cannot create %s", cells);
		return EXIT_FAIL;
	}
	return 0;
}

/* The manifest, with what an A/B session or an adaptive run adds. */
static int start_manifest(const struct run *r, const struct run_args *a, enum accel accel,
			  const char *why, const struct vm_spec *vm)
{
	json_t *extra = json_object();

	json_object_set_new(extra, "emulation", json_pack("{s:s,s:s,s:i,s:i}", "key",
		emu_key(vm->emu), "name", emu_name(vm->emu), "cores", vm->cores,
		"threads", VM_THREADS));

	if (a->ab_session)
		json_object_set_new(extra, "ab", json_pack("{s:s,s:s}", "session", a->ab_session,
							   "side", a->ab_side));
	if (vm->emu == EMU_CONCURRENT)
		json_object_set_new(extra, "smt_yield", json_pack("{s:f,s:s,s:i,s:i,s:[]}", "target",
			a->smt_yield ? a->smt_yield : 1.0, "plugin", YIELD_PLUGIN_NAME,
			"period_us", (int)vm_yield_period_us(a->smt_yield),
			"max_spin_us", VM_YIELD_SPIN_US, "achieved"));
	else if (a->smt_yield)
		json_object_set_new(extra, "smt_yield", json_pack("{s:f,s:i,s:i,s:[]}", "target",
			a->smt_yield, "period_us", (int)a->cap_period_us, "core_pct",
			(int)a->cap_core_pct, "achieved"));
	else
		json_object_set_new(extra, "smt_yield", json_pack("{s:f,s:[]}", "target", 1.0,
								   "achieved"));
	json_object_set_new(extra, "image", run_image_manifest(a));
	if (a->target)
		json_object_set_new(extra, "adaptive", json_pack("{s:f,s:f,s:i}", "target_pct",
			(double)a->target, "budget_min", (double)a->budget,
			"min_blocks", (int)a->min_reps));
	run_manifest_write(r, a->kernel, a->image, a->modes, a->reps, why, accel, extra);
	json_decref(extra);
	if (!a->target && run_manifest_update(r, a->reps, 0)) {
		err_msg("cannot update %s/manifest.json", r->dir);
		return EXIT_FAIL;
	}
	return 0;
}

int run_execute(struct run_args *a, char *dir, size_t len)
{
	static struct run r;
	struct adaptive_state st = { 0 };
	struct boot_opts bo;
	int done, done_before, code, guest_failures = 0;
	char cache[4096], why[512];
	struct vm_spec vm = { 0 };
	enum accel accel;
	time_t t0 = time(NULL);

	dir[0] = '\0';
	if ((code = run_args_settle(a)))
		return code;
	if (a->resume)
		run_manifest_adaptive(a->resume, &a->target, &a->budget, &a->min_reps);
	memset(&r, 0, sizeof(r));
	if ((code = expand_matrix(&r, a)))
		return code;
	log_quiet = a->quiet;
	cache_dir(cache, sizeof(cache));
	/* The accelerator, probed if auto, before a run directory exists. */
	if (accel_choose(a->accel, a->kernel, a->initrd, cache, &accel, why, sizeof(why))) {
		err_msg("--accel %s: expected auto, tcg or kvm", a->accel);
		return EXIT_USAGE;
	}
	if (a->smt_yield && accel != ACCEL_TCG) {
		err_msg("--smt-yield: only under TCG (under %s the hardware's own SMT yield "
			"applies)", accel_name(accel));
		return EXIT_USAGE;
	}
	if ((code = open_run_dir(&r, a, t0, dir, len)))
		return code;
	vm.accel = accel;
	if (vm_choose_emulation(a->emulation, a->cores, &vm))
		return EXIT_USAGE;
	if (vm.emu == EMU_TIMESHARED && (code = run_args_check_caps(a)))
		return code;
	info("emulation: %s, %d core%s of %d threads", emu_name(vm.emu), vm.cores,
	     vm.cores == 1 ? "" : "s", VM_THREADS);
	/* After the probe: an interrupted probe must not be cached as "tcg". */
	vm_catch_interrupts();
	if ((code = start_manifest(&r, a, accel, why, &vm)))
		return code;
	if (a->resume && run_salvage_boots(&r))
		return run_stop(&r, run_count_done(&r), "cannot store results", EXIT_FAIL);
	done = done_before = run_count_done(&r);
	info("run directory %s: %d cells (%d workloads x %d modes x %ld reps%s), %d done, %s",
	     dir, r.ncells, r.nwl, r.nmodes, a->reps, a->target ? " at most" : "", done,
	     accel_name(accel));

	bo = (struct boot_opts){ .kernel = a->kernel, .initrd = a->initrd, .image = a->image,
				 .image_format = a->cloud_image ? a->cloud.format : NULL,
				 .cloud_seed = a->cloud_image ? a->cloud_seed : NULL,
				 .cloud_debs = a->cloud_debs, .cloud_root = a->cloud_root,
				 .bin = a->bin, .accel = accel, .accel_why = why,
				 .min_free_mb = a->min_free_mb, .hang_after = a->hang_after,
				 .boot_per_cell = a->boot_per_cell, .t0 = t0,
				 .smt_yield = a->smt_yield, .cap_period_us = a->cap_period_us,
				 .cap_core_pct = a->cap_core_pct,
				 .emu = vm.emu, .cores = vm.cores,
				 .progress = a->quiet ? PROGRESS_NONE :
					     !strcmp(a->progress, "json") ? PROGRESS_JSON :
					     PROGRESS_TEXT };
	st.target = a->target / 100.0;
	st.budget_s = a->budget * 60.0;
	code = a->target ? run_adaptive(&r, &bo, &st, a->min_reps, &done, done_before,
					&guest_failures) :
			   run_boots(&r, &bo, &done, done_before, &guest_failures);
	/* Stopped or finished, the user's image must be as it was. */
	if (run_image_check_after(dir, a) && code < 0)
		code = EXIT_FAIL;
	if (code >= 0)
		return code;
	if (a->report ? report_build(dir, NULL, 1, 0) != EXIT_OK : run_report_table(dir, stdout))
		return EXIT_FAIL;
	if (vm_interrupted())
		return EXIT_INTERRUPTED;
	return guest_failures ? EXIT_GUEST : EXIT_OK;
}

int cmd_run(int argc, char **argv)
{
	struct opt opts[RUN_NOPTS + 1];
	struct run_args a;
	char dir[4096];
	int idx;

	run_args_init(&a);
	run_args_opts(&a, opts);
	idx = opts_parse_only("run", run_args_usage, opts, argc, argv);
	if (idx == -2) {
		run_args_help_defaults();
		return EXIT_OK;
	}
	if (idx < 0)
		return EXIT_USAGE;
	return run_execute(&a, dir, sizeof(dir));
}
