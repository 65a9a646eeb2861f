// SPDX-License-Identifier: GPL-2.0
/* csbench list: the workloads (from --workload-dir) and the modes. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/log.h"
#include "../../lib/mode.h"
#include "../../lib/opts.h"
#include "../machine/checkout.h"
#include "cmd.h"
#include "../../lib/workload.h"

int cmd_list(int argc, char **argv)
{
	char dir_buf[4096];
	const char *dir = checkout_workload_dir(dir_buf, sizeof(dir_buf));
	const struct opt opts[] = {
		{ "workload-dir", OPT_STR, &dir, 0, 0, "DIR", "where the .wl files are (default: the checkout's workloads/)" },
		{ NULL }
	};
	static struct workload w;
	struct dirent **names;
	char path[4096], err[512], spec[32];
	int idx, n, i, k, bad = 0;

	idx = opts_parse_only("list", "[--workload-dir DIR]", opts, argc, argv);
	if (idx == -2)
		return EXIT_OK;
	if (idx < 0)
		return EXIT_USAGE;
	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		err_errno(errno, "--workload-dir %s", dir);
		return EXIT_USAGE;
	}
	printf("workloads (%s):\n", dir);
	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]->d_name);

		if (len > 3 && !strcmp(names[i]->d_name + len - 3, ".wl")) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
			if (workload_load(path, &w, err, sizeof(err))) {
				err_msg("%s", err);
				bad++;
			} else {
				printf("  %-18s %s [", w.name, w.description);
				for (k = 0; k < w.ntenants; k++)
					printf("%s%s x%s", k ? ", " : "", w.tenants[k].name,
					       workload_threads_spec(&w.tenants[k], spec,
								     sizeof(spec)));
				printf("; quick %d s]\n", w.profiles[WL_QUICK].duration_s);
			}
		}
		free(names[i]);
	}
	free(names);
	printf("modes:\n");
	for (k = 0; k < MODE_COUNT; k++)
		printf("  %-18s %s\n", mode_name(k), mode_description(k));
	return bad ? EXIT_USAGE : EXIT_OK;
}
