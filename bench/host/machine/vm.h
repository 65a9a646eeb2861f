/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One guest boot: what to boot (vm_spec), how QEMU is invoked for it
 * (qemu_cmd.c, a pure function so tests can check the command line), and
 * what came of it (vm_result, from vm_run() in vm.c).
 */
#ifndef CSBENCH_VM_H
#define CSBENCH_VM_H

#include "../../plugin/smt_yield_math.h"
#include <stddef.h>

/*
 * The guest topology: one socket, N cores (--cores), two threads each.
 * VM_CORES is the time-shared layout's core count, which the kernel tests
 * are written for.
 */
#define VM_CORES	2
#define VM_THREADS	2
#define VM_MAX_CORES	32
#define VM_MAX_CPUS	(VM_MAX_CORES * VM_THREADS)

enum accel { ACCEL_TCG, ACCEL_KVM };

/*
 * How SMT siblings are emulated (pin.c chooses, emu_name() names it):
 *  EMU_CONCURRENT  TCG, every vCPU on its own host CPU; the yield plugin
 *                  (bench/plugin/smt_yield.c) slows two busy siblings to
 *                  Y/2 each, a lone one runs at full speed;
 *  EMU_TIMESHARED  TCG, a core's two vCPUs time-share one host CPU (the
 *                  host switches them at its tick); a yield is emulated
 *                  with CFS bandwidth caps (smtcap.h);
 *  EMU_KVM_SMT     KVM, a core's vCPUs on a pair of host SMT siblings;
 *  EMU_KVM_SHARED  KVM on a host without sibling pairs: time-shared.
 * EMU_AUTO asks pin.c to choose: concurrent where the host has a CPU per
 * vCPU, time-shared otherwise.
 */
/*
 * The yield plugin's longest spin: a guest interrupt beside a busy
 * sibling waits at most this long. The timer's period follows from it
 * and the yield (smt_yield_period_us(): 400 us at 1.0, 2000 at 1.8), as
 * long as it can be: a tick costs 30-40 us on a host that is itself a
 * VM, and at a 100 us period the ticks ate the guest (smt_yield.c).
 */
#define VM_YIELD_SPIN_US	200
#define VM_YIELD_MAX_PERIOD_US	10000
#define vm_yield_period_us(y)	\
	smt_yield_period_us((y) > 0 ? (y) : 1.0, VM_YIELD_SPIN_US, VM_YIELD_MAX_PERIOD_US)

enum emulation { EMU_AUTO, EMU_CONCURRENT, EMU_TIMESHARED, EMU_KVM_SMT, EMU_KVM_SHARED };

struct vm_spec {
	const char *qemu;	/* binary, default qemu-system-x86_64 */
	const char *kernel;	/* bzImage */
	const char *initrd;	/* initramfs holding csbench-init */
	const char *image;	/* root image, attached with snapshot=on */
	const char *image_format;	/* "raw" or "qcow2"; NULL: raw */
	const char *share;	/* host directory shared over 9p */
	const char *console;	/* file receiving the serial console */
	const char *qmp;	/* QMP unix socket path */
	const char *append;	/* extra kernel command line, may be NULL */
	const char *cpu_model;	/* must be Intel-vendor to expose siblings */
	enum accel accel;
	enum emulation emu;	/* chosen, never EMU_AUTO here (pin.h) */
	int cores;		/* guest cores; 0: VM_CORES */
	/*
	 * EMU_CONCURRENT: the yield plugin (a shared object) and where it
	 * writes what it did at exit (its spin times: the stalls it caused).
	 */
	const char *yield_plugin, *yield_stats;
	int memory_mb;
	int timeout_s;		/* hard limit; QEMU is killed after it */
	/*
	 * TCG: emulate this SMT yield. EMU_CONCURRENT: by the yield plugin
	 * (0 means 1.0). EMU_TIMESHARED: by capping each core's vCPU threads
	 * at cap_core_pct% of a host CPU and each thread at 1/Y of that
	 * (smtcap.h), in periods of cap_period_us; 0: no caps.
	 */
	double smt_yield;
	int cap_period_us, cap_core_pct;
	int probe;		/* accelerator probe: 1 vCPU, no disk */
	/*
	 * A cloud image (csbench run --cloud-image): @image boots its own
	 * systemd from @cloud_root, cloud-init provisions it from the NoCloud
	 * volume @cloud_seed (scripts/cloud-seed.sh) with the packages of
	 * @cloud_debs (scripts/cloud-debs.sh, shared read-only), and the job
	 * runs from a systemd unit. NULL @cloud_seed: the built image, booted
	 * through csbench-init in @initrd. The probe boots @initrd either way.
	 */
	const char *cloud_seed, *cloud_debs, *cloud_root;
	/*
	 * Optional watchdog: if @progress_file (e.g. the job's log on the
	 * share) has not changed for @stall_s seconds, the guest is taken as
	 * hung and killed, long before @timeout_s.
	 */
	const char *progress_file;
	int stall_s;
	/*
	 * Optional, called about every 100 ms while the guest runs; a
	 * nonzero return stops the guest (outcome VM_INTERRUPTED).
	 */
	int (*on_poll)(void *arg);
	void *poll_arg;
};

