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

#include "../lib/log.h"
#include "../lib/mode.h"
#include "../lib/opts.h"
#include "../lib/paths.h"
#include "accel.h"
#include "adaptive.h"
#include "cmd.h"
#include "run_boots.h"
#include "run_dir.h"
#include "run_report.h"
#include "workload.h"

#define ADAPTIVE_MAX_REPS	40	/* --target without --reps */
#define BOOT_ALLOWANCE_S	20	/* a boot to csbench-init and back, TCG */

static const int default_reps[WL_NPROFILES] = { 1, 3, 5 };

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
			while (i < n)
				free(names[i++]);
			free(names);
			return -1;
		}
		if (len > 3 && !strcmp(names[i]->d_name + len - 3, ".wl")) {
			snprintf(paths[r->nwl], sizeof(paths[0]), "%s/%s", dir,
				 names[i]->d_name);
			if (workload_load(paths[r->nwl], w, err, sizeof(err))) {
				err_msg("%s", err);
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
	if (!only)
		return r->nwl ? 0 : -1;
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

static void write_manifest(const struct run *r, const char *kernel,
			   const char *image, const char *modes, int reps,
			   const char *accel_why, enum accel accel, json_t *extra)
{
	char path[4096], line[512], kinfo[4096];
	json_t *m = json_object(), *k = json_object(), *wl = json_array();
	FILE *f;
	int i;

	snprintf(kinfo, sizeof(kinfo), "%s", kernel);
	if (strrchr(kinfo, '/'))
		strcpy(strrchr(kinfo, '/'), "/info");
	f = fopen(kinfo, "r");
	while (f && fgets(line, sizeof(line), f)) {
		char *eq = strchr(line, '=');

		if (!eq)
			continue;
		*eq = '\0';
		eq[strcspn(eq + 1, "\n") + 1] = '\0';
		json_object_set_new(k, line, json_string(eq + 1));
	}
	if (f)
		fclose(f);
	for (i = 0; i < r->nwl; i++)
		json_array_append_new(wl, json_string(r->wl[i].name));
	f = fopen("/proc/cpuinfo", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "model name", 10)) {
			line[strcspn(line, "\n")] = '\0';
			json_object_set_new(m, "host_cpu", json_string(strchr(line, ':') + 2));
			break;
		}
	if (f)
		fclose(f);
	json_object_set_new(m, "schema", json_integer(1));
	json_object_set_new(m, "csbench_version", json_string(CSBENCH_VERSION));
	json_object_set_new(m, "host_cpus", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_set_new(m, "guest_topology", json_string("1 socket x 2 cores x 2 threads, Skylake-Client"));
	json_object_set_new(m, "kernel", k);
	json_object_set_new(m, "kernel_image", json_string(kernel));
	json_object_set_new(m, "root_image", json_string(image));
	json_object_set_new(m, "accel", json_string(accel_name(accel)));
	json_object_set_new(m, "accel_reason", json_string(accel_why));
	json_object_set_new(m, "profile", json_string(wl_profile_name(r->profile)));
	json_object_set_new(m, "modes", json_string(modes));
	json_object_set_new(m, "reps", json_integer(reps));
	json_object_set_new(m, "workloads", wl);
	json_object_set_new(m, "cells", json_integer(r->ncells));
	json_object_update(m, extra);
	snprintf(path, sizeof(path), "%s/manifest.json", r->dir);
	if (access(path, F_OK))
		json_dump_file(m, path, JSON_INDENT(1) | JSON_SORT_KEYS);
	json_decref(m);
}

/*
 * Keep the manifest's matrix size true when a run grew (adaptive blocks,
 * or the next block of an A/B session): reps and the expected cells.
 */
static int update_manifest(const struct run *r, int reps, int may_shrink)
{
	char path[4200];
	json_error_t jerr;
	json_t *m;
	int ret;

	snprintf(path, sizeof(path), "%s/manifest.json", r->dir);
	m = json_load_file(path, 0, &jerr);
	if (!m)
		return -1;
	/*
	 * Running an earlier block again (--dir with fewer --reps) shrinks
	 * nothing; an adaptive run ends at the blocks it ran.
	 */
	if (json_integer_value(json_object_get(m, "reps")) > reps && !may_shrink)
		reps = json_integer_value(json_object_get(m, "reps"));
	json_object_set_new(m, "reps", json_integer(reps));
	json_object_set_new(m, "cells", json_integer(r->ncells / r->reps_max * reps));
	ret = json_write_atomic(path, m, JSON_INDENT(1) | JSON_SORT_KEYS);
	json_decref(m);
	return ret;
}

/* An existing run directory (--dir) must hold the same matrix. */
static int same_matrix(const char *dir, const char *profile, const char *modes,
		       const struct run *r)
{
	struct run_params p;
	char err[512], names[2048] = "";
	int i, used = 0;

	if (run_dir_read_params(dir, &p, err, sizeof(err))) {
		err_msg("--dir %s: %s", dir, err);
		return 0;
	}
	for (i = 0; i < r->nwl; i++)
		used += snprintf(names + used, sizeof(names) - used, "%s%s", i ? "," : "",
				 r->wl[i].name);
	if (strcmp(p.profile, profile) || strcmp(p.modes, modes) || strcmp(p.workloads, names)) {
		err_msg("--dir %s holds another matrix (profile %s, modes %s, workloads %s)",
			dir, p.profile, p.modes, p.workloads);
		return 0;
	}
	return 1;
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
	if (adaptive_record(r->dir, st, stop, min_reps) || update_manifest(r, st->blocks, 1)) {
		err_msg("cannot record the adaptive outcome in %s/manifest.json", r->dir);
		return EXIT_FAIL;
	}
	return -1;
}

/* What --resume takes from an adaptive run's manifest. */
static void resume_adaptive(const char *dir, long *target, long *budget, long *min_reps)
{
	char path[4200];
	json_t *m, *a;

	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	m = json_load_file(path, 0, NULL);
	a = json_object_get(m, "adaptive");
	if (a) {
		*target = json_number_value(json_object_get(a, "target_pct"));
		*budget = json_number_value(json_object_get(a, "budget_min"));
		*min_reps = json_integer_value(json_object_get(a, "min_blocks"));
	}
	json_decref(m);
}

static int has_mode(const int *modes, int n, int mode)
{
	while (n--)
		if (modes[n] == mode)
			return 1;
	return 0;
}

char cmd_run_dir[4096];

int cmd_run(int argc, char **argv)
{
	const char *kernel = NULL, *initrd = NULL, *image = NULL, *bin = NULL;
	const char *profile = "quick", *modes_arg = "smt-off,smt-on,coresched,coresched-prctl";
	const char *only = NULL, *wl_dir = "workloads", *resume = NULL, *accel_arg = "auto";
	const char *results = "results", *rev = "norev", *use_dir = NULL;
	const char *progress = "text", *ab_session = NULL, *ab_side = NULL;
	long reps = 0, min_free_mb = 256, hang_after = 0, target = 0, budget = 0, min_reps = 3;
	int quiet = 0, boot_per_cell = 0, report = 0;
	const struct opt opts[] = {
		{ "profile", OPT_STR, &profile, 0, 0, "smoke|quick|full", "durations and default repetitions" },
		{ "modes", OPT_STR, &modes_arg, 0, 0, "LIST", "comma-separated modes (default: all four)" },
		{ "workloads", OPT_STR, &only, 0, 0, "LIST", "comma-separated workload names (default: all)" },
		{ "reps", OPT_INT, &reps, 1, BLOCKS_MAX_REPS, "N",
		  "repetitions (blocks); with --target the most it may take (default 40)" },
		{ "target", OPT_INT, &target, 1, 1000, "PCT",
		  "add blocks until every workload's coresched vs smt-off interval is within +-PCT%" },
		{ "budget", OPT_INT, &budget, 1, 100000, "MIN",
		  "with --target: start no block that would end after MIN minutes" },
		{ "min-reps", OPT_INT, &min_reps, 2, BLOCKS_MAX_REPS, "N",
		  "with --target: blocks before the first look (default 3)" },
		{ "workload-dir", OPT_STR, &wl_dir, 0, 0, "DIR", "where the .wl files are" },
		{ "resume", OPT_STR, &resume, 0, 0, "DIR",
		  "finish an interrupted run; profile, modes, workloads and reps come from its manifest" },
		{ "results", OPT_STR, &results, 0, 0, "DIR", "parent of new run directories" },
		{ "dir", OPT_STR, &use_dir, 0, 0, "DIR",
		  "this run directory (new, or one with the same matrix: runs what --reps adds)" },
		{ "ab-session", OPT_STR, &ab_session, 0, 0, "ID", "A/B session this run is one side of" },
		{ "ab-side", OPT_STR, &ab_side, 0, 0, "a|b", "which side (with --ab-session)" },
		{ "rev", OPT_STR, &rev, 0, 0, "REV", "short source revision, for the run directory's name" },
		{ "kernel", OPT_STR, &kernel, 0, 0, "FILE", "bzImage (make kernel-path)" },
		{ "initrd", OPT_STR, &initrd, 0, 0, "FILE", "initramfs with csbench-init" },
		{ "image", OPT_STR, &image, 0, 0, "FILE", "root image (make image-path)" },
		{ "bin", OPT_STR, &bin, 0, 0, "DIR", "guest binaries with csbench-agent" },
		{ "accel", OPT_STR, &accel_arg, 0, 0, "auto|tcg|kvm", "accelerator" },
		{ "boot-per-cell", OPT_FLAG, &boot_per_cell, 0, 0, NULL,
		  "a fresh boot for every cell (slower; no state carried over)" },
		{ "min-free-mb", OPT_INT, &min_free_mb, 0, 1 << 20, "MIB",
		  "free space the results need before each boot (default 256)" },
		{ "hang-after", OPT_INT, &hang_after, 10, 86400, "SEC",
		  "guest hung after this long without progress (default: longest cell + 5 min)" },
		{ "progress", OPT_STR, &progress, 0, 0, "text|json", "progress lines as text or JSON" },
		{ "quiet", OPT_FLAG, &quiet, 0, 0, NULL, "no progress lines" },
		{ "report", OPT_FLAG, &report, 0, 0, NULL,
		  "end with csbench report's verdicts instead of the raw means" },
		{ NULL }
	};
	static struct run r;
	static struct run_params resumed;
	struct adaptive_state st = { 0 };
	struct boot_opts bo = { 0 };
	int modes[MODE_COUNT], nmodes, idx, done, code;
	int guest_failures = 0, done_before;
	char err[512], dir[4096], cache[4096], why[512], in[4300];
	enum accel accel;
	time_t t0 = time(NULL);
	json_t *extra;

	log_prog = "csbench run";
	idx = opts_parse("run", "[OPTIONS] (see --help)", opts, argc, argv);
	if (idx == -2)
		return EXIT_OK;
	if (idx < 0)
		return EXIT_USAGE;
	if (idx < argc) {
		err_msg("unexpected argument '%s' (csbench run takes only options)", argv[idx]);
		return EXIT_USAGE;
	}
	log_quiet = quiet;
	if (strcmp(progress, "text") && strcmp(progress, "json")) {
		err_msg("--progress %s: expected text or json", progress);
		return EXIT_USAGE;
	}
	if (!strcmp(progress, "json"))
		quiet = 2;	/* run_report_progress: machine-readable */
	if (resume && use_dir) {
		err_msg("--resume and --dir: give one of them");
		return EXIT_USAGE;
	}
	if (!ab_session != !ab_side || (ab_side && strcmp(ab_side, "a") && strcmp(ab_side, "b"))) {
		err_msg("--ab-session ID and --ab-side a|b go together");
		return EXIT_USAGE;
	}
	if (resume) {
		/* The same matrix, or the cell names would not match. */
		if (run_dir_read_params(resume, &resumed, err, sizeof(err))) {
			err_msg("--resume %s: %s", resume, err);
			return EXIT_USAGE;
		}
		profile = resumed.profile;
		modes_arg = resumed.modes;
		only = resumed.workloads;
		reps = resumed.reps;
		resume_adaptive(resume, &target, &budget, &min_reps);
	}
	if ((budget || min_reps != 3) && !target) {
		err_msg("--budget and --min-reps go with --target");
		return EXIT_USAGE;
	}
	r.profile = wl_profile_lookup(profile);
	if (r.profile < 0) {
		err_msg("--profile %s: expected smoke, quick or full", profile);
		return EXIT_USAGE;
	}
	nmodes = mode_parse_list(modes_arg, modes, err, sizeof(err));
	if (nmodes < 0) {
		err_msg("--modes: %s", err);
		return EXIT_USAGE;
	}
	if (target && !(has_mode(modes, nmodes, MODE_CORESCHED) &&
			has_mode(modes, nmodes, MODE_SMT_OFF))) {
		err_msg("--target needs the modes coresched and smt-off: it narrows their interval");
		return EXIT_USAGE;
	}
	if (!kernel || !initrd || !image || !bin) {
		err_msg("--kernel, --initrd, --image and --bin are required (make bench passes them)");
		return EXIT_USAGE;
	}
	/*
	 * Check them before a run directory exists or a boot is tried: a
	 * missing kernel would otherwise fail every boot, and under
	 * --accel auto be taken for a KVM that does not work.
	 */
	if (input_missing("--kernel", kernel, S_IFREG) || input_missing("--initrd", initrd, S_IFREG) ||
	    input_missing("--image", image, S_IFREG) || input_missing("--bin", bin, S_IFDIR))
		return EXIT_USAGE;
	if (load_workloads(&r, wl_dir, only))
		return EXIT_USAGE;
	if (!reps)
		reps = target ? ADAPTIVE_MAX_REPS : default_reps[r.profile];
	r.reps_max = reps;
	r.rep_limit = reps;
	r.ncells = matrix_expand(r.wl_names, r.nwl, modes, nmodes, reps, r.cells, MAX_CELLS);
	if (r.ncells < 0) {
		err_msg("more than %d cells", MAX_CELLS);
		return EXIT_USAGE;
	}
	if (resume || use_dir) {
		snprintf(dir, sizeof(dir), "%s", resume ?: use_dir);
		if (use_dir && !access(dir, F_OK) && !same_matrix(dir, profile, modes_arg, &r))
			return EXIT_USAGE;
	} else {
		char stamp[32];
		int k;

		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&t0));
		/*
		 * Claim a directory of our own: two runs started in the same
		 * second must not share one. mkdir() is atomic; a loser takes
		 * the next suffix.
		 */
		if (mkdirs(results, 0755)) {
			err_errno(errno, "cannot create %s", results);
			return EXIT_FAIL;
		}
		for (k = 1; k < 100; k++) {
			if (k == 1)
				snprintf(dir, sizeof(dir), "%s/%s-%s", results, stamp, rev);
			else
				snprintf(dir, sizeof(dir), "%s/%s-%s.%d", results, stamp, rev, k);
			if (!mkdir(dir, 0755))
				break;
			if (errno != EEXIST) {
				err_errno(errno, "cannot create %s", dir);
				return EXIT_FAIL;
			}
		}
		if (k == 100) {
			err_msg("%s: 99 runs already started in this second", results);
			return EXIT_FAIL;
		}
	}
	r.dir = dir;
	snprintf(cmd_run_dir, sizeof(cmd_run_dir), "%s", dir);
	snprintf(in, sizeof(in), "%s/cells", dir);
	if (mkdirs(in, 0755)) {
		err_errno(errno, "cannot create %s", in);
		return EXIT_FAIL;
	}
	cache_dir(cache, sizeof(cache));
	if (accel_choose(accel_arg, kernel, initrd, cache, &accel, why, sizeof(why))) {
		err_msg("--accel %s: expected auto, tcg or kvm", accel_arg);
		return EXIT_USAGE;
	}
	/* After the probe: an interrupted probe must not be cached as "tcg". */
	vm_catch_interrupts();
	extra = json_object();
	if (ab_session)
		json_object_set_new(extra, "ab", json_pack("{s:s,s:s}", "session", ab_session,
							   "side", ab_side));
	if (target)
		json_object_set_new(extra, "adaptive", json_pack("{s:f,s:f,s:i}", "target_pct",
			(double)target, "budget_min", (double)budget, "min_blocks", (int)min_reps));
	write_manifest(&r, kernel, image, modes_arg, reps, why, accel, extra);
	json_decref(extra);
	if (!target && update_manifest(&r, reps, 0)) {
		err_msg("cannot update %s/manifest.json", dir);
		return EXIT_FAIL;
	}
	if (resume && run_salvage_boots(&r))
		return run_stop(&r, run_count_done(&r), "cannot store results", EXIT_FAIL);
	done = done_before = run_count_done(&r);
	info("run directory %s: %d cells (%d workloads x %d modes x %ld reps%s), %d done, %s",
	     dir, r.ncells, r.nwl, nmodes, reps, target ? " at most" : "", done,
	     accel_name(accel));

	bo = (struct boot_opts){ .kernel = kernel, .initrd = initrd, .image = image,
				 .bin = bin, .accel = accel, .accel_why = why,
				 .min_free_mb = min_free_mb, .hang_after = hang_after,
				 .boot_per_cell = boot_per_cell, .quiet = quiet, .t0 = t0 };
	st.target = target / 100.0;
	st.budget_s = budget * 60.0;
	code = target ? run_adaptive(&r, &bo, &st, min_reps, &done, done_before, &guest_failures) :
			run_boots(&r, &bo, &done, done_before, &guest_failures);
	if (code >= 0)
		return code;
	if (report ? report_build(dir, NULL, 1, 0) != EXIT_OK : run_report_table(dir, stdout))
		return EXIT_FAIL;
	if (vm_interrupted())
		return EXIT_INTERRUPTED;
	return guest_failures ? EXIT_GUEST : EXIT_OK;
}
