// SPDX-License-Identifier: GPL-2.0
/*
 * vm_run() against a fake QEMU (fake-qemu.c): a clean power-off, a panic
 * found in the console, a hang killed at the timeout, and a QEMU that
 * never starts, each reported as what it is.
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../../bench/host/machine/vm.h"
#include "../tap.h"

#ifndef FAKE_QEMU
#define FAKE_QEMU "build/tests/unit/fake-qemu"
#endif

static struct vm_result run_watched(const char *mode, int timeout, int stall,
				    char *dir);

static struct vm_result run(const char *mode, int timeout, char *dir)
{
	return run_watched(mode, timeout, 0, dir);
}

static struct vm_result run_watched(const char *mode, int timeout, int stall,
				    char *dir)
{
	char console[512], qmp[512], log[512];
	struct vm_spec s = {
		.qemu = FAKE_QEMU, .kernel = "k", .initrd = "i", .image = "img",
		.share = dir, .console = console, .qmp = qmp, .timeout_s = timeout,
	};
	struct vm_result r;

	snprintf(console, sizeof(console), "%s/console-%s.log", dir, mode);
	snprintf(qmp, sizeof(qmp), "%s/qmp-%s.sock", dir, mode);
	snprintf(log, sizeof(log), "%s/qemu-%s.log", dir, mode);
	if (stall) {
		/* A job log that never grows: the watchdog's business. */
		s.progress_file = log;
		s.stall_s = stall;
	}
	setenv("FAKE_QEMU", mode, 1);
	vm_run(&s, log, &r);
	return r;
}

int main(void)
{
	char dir[] = "/tmp/csbench-t0008-XXXXXX";
	struct vm_result r;

	tap_plan_start();
	if (!mkdtemp(dir))
		return KSFT_FAIL;

	r = run("ok", 20, dir);
	check_str(vm_outcome_name(r.outcome), "powered-off", "clean boot: powered off");
	tap_ok(r.boot_s >= 0, "clean boot: time to init measured (%.2f s)", r.boot_s);
	tap_ok(strstr(r.pinning.how, "both threads") != NULL,
	       "clean boot: pinning recorded (%s)", r.pinning.how);

	r = run("panic", 20, dir);
	check_str(vm_outcome_name(r.outcome), "crashed", "panic: reported as a crash");
	tap_ok(strstr(r.problem, "Kernel panic") != NULL,
	       "panic: the console line is named (%s)", r.problem);

	r = run("oops", 120, dir);
	check_str(vm_outcome_name(r.outcome), "crashed", "oops in a live guest: a crash");
	tap_ok(r.seconds < 15, "stopped within seconds of the oops, not at the timeout (%.1f s)",
	       r.seconds);
	tap_ok(strstr(r.problem, "NULL pointer dereference") && strstr(r.problem, "guest stopped"),
	       "the first line of the report is named (%s)", r.problem);

	r = run("hang", 2, dir);
	check_str(vm_outcome_name(r.outcome), "timed-out", "hang: killed at the timeout");
	tap_ok(r.seconds >= 2 && r.seconds < 10, "hang: killed after %.1f s", r.seconds);

	r = run_watched("hang", 60, 2, dir);
	check_str(vm_outcome_name(r.outcome), "timed-out", "stalled job log: killed as hung");
	tap_ok(r.seconds < 10 && strstr(r.problem, "no progress"),
	       "well before the timeout, and said so (%.1f s: %s)", r.seconds, r.problem);

	r = run("fail", 20, dir);
	check_str(vm_outcome_name(r.outcome), "qemu-failed", "QEMU refusing to start is reported");
	tap_ok(strstr(r.problem, "fake-qemu: refusing to start") != NULL,
	       "the reason is QEMU's own first line (%s)", r.problem);
	tap_ok(r.seconds < 5, "and found without waiting for QMP (%.1f s)", r.seconds);

	{
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		if (system(cmd))
			tap_diag("could not remove %s", dir);
	}
	return tap_finish();
}
