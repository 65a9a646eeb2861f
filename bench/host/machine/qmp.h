/* SPDX-License-Identifier: GPL-2.0 */
/* Just enough QMP to find vCPU threads and start a paused guest. */
#ifndef CSBENCH_QMP_H
#define CSBENCH_QMP_H

/*
 * Connect to @path, waiting up to @timeout_ms for QEMU to create it, and
 * leave capabilities negotiation behind us.
 */
int qmp_connect(const char *path, int timeout_ms);
/* Host thread id of each vCPU, indexed by cpu-index. Returns count or -1. */
int qmp_vcpu_threads(int fd, int *tids, int max);
int qmp_cont(int fd);
/* Parse a query-cpus-fast reply (exposed for tests). */
int qmp_parse_cpus(const char *reply, int *tids, int max);

#endif
