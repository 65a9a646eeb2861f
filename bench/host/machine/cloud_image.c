// SPDX-License-Identifier: GPL-2.0
/* The cloud image's format and checksum (see cloud_image.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cloud_image.h"

int file_sha256(const char *path, char *hex, char *err, size_t len)
{
	char out[128];
	int fds[2], status;
	ssize_t n, got = 0;
	pid_t pid;

	if (pipe(fds)) {
		snprintf(err, len, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(err, len, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (pid == 0) {
		/* No shell: a path with quotes or spaces needs no escaping. */
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		execlp("sha256sum", "sha256sum", "--", path, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while (got < (ssize_t)sizeof(out) - 1 &&
	       (n = read(fds[0], out + got, sizeof(out) - 1 - got)) > 0)
		got += n;
	close(fds[0]);
	out[got] = '\0';
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) ||
	    got < 64 || strspn(out, "0123456789abcdef") < 64) {
		snprintf(err, len, "sha256sum %.300s failed", path);
		return -1;
	}
	memcpy(hex, out, 64);
	hex[64] = '\0';
	return 0;
}

int cloud_image_inspect(const char *path, struct cloud_image *ci, char *err, size_t len)
{
	static const unsigned char qcow2_magic[4] = { 'Q', 'F', 'I', 0xfb };
	unsigned char head[512];
	struct stat st;
	ssize_t n;
	int fd;

	memset(ci, 0, sizeof(*ci));
	ci->path = path;
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		snprintf(err, len, "%.300s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, len, "%.300s: not a regular file", path);
		close(fd);
		return -1;
	}
	n = read(fd, head, sizeof(head));
	close(fd);
	/* A raw disk with a partition table ends its first sector with 55 aa. */
	if (n >= 4 && !memcmp(head, qcow2_magic, 4))
		snprintf(ci->format, sizeof(ci->format), "qcow2");
	else if (n == (ssize_t)sizeof(head) && head[510] == 0x55 && head[511] == 0xaa)
		snprintf(ci->format, sizeof(ci->format), "raw");
	else {
		snprintf(err, len, "%.300s: neither a qcow2 image nor a partitioned raw disk "
			 "(Debian's genericcloud image is a qcow2)", path);
		return -1;
	}
	return file_sha256(path, ci->sha256, err, len);
}
