// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <stdlib.h>
#include <jansson.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "../../lib/log.h"
#include "qmp.h"

#define QMP_IO_MS	5000

static int qmp_handshake(int fd);

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

int qmp_connect(const char *path, int timeout_ms)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, waited;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		err_msg("QMP socket path too long: %s", path);
		return -1;
	}
	strcpy(sa.sun_path, path);
	for (waited = 0; waited <= timeout_ms; waited += 50) {
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -1;
		if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
			if (!qmp_handshake(fd))
				return fd;
			close(fd);
			return -1;
		}
		close(fd);
		sleep_ms(50);
	}
	return -1;
}

/* Read one JSON line that is not an asynchronous event. */
static json_t *qmp_read(int fd)
{
	static char buf[65536];
	static size_t len;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	json_error_t jerr;
	char *nl;
	json_t *msg;
	ssize_t n;

	for (;;) {
		while ((nl = memchr(buf, '\n', len))) {
			*nl = '\0';
			msg = json_loads(buf, 0, &jerr);
			len -= nl + 1 - buf;
			memmove(buf, nl + 1, len);
			if (msg && !json_object_get(msg, "event"))
				return msg;
			json_decref(msg);
		}
		if (len == sizeof(buf) - 1 || poll(&p, 1, QMP_IO_MS) <= 0)
			return NULL;
		n = read(fd, buf + len, sizeof(buf) - 1 - len);
		if (n <= 0)
			return NULL;
		len += n;
	}
}

static json_t *qmp_cmd(int fd, const char *cmd)
{
	char line[128];
	json_t *reply;
	int n;

	n = snprintf(line, sizeof(line), "{\"execute\":\"%s\"}\n", cmd);
	if (write(fd, line, n) != n)
		return NULL;
	reply = qmp_read(fd);
	if (!reply || !json_object_get(reply, "return")) {
		err_msg("QMP %s failed", cmd);
		json_decref(reply);
		return NULL;
	}
	return reply;
}

static int qmp_handshake(int fd)
{
	json_t *greeting, *r;

	greeting = qmp_read(fd);
	if (!greeting || !json_object_get(greeting, "QMP")) {
		err_msg("no QMP greeting from QEMU");
		json_decref(greeting);
		return -1;
	}
	json_decref(greeting);
	r = qmp_cmd(fd, "qmp_capabilities");
	if (!r)
		return -1;
	json_decref(r);
	return 0;
}

int qmp_parse_cpus(const char *reply, int *tids, int max)
{
	json_t *root, *ret, *cpu;
	json_error_t jerr;
	size_t i;
	int count = 0;

	root = json_loads(reply, 0, &jerr);
	if (!root)
		return -1;
	ret = json_object_get(root, "return");
	if (!json_is_array(ret))
		goto bad;
	json_array_foreach(ret, i, cpu) {
		json_t *idx = json_object_get(cpu, "cpu-index");
		json_t *tid = json_object_get(cpu, "thread-id");

		if (!json_is_integer(idx) || !json_is_integer(tid))
			goto bad;
		if (json_integer_value(idx) < 0 ||
		    json_integer_value(idx) >= max)
			goto bad;
		tids[json_integer_value(idx)] = json_integer_value(tid);
		count++;
	}
	json_decref(root);
	return count;
bad:
	json_decref(root);
	return -1;
}

int qmp_vcpu_threads(int fd, int *tids, int max)
{
	json_t *r;
	char *text;
	int n;

	r = qmp_cmd(fd, "query-cpus-fast");
	if (!r)
		return -1;
	text = json_dumps(r, JSON_COMPACT);
	json_decref(r);
	if (!text)
		return -1;
	n = qmp_parse_cpus(text, tids, max);
	free(text);
	return n;
}

int qmp_cont(int fd)
{
	json_t *r;

	r = qmp_cmd(fd, "cont");
	if (!r)
		return -1;
	json_decref(r);
	return 0;
}
