// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_file.h"

static const char *file_kind(mode_t m)
{
	static const struct {
		mode_t type;
		const char *name;
	} kinds[] = {
		{ S_IFIFO, "a FIFO" }, { S_IFDIR, "a directory" }, { S_IFCHR, "a character device" },
		{ S_IFBLK, "a block device" }, { S_IFSOCK, "a socket" },
	};
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if ((m & S_IFMT) == kinds[i].type)
			return kinds[i].name;
	return "of an unknown type";
}

/* As jansson words its own, the file named: callers print only the text. */
static void set_error(json_error_t *err, const char *path, const char *fmt, const char *what)
{
	if (!err)
		return;
	memset(err, 0, sizeof(*err));
	err->line = -1;
	err->column = -1;
	err->position = -1;
	snprintf(err->source, sizeof(err->source), "%s", path);
	snprintf(err->text, sizeof(err->text), fmt, path, what);
}

json_t *json_load_regular(const char *path, json_error_t *err)
{
	/* O_NONBLOCK: opening a FIFO with no writer would wait for one. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	json_t *j;

	if (fd < 0) {
		set_error(err, path, "unable to open %s: %s", strerror(errno));
		return NULL;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		set_error(err, path, "%s: not a regular file (%s)", file_kind(st.st_mode));
		close(fd);
		errno = EINVAL;
		return NULL;
	}
	j = json_loadfd(fd, 0, err);
	close(fd);
	return j;
}
