/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The yield plugin's arithmetic, apart so a unit test can check it
 * (tests/unit/t0031-smt-yield-math.c). Two busy SMT threads together do
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

/*
 * The books a vCPU keeps while its sibling is busy: wall time, and the
 * part of it the guest ran. Each period the handler spins until the run
 * share is back at Y/2, so whatever else took the thread's time (the
 * host preempting it for QEMU's main loop, a tick delivered late) is
 * made up in the next spin instead of lowering the yield by a different
 * amount in every boot. Old periods are forgotten by halving the books
 * once they cover SMT_YIELD_WINDOW_NS, so a long preemption is not paid
 * back for ever.
 */
#define SMT_YIELD_WINDOW_NS	10000000ull

struct smt_yield_books {
	uint64_t wall_ns, run_ns;
};

static inline void smt_yield_books_add(struct smt_yield_books *b, uint64_t wall_ns,
				       uint64_t run_ns)
{
	if (run_ns > wall_ns)
		run_ns = wall_ns;
	b->wall_ns += wall_ns;
	b->run_ns += run_ns;
	while (b->wall_ns > SMT_YIELD_WINDOW_NS) {
		b->wall_ns /= 2;
		b->run_ns /= 2;
	}
}

/*
 * How long to spin now, at yield @y: until run / wall = y / 2, that is
 * 2 run / y - wall, at most @max_ns (the longest stall the guest may
 * see). Empty books (the sibling just turned busy) spin @nominal_ns.
 */
static inline uint64_t smt_yield_books_spin_ns(const struct smt_yield_books *b, double y,
					       uint64_t nominal_ns, uint64_t max_ns)
{
	double s;

	if (!(y >= 1.0))
		y = 1.0;
	if (y >= 2.0)
		return 0;
	if (!b->wall_ns)
		return nominal_ns < max_ns ? nominal_ns : max_ns;
	s = 2.0 * (double)b->run_ns / y - (double)b->wall_ns;
	if (s <= 0)
		return 0;
	return s < (double)max_ns ? (uint64_t)s : max_ns;
}

#endif
