/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The checkout csbench was built in, found from the executable's own path
 * (ROOT/build/csbench), so the defaults that live there (workloads/, the
 * build cache's kernel and image, build/guest) work from any directory.
 */
#ifndef CSBENCH_CHECKOUT_H
#define CSBENCH_CHECKOUT_H

#include <stddef.h>

/* 0 with ROOT in @root, or -1 when csbench runs from elsewhere (installed). */
int checkout_root(char *root, size_t len);
/*
 * The default --workload-dir: ROOT/workloads, or "workloads" (relative to
 * the working directory) when there is no checkout. Returns @buf.
 */
const char *checkout_workload_dir(char *buf, size_t len);

#define YIELD_PLUGIN_NAME	"csbench-smt-yield.so"

/*
 * The SMT yield plugin (bench/plugin/smt_yield.c), built beside csbench as
 * plugin/csbench-smt-yield.so; @buf, or NULL when it is not built.
 */
const char *checkout_yield_plugin(char *buf, size_t len);

#endif
