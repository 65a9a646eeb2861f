// SPDX-License-Identifier: GPL-2.0
/* The breakeven SMT yield model; smtyield.h states it and its assumptions. */
#include <math.h>

#include "smtyield.h"

double smt_breakeven_yield_at(double r, double c, double y0)
{
	double y;

	if (!(r > 0) || !(c >= 0 && c <= 1) || isinf(r) || !(y0 >= 1) || isinf(y0))
		return NAN;
	if (c == 0)
		return r >= 1 ? 1 : INFINITY;
	y = 1 + ((1 + c * (y0 - 1)) / r - 1) / c;
	/* Already as fast without any SMT gain: no yield is needed. */
	return y < 1 ? 1 : y;
}

double smt_breakeven_yield(double r, double c)
{
	return smt_breakeven_yield_at(r, c, 1);
}

double smt_projected_gain(double r, double c, double y)
{
	if (!(r > 0) || !(c >= 0 && c <= 1) || !(y > 0))
		return NAN;
	return r * (1 + (y - 1) * c);
}
