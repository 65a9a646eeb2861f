/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The boots of csbench run: prepare a boot's share with the cells still
 * to do, boot, collect each cell as the guest finishes it, blame a crashed
 * or hung guest on the cell it was in, and boot again for the rest.
 * Finished cells are never run again.
 */
#ifndef CSBENCH_RUN_BOOTS_H
#define CSBENCH_RUN_BOOTS_H

#include <time.h>

#include "../machine/accel.h"
#include "matrix.h"
#include "run_report.h"
#include "../../lib/workload.h"

#define MAX_WORKLOADS	32
#define MAX_CELLS	4096
#define BLOCKS_MAX_REPS	100	/* the analysis takes block ids up to 128 */

struct run {
	const char *dir;
	struct workload wl[MAX_WORKLOADS];
	const char *wl_path[MAX_WORKLOADS];
	const char *wl_names[MAX_WORKLOADS];
	int nwl;
	int profile;
	struct cell cells[MAX_CELLS];
	int ncells;
	int nmodes;
	int reps_max;		/* repetitions in the matrix */
	int rep_limit;		/* boot only cells of repetitions below this */
};

struct boot_opts {
	const char *kernel, *initrd, *image, *bin;
	/* --cloud-image: see struct vm_spec; NULL cloud_seed for the built image */
	const char *image_format, *cloud_seed, *cloud_debs, *cloud_root;
	enum accel accel;
	const char *accel_why;
	long min_free_mb, hang_after;
	double smt_yield;		/* 0: no caps (time-shared), 1.0 (concurrent) */
	int cap_period_us, cap_core_pct;
	enum emulation emu;
	int cores;
	int boot_per_cell;
	enum progress progress;
	time_t t0;
};

/* 1 if cell @c of @r is finished (ok or not). */
int run_cell_done(const struct run *r, const struct cell *c);
int run_count_done(const struct run *r);
/* Take cells an interrupted csbench left on earlier boots' shares. */
int run_salvage_boots(const struct run *r);
/*
 * A run stopped before its end: print what is kept and how to go on;
 * returns @code.
 */
int run_stop(const struct run *r, int done, const char *why, int code);
/*
 * Boot until every cell of repetitions below r->rep_limit is finished.
 * @done counts finished cells, @guest_failures the cells a guest died in.
 * Returns -1 when that is done, else the exit code to stop with (the
 * reason already printed).
 */
int run_boots(struct run *r, const struct boot_opts *o, int *done, int done_before,
	      int *guest_failures);

#endif
