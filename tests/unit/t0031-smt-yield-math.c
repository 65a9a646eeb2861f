// SPDX-License-Identifier: GPL-2.0
/*
 * The yield plugin's arithmetic (bench/plugin/smt_yield_math.h): how long
 * a vCPU beside a busy sibling spins per timer period, and that spinning
 * that long gives back the yield asked for.
 */
#include <math.h>

#include "../../bench/plugin/smt_yield_math.h"
#include "../tap.h"

int main(void)
{
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
	return tap_finish();
}
