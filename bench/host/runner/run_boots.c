// SPDX-License-Identifier: GPL-2.0
/* The boots of csbench run (see run_boots.h). */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/json_file.h"
#include "../../lib/cell_schema.h"
#include "../../lib/fileio.h"
#include "../../lib/log.h"
#include "../../lib/mode.h"
#include "../../lib/paths.h"
#include "../../lib/spawn.h"
#include "../exit_codes.h"
#include "../machine/job.h"
#include "run_boots.h"
#include "run_dir.h"
#include "run_image.h"
#include "run_report.h"
#include "../machine/smtcap.h"

#define BOOT_OVERHEAD_S	180
/*
 * A cloud image boots systemd and cloud-init and installs the tools before
 * the job starts: about 6 min under TCG here, most of it apt (docs/guest.md).
 * The job log only appears then, so the hang watchdog waits longer too.
 */
#define CLOUD_OVERHEAD_S	900

int run_cell_done(const struct run *r, const struct cell *c)
{
	return run_dir_cell_done(r->dir, c->id);
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
	xsnprintf(path, sizeof(path), "%s/cells.txt", in);
	f = fopen(path, "w");
	if (!f)
		return -1;
	*timeout = BOOT_OVERHEAD_S;
	for (i = 0; i < r->ncells; i++) {
		const struct cell *c = &r->cells[i];
		const struct wl_profile *p = &r->wl[c->workload].profiles[r->profile];

		if (run_cell_done(r, c) || c->rep >= r->rep_limit)
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
		xsnprintf(path, sizeof(path), "%s/%s.wl", in, r->wl[i].name);
		if (copy_file(r->wl_path[i], path))
			return -1;
	}
	return n;
}

/*
 * Cells an interrupted csbench never collected (Ctrl-C during a boot) are
 * still on that boot's share; --resume takes them before booting again.
 */
