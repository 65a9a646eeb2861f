// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/log.h"
#include "../lib/paths.h"
#include "console.h"
#include "job.h"
#include "smtcap.h"

static int copy_dir(const char *src, const char *dst)
{
	char a[4096], b[4096];
	struct dirent *de;
	DIR *d = opendir(src);
	int ret = 0;

	if (!d)
		return -errno;
	while (!ret && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(a, sizeof(a), "%s/%s", src, de->d_name);
		snprintf(b, sizeof(b), "%s/%s", dst, de->d_name);
		ret = copy_file(a, b);
	}
	closedir(d);
	return ret;
}

static void write_info(const char *path, const struct job_spec *s,
		       const struct job_result *r)
{
	char text[2048];
	int n;

	n = snprintf(text, sizeof(text),
		     "accel=%s\naccel_reason=%s\npinning=%s\n"
		     "pin_vcpus=%d,%d,%d,%d\noutcome=%s\nproblem=%s\n"
		     "seconds=%.2f\nboot_to_init_s=%.2f\njob_status=%s\n",
		     accel_name(s->vm.accel), s->accel_why ? s->accel_why : "",
		     r->vm.pinning.how, r->vm.pinning.host_cpu[0],
		     r->vm.pinning.host_cpu[1], r->vm.pinning.host_cpu[2],
		     r->vm.pinning.host_cpu[3], vm_outcome_name(r->vm.outcome),
		     r->vm.problem, r->vm.seconds, r->vm.boot_s,
		     r->have_status ? r->status : "none");
	if (s->vm.smt_yield > 0 && n < (int)sizeof(text))
		n += snprintf(text + n, sizeof(text) - n, "smt_yield_target=%.3f\ncap_period_us=%d\n"
			      "cap_core_pct=%d\n", s->vm.smt_yield, s->vm.cap_period_us,
			      s->vm.cap_core_pct ?: SMTCAP_CORE_PCT);
	if (n >= (int)sizeof(text))
		n = sizeof(text) - 1;
	if (write_atomic(path, text, n))
		warn("cannot write %s", path);
}

/* The guest never started: say why, as vm_run would, and blame the host. */
static int setup_failed(struct job_result *r, int err, const char *what,
			const char *path)
{
	r->vm.outcome = VM_QEMU_FAILED;
	r->vm.boot_s = -1;
	snprintf(r->vm.problem, sizeof(r->vm.problem), "%s %.300s: %s", what, path,
		 strerror(err));
	err_msg("%s", r->vm.problem);
	return -1;
}

int job_run(struct job_spec *s, struct job_result *r)
{
	char console[4096], qemu_log[4096], qmp[256], path[4096];
	char pinning[256];
	FILE *f;
	int ret;

	memset(r, 0, sizeof(*r));
	snprintf(r->share, sizeof(r->share), "%s/share", s->out);
	xsnprintf(path, sizeof(path), "%s/bin", r->share);
	ret = mkdirs(path, 0755);
	if (ret)
		return setup_failed(r, -ret, "cannot create", path);
	xsnprintf(path, sizeof(path), "%s/job", r->share);
	ret = copy_file(s->script, path);
	if (!ret && s->bin_dir) {
		xsnprintf(path, sizeof(path), "%s/bin", r->share);
		ret = copy_dir(s->bin_dir, path);
	}
	if (!ret && s->extra_dir)
		ret = copy_dir(s->extra_dir, r->share);
	if (ret)
		return setup_failed(r, -ret, "cannot prepare the share", r->share);
	/* Stale results from an earlier boot must not be mistaken for ours. */
	for (const char *const *n = (const char *const[]){ "job.log",
		"job.status", "init.log", NULL }; *n; n++) {
		xsnprintf(path, sizeof(path), "%s/%s", r->share, *n);
		unlink(path);
	}

	snprintf(console, sizeof(console), "%s/console.log", s->out);
	snprintf(qemu_log, sizeof(qemu_log), "%s/qemu.log", s->out);
	snprintf(qmp, sizeof(qmp), "%s/csbench-%d.qmp",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	s->vm.share = r->share;
	s->vm.console = console;
	s->vm.qmp = qmp;

	vm_run(&s->vm, qemu_log, &r->vm);
	unlink(qmp);
	snprintf(pinning, sizeof(pinning), "%s; vCPUs on host cpus %d,%d,%d,%d",
		 r->vm.pinning.how, r->vm.pinning.host_cpu[0], r->vm.pinning.host_cpu[1],
		 r->vm.pinning.host_cpu[2], r->vm.pinning.host_cpu[3]);
	snprintf(path, sizeof(path), "%s/qemu-cmd", s->out);
	if (qemu_cmd_write_replay(path, &s->vm, pinning))
		warn("cannot write %s: the boot cannot be replayed by hand", path);

	xsnprintf(path, sizeof(path), "%s/job.status", r->share);
	f = fopen(path, "r");
	if (f && fgets(r->status, sizeof(r->status), f)) {
		r->status[strcspn(r->status, "\n")] = '\0';
		r->have_status = 1;
		if (sscanf(r->status, "exit %d", &r->exit_code) != 1)
			r->exit_code = -1;
	}
	if (f)
		fclose(f);
	/* A cloud guest whose provisioning failed said so and powered off. */
	if (s->vm.cloud_seed && !r->have_status && r->vm.outcome == VM_POWERED_OFF &&
	    console_has(console, "csbench-cloud: provisioning failed"))
		snprintf(r->vm.problem, sizeof(r->vm.problem), "the cloud image's provisioning "
			 "failed (see %.300s/provision.log)", r->share);
	snprintf(path, sizeof(path), "%s/boot.info", s->out);
	write_info(path, s, r);
	return r->vm.outcome == VM_POWERED_OFF && r->have_status &&
		r->exit_code == 0 ? 0 : -1;
}
