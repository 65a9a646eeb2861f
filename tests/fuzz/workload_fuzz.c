// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the workload parser: any byte string must either
 * parse or be refused with a "t.wl..." message; never crash, overrun or
 * leak. `make fuzz` runs it; `make check` replays the corpus.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../bench/lib/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct workload w;
	static const struct wl_topology topo = { 64, 128 };
	char err[512], cmd[1024];
	FILE *f;
	int i;

	if (!size)
		return 0;
	f = fmemopen((void *)data, size, "r");
	if (!f)
		return 0;
	if (workload_parse(f, "t.wl", &w, err, sizeof(err))) {
		if (strncmp(err, "t.wl", 4))
			abort();	/* every error names the file */
	} else {
		for (i = 0; i < w.ntenants; i++)
			workload_command(&w.tenants[i], 86400, &topo, cmd, sizeof(cmd));
	}
	fclose(f);
	return 0;
}
