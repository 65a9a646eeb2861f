/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Command-line options as a table: each entry names its type, bounds and
 * help, so parsing, range checks and --help come from one place.
 */
#ifndef CSBENCH_OPTS_H
#define CSBENCH_OPTS_H

enum opt_type { OPT_STR, OPT_INT, OPT_FLAG };

struct opt {
	const char *name;	/* long name, without "--" */
	enum opt_type type;
	void *dest;		/* const char **, long *, or int * */
	long min, max;		/* OPT_INT bounds */
	const char *arg;	/* argument name for help, e.g. "FILE" */
	const char *help;
};

/*
 * Parse argv[1..] against @opts (terminated by a NULL name). Returns the
 * index of the first non-option argument, -1 after printing a message
 * naming the bad option or value, or -2 when --help was given (help has
 * been printed to stdout).
 */
int opts_parse(const char *cmd, const char *usage, const struct opt *opts,
	       int argc, char **argv);
/*
 * opts_parse() for a command that takes options only: an argument left
 * over is refused, naming it. 0, -1 (message printed) or -2 (--help).
 */
int opts_parse_only(const char *cmd, const char *usage, const struct opt *opts,
		    int argc, char **argv);
void opts_help(const char *cmd, const char *usage, const struct opt *opts);

#endif
