// SPDX-License-Identifier: GPL-2.0
/* csbench schema: print the cell schema (docs/cell-schema.md is its output). */
#include <stdio.h>
#include <string.h>

#include "../../lib/cell_schema.h"
#include "../../lib/log.h"
#include "cmd.h"

int cmd_schema(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: csbench schema\n\nPrint the cell schema, version %d, as Markdown: "
		       "every key a cell file may hold.\n", CELL_SCHEMA_VERSION);
		return EXIT_OK;
	}
	if (argc > 1) {
		err_msg("unexpected argument '%s'", argv[1]);
		return EXIT_USAGE;
	}
	cell_schema_print(stdout);
	return EXIT_OK;
}
