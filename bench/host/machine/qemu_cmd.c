// SPDX-License-Identifier: GPL-2.0
/* The QEMU command line for one csbench guest. No side effects. */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vm.h"

const char *accel_name(enum accel a)
{
	return a == ACCEL_KVM ? "kvm" : "tcg";
}

static const struct {
	const char *key, *name;
} emulations[] = {
	[EMU_AUTO] = { "auto", "chosen by the host's CPUs" },
	[EMU_CONCURRENT] = { "concurrent", "siblings on own host CPUs" },
	[EMU_TIMESHARED] = { "time-shared", "time-shared siblings" },
	[EMU_KVM_SMT] = { "kvm-smt", "KVM on host SMT siblings" },
	[EMU_KVM_SHARED] = { "kvm-shared", "KVM, siblings time-share a host CPU" },
};

const char *emu_name(enum emulation e)
{
	return (unsigned int)e < sizeof(emulations) / sizeof(emulations[0]) ?
	       emulations[e].name : "unknown";
}

const char *emu_key(enum emulation e)
{
	return (unsigned int)e < sizeof(emulations) / sizeof(emulations[0]) ?
	       emulations[e].key : "unknown";
}

int emu_lookup(const char *key)
{
	/* Only what a user may ask for; the KVM layouts follow from the host. */
	static const enum emulation askable[] = { EMU_AUTO, EMU_CONCURRENT, EMU_TIMESHARED };
	size_t i;

	for (i = 0; i < sizeof(askable) / sizeof(askable[0]); i++)
		if (!strcmp(key, emulations[askable[i]].key))
			return askable[i];
	return -1;
}

int vm_cores(const struct vm_spec *spec)
{
	return spec->cores > 0 ? spec->cores : VM_CORES;
}

const char *vm_pinning_list(const struct vm_pinning *p, int ncpus, char *buf, size_t len)
{
	size_t used = 0;
	int v;

	buf[0] = '\0';
	for (v = 0; v < ncpus && v < VM_MAX_CPUS && used < len; v++)
		used += snprintf(buf + used, len - used, "%s%d", v ? "," : "", p->host_cpu[v]);
	return buf;
}

/* @s with every comma doubled, as QEMU's option syntax wants in a value. */
static const char *qemu_escape(const char *s, char *buf, size_t len)
{
	size_t used = 0;

	for (; *s && used + 2 < len; s++) {
		buf[used++] = *s;
		if (*s == ',')
			buf[used++] = ',';
	}
	buf[used] = '\0';
	return *s ? NULL : buf;
}

struct argv_buf {
	char **argv;
	int argc, max;
	char *buf;
	size_t used, len;
	int overflow;
};

