/* SPDX-License-Identifier: GPL-2.0 */
/*
 * csbench's exit codes, shared by the runner and the commands (the
 * machine layer returns errors, never exits). Documented in
 * docs/exit-codes.md.
 */
#ifndef CSBENCH_EXIT_CODES_H
#define CSBENCH_EXIT_CODES_H

enum {
	EXIT_OK = 0,
	EXIT_FAIL = 1,		/* the job or a check failed */
	EXIT_USAGE = 2,		/* bad command line or input file */
	EXIT_GUEST = 3,		/* the guest crashed, hung or QEMU failed */
	EXIT_INTERRUPTED = 130,	/* SIGINT/SIGTERM/SIGHUP; run can be resumed */
};

#endif
