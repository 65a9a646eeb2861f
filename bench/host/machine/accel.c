// SPDX-License-Identifier: GPL-2.0
/*
 * On these machines /dev/kvm opens but a KVM guest hangs after the BIOS,
 * so "is /dev/kvm there?" is not the question; "does a kernel boot under
 * it?" is. The probe boots the real kernel with one vCPU and the
 * csbench.probe flag, which makes csbench-init power off at once.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "../../lib/log.h"
#include "accel.h"
#include "console.h"

#define PROBE_TIMEOUT_S	10

static unsigned long fnv1a(const char *s, unsigned long h)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211UL;
	return h;
}

/* Same host CPU, host kernel and machine name: same answer. */
static void probe_cache_path(const char *cache_dir, char *path, size_t len)
{
	unsigned long h = 14695981039346656037UL;
	char line[256], model[256] = "";
	struct utsname u;
	FILE *f;

	f = fopen("/proc/cpuinfo", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "model name", 10)) {
			snprintf(model, sizeof(model), "%s", line);
			break;
		}
	if (f)
		fclose(f);
	uname(&u);
	h = fnv1a(model, h);
	h = fnv1a(u.release, h);
	h = fnv1a(u.nodename, h);
	snprintf(path, len, "%s/accel-probe-%016lx", cache_dir, h);
}

static int probe_kvm(const char *kernel, const char *initrd,
		     const char *cache_dir, char *why, size_t len)
{
	char console[512], qmp[512], log[512];
	struct vm_spec spec = {
		.kernel = kernel,
		.initrd = initrd,
		.console = console,
		.qmp = qmp,
		.accel = ACCEL_KVM,
		.memory_mb = 512,
		.timeout_s = PROBE_TIMEOUT_S,
		.probe = 1,
	};
	struct vm_result res;

	snprintf(console, sizeof(console), "%s/accel-probe.console", cache_dir);
	snprintf(qmp, sizeof(qmp), "%s/accel-probe.qmp", cache_dir);
	snprintf(log, sizeof(log), "%s/accel-probe.qemu.log", cache_dir);
	info("probing KVM with a %d s boot of %s", PROBE_TIMEOUT_S, kernel);
	vm_run(&spec, log, &res);
	unlink(qmp);
	if (res.outcome == VM_POWERED_OFF &&
	    console_has(console, "csbench-init: probe ok")) {
		snprintf(why, len, "KVM probe boot reached init in %.1f s",
			 res.seconds);
		return 1;
	}
	snprintf(why, len, "KVM probe boot failed (%s%s%s; console %s)",
		 vm_outcome_name(res.outcome), *res.problem ? ": " : "",
		 res.problem, console);
	return 0;
}

int accel_known(const char *want)
{
	return !strcmp(want, "auto") || !strcmp(want, "tcg") || !strcmp(want, "kvm");
}

int accel_choose(const char *want, const char *kernel, const char *initrd,
		 const char *cache_dir, enum accel *out, char *why, size_t len)
{
	char path[600], cached[512];
	FILE *f;
	int fd, ok;

	if (!strcmp(want, "tcg") || !strcmp(want, "kvm")) {
		*out = !strcmp(want, "kvm") ? ACCEL_KVM : ACCEL_TCG;
		snprintf(why, len, "requested");
		return 0;
	}
	if (!accel_known(want))
		return -1;

	*out = ACCEL_TCG;
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "/dev/kvm not usable");
		return 0;
	}
	close(fd);

	mkdir(cache_dir, 0755);
	probe_cache_path(cache_dir, path, sizeof(path));
	f = fopen(path, "r");
	if (f && fgets(cached, sizeof(cached), f)) {
		fclose(f);
		cached[strcspn(cached, "\n")] = '\0';
		*out = !strncmp(cached, "kvm", 3) ? ACCEL_KVM : ACCEL_TCG;
		snprintf(why, len, "cached probe: %s", cached);
		return 0;
	}
	if (f)
		fclose(f);

	ok = probe_kvm(kernel, initrd, cache_dir, why, len);
	*out = ok ? ACCEL_KVM : ACCEL_TCG;
	f = fopen(path, "w");
	if (f) {
		fprintf(f, "%s %s\n", ok ? "kvm" : "tcg", why);
		fclose(f);
	}
	return 0;
}
