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
#include "cmd.h"
#include "job.h"
#include "matrix.h"
#include "run_dir.h"
#include "run_report.h"
#include "workload.h"

#define MAX_WORKLOADS	32
#define MAX_CELLS	4096
#define BOOT_OVERHEAD_S	180

static const int default_reps[WL_NPROFILES] = { 1, 3, 5 };

struct run {
	const char *dir;
	struct workload wl[MAX_WORKLOADS];
	const char *wl_path[MAX_WORKLOADS];
	const char *wl_names[MAX_WORKLOADS];
	int nwl;
	int profile;
	struct cell cells[MAX_CELLS];
	int ncells;
};

static int cell_done(const struct run *r, const struct cell *c)
{
	return run_dir_cell_done(r->dir, c->id);
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
		    r->nwl < MAX_WORKLOADS) {
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

/* The files one boot needs on the share: cells.txt and the workloads. */
static int prepare_boot(const struct run *r, const char *in, int *pending,
			int *timeout, int max_cells)
{
	char path[4096], line[512];
	FILE *f;
	int i, n = 0;

	if (mkdirs(in, 0755))
		return -1;
	snprintf(path, sizeof(path), "%s/cells.txt", in);
	f = fopen(path, "w");
	if (!f)
		return -1;
	*timeout = BOOT_OVERHEAD_S;
	for (i = 0; i < r->ncells; i++) {
		const struct cell *c = &r->cells[i];
		const struct wl_profile *p = &r->wl[c->workload].profiles[r->profile];

		if (cell_done(r, c))
			continue;
		if (n == max_cells)
			break;
		snprintf(line, sizeof(line), "%s %s %s %d %d\n", c->id,
			 mode_name(c->mode), r->wl[c->workload].name, p->duration_s,
			 p->warmup_s);
		fputs(line, f);
		*timeout += p->duration_s + p->warmup_s + 90;
		pending[n++] = i;
	}
	if (fclose(f))
		return -1;
	for (i = 0; i < r->nwl; i++) {
		snprintf(path, sizeof(path), "%s/%s.wl", in, r->wl[i].name);
		if (copy_file(r->wl_path[i], path))
			return -1;
	}
	return n;
}

/*
 * Cells an interrupted csbench never collected (Ctrl-C during a boot) are
 * still on that boot's share; --resume takes them before booting again.
 */
static int salvage_boots(const struct run *r)
{
	char share[4200];
	int boot, i, n = 0;

	for (boot = 1;; boot++) {
		snprintf(share, sizeof(share), "%s/boots/%d/share", r->dir, boot);
		if (access(share, F_OK))
			break;
		for (i = 0; i < r->ncells; i++)
			if (!cell_done(r, &r->cells[i])) {
				int ret = run_dir_collect(r->dir, share, r->cells[i].id);

				if (ret < 0)
					return ret;
				n += ret;
			}
	}
	if (n)
		info("resume: %d finished cells recovered from earlier boots", n);
	return 0;
}

/* Collects cells from the share as the guest finishes them. */
struct collector {
	struct run *r;
	const int *pending;
	int got;
	int *done;
	int done_before;	/* finished before this invocation */
	time_t t0;
	int quiet;
	int n;
	char share[4200];
	int last_poll;
	int store_error;	/* -errno: a cell could not be stored */
};

/* on_poll: a nonzero return (a cell could not be stored) stops the guest. */
static int collect_finished(void *arg)
{
	struct collector *col = arg;
	int i, ret;

	/* The share is read at most every second; polls come every 100 ms. */
	if (col->last_poll++ % 10 || col->store_error)
		return col->store_error;
	for (i = 0; i < col->n; i++) {
		const struct cell *c = &col->r->cells[col->pending[i]];

		if (cell_done(col->r, c))
			continue;
		ret = run_dir_collect(col->r->dir, col->share, c->id);
		if (ret < 0)
			return col->store_error = ret;
		if (ret == 1) {
			col->got++;
			(*col->done)++;
			run_report_progress(col->r->dir, c->id, *col->done,
					    col->r->ncells, col->done_before,
					    difftime(time(NULL), col->t0),
					    col->quiet);
		}
	}
	return 0;
}

/*
 * The run's record of how it booted: the first boot's replayable QEMU
 * command line, accelerator and pinning (boot.info), and the guest's tool
 * versions, beside manifest.json.
 */
static void keep_boot_record(const char *dir, const char *boot_dir)
{
	static const char *const files[][2] = {
		{ "qemu-cmd", "qemu-cmd" },
		{ "boot.info", "boot.info" },
		{ "share/out/versions.txt", "tool-versions.txt" },
	};
	char src[4400], dst[4200];
	size_t i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(src, sizeof(src), "%s/%s", boot_dir, files[i][0]);
		snprintf(dst, sizeof(dst), "%s/%s", dir, files[i][1]);
		if (access(dst, F_OK) && !access(src, R_OK))
			copy_file(src, dst);
	}
}

