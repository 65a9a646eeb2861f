/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What differs between the setups of two runs: the SMT yield, the
 * emulation and the guest topology change what a mode measures, so runs
 * that differ there do not measure the same thing (compare and history
 * refuse to set them side by side unless --force); the kernel, profile,
 * accelerator and image are said but allowed, since comparing two kernels
 * is what compare is for.
 */
#ifndef CSBENCH_SETUP_DIFF_H
#define CSBENCH_SETUP_DIFF_H

#include <stdio.h>

#include "report.h"

/*
 * Write one line per difference between @a and @b to @out (may be NULL),
 * each prefixed by @indent, and return how many of them are of the kind
 * that makes the runs incomparable.
 */
int report_setup_diff(const struct report *a, const struct report *b, const char *indent,
		      FILE *out);

/* @r's setup in one cell of a table: "Y 1.00, concurrent, 1x2". */
void report_setup_brief(const struct report *r, char *buf, size_t len);

#endif
