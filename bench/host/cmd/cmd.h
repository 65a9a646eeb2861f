/* SPDX-License-Identifier: GPL-2.0 */
/* csbench subcommands: one file each, dispatched from main.c's table. */
#ifndef CSBENCH_CMD_H
#define CSBENCH_CMD_H

#include "../exit_codes.h"

struct report;

int cmd_boot(int argc, char **argv);
int cmd_cotrace(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_history(int argc, char **argv);
int cmd_report(int argc, char **argv);
/*
 * Write DIR's report.md/csv/json (and plots) and print its verdicts (or,
 * with @full, all of report.md). Returns an EXIT_* code.
 */
int report_build(const char *dir, const char *calibration, int plots, int full);
/*
 * Load DIR's cells into @r (a struct report), apply its noise bands (the
 * file @calibration, which must work, or the default one beside the run,
 * which may be missing or refused with a warning) and compute. Returns an
 * EXIT_* code, with the message printed; @r is freed on failure.
 */
int report_open(const char *dir, const char *calibration, struct report *r);
int cmd_run(int argc, char **argv);
int cmd_schema(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_verify(int argc, char **argv);

#endif
