/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csbench run's options: one struct, one option table (shared with
 * csbench calibrate, which passes run options through), and the step that
 * settles them: what --resume takes from the manifest, the defaults found
 * through the checkout csbench was built in, and the checks made before a
 * run directory exists or a guest boots.
 */
#ifndef CSBENCH_RUN_ARGS_H
#define CSBENCH_RUN_ARGS_H

#include <stddef.h>

#include "../../lib/opts.h"
#include "../machine/cloud_image.h"

struct run_args {
	/* NULL until given or settled: that tells --resume what was typed. */
	const char *profile, *modes, *workloads;
	long reps;
	const char *kernel, *initrd, *image, *bin, *workload_dir;
	const char *resume, *dir, *results, *rev, *accel, *progress;
	const char *ab_session, *ab_side;
	const char *smt_yield_arg;	/* --smt-yield, as typed */
	const char *emulation;		/* --emulation, NULL until typed or settled */
	const char *cloud_image, *cloud_root;	/* --cloud-image, --cloud-root */
	long min_free_mb, hang_after, target, budget, min_reps, cap_period_us, cap_core_pct;
	long cores;			/* --cores; 0: as the emulation chooses */
	int quiet, boot_per_cell, report;
	/* Filled by run_args_settle() */
	int profile_id;
	double smt_yield;		/* 0: no caps */
	/* With --cloud-image: the image's format and checksum, seed, packages. */
	struct cloud_image cloud;
	char cloud_seed[4096], cloud_debs[4096];
	char resumed_cloud_sha256[65];	/* --resume: the manifest's image */
	char default_kernel[4096], default_image[4096];
	char default_initrd[4096], default_bin[4096], default_wl_dir[4096];
};

#define RUN_NOPTS	32	/* entries run_args_opts() writes, without the end */

/*
 * --emulation when nobody typed one: "auto", siblings on their own host
 * CPUs wherever the host has a CPU per vCPU (pin.h), time-shared
 * otherwise. Since the yield plugin sets each timer from its own vCPU
 * thread only (a stale timer left vCPU 1 unthrottled before), a
 * default make bench on the 2-CPU host measured smt-on vs smt-off at
 * Y = 1.0 of +9.4% [-2.4, +22.7] in throughput over the seven workloads, none
 * of them emulation-biased; time-shared siblings wait for the host's 4 ms tick
 * and biased them by up to +-40% (docs/emulation.md). csbench boot has
 * the same default (cmd_boot.c), so a job sees what cells see.
 */
#define RUN_DEFAULT_EMULATION	"auto"

/*
 * The time-shared layout's --smt-yield: caps the kernel can set and a host
 * CPU controller to set them with (after the emulation is chosen).
 */
int run_args_check_caps(struct run_args *a);

/* Defaults for what nobody typed (profile, modes... stay NULL). */
void run_args_init(struct run_args *a);
/*
 * Write run's option table for @a into @opts (at least RUN_NOPTS + 1
 * entries, NULL-terminated). Returns the number of entries written.
 */
int run_args_opts(struct run_args *a, struct opt *opts);
/* The usage line and the defaults --help cannot show per option. */
extern const char run_args_usage[];
void run_args_help_defaults(void);
/*
 * Check @a, take a resumed run's matrix from its manifest (refusing a
 * typed option that disagrees with it), and fill every default. Returns
 * 0, or an EXIT_* code with the message printed.
 */
int run_args_settle(struct run_args *a);
/*
 * csbench run with @a (settled here): the run directory goes to @dir
 * ("" when none was opened). Returns an EXIT_* code. In cmd_run.c.
 */
int run_execute(struct run_args *a, char *dir, size_t len);

#endif
