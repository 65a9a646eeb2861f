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

#include "trace_util.h"

#define TRACEFS "/sys/kernel/tracing"

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), ret = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static const char *read_line(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

int trace_start(void)
{
	int fd = open(TRACEFS "/trace", O_WRONLY | O_TRUNC);

	if (fd < 0)
		return -errno;
	close(fd);
	return write_str(TRACEFS "/tracing_on", "1");
}

int trace_stop(void)
{
	return write_str(TRACEFS "/tracing_on", "0");
}

int trace_event_enabled(const char *name)
{
	char path[256];
	const char *v;

	snprintf(path, sizeof(path), TRACEFS "/events/sched/%s/enable", name);
	v = read_line(path);
	return v && v[0] == '1';
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
