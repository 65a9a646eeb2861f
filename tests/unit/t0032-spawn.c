// SPDX-License-Identifier: GPL-2.0
/*
 * No shell on paths (bench/lib/spawn.h): names with quotes, spaces,
 * "$()", a newline and a leading '-' reach programs and the tree remover
 * as themselves and run nothing. Before spawn.c, run_boots removed a boot
 * folder with system("rm -rf '<dir>'") and a quote in the results path
 * ran a command; the agent looked a workload's required tool up with
 * system("command -v %s").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../bench/lib/spawn.h"
#include "../tap.h"

/* Each of these, as a file or folder name, would run "touch pwned" in sh. */
static const char *const hostile[] = {
	"it's here",
	"'; touch pwned; '",
	"$(touch pwned)",
	"`touch pwned`",
	"new\nline; touch pwned",
	"-rf",
};

static int exists(const char *dir, const char *name)
{
	char p[1024];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return !lstat(p, &st);
}

static void touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT, 0644);

	if (fd >= 0)
		close(fd);
}

int main(void)
{
	char tmp[] = "/tmp/t0032-XXXXXX", dir[512], sub[1024], keep[512], buf[256];
	unsigned int i;

	tap_plan_start();
	if (!mkdtemp(tmp) || chdir(tmp)) {
		tap_ok(0, "a temporary folder");
		return tap_finish();
	}
	snprintf(keep, sizeof(keep), "%s/keep", tmp);
	mkdir(keep, 0755);
	touch("keep/precious");

	for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		snprintf(dir, sizeof(dir), "%s/%s", tmp, hostile[i]);
		mkdir(dir, 0755);
		snprintf(sub, sizeof(sub), "%s/a b", dir);
		mkdir(sub, 0755);
		snprintf(sub, sizeof(sub), "%s/a b/f", dir);
		touch(sub);
		/* A link out of the tree: removed, never followed. */
		snprintf(sub, sizeof(sub), "%s/link", dir);
		if (symlink(keep, sub))
			tap_diag("symlink: %s", strerror(errno));
		snprintf(buf, sizeof(buf), "remove_tree() of name %u succeeds", i);
		check_int(remove_tree(dir), ==, 0, buf);
		tap_ok(!exists(tmp, hostile[i]), "and the folder is gone");
	}
	tap_ok(exists(tmp, "keep/precious"), "a linked folder outside the trees is untouched");
	tap_ok(!exists(tmp, "pwned"), "no name ran a command");
	check_int(remove_tree("no such folder"), ==, 0, "a missing tree is already removed");

	for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		char *argv[] = { "printf", "%s\\n", (char *)hostile[i], NULL };
		const char *nl = strchr(hostile[i], '\n');

		tap_ok(spawn_last_line(argv, buf, sizeof(buf)) == 0,
		       "printf with argument %u exits 0", i);
		/* The last line of a two-line argument is its second line. */
		check_str(buf, nl ? nl + 1 : hostile[i], "and prints it verbatim");
		check_int(spawn_first_line(argv, buf, sizeof(buf)), ==, 0, "first line too");
		tap_ok(!strncmp(buf, hostile[i], nl ? (size_t)(nl - hostile[i]) : strlen(hostile[i])),
		       "is its first line");
		tap_ok(!on_path(hostile[i]), "on_path() does not find it");
	}
	tap_ok(!exists(tmp, "pwned"), "no argument ran a command");
	{
		char *bad[] = { "no-such-program-csbench", NULL };
		char *fails[] = { "sh", "-c", "echo out; echo err >&2; exit 3", NULL };

		check_int(spawn_wait(bad, -1), ==, -ENOENT, "a missing program: -ENOENT");
		check_int(spawn_first_line(fails, buf, sizeof(buf)), ==, 3,
			  "the exit status comes back");
		check_str(buf, "out", "with the first line of its output");
	}
	tap_ok(on_path("sh"), "on_path() finds sh");
	tap_ok(on_path("/bin/sh"), "and a path to it");
	tap_ok(!on_path("/tmp"), "but not a folder");
	tap_ok(!on_path(""), "nor an empty name");

	if (chdir("/") || remove_tree(tmp))
		tap_diag("cannot remove %s", tmp);
	return tap_finish();
}
