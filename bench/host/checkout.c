// SPDX-License-Identifier: GPL-2.0
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <unistd.h>

#include "checkout.h"

int checkout_root(char *root, size_t len)
{
	char exe[PATH_MAX], script[PATH_MAX + 64];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return -1;
	exe[n] = '\0';
	snprintf(root, len, "%s", dirname(dirname(exe)));
	snprintf(script, sizeof(script), "%s/scripts/kernel-build.sh", root);
	return access(script, X_OK) ? -1 : 0;
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
