// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fileio.h"

char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0) {
		fclose(f);
		return NULL;
	}
	rewind(f);
	buf = malloc(n + 1);
	if (buf) {
		n = fread(buf, 1, n, f);
		buf[n] = '\0';
	}
	fclose(f);
	return buf;
}

int read_line_into(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	if (!fgets(buf, len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int write_file_once(const char *path, const char *buf, size_t len)
{
	return write_file_flags(path, buf, len, 0);
}

int write_file_flags(const char *path, const char *buf, size_t len, int flags)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | flags, 0644), ret = 0;
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	close(fd);
	return ret;
}

int write_str_once(const char *path, const char *s)
{
	return write_file_once(path, s, strlen(s));
}
