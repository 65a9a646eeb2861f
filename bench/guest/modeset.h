/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Setting up and verifying a mode inside the guest (used by the agent and
 * tests/guest/mode_test.c). Every check fills @err with what it found, so a
 * cell whose mode is wrong is recorded as an error, never measured.
 */
#ifndef CSBENCH_MODESET_H
#define CSBENCH_MODESET_H

#include <stddef.h>
#include <sys/types.h>

#include "../lib/mode.h"

#define TENANT_CGROUP_PREFIX	"csb-"
#define MODESET_MAX_PIDS	4096

/* SMT on or off as the mode wants, and cpu controller for tenant groups. */
int mode_prepare(enum csb_mode m, char *err, size_t len);
/*
 * The guest's CPUs and cores from sysfs "present" (every CPU, online or
 * not; a csbench guest has two threads per core, numbered together).
 * 0, or -1 with @err saying what was found.
 */
int guest_topology(int *cpus, int *cores, char *err, size_t len);
/* Online CPUs and siblings are what the mode promises, on any core count. */
int mode_check_topology(enum csb_mode m, char *err, size_t len);
/*
 * Create (or reset) the tenant's cgroup and give it cpu.tag as the mode
 * wants: 1 for coresched, 0 otherwise.
 */
int tenant_cgroup_setup(const char *tenant, enum csb_mode m, char *err,
			size_t len);
int tenant_cgroup_remove(const char *tenant);
/* The tenant's cgroup directory, e.g. /sys/fs/cgroup/csb-a. */
void tenant_cgroup_path(const char *tenant, char *buf, size_t len);
/*
 * Start @argv in the tenant: the child moves into the tenant's cgroup; in
 * coresched-prctl mode it takes a fresh cookie, or shares the cookie of
 * @share_from (another process of the same tenant) when that is not 0, and
 * its descendants inherit it; stdout and stderr go to @out_path; then it
 * execs.
 */
pid_t tenant_spawn(const char *tenant, enum csb_mode m, pid_t share_from,
		   char *const argv[], const char *out_path);
/*
 * Wait until @pid (from tenant_spawn) sits in its tenant's cgroup and, in
 * the coresched modes, has its cookie: before that it runs as nobody's
 * tenant and a trace would blame core scheduling for it. 0 or -1.
 */
int tenant_wait_ready(const char *tenant, enum csb_mode m, pid_t pid,
		      int timeout_ms);
/*
 * Cookies: in the coresched modes every thread of a tenant has the same
 * non-zero cookie and no two tenants share one; otherwise none has a
 * cookie. Threads are read from each tenant's cgroup.threads.
 */
int mode_check_cookies(enum csb_mode m, const char *const *tenants,
		       int ntenants, char *err, size_t len);

#endif
