// SPDX-License-Identifier: GPL-2.0
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "checkout.h"

/* build/csbench, or build/san/csbench (make sanitize-test): a few levels up. */
#define CHECKOUT_MAX_DEPTH	3

int checkout_root(char *root, size_t len)
{
	char dir[PATH_MAX], script[PATH_MAX + 64], *slash;
	ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	int depth;

	if (n <= 0)
		return -1;
	dir[n] = '\0';
	for (depth = 0; depth <= CHECKOUT_MAX_DEPTH; depth++) {
		slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = '\0';		/* the directory above */
		snprintf(script, sizeof(script), "%s/scripts/kernel-build.sh", dir);
		if (!access(script, X_OK)) {
			snprintf(root, len, "%s", dir);
			return 0;
		}
	}
	return -1;
}

const char *checkout_workload_dir(char *buf, size_t len)
{
	char root[PATH_MAX];

	if (checkout_root(root, sizeof(root)))
		snprintf(buf, len, "workloads");
	else
		snprintf(buf, len, "%s/workloads", root);
	return buf;
}

const char *checkout_yield_plugin(char *buf, size_t len)
{
	char dir[PATH_MAX], root[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);

	/* Built beside csbench (build/plugin), or in the checkout's build/. */
	if (n > 0) {
		dir[n] = '\0';
		slash = strrchr(dir, '/');
		if (slash) {
			*slash = '\0';
			snprintf(buf, len, "%s/plugin/" YIELD_PLUGIN_NAME, dir);
			if (!access(buf, R_OK))
				return buf;
		}
	}
	if (!checkout_root(root, sizeof(root))) {
		snprintf(buf, len, "%s/build/plugin/" YIELD_PLUGIN_NAME, root);
		if (!access(buf, R_OK))
			return buf;
	}
	return NULL;
}
