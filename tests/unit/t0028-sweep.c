// SPDX-License-Identifier: GPL-2.0
/*
 * A yield sweep's crossover (bench/report/sweep.c) on constructed gains:
 * where a gain curve first reaches 0, interpolated in log gain; the open
 * ends below the lowest and above the highest yield; the range from the
 * intervals' ends; NAN gains.
 */
#include <math.h>
#include <stdio.h>

#include "../../bench/report/smtyield.h"
#include "../../bench/report/sweep.h"
#include "../tap.h"

int main(void)
{
	const double x[3] = { 1.0, 1.15, 1.3 };
	/* -10%, -2%, +8%: crosses between 1.15 and 1.3. */
	const double g[3] = { 0.90, 0.98, 1.08 };
	const double lo[3] = { 0.85, 0.93, 1.02 }, hi[3] = { 0.95, 1.03, 1.14 };
	const double rising[3] = { 1.02, 1.1, 1.2 }, falling[3] = { 0.7, 0.8, 0.9 };
	const double gap[3] = { 0.9, NAN, 1.1 };
	double expect, y;
	struct sweep_cross c;

	tap_plan_start();
	expect = 1.15 + 0.15 * (-log(0.98)) / (log(1.08) - log(0.98));
	check_near(sweep_first_reach(x, g, 3), expect, 1e-9, "crossing interpolated in log gain "
		   "between 1.15 and 1.3 (%.4f)", expect);
	check_near(sweep_first_reach(x, g, 3), 1.1802, 1e-3, "that is about 1.18");
	y = sweep_first_reach(x, rising, 3);
	tap_ok(y == -INFINITY, "already above 0 at the first yield: at or below it (%g)", y);
	y = sweep_first_reach(x, falling, 3);
	tap_ok(y == INFINITY, "never reaching 0: above the highest yield (%g)", y);
	check_near(sweep_first_reach(x, gap, 3), 1.0 + 0.3 * (-log(0.9)) / (log(1.1) - log(0.9)),
		   1e-9, "a NAN point is stepped over");
	y = sweep_first_reach(x, gap, 0);
	tap_ok(isnan(y), "no point: NAN");

	c = sweep_crossover(x, g, lo, hi, 3);
	tap_ok(c.valid, "crossover with intervals valid");
	tap_ok(c.range_lo < c.at && c.at < c.range_hi, "its range holds it: %.3f < %.3f < %.3f", c.range_lo, c.at,
	       c.range_hi);
	check_near(c.range_lo, 1.0 + 0.15 * (-log(0.95)) / (log(1.03) - log(0.95)), 1e-9,
		   "the range's low end is where the upper ends reach 0");
	check_near(c.range_hi, 1.15 + 0.15 * (-log(0.93)) / (log(1.02) - log(0.93)), 1e-9,
		   "the high end where the lower ends do");
	c = sweep_crossover(x, rising, falling, rising, 3);
	tap_ok(c.at == -INFINITY && c.range_lo == -INFINITY && c.range_hi == INFINITY,
	       "gain above 0 everywhere, lower ends never: at or below 1.0, range open both ways");
	c = sweep_crossover(x, rising, rising, rising, 3);
	tap_ok(c.range_hi == 1.0, "lower ends above 0 at the first yield: at most 1.0 (%g)", c.range_hi);
	c = sweep_crossover(x, falling, falling, falling, 3);
	tap_ok(c.at == INFINITY && c.range_lo == 1.3 && c.range_hi == INFINITY,
	       "even the upper ends never reach 0: above 1.3, range open above from 1.3 "
	       "(%g, %g)", c.range_lo, c.range_hi);
	check_near(smt_breakeven_yield_at(0.8, 0.5, 1.0), 1.5, 1e-9,
		   "breakeven from a run at Y = 1: 1 + (1 - r) / (r c)");
	check_near(smt_breakeven_yield_at(0.8, 0.5, 1.1), 1.0 + ((1 + 0.05) / 0.8 - 1) / 0.5, 1e-9,
		   "from a run that measured 1.1: that run's pairing already gave some");
	check_near(smt_breakeven_yield_at(1.2, 0.5, 1.2), 1.0, 1e-9,
		   "ahead already at 1.2 with a breakeven below 1: 1");
	c = sweep_crossover(x, gap, gap, gap, 3);
	tap_ok(!c.valid, "a yield without a gain: no crossover");
	return tap_finish();
}
