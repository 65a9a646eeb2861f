// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <jansson.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "paths.h"

void cache_dir(char *buf, size_t len)
{
	const char *c = getenv("CSBENCH_CACHE");
	const char *x = getenv("XDG_CACHE_HOME");
	const char *h = getenv("HOME");

	if (c && *c)
		snprintf(buf, len, "%s", c);
	else if (x && *x)
		snprintf(buf, len, "%s/csbench", x);
	else
		snprintf(buf, len, "%s/.cache/csbench", h ? h : "/tmp");
}

int mkdirs(const char *path, int mode)
{
	char tmp[4096];
	char *p;

	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, mode) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, mode) && errno != EEXIST)
		return -errno;
	return 0;
}

static int write_all(int fd, const void *data, size_t len)
{
	const char *p = data;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= n;
	}
	return 0;
}

int write_atomic(const char *path, const void *data, size_t len)
{
	char tmp[4096];
	int fd, ret;

	if (snprintf(tmp, sizeof(tmp), "%s.tmp.%d", path, (int)getpid()) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	ret = write_all(fd, data, len);
	/* Data must be on disk before the name points at it. */
	if (!ret && fsync(fd))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

int copy_file(const char *src, const char *dst)
{
	char buf[65536];
	struct stat st;
	int in, out, ret = 0;
	ssize_t n;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	if (fstat(in, &st)) {
		ret = -errno;
		close(in);
		return ret;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC,
		   st.st_mode & 0777);
	if (out < 0) {
		ret = -errno;
		close(in);
		return ret;
	}
	while ((n = read(in, buf, sizeof(buf))) > 0) {
		ret = write_all(out, buf, n);
		if (ret)
			break;
	}
	if (n < 0)
		ret = -errno;
	if (close(out) && !ret)
		ret = -errno;
	close(in);
	return ret;
}

int have_program(const char *prog)
{
	char path[4096];
	const char *dirs = getenv("PATH"), *end;

	if (strchr(prog, '/'))
		return !access(prog, X_OK);
	for (; dirs && *dirs; dirs = *end ? end + 1 : end) {
		end = strchrnul(dirs, ':');
		snprintf(path, sizeof(path), "%.*s/%s", (int)(end - dirs), dirs, prog);
		if (!access(path, X_OK))
			return 1;
	}
	return 0;
}

int xsnprintf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len)
		fatal("a path or name of %d bytes does not fit in %zu: \"%.60s...\"", n, len, buf);
	return n;
}

const char *json_error_where(char *buf, size_t len, const char *path, const json_error_t *e)
{
	if (e->line < 1)
		snprintf(buf, len, "%s", e->text);
	else
		snprintf(buf, len, "%s:%d: %s", path, e->line, e->text);
	return buf;
}

int json_write_atomic(const char *path, const json_t *o, size_t flags)
{
	char *text = json_dumps(o, flags);
	int ret;

	if (!text)
		return -ENOMEM;
	ret = write_atomic(path, text, strlen(text));
	free(text);
	return ret;
}

int input_missing(const char *opt, const char *path, unsigned int type)
{
	struct stat st;

	if (stat(path, &st) || access(path, R_OK)) {
		err_errno(errno, "%s %s", opt, path);
		return 1;
	}
	if ((st.st_mode & S_IFMT) != type) {
		err_msg("%s %s: not a %s", opt, path, type == S_IFDIR ? "directory" : "regular file");
		return 1;
	}
	return 0;
}

json_t *json_from_info(const char *path)
{
	char line[1024];
	json_t *o = json_object();
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f)) {
		char *eq = strchr(line, '=');

		if (!eq)
			continue;
		*eq = '\0';
		eq[1 + strcspn(eq + 1, "\n")] = '\0';
		json_object_set_new(o, line, json_string(eq + 1));
	}
	if (f)
		fclose(f);
	return o;
}
