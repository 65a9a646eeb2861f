// SPDX-License-Identifier: GPL-2.0
/* vCPU thread ids from QMP's query-cpus-fast reply. */
#include "../../bench/host/machine/qmp.h"
#include "../tap.h"

int main(void)
{
	/* Trimmed from a real QEMU 7.2 reply. */
	const char *reply = "{\"return\": ["
		"{\"thread-id\": 2101, \"props\": {\"core-id\": 0, \"thread-id\": 0}, \"cpu-index\": 0, \"target\": \"x86_64\"},"
		"{\"thread-id\": 2102, \"props\": {\"core-id\": 0, \"thread-id\": 1}, \"cpu-index\": 1, \"target\": \"x86_64\"},"
		"{\"thread-id\": 2104, \"props\": {\"core-id\": 1, \"thread-id\": 1}, \"cpu-index\": 3, \"target\": \"x86_64\"},"
		"{\"thread-id\": 2103, \"props\": {\"core-id\": 1, \"thread-id\": 0}, \"cpu-index\": 2, \"target\": \"x86_64\"}]}";
	int tids[4] = { 0 };

	tap_plan_start();
	check_int(qmp_parse_cpus(reply, tids, 4), ==, 4, "four vCPUs found");
	tap_ok(tids[0] == 2101 && tids[1] == 2102 && tids[2] == 2103 && tids[3] == 2104,
	       "thread ids placed by cpu-index, not by order");
	check_int(qmp_parse_cpus(reply, tids, 2), ==, -1, "cpu-index beyond the table is an error");
	check_int(qmp_parse_cpus("{\"error\": {}}", tids, 4), ==, -1, "error reply rejected");
	check_int(qmp_parse_cpus("not json", tids, 4), ==, -1, "garbage rejected");
	return tap_finish();
}
