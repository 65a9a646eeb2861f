// SPDX-License-Identifier: GPL-2.0
/* The breakeven SMT yield model; smtyield.h states it and its assumptions. */
#include <math.h>

#include "smtyield.h"

double smt_breakeven_yield(double r, double c)
{
	if (!(r > 0) || !(c >= 0 && c <= 1) || isinf(r))
		return NAN;
	/* Already as fast without any SMT gain: no yield is needed. */
	if (r >= 1)
		return 1;
	if (c == 0)
		return INFINITY;
	return 1 + (1 - r) / (r * c);
}

double smt_projected_gain(double r, double c, double y)
{
	if (!(r > 0) || !(c >= 0 && c <= 1) || !(y > 0))
		return NAN;
	return r * (1 + (y - 1) * c);
}