static void add(struct argv_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void add(struct argv_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (b->overflow || b->argc + 1 >= b->max) {
		b->overflow = 1;
		return;
	}
	va_start(ap, fmt);
	n = vsnprintf(b->buf + b->used, b->len - b->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= b->len - b->used) {
		b->overflow = 1;
		return;
	}
	b->argv[b->argc++] = b->buf + b->used;
	b->used += n + 1;
}

int qemu_cmd_build(const struct vm_spec *s, char **argv, int max,
		   char *buf, size_t buflen)
{
	struct argv_buf b = { argv, 0, max, buf, 0, buflen, 0 };
	int cloud = s->cloud_seed != NULL;

	add(&b, "%s", s->qemu ? s->qemu : "qemu-system-x86_64");
	add(&b, "-machine");
	add(&b, "q35");
	add(&b, "-accel");
	/*
	 * Multi-threaded TCG gives each vCPU its own host thread, which is
	 * what lets the host pin a guest core's two threads together.
	 */
	add(&b, s->accel == ACCEL_KVM ? "kvm" : "tcg,thread=multi");
	add(&b, "-cpu");
	add(&b, "%s", s->cpu_model ? s->cpu_model : "Skylake-Client");
	add(&b, "-smp");
	if (s->probe)
		add(&b, "1");
	else
		add(&b, "%d,sockets=1,cores=%d,threads=%d", vm_cores(s) * VM_THREADS,
		    vm_cores(s), VM_THREADS);
	/*
	 * Siblings on their own host CPUs would do twice a lone thread's work;
	 * the plugin makes two busy siblings do Y times (smt_yield.c).
	 */
	if (s->emu == EMU_CONCURRENT && s->accel == ACCEL_TCG && !s->probe) {
		char plugin[2048], stats[2048];

		if (!s->yield_plugin || !qemu_escape(s->yield_plugin, plugin, sizeof(plugin)) ||
		    (s->yield_stats && !qemu_escape(s->yield_stats, stats, sizeof(stats))))
			return -1;
		add(&b, "-plugin");
		add(&b, "%s,yield=%.4f,threads=%d,period_us=%d%s%s", plugin,
		    s->smt_yield > 0 ? s->smt_yield : 1.0, VM_THREADS, vm_yield_period_us(s->smt_yield),
		    s->yield_stats ? ",stats=" : "", s->yield_stats ? stats : "");
	}
	add(&b, "-m");
	add(&b, "%d", s->memory_mb ? s->memory_mb : 2048);
	add(&b, "-nodefaults");
	add(&b, "-no-user-config");
	add(&b, "-display");
	add(&b, "none");
	/* A panic reboots the guest (panic=-1); make that end QEMU. */
	add(&b, "-no-reboot");
	add(&b, "-kernel");
	add(&b, "%s", s->kernel);
	/*
	 * A cloud image boots straight into its root partition: no initramfs
	 * (everything it needs is built in), systemd as PID 1. rdinit=/init
	 * in the base line finds nothing then and is ignored.
	 */
	if (!cloud || s->probe) {
		add(&b, "-initrd");
		add(&b, "%s", s->initrd);
	}
	add(&b, "-append");
	add(&b, "%s%s%s%s%s%s", VM_BASE_APPEND, s->probe ? " csbench.probe" : "",
	    cloud && !s->probe ? " " VM_CLOUD_APPEND " root=" : "",
	    cloud && !s->probe ? (s->cloud_root ? s->cloud_root : VM_CLOUD_ROOT) : "",
	    s->append ? " " : "", s->append ? s->append : "");
	if (s->console) {
		add(&b, "-chardev");
		add(&b, "file,id=console,path=%s", s->console);
		add(&b, "-serial");
		add(&b, "chardev:console");
	} else {
		/* A person replaying the boot watches the console (Ctrl-A X quits). */
		add(&b, "-serial");
		add(&b, "mon:stdio");
	}
	if (!s->probe) {
		/* snapshot=on: guest writes go to a temporary overlay, never the file. */
		add(&b, "-drive");
		add(&b, "file=%s,if=virtio,format=%s,snapshot=on,cache=unsafe",
		    s->image, s->image_format ? s->image_format : "raw");
		add(&b, "-virtfs");
		add(&b, "local,path=%s,mount_tag=csbench,security_model=none,id=csbench",
		    s->share);
	}
	if (cloud && !s->probe) {
		add(&b, "-drive");
		add(&b, "file=%s,if=virtio,format=raw,readonly=on", s->cloud_seed);
		add(&b, "-virtfs");
		add(&b, "local,path=%s,mount_tag=csbench-debs,security_model=none,"
		    "id=csbench-debs,readonly=on", s->cloud_debs);
	}
	if (s->qmp) {
		add(&b, "-qmp");
		add(&b, "unix:%s,server=on,wait=off", s->qmp);
		/* Start paused: vCPUs are pinned before the first instruction. */
		add(&b, "-S");
	}
	if (b.overflow)
		return -1;
	argv[b.argc] = NULL;
	return b.argc;
}

static void write_quoted(FILE *f, const char *s)
{
	if (*s && !strpbrk(s, " \t\n'\"\\$`*?[]{}()<>|&;#~!")) {
		fputs(s, f);
		return;
	}
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputs("'\\''", f);
		else
			fputc(*s, f);
	}
	fputc('\'', f);
}

/* @path made absolute in @buf when it exists; else @path as it is. */
static const char *absolute(const char *path, char *buf)
{
	return path && realpath(path, buf) ? buf : path;
}

int qemu_cmd_write_replay(const char *path, const struct vm_spec *spec,
			  const char *pinning)
{
	char kernel[PATH_MAX], initrd[PATH_MAX], image[PATH_MAX], share[PATH_MAX];
	char seed[PATH_MAX], debs[PATH_MAX];
	char *argv[64], buf[8192];
	struct vm_spec r = *spec;
	FILE *f;
	int i;

	/*
	 * The boot as csbench ran it, minus what only a supervising csbench
	 * can use: no paused start and no QMP socket, the console on the
	 * terminal, and paths that work from any directory.
	 */
	r.kernel = absolute(spec->kernel, kernel);
	r.initrd = absolute(spec->initrd, initrd);
	r.image = absolute(spec->image, image);
	r.share = absolute(spec->share, share);
	r.cloud_seed = absolute(spec->cloud_seed, seed);
	r.cloud_debs = absolute(spec->cloud_debs, debs);
	r.console = NULL;
	r.qmp = NULL;
	if (qemu_cmd_build(&r, argv, 64, buf, sizeof(buf)) < 0)
		return -1;
	f = fopen(path, "w");
	if (!f)
		return -1;
	fprintf(f, "#!/bin/sh\n"
		"# The guest csbench booted here, to boot again by hand: sh qemu-cmd\n"
		"# The job on the share runs again; the root image is opened with\n"
		"# snapshot=on, so nothing is written to it. csbench pinned the vCPUs\n"
		"# through QMP (%s); this replay does not.\n"
		"exec", pinning && *pinning ? pinning : "no pinning");
	for (i = 0; argv[i]; i++) {
		fputc(' ', f);
		write_quoted(f, argv[i]);
	}
	fputc('\n', f);
	return fclose(f);
}
