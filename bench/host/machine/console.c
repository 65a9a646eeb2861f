// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/fileio.h"
#include "console.h"

/*
 * What the kernel prints when something went wrong, after rcutorture's
 * console parser. The first match names the problem. WARNING and BUG must
 * start the message ("] " ends the printk timestamp): boot messages such
 * as "RETBleed: WARNING: Spectre v2 mitigation ..." are not problems.
 */
static const struct {
	const char *name, *needle;
} problems[] = {
	{ "panic", "Kernel panic" },
	{ "oops", "Oops:" },
	/* die()'s first report, whatever the trap: "invalid opcode: 0000 [#1]". */
	{ "oops", " [#1] " },
	{ "panic", "traps: PANIC: " },
	{ "bug", "] BUG:" },
	{ "bug", "\nBUG:" },
	{ "bug", "kernel BUG at" },
	{ "warning", "] WARNING:" },
	{ "warning", "\nWARNING:" },
	{ "lockdep", "possible circular locking dependency" },
	{ "lockdep", "inconsistent lock state" },
	{ "trap", "int3:" },
	{ "trap", "general protection fault" },
	{ "rcu-stall", "rcu_sched self-detected stall" },
	{ "rcu-stall", "rcu: INFO:" },
	{ "kmemleak", "unreferenced object" },
	{ "hung-task", "blocked for more than" },
};

const char *console_scan_text(const char *text, char *line, size_t len)
{
	const char *found = NULL, *name = NULL, *p, *start, *end;
	size_t i;

	for (i = 0; i < sizeof(problems) / sizeof(problems[0]); i++) {
		const char *needle = problems[i].needle;

		if (needle[0] == '\n' && !strncmp(text, needle + 1, strlen(needle + 1)))
			p = text;
		else
			p = strstr(text, needle);
		if (p && *p == '\n')
			p++;
		if (p && (!found || p < found)) {
			found = p;
			name = problems[i].name;
		}
	}
	if (!found)
		return NULL;
	start = found;
	while (start > text && start[-1] != '\n')
		start--;
	end = strchr(found, '\n');
	if (!end)
		end = found + strlen(found);
	snprintf(line, len, "%.*s", (int)(end - start), start);
	/* Serial consoles end lines with \r\n. */
	line[strcspn(line, "\r")] = '\0';
	return name;
}

const char *console_scan(const char *path, char *line, size_t len)
{
	char *text = read_file(path);
	const char *name;

	if (!text)
		return NULL;
	name = console_scan_text(text, line, len);
	free(text);
	return name;
}

const char *console_scan_new(const char *path, long *offset, char *line, size_t len)
{
	const char *name = NULL;
	char *text, *last_nl;
	long size;
	FILE *f = fopen(path, "r");

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) <= *offset ||
	    fseek(f, *offset, SEEK_SET)) {
		fclose(f);
		return NULL;
	}
	text = malloc(size - *offset + 1);
	if (text) {
		size_t got = fread(text, 1, size - *offset, f);

		text[got] = '\0';
		/* A line still being written is scanned whole next time. */
		last_nl = strrchr(text, '\n');
		if (last_nl) {
			last_nl[1] = '\0';
			*offset += last_nl + 1 - text;
			name = console_scan_text(text, line, len);
		}
		free(text);
	}
	fclose(f);
	return name;
}

void console_tail(const char *path, int n)
{
	char *text = read_file(path);
	char *p;
	int lines = 0;

	if (!text)
		return;
	p = text + strlen(text);
	while (p > text && lines <= n) {
		p--;
		if (*p == '\n')
			lines++;
	}
	if (*p == '\n')
		p++;
	for (char *l = strtok(p, "\n"); l; l = strtok(NULL, "\n")) {
		l[strcspn(l, "\r")] = '\0';
		fprintf(stderr, "    | %s\n", l);
	}
	free(text);
}

int console_has(const char *path, const char *needle)
{
	char *text = read_file(path);
	int found;

	if (!text)
		return 0;
	found = strstr(text, needle) != NULL;
	free(text);
	return found;
}
