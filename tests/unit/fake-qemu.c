// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for qemu-system-x86_64 that speaks just enough QMP for
 * vm_run() and then plays a guest's fate, chosen by FAKE_QEMU:
 *   ok     print csbench-init lines to the console and exit 0 (power-off)
 *   panic  print a kernel panic to the console and exit 0 (-no-reboot)
 *   hang   never exit
 *   fail   exit 1 before creating the QMP socket
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static void reply(int fd, const char *s)
{
	if (write(fd, s, strlen(s)) < 0)
		exit(3);
}

/* Answer one command per line until "cont". */
static void serve(int fd)
{
	char buf[4096];
	size_t len = 0;
	ssize_t n;

	reply(fd, "{\"QMP\": {\"version\": {}, \"capabilities\": []}}\r\n");
	while ((n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0) {
		char *nl;

		len += n;
		buf[len] = '\0';
		while ((nl = strchr(buf, '\n'))) {
			*nl = '\0';
			if (strstr(buf, "query-cpus-fast")) {
				char r[512];

				snprintf(r, sizeof(r), "{\"return\": ["
					 "{\"cpu-index\": 0, \"thread-id\": %d},"
					 "{\"cpu-index\": 1, \"thread-id\": %d},"
					 "{\"cpu-index\": 2, \"thread-id\": %d},"
					 "{\"cpu-index\": 3, \"thread-id\": %d}]}\r\n",
					 getpid(), getpid(), getpid(), getpid());
				reply(fd, r);
			} else if (strstr(buf, "\"cont\"")) {
				reply(fd, "{\"return\": {}}\r\n");
				return;
			} else {
				reply(fd, "{\"return\": {}}\r\n");
			}
			len -= nl + 1 - buf;
			memmove(buf, nl + 1, len + 1);
		}
	}
}

int main(int argc, char **argv)
{
	const char *mode = getenv("FAKE_QEMU") ?: "ok";
	const char *qmp = NULL, *console = NULL;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int i, lfd, fd;
	FILE *con;

	for (i = 1; i < argc - 1; i++) {
		if (!strcmp(argv[i], "-qmp") && !strncmp(argv[i + 1], "unix:", 5))
			qmp = argv[i + 1] + 5;
		if (!strcmp(argv[i], "-chardev") && strstr(argv[i + 1], "path="))
			console = strstr(argv[i + 1], "path=") + 5;
	}
	if (!strcmp(mode, "fail") || !qmp || !console) {
		fprintf(stderr, "fake-qemu: refusing to start\n");
		return 1;
	}
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%.*s",
		 (int)strcspn(qmp, ","), qmp);
	lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, 1))
		return 2;
	fd = accept(lfd, NULL, NULL);
	serve(fd);
	close(fd);

	con = fopen(console, "w");
	if (!con)
		return 2;
	fprintf(con, "[    0.000000] Linux version 6.1.192\r\n");
	fprintf(con, "csbench-init: [1.000] step early-mounts ok\r\n");
	fflush(con);
	if (!strcmp(mode, "panic")) {
		fprintf(con, "[    2.000000] Kernel panic - not syncing: Fatal exception\r\n");
		fclose(con);
		return 0;
	}
	if (!strcmp(mode, "oops")) {
		/* An oops the guest survives: it keeps running, as after a WARN. */
		fprintf(con, "[    2.000000] BUG: kernel NULL pointer dereference, address: 0000000000000048\r\n");
		fprintf(con, "[    2.000001] Oops: 0000 [#1] PREEMPT SMP NOPTI\r\n");
		fclose(con);
		for (;;)
			pause();
	}
	if (!strcmp(mode, "hang")) {
		fclose(con);
		for (;;)
			pause();
	}
	fprintf(con, "[    3.000000] reboot: Power down\r\n");
	fclose(con);
	return 0;
}