/* How each vCPU is pinned: host CPU per vCPU, or -1 for none. */
struct vm_pinning {
	int host_cpu[VM_MAX_CPUS];
	char how[96];		/* e.g. "tcg: core N -> host cpu N" */
};

enum vm_outcome {
	VM_POWERED_OFF,		/* guest powered off by itself */
	VM_TIMED_OUT,		/* killed after timeout_s */
	VM_CRASHED,		/* console shows a panic, oops or BUG */
	VM_QEMU_FAILED,		/* QEMU exited with an error of its own */
	VM_INTERRUPTED,		/* a signal or on_poll stopped it; guest killed */
};

struct vm_result {
	enum vm_outcome outcome;
	double seconds;		/* wall time from spawn to exit */
	double boot_s;		/* spawn to the init's first line, or -1 */
	double problem_s;	/* spawn to the first problem on the console, or -1 */
	struct vm_pinning pinning;
	char problem[512];	/* first console line that matched, or why */
};

/*
 * Trace events every guest records when tracing_on is set. They are
 * enabled here, once, at boot: enabling an event at run time patches kernel
 * text (static calls), which crashed multi-threaded TCG guests. Recording
 * is gated with tracing_on instead, which patches nothing; csbench-init
 * turns it off at boot. On a kernel without the core-scheduling events
 * (PATCHSET=none) the kernel skips those names and keeps sched_switch.
 */
#define VM_TRACE_EVENTS \
	"sched:sched_switch,sched:sched_core_pick,sched:sched_core_resched," \
	"sched:sched_core_forceidle_start,sched:sched_core_forceidle_end," \
	"sched:sched_core_steal,sched:sched_core_enabled"

/*
 * The kernel command line every guest boots with. loglevel=5 keeps
 * KERN_WARNING on the console: WARN() splats and lockdep reports are
 * printed at that level, and the host finds crashes by reading the console.
 * schedstats=enable from boot: forced-idle time (cpu.stat
 * core_sched.force_idle_usec) is only accounted while schedstats are on,
 * and switching them on later flips a static key.
 */
/* The cloud image's root partition unless told otherwise (Debian's is 1). */
#define VM_CLOUD_ROOT	"/dev/vda1"
/*
 * A cloud guest has no NIC (-nodefaults) and needs none. Debian's bookworm
 * image runs systemd-networkd, whose wait-online service would hold the
 * boot (and cloud-init behind it) for its 120 s timeout waiting for a link,
 * and cloud-init would write a DHCP config for a NIC that is not there.
 * systemd-resolved has no name server to ask either, and under csbench's
 * kernel it fails to start: systemd restarts it, and when each attempt
 * takes over 2 s (TCG on a loaded host) the start limit (5 in 10 s) is
 * never reached, so it restarts forever and cloud-final, behind it, never
 * runs the job (seen: every cloud boot for 20 min, old and new images).
 */
#define VM_CLOUD_APPEND	"rw systemd.mask=systemd-networkd-wait-online.service " \
	"systemd.mask=systemd-resolved.service network-config=disabled"

#define VM_BASE_APPEND \
	"console=ttyS0 rdinit=/init panic=-1 loglevel=5 " \
	"tsc=reliable trace_clock=global trace_buf_size=8M schedstats=enable " \
	"trace_event=" VM_TRACE_EVENTS

const char *accel_name(enum accel a);
/* "siblings on own host CPUs", "time-shared siblings", ... for reports. */
const char *emu_name(enum emulation e);
/* concurrent, time-shared, kvm-smt, kvm-shared: for manifests and options. */
const char *emu_key(enum emulation e);
/* EMU_* for "auto", "concurrent" or "time-shared", or -1. */
int emu_lookup(const char *key);
/* @spec's guest cores (VM_CORES unless set). */
int vm_cores(const struct vm_spec *spec);
/* Host CPUs of @p as "0,1,0,1" into @buf; returns @buf. */
const char *vm_pinning_list(const struct vm_pinning *p, int ncpus, char *buf, size_t len);
const char *vm_outcome_name(enum vm_outcome o);

/*
 * Fill @argv (capacity @max, NULL-terminated) with the QEMU command line for
 * @spec, storing strings in @buf of @buflen bytes. Returns argc, or -1 if
 * the buffers are too small. Without @spec->qmp the guest starts running
 * (no -S), without @spec->console the console is the terminal.
 */
int qemu_cmd_build(const struct vm_spec *spec, char **argv, int max,
		   char *buf, size_t buflen);

/*
 * Write a shell script to @path that boots what @spec describes by hand:
 * absolute paths, no paused start or QMP, the console on the terminal;
 * @pinning (what csbench did through QMP) goes into its comment.
 */
int qemu_cmd_write_replay(const char *path, const struct vm_spec *spec,
			  const char *pinning);

/*
 * From now on SIGINT, SIGTERM and SIGHUP stop the running guest (vm_run
 * returns VM_INTERRUPTED) instead of killing csbench; vm_interrupted()
 * gives the signal taken, or 0.
 */
void vm_catch_interrupts(void);
int vm_interrupted(void);

int vm_run(const struct vm_spec *spec, const char *qemu_log,
	   struct vm_result *res);

#endif
