/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The yield plugin's arithmetic, apart so a unit test can check it
 * (tests/unit/t0071-smt-yield-math.c). Two busy SMT threads together do
 * Y times a lone thread's work, so each runs a share Y/2 of the time its
 * sibling is busy: in every timer period it spins the rest, 1 - Y/2.
 */
#ifndef CSBENCH_SMT_YIELD_MATH_H
#define CSBENCH_SMT_YIELD_MATH_H

#include <stdint.h>

/* Nanoseconds to spin per @period_ns while a sibling is busy, at yield @y. */
static inline uint64_t smt_yield_spin_ns(double y, uint64_t period_ns)
{
	if (!(y >= 1.0))
		y = 1.0;
	if (y >= 2.0)
		return 0;
	return (uint64_t)((double)period_ns * (1.0 - y / 2.0) + 0.5);
}

/* The yield two busy siblings achieve when each spins @spin_ns per period. */
static inline double smt_yield_achieved(uint64_t spin_ns, uint64_t period_ns)
{
	return period_ns ? 2.0 * (1.0 - (double)spin_ns / (double)period_ns) : 2.0;
}

#endif
