/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A/A noise bands. From n repetitions of one mode, every way of splitting
 * them into two equal halves gives a ratio of the halves' means that
 * differs from 1 by noise alone; a row's band is the largest such
 * difference. A report then calls differences inside the band "not
 * distinguishable", whatever a t-test says: with few repetitions a t-test
 * is easily fooled by drift between boots or host load.
 */
#ifndef CSBENCH_CALIBRATE_H
#define CSBENCH_CALIBRATE_H

#include "../lib/stats.h"

#define CALIBRATE_MAX_N		16	/* C(16, 8) / 2 splits at most */

/*
 * log(mean of A / mean of B) for every split of @n values into halves A
 * and B (value 0 always in A), into @logs; the same split order for every
 * call with the same @n. Returns the number of splits or a negative errno.
 */
int calibrate_split_logs(const double *values, int n, enum mean_kind kind,
			 double *logs);

/*
 * The band for @n values (4 <= n <= CALIBRATE_MAX_N; an odd n drops the
 * last value) as a fraction, e.g. 0.03 for 3%. Returns it, or a negative
 * errno: -EINVAL for too few or too many values, -EDOM if a mean is 0.
 */
double calibrate_band(const double *values, int n, enum mean_kind kind, int *splits);

/*
 * Where csbench report looks: calibration-PROFILE-ACCEL.json beside
 * RUN_DIR (a TCG calibration must not stand in for a KVM host's).
 */
void calibrate_default_path(const char *run_dir, const char *profile,
			    const char *accel, char *path, size_t len);

/*
 * Bands for every row of run RUN_DIR measured in mode @mode, and for each
 * workload's and the overall geometric mean over the same splits, written
 * to @path as JSON (schema 2: profile, accel, mode, run, rows[], workloads[],
 * overall_band); an empty @path becomes calibration-PROFILE-ACCEL.json in
 * @out_dir, or beside the run when @out_dir is NULL, and is returned in
 * @path. Returns the number of rows, or -1 with @err set (-2 when RUN_DIR
 * is not a run directory it can read).
 */
int calibrate_write(const char *run_dir, const char *mode, const char *out_dir,
		    char *path, size_t pathlen, char *err, size_t errlen);

#endif