/* A guest that died takes the blame on the cell it was running. */
static void record_guest_failure(const struct run *r, const struct cell *c,
				 const struct job_result *res, const char *boot_dir)
{
	char path[4096], console[4096], *text;
	json_t *o;

	snprintf(path, sizeof(path), "%s/cells/%s.json", r->dir, c->id);
	snprintf(console, sizeof(console), "%s/console.log", boot_dir);
	o = json_pack("{s:s,s:s,s:s,s:s,s:s,s:s}", "cell", c->id, "mode",
		      mode_name(c->mode), "workload", r->wl[c->workload].name,
		      "status", "guest-failed", "error",
		      *res->vm.problem ? res->vm.problem : vm_outcome_name(res->vm.outcome),
		      "console", console);
	text = json_dumps(o, JSON_INDENT(1) | JSON_SORT_KEYS);
	if (!text || write_atomic(path, text, strlen(text)))
		err_errno(errno, "cannot store %s", path);
	free(text);
	json_decref(o);
	err_msg("cell %s: guest %s: %s (console: %s)", c->id,
		vm_outcome_name(res->vm.outcome), res->vm.problem, console);
}

static void write_manifest(const struct run *r, const char *kernel,
			   const char *image, const char *modes, int reps,
			   const char *accel_why, enum accel accel)
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
	snprintf(path, sizeof(path), "%s/manifest.json", r->dir);
	if (access(path, F_OK))
		json_dump_file(m, path, JSON_INDENT(1) | JSON_SORT_KEYS);
	json_decref(m);
}

/* A run stopped before its end: what is kept and how to go on. */
static int stop_run(const struct run *r, int done, const char *why, int code)
{
	err_msg("%s: %d of %d cells finished and kept in %s", why, done,
		r->ncells, r->dir);
	err_msg("continue with: make bench RESUME=%s (or csbench run --resume %s ...)",
		r->dir, r->dir);
	run_report_table(r->dir, stdout);
	return code;
}

static int count_done(const struct run *r)
{
	int i, n = 0;

	for (i = 0; i < r->ncells; i++)
		n += cell_done(r, &r->cells[i]);
	return n;
}

char cmd_run_dir[4096];

