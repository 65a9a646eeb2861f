// SPDX-License-Identifier: GPL-2.0
/*
 * Only tracing_on and the buffer are touched at run time: enabling or
 * disabling an event patches kernel text, which kills TCG guests.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../lib/fileio.h"
#include "trace_util.h"

#define TRACEFS "/sys/kernel/tracing"

int trace_start(void)
{
	int fd = open(TRACEFS "/trace", O_WRONLY | O_TRUNC);

	if (fd < 0)
		return -errno;
	close(fd);
	return write_str_once(TRACEFS "/tracing_on", "1");
}

int trace_stop(void)
{
	return write_str_once(TRACEFS "/tracing_on", "0");
}

int trace_event_enabled(const char *name)
{
	char path[256], v[8];

	snprintf(path, sizeof(path), TRACEFS "/events/sched/%s/enable", name);
	return !read_line_into(path, v, sizeof(v)) && v[0] == '1';
}

static long scan(const char *needle, char *last, size_t len)
{
	char line[1024];
	FILE *f = fopen(TRACEFS "/trace", "r");
	long n = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || !strstr(line, needle))
			continue;
		n++;
		if (last)
			snprintf(last, len, "%s", line);
	}
	fclose(f);
	return n;
}

long trace_count(const char *needle)
{
	return scan(needle, NULL, 0);
}

const char *trace_last(const char *needle)
{
	static char last[1024];

	last[0] = '\0';
	if (scan(needle, last, sizeof(last)) <= 0)
		return NULL;
	last[strcspn(last, "\n")] = '\0';
	return last;
}

int trace_save(const char *path, const char *title,
	       const struct cotrace_tenant *t, int n)
{
	char buf[65536];
	FILE *in, *out;
	size_t got;
	int i;

	in = fopen(TRACEFS "/trace", "r");
	out = fopen(path, "w");
	if (!in || !out) {
		int ret = -errno;

		if (in)
			fclose(in);
		if (out)
			fclose(out);
		return ret;
	}
	fprintf(out, "# %s\n", title);
	for (i = 0; i < n; i++)
		fprintf(out, "# pid %d tenant %d\n", t[i].pid, t[i].tenant);
	while ((got = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, got, out);
	fclose(in);
	return fclose(out) ? -errno : 0;
}
