/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run directory's bookkeeping for csbench run: which cells are done,
 * moving a finished cell from a boot's share into cells/, the free-space
 * check before a boot, and what a resumed run takes from its manifest.
 */
#ifndef CSBENCH_RUN_DIR_H
#define CSBENCH_RUN_DIR_H

#include <stddef.h>

/* 1 if DIR/cells/ID.json exists (finished, failed or not). */
int run_dir_cell_done(const char *dir, const char *id);

/*
 * Move cell ID's files from SHARE/out into DIR/cells, ID.json last and
 * through a rename, so a half-copied cell never looks finished. Returns 1
 * when the cell was stored, 0 when the guest has not finished it, and a
 * negative errno (ENOSPC...) when it could not be stored; the message
 * names the file.
 */
int run_dir_collect(const char *dir, const char *share, const char *id);

/*
 * 0 if DIR's file system has at least MIN_MB MiB free, else -ENOSPC with
 * a message giving both figures.
 */
int run_dir_check_space(const char *dir, long min_mb);

/* What a resumed run takes from its manifest, so its matrix is the same. */
struct run_params {
	char profile[16];
	char modes[256];
	char workloads[2048];	/* comma-separated */
	long reps;
	/* --smt-yield: 0 when the run's vCPUs were not capped */
	double smt_yield;
	long cap_period_us, cap_core_pct;
	/* --emulation and --cores as run (emulation.key, emulation.cores) */
	char emulation[16];
	long cores;
	/* --cloud-image: the image's sha256; "" for the built image */
	char cloud_sha256[65];
};

/* Fill @p from DIR/manifest.json; -1 with @err set when it is unusable. */
int run_dir_read_params(const char *dir, struct run_params *p, char *err,
			size_t errlen);

#endif
