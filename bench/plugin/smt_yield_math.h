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

/*
 * The timer period for yield @y whose spin is @max_spin_us: as long as
 * the spin allows, since every tick costs its thread tens of microseconds
 * on a host that is itself a VM (smt_yield.c). 400 us at 1.0, 571 at
 * 1.3, 2000 at 1.8, at most @max_period_us (no spin at all at 2.0).
 */
static inline unsigned int smt_yield_period_us(double y, unsigned int max_spin_us,
					       unsigned int max_period_us)
{
	double p;

	if (!(y >= 1.0))
		y = 1.0;
	if (y >= 2.0)
		return max_period_us;
	p = max_spin_us / (1.0 - y / 2.0) + 0.5;
	return p < max_period_us ? (unsigned int)p : max_period_us;
}

/* The yield two busy siblings achieve when each spins @spin_ns per period. */
static inline double smt_yield_achieved(uint64_t spin_ns, uint64_t period_ns)
{
	return period_ns ? 2.0 * (1.0 - (double)spin_ns / (double)period_ns) : 2.0;
}

#endif
