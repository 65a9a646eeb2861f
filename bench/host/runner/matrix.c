// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>

#include "../../lib/mode.h"
#include "matrix.h"

int matrix_expand(const char *const *names, int nworkloads, const int *modes,
		  int nmodes, int reps, struct cell *out, int max)
{
	int r, w, k, n = 0;

	if ((long)nworkloads * nmodes * reps > max)
		return -1;
	for (r = 0; r < reps; r++)
		for (w = 0; w < nworkloads; w++)
			for (k = 0; k < nmodes; k++) {
				struct cell *c = &out[n++];

				c->workload = w;
				c->mode = modes[(k + r) % nmodes];
				c->rep = r;
				snprintf(c->id, sizeof(c->id), "%s.%s.r%d", names[w],
					 mode_name(c->mode), r + 1);
			}
	return n;
}
