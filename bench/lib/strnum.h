/* SPDX-License-Identifier: GPL-2.0 */
/* Whole-string number parsing with range checks: never atoi(). */
#ifndef CSBENCH_STRNUM_H
#define CSBENCH_STRNUM_H

/*
 * Parse all of @s as a base-10 integer in [@min, @max] into @out.
 * Returns 0, -EINVAL (not a number, trailing text) or -ERANGE.
 */
int parse_long(const char *s, long min, long max, long *out);
int parse_double(const char *s, double min, double max, double *out);

#endif
