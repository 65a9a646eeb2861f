// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "opts.h"
#include "strnum.h"

#define OPTS_MAX	48

void opts_help(const char *cmd, const char *usage, const struct opt *opts)
{
	char left[64];
	const struct opt *o;

	printf("usage: csbench %s %s\n\noptions:\n", cmd, usage);
	for (o = opts; o->name; o++) {
		snprintf(left, sizeof(left), "--%s%s%s", o->name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
		printf("  %-24s %s", left, o->help);
		if (o->type == OPT_INT)
			printf(" [%ld..%ld]", o->min, o->max);
		putchar('\n');
	}
	printf("  %-24s %s\n", "--help", "show this help");
}

int opts_parse_only(const char *cmd, const char *usage, const struct opt *opts,
		    int argc, char **argv)
{
	int idx = opts_parse(cmd, usage, opts, argc, argv);

	if (idx < 0)
		return idx;
	if (idx < argc) {
		err_msg("unexpected argument '%s' (csbench %s takes only options)", argv[idx], cmd);
		return -1;
	}
	return 0;
}

int opts_parse(const char *cmd, const char *usage, const struct opt *opts,
	       int argc, char **argv)
{
	struct option lo[OPTS_MAX + 2];
	int n, idx, c, ret;
	long v;

	for (n = 0; opts[n].name && n < OPTS_MAX; n++) {
		lo[n].name = opts[n].name;
		lo[n].has_arg = opts[n].type == OPT_FLAG ? no_argument :
			required_argument;
		lo[n].flag = NULL;
		lo[n].val = 0;
	}
	lo[n] = (struct option){ "help", no_argument, NULL, 'h' };
	lo[n + 1] = (struct option){ 0 };

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", lo, &idx)) != -1) {
		const struct opt *o;

		if (c == 'h') {
			opts_help(cmd, usage, opts);
			return -2;
		}
		if (c == '?') {
			err_msg("unknown option or missing value: %s (see csbench %s --help)",
				argv[optind - 1], cmd);
			return -1;
		}
		o = &opts[idx];
		switch (o->type) {
		case OPT_STR:
			*(const char **)o->dest = optarg;
			break;
		case OPT_FLAG:
			*(int *)o->dest = 1;
			break;
		case OPT_INT:
			ret = parse_long(optarg, o->min, o->max, &v);
			if (ret) {
				err_msg("--%s %s: %s", o->name, optarg,
					ret == -ERANGE ? "out of range" :
					"not a whole number");
				if (ret == -ERANGE)
					fprintf(stderr, "  allowed: %ld..%ld\n",
						o->min, o->max);
				return -1;
			}
			*(long *)o->dest = v;
			break;
		}
	}
	return optind;
}
