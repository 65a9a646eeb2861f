/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The run matrix: modes x workloads x repetitions, in the order cells run.
 * Within a repetition every workload runs in every mode back to back
 * (ABCD), and the mode order rotates by one each repetition (ABCD BCDA
 * CDAB ...), so slow drift of the host and any first-in-line effect spread
 * over all modes instead of favouring one.
 */
#ifndef CSBENCH_MATRIX_H
#define CSBENCH_MATRIX_H

#define CELL_ID_LEN	128

struct cell {
	int workload;		/* index into the run's workload list */
	int mode;		/* enum csb_mode */
	int rep;		/* 0-based */
	char id[CELL_ID_LEN];	/* "<workload>.<mode>.r<rep+1>", a file name */
};

/*
 * Fill @out (capacity @max) for @nworkloads workloads named @names, the
 * @nmodes modes in @modes and @reps repetitions. Returns the cell count,
 * or -1 if @max is too small.
 */
int matrix_expand(const char *const *names, int nworkloads, const int *modes,
		  int nmodes, int reps, struct cell *out, int max);

#endif
