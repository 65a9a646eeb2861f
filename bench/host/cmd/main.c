// SPDX-License-Identifier: GPL-2.0
/* csbench: does core scheduling beat turning SMT off? */
#include <stdio.h>
#include <string.h>

#include "../../lib/log.h"
#include "cmd.h"

static const struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "run", cmd_run, "run workloads in every mode and keep the raw results" },
	{ "list", cmd_list, "list the workloads and the modes" },
	{ "show", cmd_show, "print the raw table of a run directory" },
	{ "report", cmd_report, "statistics, verdicts and plots for a run directory" },
	{ "calibrate", cmd_calibrate, "A/A runs of one mode: noise bands for reports" },
	{ "compare", cmd_compare, "regressions between two runs (exit 1 if any)" },
	{ "sweep", cmd_sweep, "a yield sweep's gains, crossover and breakeven by yield" },
	{ "history", cmd_history, "every run's verdicts over time, into results/index.md" },
	{ "verify", cmd_verify, "check a run directory: every cell there, ok, isolated" },
	{ "boot", cmd_boot, "boot the guest once and run a job script in it" },
	{ "cotrace", cmd_cotrace, "re-analyse saved traces for cross-tenant co-residency" },
	{ "schema", cmd_schema, "print the cell schema: every key a cell file may hold" },
};

static void usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: csbench COMMAND [OPTIONS]\n\ncommands:\n");
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].help);
	fprintf(f, "\n'csbench COMMAND --help' describes each command.\n");
}

int main(int argc, char **argv)
{
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("csbench %s\n", CSBENCH_VERSION);
		return EXIT_OK;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			/* Every message of the command says which one it is, once. */
			static char prog[32];

			snprintf(prog, sizeof(prog), "csbench %s", commands[i].name);
			log_prog = prog;
			return commands[i].run(argc - 1, argv + 1);
		}
	err_msg("unknown command '%s'", argv[1]);
	usage(stderr);
	return EXIT_USAGE;
}