int cmd_run(int argc, char **argv)
{
	const char *kernel = NULL, *initrd = NULL, *image = NULL, *bin = NULL;
	const char *profile = "quick", *modes_arg = "smt-off,smt-on,coresched,coresched-prctl";
	const char *only = NULL, *wl_dir = "workloads", *resume = NULL, *accel_arg = "auto";
	const char *results = "results", *rev = "norev";
	const char *progress = "text";
	long reps = 0, min_free_mb = 256, hang_after = 0;
	int quiet = 0, boot_per_cell = 0, report = 0;
	const struct opt opts[] = {
		{ "profile", OPT_STR, &profile, 0, 0, "smoke|quick|full", "durations and default repetitions" },
		{ "modes", OPT_STR, &modes_arg, 0, 0, "LIST", "comma-separated modes (default: all four)" },
		{ "workloads", OPT_STR, &only, 0, 0, "LIST", "comma-separated workload names (default: all)" },
		{ "reps", OPT_INT, &reps, 1, 100, "N", "repetitions (default: 1 smoke, 3 quick, 5 full)" },
		{ "workload-dir", OPT_STR, &wl_dir, 0, 0, "DIR", "where the .wl files are" },
		{ "resume", OPT_STR, &resume, 0, 0, "DIR",
		  "finish an interrupted run; profile, modes, workloads and reps come from its manifest" },
		{ "results", OPT_STR, &results, 0, 0, "DIR", "parent of new run directories" },
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
	int modes[MODE_COUNT], nmodes, idx, boot, done, pending[MAX_CELLS];
	int guest_failures = 0, done_before;
	char err[512], dir[4096], cache[4096], why[512], boot_dir[4200], in[4300];
	char script[4300];
	enum accel accel;
	time_t t0 = time(NULL);
	FILE *f;

	log_prog = "csbench run";
	idx = opts_parse("run", "[OPTIONS] (see --help)", opts, argc, argv);
	if (idx == -2)
		return EXIT_OK;
	if (idx < 0)
		return EXIT_USAGE;
	log_quiet = quiet;
	if (strcmp(progress, "text") && strcmp(progress, "json")) {
		err_msg("--progress %s: expected text or json", progress);
		return EXIT_USAGE;
	}
	if (!strcmp(progress, "json"))
		quiet = 2;	/* run_report_progress: machine-readable */
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
	if (!kernel || !initrd || !image || !bin) {
		err_msg("--kernel, --initrd, --image and --bin are required (make bench passes them)");
		return EXIT_USAGE;
	}
	if (load_workloads(&r, wl_dir, only))
		return EXIT_USAGE;
	if (!reps)
		reps = default_reps[r.profile];
	r.ncells = matrix_expand(r.wl_names, r.nwl, modes, nmodes, reps, r.cells, MAX_CELLS);
	if (r.ncells < 0) {
		err_msg("more than %d cells", MAX_CELLS);
		return EXIT_USAGE;
	}
	if (resume) {
		snprintf(dir, sizeof(dir), "%s", resume);
	} else {
		char stamp[32];

		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&t0));
		snprintf(dir, sizeof(dir), "%s/%s-%s", results, stamp, rev);
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
	write_manifest(&r, kernel, image, modes_arg, reps, why, accel);
	if (resume && salvage_boots(&r))
		return stop_run(&r, count_done(&r), "cannot store results", EXIT_FAIL);
	done = done_before = count_done(&r);
	info("run directory %s: %d cells (%d workloads x %d modes x %ld reps), %d done, %s",
	     dir, r.ncells, r.nwl, nmodes, reps, done, accel_name(accel));

	/* Earlier boots of a resumed run stay as they were. */
	for (boot = 1;; boot++) {
		snprintf(boot_dir, sizeof(boot_dir), "%s/boots/%d", dir, boot);
		if (access(boot_dir, F_OK))
			break;
	}
	for (int first = boot; boot <= first + r.ncells; boot++) {
		struct job_spec spec = { 0 };
		struct job_result res;
		struct collector col = { .r = &r, .pending = pending, .done = &done,
					 .done_before = done_before, .t0 = t0,
					 .quiet = quiet };
		char joblog[4300];
		int n, timeout, i, longest = 0;

		if (vm_interrupted())
			return stop_run(&r, done, "interrupted", EXIT_INTERRUPTED);
		/* The guest writes its results onto the share, on this disk. */
		if (run_dir_check_space(dir, min_free_mb))
			return stop_run(&r, done, "disk full", EXIT_FAIL);
		snprintf(boot_dir, sizeof(boot_dir), "%s/boots/%d", dir, boot);
		snprintf(in, sizeof(in), "%s/in", boot_dir);
		n = prepare_boot(&r, in, pending, &timeout,
				 boot_per_cell ? 1 : MAX_CELLS);
		if (n < 0) {
			err_errno(errno, "cannot prepare %s", in);
			return stop_run(&r, done, "cannot prepare a boot", EXIT_FAIL);
		}
		if (!n) {
			/* Nothing left: this boot's folder was only prepared. */
			snprintf(script, sizeof(script), "rm -rf '%s'", boot_dir);
			if (system(script))
				warn("cannot remove %s", boot_dir);
			break;
		}
		snprintf(script, sizeof(script), "%s/job.sh", boot_dir);
		f = fopen(script, "w");
		if (!f || fputs("mkdir -p out\ncsbench-agent cells.txt . out\n", f) < 0 ||
		    fclose(f)) {
			err_errno(errno, "cannot write %s", script);
			return stop_run(&r, done, "cannot prepare a boot", EXIT_FAIL);
		}
		spec.out = boot_dir;
		spec.script = script;
		spec.bin_dir = bin;
		spec.extra_dir = in;
		spec.accel_why = why;
		spec.vm.kernel = kernel;
		spec.vm.initrd = initrd;
		spec.vm.image = image;
		spec.vm.accel = accel;
		spec.vm.timeout_s = timeout;
		spec.vm.memory_mb = 2048;
		/* A cell that logs nothing for its own length plus grace has hung. */
		for (i = 0; i < n; i++) {
			const struct wl_profile *p =
				&r.wl[r.cells[pending[i]].workload].profiles[r.profile];

			if (p->duration_s + p->warmup_s > longest)
				longest = p->duration_s + p->warmup_s;
		}
		snprintf(joblog, sizeof(joblog), "%s/share/job.log", boot_dir);
		spec.vm.progress_file = joblog;
		spec.vm.stall_s = hang_after ?: longest + 2 * 60 + BOOT_OVERHEAD_S;
		snprintf(col.share, sizeof(col.share), "%s/share", boot_dir);
		col.n = n;
		spec.vm.on_poll = collect_finished;
		spec.vm.poll_arg = &col;
		info("boot %d: %d cells, timeout %d s, hung after %d s without progress",
		     boot, n, timeout, spec.vm.stall_s);
		job_run(&spec, &res);
		col.last_poll = 0;
		collect_finished(&col);
		keep_boot_record(dir, boot_dir);
		if (col.store_error)
			return stop_run(&r, done, col.store_error == -ENOSPC ?
					"disk full" : "cannot store results", EXIT_FAIL);
		if (res.vm.outcome == VM_INTERRUPTED)
			return stop_run(&r, done, "interrupted", EXIT_INTERRUPTED);
		/*
		 * A guest that never reached csbench-init (QEMU missing, the share
		 * not prepared, a kernel that panics at boot) would fail every
		 * boot the same way: stop rather than blame each cell in turn.
		 */
		if (res.vm.boot_s < 0 && !col.got)
			return stop_run(&r, done, res.vm.problem[0] ? res.vm.problem :
					"the guest did not boot", EXIT_GUEST);
		/* The agent stops when it cannot store a cell: not the guest's fault. */
		if (col.got < n && run_dir_check_space(dir, min_free_mb))
			return stop_run(&r, done, "disk full", EXIT_FAIL);
		if (res.vm.outcome != VM_POWERED_OFF || col.got < n) {
			/* The first unfinished cell is the one the guest died in. */
			for (i = 0; i < n && cell_done(&r, &r.cells[pending[i]]); i++)
				;
			if (i < n) {
				record_guest_failure(&r, &r.cells[pending[i]], &res, boot_dir);
				guest_failures++;
				done++;
			}
		}
	}
	if (report ? report_build(dir, NULL, 1, 0) != EXIT_OK : run_report_table(dir, stdout))
		return EXIT_FAIL;
	if (vm_interrupted())
		return EXIT_INTERRUPTED;
	return guest_failures ? EXIT_GUEST : EXIT_OK;
}
