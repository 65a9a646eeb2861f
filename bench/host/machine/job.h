/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A guest job: a shell script run by csbench-init inside the guest, with
 * static guest binaries beside it, all on the 9p share. After the boot the
 * share holds job.log, job.status and init.log; everything in the run
 * directory @out survives whatever happened to the guest.
 */
#ifndef CSBENCH_JOB_H
#define CSBENCH_JOB_H

#include "vm.h"

struct job_spec {
	const char *out;	/* run directory, created if needed */
	const char *script;	/* the job (shell script) */
	const char *bin_dir;	/* guest binaries, copied to share/bin */
	const char *extra_dir;	/* files copied to the share's top, or NULL */
	struct vm_spec vm;	/* kernel, initrd, image, accel, timeout */
	const char *accel_why;	/* why this accelerator, for the record */
};

struct job_result {
	struct vm_result vm;
	int have_status;	/* init wrote job.status */
	int exit_code;		/* the script's exit code, if it exited */
	char status[64];	/* "exit N" or "signal N" */
	char share[4096];	/* the share directory, for reading results */
};

/* Returns 0 when the guest powered off after the job exited 0. */
int job_run(struct job_spec *spec, struct job_result *res);

/*
 * The guest line that runs the fidelity probe (csbench-fidelity) into the
 * share's out/fidelity.json (out/ must exist), for a job to start with;
 * and the boot.info lines (fidelity_*) from that file under @out, after
 * the boot.
 */
#define JOB_FIDELITY_PROBE \
	"csbench-fidelity >out/fidelity.json 2>out/fidelity.err || true\n"
void job_record_fidelity(const char *out);

#endif
