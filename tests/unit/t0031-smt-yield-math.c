// SPDX-License-Identifier: GPL-2.0
/*
 * The yield plugin's arithmetic (bench/plugin/smt_yield_math.h): how long
 * a vCPU beside a busy sibling spins per timer period, and that spinning
 * that long gives back the yield asked for; and that the books, which set
 * each spin from what the guest really ran, hold the run share at Y/2
 * when the host takes time away from the thread.
 */
#include <math.h>

#include "../../bench/plugin/smt_yield_math.h"
#include "../tap.h"

/* A cheap deterministic generator, so a failure reproduces. */
static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

/*
 * Drive the books as the plugin's handler does for @periods ticks of
 * @period_ns: each stretch between spins loses @lost_ns per tick
 * (delivery and return) and, once in @preempt_every ticks, @preempt_ns
 * to the host running another thread. Returns 2 run / wall over all of
 * it, the yield the guest saw.
 */
static double simulate(double y, uint64_t period_ns, uint64_t lost_ns,
		       unsigned int preempt_every, uint64_t preempt_ns, unsigned int periods)
{
	uint64_t max_spin = smt_yield_spin_ns(y, period_ns), spin = max_spin;
	uint64_t wall = 0, run = 0, seed = 42;
	struct smt_yield_books b = { 0, 0 };
	unsigned int i;

	for (i = 0; i < periods; i++) {
		uint64_t stretch = period_ns > spin ? period_ns - spin : 0;
		uint64_t gone = lost_ns, r;

		if (preempt_every && lcg(&seed) % preempt_every == 0)
			gone += preempt_ns;
		stretch += gone - lost_ns;	/* a preemption delays the tick too */
		r = stretch > gone ? stretch - gone : 0;
		smt_yield_books_add(&b, stretch, r);
		wall += stretch;
		run += r;
		if (b.wall_ns > SMT_YIELD_WINDOW_NS || b.run_ns > b.wall_ns)
			return -1;	/* the window or the books broke */
		spin = smt_yield_books_spin_ns(&b, y, max_spin, max_spin);
		smt_yield_books_add(&b, spin, 0);
		wall += spin;
	}
	return 2.0 * (double)run / (double)wall;
}

int main(void)
{
	static const struct {
		double yield;
		uint64_t lost_ns;
		unsigned int preempt_every;
		uint64_t preempt_ns;
	} hosts[] = {
		{ 1.0, 0, 0, 0 },		/* an ideal host */
		{ 1.0, 38000, 0, 0 },		/* a tick costs 38 us */
		{ 1.0, 38000, 20, 400000 },	/* and QEMU's main loop takes 5% */
		{ 1.3, 38000, 20, 400000 },
		{ 1.3, 20000, 5, 100000 },
		{ 1.6, 38000, 200, 2000000 },	/* rare long preemptions */
	};
	struct smt_yield_books empty = { 0, 0 }, full = { 1000000, 600000 };
	static const struct {
		double yield;
		uint64_t period_ns, spin_ns;
	} cases[] = {
		{ 1.0, 100000, 50000 },	/* each sibling at half speed */
		{ 1.3, 100000, 35000 },
		{ 1.8, 100000, 10000 },
		{ 2.0, 100000, 0 },	/* no contention: never spin */
		{ 0.5, 100000, 50000 },	/* below 1 is read as 1 */
		{ NAN, 100000, 50000 },
		{ 1.5, 0, 0 },
	};
	unsigned int i;

	tap_plan_start();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint64_t got = smt_yield_spin_ns(cases[i].yield, cases[i].period_ns);

		tap_ok(got == cases[i].spin_ns, "yield %.2f, period %llu ns: spin %llu ns (want %llu)",
		       cases[i].yield, (unsigned long long)cases[i].period_ns,
		       (unsigned long long)got, (unsigned long long)cases[i].spin_ns);
	}
	for (i = 10; i <= 20; i++) {
		double y = i / 10.0, back = smt_yield_achieved(smt_yield_spin_ns(y, 100000), 100000);

		tap_ok(fabs(back - y) < 1e-4, "spinning for yield %.1f gives back %.4f", y, back);
	}
	for (i = 0; i < sizeof(hosts) / sizeof(hosts[0]); i++) {
		double got = simulate(hosts[i].yield, 400000, hosts[i].lost_ns, hosts[i].preempt_every,
				      hosts[i].preempt_ns, 200000);

		tap_ok(fabs(got - hosts[i].yield) < 0.02,
		       "books at yield %.2f, %llu us lost per tick, %llu us preempted 1 in %u: yield %.4f",
		       hosts[i].yield, (unsigned long long)hosts[i].lost_ns / 1000,
		       (unsigned long long)hosts[i].preempt_ns / 1000, hosts[i].preempt_every, got);
	}
	/* What a fixed spin gives on the same lossy host: the bias the books remove. */
	tap_ok(simulate(1.0, 400000, 38000, 0, 0, 1000) > 0 &&
	       smt_yield_achieved(smt_yield_spin_ns(1.0, 400000) + 38000, 400000) < 0.85,
	       "a fixed spin on a host losing 38 us a tick would give %.3f at 1.0",
	       smt_yield_achieved(smt_yield_spin_ns(1.0, 400000) + 38000, 400000));
	tap_ok(smt_yield_books_spin_ns(&empty, 1.3, 70000, 200000) == 70000,
	       "empty books spin the nominal time");
	tap_ok(smt_yield_books_spin_ns(&empty, 1.3, 300000, 200000) == 200000,
	       "a nominal spin above the cap is capped");
	tap_ok(smt_yield_books_spin_ns(&full, 2.0, 70000, 200000) == 0, "yield 2.0 never spins");
	/* 2 * 600000 / 1.0 - 1000000 = 200000, capped at 150000. */
	tap_ok(smt_yield_books_spin_ns(&full, 1.0, 70000, 150000) == 150000,
	       "a spin owed beyond the cap waits for the next period");
	tap_ok(smt_yield_books_spin_ns(&full, 1.5, 70000, 500000) == 0,
	       "books already below Y/2 run on without spinning");
	full.run_ns = 2 * full.wall_ns;
	smt_yield_books_add(&full, 100, 200);
	tap_ok(full.run_ns <= 2 * full.wall_ns && full.wall_ns <= SMT_YIELD_WINDOW_NS,
	       "run booked beyond wall is clipped to it (%llu of %llu)",
	       (unsigned long long)full.run_ns, (unsigned long long)full.wall_ns);
	return tap_finish();
}
