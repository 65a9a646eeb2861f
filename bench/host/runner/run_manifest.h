/* SPDX-License-Identifier: GPL-2.0 */
/* A run directory's manifest.json (see run_manifest.c). */
#ifndef CSBENCH_RUN_MANIFEST_H
#define CSBENCH_RUN_MANIFEST_H

#include <jansson.h>

#include "../machine/accel.h"
#include "run_boots.h"
#include "run_dir.h"

/*
 * Write r->dir/manifest.json unless it exists: the kernel (and its build
 * info), image, accelerator and why, the matrix, and @extra's keys.
 */
void run_manifest_write(const struct run *r, const char *kernel,
			const char *image, const char *modes, int reps,
			const char *accel_why, enum accel accel, json_t *extra);
/*
 * Keep the manifest's matrix size true when a run grew (adaptive blocks,
 * or the next block of an A/B session): reps and the expected cells.
 */
int run_manifest_update(const struct run *r, int reps, int may_shrink);
/*
 * 1 if the run directory @dir holds this matrix with these caps (of
 * @caps only smt_yield, 0 for none, cap_core_pct and cap_period_us are
 * read); else 0, said why.
 */
int run_manifest_same_matrix(const char *dir, const char *profile, const char *modes,
			     const struct run_params *caps, const struct run *r);
/* What --resume takes from an adaptive run's manifest. */
void run_manifest_adaptive(const char *dir, long *target, long *budget, long *min_reps);

#endif
