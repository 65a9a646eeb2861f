// SPDX-License-Identifier: GPL-2.0
/* Mode names and lists, and the interleaved order of the run matrix. */
#include "../../bench/host/runner/matrix.h"
#include "../../bench/lib/mode.h"
#include "../tap.h"

int main(void)
{
	const char *names[] = { "cpu", "io" };
	int modes[MODE_COUNT], all[] = { 0, 1, 2, 3 };
	struct cell cells[64];
	char err[256];
	int n, i, seen[MODE_COUNT] = { 0 };

	tap_plan_start();
	check_int(mode_lookup("smt-off"), ==, MODE_SMT_OFF, "smt-off");
	check_int(mode_lookup("coresched-prctl"), ==, MODE_CORESCHED_PRCTL, "coresched-prctl");
	check_int(mode_lookup("SMT-OFF"), ==, -1, "names are exact");
	tap_ok(mode_has_cookies(MODE_CORESCHED) && mode_has_cookies(MODE_CORESCHED_PRCTL) &&
	       !mode_has_cookies(MODE_SMT_ON) && !mode_has_cookies(MODE_SMT_OFF),
	       "only the coresched modes give cookies");

	check_int(mode_parse_list("smt-on,coresched", modes, err, sizeof(err)), ==, 2,
		  "a list of two");
	tap_ok(modes[0] == MODE_SMT_ON && modes[1] == MODE_CORESCHED, "in the order given");
	check_int(mode_parse_list("smt-on,turbo", modes, err, sizeof(err)), ==, -1,
		  "unknown mode refused");
	check_str(err, "unknown mode 'turbo' (valid: smt-off, smt-on, coresched, coresched-prctl)",
		  "and the valid ones listed");
	check_int(mode_parse_list("smt-on,smt-on", modes, err, sizeof(err)), ==, -1,
		  "repeated mode refused");
	check_int(mode_parse_list("", modes, err, sizeof(err)), ==, -1, "empty list refused");
	check_int(mode_parse_list("smt-on,", modes, err, sizeof(err)), ==, -1,
		  "trailing comma refused");

	n = matrix_expand(names, 2, all, 4, 3, cells, 64);
	check_int(n, ==, 2 * 4 * 3, "2 workloads x 4 modes x 3 reps");
	check_str(cells[0].id, "cpu.smt-off.r1", "first cell");
	check_str(cells[4].id, "io.smt-off.r1", "each workload runs all modes back to back");
	tap_ok(cells[8].mode == MODE_SMT_ON && cells[11].mode == MODE_SMT_OFF,
	       "second repetition rotates the mode order (BCDA)");
	tap_ok(cells[16].mode == MODE_CORESCHED, "third starts with the third mode (CDAB)");
	for (i = 0; i < n; i++)
		if (cells[i].workload == 0 && cells[i].rep == 2)
			seen[cells[i].mode]++;
	tap_ok(seen[0] == 1 && seen[1] == 1 && seen[2] == 1 && seen[3] == 1,
	       "every mode once per workload and repetition");
	{
		int firsts[MODE_COUNT] = { 0 };

		n = matrix_expand(names, 1, all, 4, 4, cells, 64);
		for (i = 0; i < n; i += 4)
			firsts[cells[i].mode]++;
		tap_ok(firsts[0] == 1 && firsts[1] == 1 && firsts[2] == 1 && firsts[3] == 1,
		       "over 4 repetitions each mode goes first once");
	}
	check_int(matrix_expand(names, 2, all, 4, 3, cells, 10), ==, -1,
		  "too small an output is refused");
	return tap_finish();
}
