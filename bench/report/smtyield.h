/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The breakeven SMT yield: how much throughput two busy siblings must give
 * on real hardware for core scheduling to beat turning SMT off.
 *
 * Model. Let Y be the throughput of a core whose two siblings both run
 * work, relative to the same core running one thread (Y = 1: SMT adds
 * nothing, the TCG case here with both siblings pinned to one host CPU;
 * 1.1 to 1.3 is typical of real cores). Over a coresched cell, let t1 be
 * the core time in which exactly one sibling ran tenant work (the other
 * idle or forced idle) and t2 the time both did; c = t2 / (t1 + t2). Under
 * TCG the core delivered t1 + t2 units of work; on hardware with yield Y
 * it would deliver t1 + Y t2, all else (scheduling overheads, forced idle,
 * pairing) unchanged. If coresched reached a fraction r of smt-off's
 * throughput here (r = the measured gain), on such hardware it reaches
 * r (1 + (Y - 1) c), which is >= 1 when
 *
 *	Y >= 1 + (1 - r) / (r c)
 *
 * Assumptions: smt-off's throughput does not depend on Y (one thread per
 * core); the pairing share c and the overheads carry over from TCG to
 * hardware; Y is the same for every pair of tenants. r >= 1 gives 1:
 * coresched needs no SMT gain at all. c = 0 (never two siblings busy)
 * with r < 1 gives no breakeven: SMT cannot help. r is taken over the
 * workload's throughput figures only (rates, run times of fixed work).
 */
#ifndef CSBENCH_SMTYIELD_H
#define CSBENCH_SMTYIELD_H

/*
 * @r: measured throughput gain of coresched over smt-off (> 0);
 * @c: share of busy core time with both siblings busy, in [0, 1].
 * Returns the breakeven yield (1 when r >= 1), INFINITY when c == 0 and
 * r < 1, or NAN for input out of range.
 */
double smt_breakeven_yield(double r, double c);

/*
 * The same from a run at yield @y0 (>= 1) rather than 1: there coresched
 * delivered 1 + (y0 - 1) c per unit of one-sibling work, so
 *	Y* = 1 + ((1 + (y0 - 1) c) / r - 1) / c,
 * at least 1. smt_breakeven_yield(r, c) is this at y0 = 1.
 */
double smt_breakeven_yield_at(double r, double c, double y0);

/* Gain on hardware with yield @y, from the same @r and @c. */
double smt_projected_gain(double r, double c, double y);

#endif