int run_salvage_boots(const struct run *r)
{
	char share[4200];
	int boot, i, n = 0;

	for (boot = 1;; boot++) {
		snprintf(share, sizeof(share), "%s/boots/%d/share", r->dir, boot);
		if (access(share, F_OK))
			break;
		for (i = 0; i < r->ncells; i++)
			if (!run_cell_done(r, &r->cells[i])) {
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
	enum progress progress;
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

		if (run_cell_done(col->r, c))
			continue;
		ret = run_dir_collect(col->r->dir, col->share, c->id);
		if (ret < 0)
			return col->store_error = ret;
		if (ret == 1) {
			col->got++;
			(*col->done)++;
			/* Of the cells planned so far: an adaptive run grows by blocks. */
			run_report_progress(col->r->dir, c->id, *col->done,
					    col->r->ncells / col->r->reps_max * col->r->rep_limit,
					    col->done_before,
					    difftime(time(NULL), col->t0),
					    col->progress);
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

/*
 * The yield the boot measured before its cells (csbench-yield's JSON on
 * the share): into the boot's boot.info, and appended to the manifest's
 * smt_yield.achieved with how far it is from the target.
 */
static void record_yield(const struct run *r, int boot, const char *boot_dir, double target)
{
	char path[4400], line[256];
	json_t *y, *m, *entry, *achieved;
	double got;

	snprintf(path, sizeof(path), "%s/share/out/yield.json", boot_dir);
	y = json_load_regular(path, NULL);
	if (!json_is_number(json_object_get(y, "yield"))) {
		json_decref(y);
		return;		/* the guest died before, or SMT was off */
	}
	got = json_number_value(json_object_get(y, "yield"));
	if (target <= 0)
		target = 1.0;
	snprintf(path, sizeof(path), "%s/boot.info", boot_dir);
	snprintf(line, sizeof(line), "achieved_yield=%.4f\nachieved_yield_min=%.4f\n"
		 "achieved_yield_max=%.4f\n", got,
		 json_number_value(json_object_get(y, "yield_min")),
		 json_number_value(json_object_get(y, "yield_max")));
	if (write_file_flags(path, line, strlen(line), O_APPEND | O_CREAT))
		warn("cannot add the achieved yield to %s", path);
	snprintf(path, sizeof(path), "%s/manifest.json", r->dir);
	m = json_load_regular(path, NULL);
	entry = json_pack("{s:i,s:O,s:O,s:O,s:f}", "boot", boot, "yield",
			  json_object_get(y, "yield"), "min", json_object_get(y, "yield_min"),
			  "max", json_object_get(y, "yield_max"), "off_pct",
			  (got / target - 1) * 100);
	achieved = json_object_get(json_object_get(m, "smt_yield"), "achieved");
	if (!json_is_array(achieved) || json_array_append_new(achieved, entry) ||
	    json_write_atomic(path, m, JSON_INDENT(1) | JSON_SORT_KEYS))
		warn("cannot record boot %d's achieved yield in %s", boot, path);
	if (fabs(got / target - 1) > SMTCAP_TOLERANCE)
		warn("boot %d: achieved SMT yield %.3f is %+.0f%% from the target %.2f",
		     boot, got, (got / target - 1) * 100, target);
	json_decref(m);
	json_decref(y);
}


/* A guest that died takes the blame on the cell it was running. */
static void record_guest_failure(const struct run *r, const struct cell *c,
				 const struct job_result *res, const char *boot_dir)
{
	char path[4096], console[4096], *text;
	json_t *o;

	snprintf(path, sizeof(path), "%s/cells/%s.json", r->dir, c->id);
	xsnprintf(console, sizeof(console), "%s/console.log", boot_dir);
	o = json_pack("{s:i,s:s,s:s,s:s,s:s,s:s,s:s}", CK(SCHEMA), CELL_SCHEMA_VERSION,
		      CK(CELL), c->id, CK(MODE), mode_name(c->mode),
		      CK(WORKLOAD), r->wl[c->workload].name, CK(STATUS), "guest-failed",
		      CK(ERROR),
		      *res->vm.problem ? res->vm.problem : vm_outcome_name(res->vm.outcome),
		      CK(CONSOLE), console);
	text = json_dumps(o, JSON_INDENT(1) | JSON_SORT_KEYS);
	if (!text || write_atomic(path, text, strlen(text)))
		err_errno(errno, "cannot store %s", path);
	free(text);
	json_decref(o);
	err_msg("cell %s: guest %s: %s (console: %s)", c->id,
		vm_outcome_name(res->vm.outcome), res->vm.problem, console);
}

/* A run stopped before its end: what is kept and how to go on. */
int run_stop(const struct run *r, int done, const char *why, int code)
{
	err_msg("%s: %d of %d cells finished and kept in %s", why, done,
		r->ncells, r->dir);
	err_msg("continue with: make bench RESUME=%s (or csbench run --resume %s ...)",
		r->dir, r->dir);
	run_report_table(r->dir, stdout);
	return code;
}

int run_count_done(const struct run *r)
{
	int i, n = 0;

	for (i = 0; i < r->ncells; i++)
		n += run_cell_done(r, &r->cells[i]);
	return n;
}

int run_boots(struct run *r, const struct boot_opts *o, int *done, int done_before,
	      int *guest_failures)
{
	char boot_dir[4200], in[4300], script[4300];
	int boot, pending[MAX_CELLS];
	FILE *f;

	/* Earlier boots of a resumed run stay as they were. */
	for (boot = 1;; boot++) {
		snprintf(boot_dir, sizeof(boot_dir), "%s/boots/%d", r->dir, boot);
		if (access(boot_dir, F_OK))
			break;
	}
	for (int first = boot; boot <= first + r->ncells; boot++) {
		struct job_spec spec = { 0 };
		struct job_result res;
		struct collector col = { .r = r, .pending = pending, .done = done,
					 .done_before = done_before, .t0 = o->t0,
					 .progress = o->progress };
		char joblog[4300];
		int n, timeout, i, longest = 0;

		if (vm_interrupted())
			return run_stop(r, *done, "interrupted", EXIT_INTERRUPTED);
		/* The guest writes its results onto the share, on this disk. */
		if (run_dir_check_space(r->dir, o->min_free_mb))
			return run_stop(r, *done, "disk full", EXIT_FAIL);
		snprintf(boot_dir, sizeof(boot_dir), "%s/boots/%d", r->dir, boot);
		snprintf(in, sizeof(in), "%s/in", boot_dir);
		n = prepare_boot(r, in, pending, &timeout,
				 o->boot_per_cell ? 1 : MAX_CELLS);
		if (n < 0) {
			err_errno(errno, "cannot prepare %s", in);
			return run_stop(r, *done, "cannot prepare a boot", EXIT_FAIL);
		}
		if (!n) {
			/* Nothing left: this boot's folder was only prepared. */
			if (remove_tree(boot_dir))
				warn("cannot remove %s", boot_dir);
			break;
		}
		snprintf(script, sizeof(script), "%s/job.sh", boot_dir);
		f = fopen(script, "w");
		/* The yield first: every boot says what SMT gave its cells. */
		if (!f || fputs("mkdir -p out\n"
				"csbench-yield >out/yield.json 2>out/yield.err || true\n"
				JOB_FIDELITY_PROBE
				"csbench-agent cells.txt . out\n", f) < 0 ||
		    fclose(f)) {
			err_errno(errno, "cannot write %s", script);
			return run_stop(r, *done, "cannot prepare a boot", EXIT_FAIL);
		}
		spec.out = boot_dir;
		spec.script = script;
		spec.bin_dir = o->bin;
		spec.extra_dir = in;
		spec.accel_why = o->accel_why;
		spec.vm.kernel = o->kernel;
		spec.vm.initrd = o->initrd;
		spec.vm.image = o->image;
		spec.vm.image_format = o->image_format;
		spec.vm.cloud_seed = o->cloud_seed;
		spec.vm.cloud_debs = o->cloud_debs;
		spec.vm.cloud_root = o->cloud_root;
		if (o->cloud_seed)
			timeout += CLOUD_OVERHEAD_S;
		spec.vm.accel = o->accel;
		spec.vm.timeout_s = timeout;
		spec.vm.memory_mb = 2048;
		spec.vm.smt_yield = o->smt_yield;
		spec.vm.cap_period_us = o->cap_period_us;
		spec.vm.cap_core_pct = o->cap_core_pct;
		spec.vm.emu = o->emu;
		spec.vm.cores = o->cores;
		/* A cell that logs nothing for its own length plus grace has hung. */
		for (i = 0; i < n; i++) {
			const struct wl_profile *p =
				&r->wl[r->cells[pending[i]].workload].profiles[r->profile];

			if (p->duration_s + p->warmup_s > longest)
				longest = p->duration_s + p->warmup_s;
		}
		snprintf(joblog, sizeof(joblog), "%s/share/job.log", boot_dir);
		spec.vm.progress_file = joblog;
		spec.vm.stall_s = o->hang_after ?: longest + 2 * 60 + BOOT_OVERHEAD_S +
			(o->cloud_seed ? CLOUD_OVERHEAD_S : 0);
		xsnprintf(col.share, sizeof(col.share), "%s/share", boot_dir);
		col.n = n;
		spec.vm.on_poll = collect_finished;
		spec.vm.poll_arg = &col;
		info("boot %d: %d cells, timeout %d s, hung after %d s without progress",
		     boot, n, timeout, spec.vm.stall_s);
		job_run(&spec, &res);
		col.last_poll = 0;
		collect_finished(&col);
		record_yield(r, boot, boot_dir, o->smt_yield);
		job_record_fidelity(boot_dir);
		run_image_record_boot(r->dir, boot, boot_dir);
		keep_boot_record(r->dir, boot_dir);
		if (col.store_error)
			return run_stop(r, *done, col.store_error == -ENOSPC ?
					"disk full" : "cannot store results", EXIT_FAIL);
		if (res.vm.outcome == VM_INTERRUPTED)
			return run_stop(r, *done, "interrupted", EXIT_INTERRUPTED);
		/*
		 * A guest that never reached csbench-init (QEMU missing, the share
		 * not prepared, a kernel that panics at boot) would fail every
		 * boot the same way: stop rather than blame each cell in turn.
		 */
		if (res.vm.boot_s < 0 && !col.got)
			return run_stop(r, *done, res.vm.problem[0] ? res.vm.problem :
					"the guest did not boot", EXIT_GUEST);
		/* The agent stops when it cannot store a cell: not the guest's fault. */
		if (col.got < n && run_dir_check_space(r->dir, o->min_free_mb))
			return run_stop(r, *done, "disk full", EXIT_FAIL);
		if (res.vm.outcome != VM_POWERED_OFF || col.got < n) {
			/* The first unfinished cell is the one the guest died in. */
			for (i = 0; i < n && run_cell_done(r, &r->cells[pending[i]]); i++)
				;
			if (i < n) {
				record_guest_failure(r, &r->cells[pending[i]], &res, boot_dir);
				(*guest_failures)++;
				(*done)++;
			}
		}
	}
	return -1;
}
