// SPDX-License-Identifier: GPL-2.0
/*
 * Boot one guest and wait for it: spawn QEMU paused, pin its vCPU threads
 * (found through QMP), let it run, enforce the hard timeout, then read the
 * console for signs of a crash. The guest's results come back over the 9p
 * share; this file only decides how the boot ended.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../lib/log.h"
#include "../../lib/paths.h"
#include "console.h"
#include "pin.h"
#include "qmp.h"
#include "smtcap.h"
#include "vm.h"

#define QMP_WAIT_MS	10000
#define POLL_MS		100
/*
 * A problem on the console (oops, WARN, lockdep, RCU stall) ends the boot
 * this long after it is seen: long enough for the rest of the report to
 * reach the log, short enough that a crash is not mistaken for a hang.
 */
#define PROBLEM_GRACE_S	3

const char *vm_outcome_name(enum vm_outcome o)
{
	static const char *const names[] = {
		[VM_POWERED_OFF] = "powered-off",
		[VM_TIMED_OUT] = "timed-out",
		[VM_CRASHED] = "crashed",
		[VM_QEMU_FAILED] = "qemu-failed",
		[VM_INTERRUPTED] = "interrupted",
	};

	return names[o];
}

/*
 * QEMU runs in its own process group (so a terminal's Ctrl-C does not
 * reach it half-way through a write), which means csbench must stop it:
 * the handler only notes the signal, the poll loop kills the guest.
 */
static volatile sig_atomic_t stop_signal;

static void note_stop(int sig)
{
	stop_signal = sig;
}

void vm_catch_interrupts(void)
{
	struct sigaction sa = { .sa_handler = note_stop };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

int vm_interrupted(void)
{
	return stop_signal;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static pid_t spawn(char *const *argv, const char *log)
{
	pid_t parent = getpid(), pid = fork();
	int fd;

	if (pid)
		return pid;
	/*
	 * A csbench killed outright (SIGKILL, or a signal it does not catch)
	 * must not leave a guest running in its own process group: QEMU dies
	 * with it. The check covers a parent that died before the prctl.
	 */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(127);
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
	}
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0)
		dup2(fd, STDIN_FILENO);
	/* Own process group, so a Ctrl-C on csbench reaches us through it. */
	setpgid(0, 0);
	execvp(argv[0], argv);
	dprintf(STDERR_FILENO, "cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

/* Wait for QEMU's QMP socket, giving up early if QEMU already exited. */
static int connect_qmp(const char *path, pid_t pid)
{
	int waited, fd;

	for (waited = 0; waited < QMP_WAIT_MS; waited += 250) {
		siginfo_t info = { 0 };

		fd = qmp_connect(path, 250);
		if (fd >= 0)
			return fd;
		/* Peek without reaping: vm_run() collects the status. */
		if (!waitid(P_PID, pid, &info, WEXITED | WNOHANG | WNOWAIT) &&
		    info.si_pid == pid)
			return -1;
	}
	return -1;
}

/*
 * Cap the vCPU threads for an emulated SMT yield (smtcap.h), first
 * removing caps a killed csbench left behind. 0, or -1 said why.
 */
static int cap_vcpus(const struct vm_spec *spec, pid_t pid, const int *tids, int n,
		     struct smtcap *cap)
{
	struct smtcap_plan plan = {
		.yield = spec->smt_yield,
		.core_share = (spec->cap_core_pct ?: SMTCAP_CORE_PCT) / 100.0,
		.period_us = spec->cap_period_us ?: SMTCAP_PERIOD_US,
		.threads_per_core = VM_THREADS,	/* QEMU numbers a core's threads together */
	};
	char err[1024];

	if (smtcap_find(SMTCAP_CGROUP_BASE, cap, err, sizeof(err)))
		goto fail;
	smtcap_remove_stale(cap);
	if (smtcap_apply(cap, getpid(), pid, tids, n, &plan, err, sizeof(err)))
		goto fail;
	return 0;
fail:
	err_msg("--smt-yield %.2f: %s", spec->smt_yield, err);
	return -1;
}

/* Pin the vCPUs (and cap them, for an emulated yield); release the guest. */
static int start_pinned(const struct vm_spec *spec, pid_t pid,
			struct vm_result *res, struct smtcap *cap)
{
	struct host_topo topo;
	int tids[VM_MAX_CPUS];
	int fd, n, ret = -1;

	fd = connect_qmp(spec->qmp, pid);
	if (fd < 0)
		return -1;
	n = qmp_vcpu_threads(fd, tids, VM_MAX_CPUS);
	if (n < 1) {
		err_msg("QMP query-cpus-fast gave no vCPU threads");
		goto out;
	}
	if (host_topo_read(&topo, "/sys/devices/system/cpu"))
		topo.ncpus = 0;
	pin_plan(&topo, spec->accel, spec->emu, vm_cores(spec), &res->pinning);
	if (spec->probe)
		snprintf(res->pinning.how, sizeof(res->pinning.how), "none (probe)");
	else if (pin_apply(&res->pinning, tids, n))
		goto out;
	/* Concurrent siblings get their yield from the plugin, not caps. */
	if (spec->smt_yield > 0 && spec->emu == EMU_TIMESHARED && !spec->probe &&
	    cap_vcpus(spec, pid, tids, n, cap))
		goto out;
	ret = qmp_cont(fd);
out:
	close(fd);
	return ret;
}

/* Fail @res as QEMU_FAILED with a message; returns -1. */
static int qemu_failed(struct vm_result *res, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int qemu_failed(struct vm_result *res, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(res->problem, sizeof(res->problem), fmt, ap);
	va_end(ap);
	res->outcome = VM_QEMU_FAILED;
	return -1;
}

/*
 * Start QEMU paused, pin its vCPUs and let it run. The pid, or -1 with
 * @res failed and saying why (QEMU's first line of complaint, if any).
 */
static pid_t launch(const struct vm_spec *spec, const char *qemu_log, struct vm_result *res,
		    struct smtcap *cap)
{
	char *argv[64], buf[8192], first[256] = "";
	int wstatus;
	pid_t pid;
	FILE *f;

	if (qemu_cmd_build(spec, argv, 64, buf, sizeof(buf)) < 0)
		return qemu_failed(res, "QEMU command line too long");
	if (!have_program(argv[0]))
		return qemu_failed(res, "%s not found (run: make deps, which installs "
				   "qemu-system-x86)", argv[0]);
	unlink(spec->console);
	unlink(spec->qmp);
	pid = spawn(argv, qemu_log);
	if (pid < 0)
		return qemu_failed(res, "fork: %s", strerror(errno));
	if (!start_pinned(spec, pid, res, cap))
		return pid;
	kill(pid, SIGKILL);
	waitpid(pid, &wstatus, 0);
	smtcap_remove(cap);
	f = fopen(qemu_log, "r");
	if (f && fgets(first, sizeof(first), f))
		first[strcspn(first, "\n")] = '\0';
	if (f)
		fclose(f);
	return qemu_failed(res, "QEMU did not start: %s (see %s)",
			   *first ? first : "no QMP socket", qemu_log);
}

/* How the watch over a running guest ended. */
struct watch {
	int exited, stalled, caller_stop;
	int wstatus;
};

/*
 * Poll the running guest until it exits, the caller or a signal stops it,
 * its progress file stalls, the console shows the kernel in trouble or the
 * deadline passes; QEMU is killed unless it exited. Notes in @res the time
 * init was reached and the time the first problem was seen.
 */
static void watch(const struct vm_spec *spec, pid_t pid, double start,
		  struct vm_result *res, struct watch *w)
{
	double deadline = start + spec->timeout_s, last_change = start;
	off_t last_size = -1;
	time_t last_mtime = 0;
	long scanned = 0;
	char line[512];
	struct stat st;

	memset(w, 0, sizeof(*w));
	for (;;) {
		if (res->problem_s < 0 &&
		    console_scan_new(spec->console, &scanned, line, sizeof(line)))
			res->problem_s = now_s() - start;
		if (res->problem_s >= 0 && now_s() - start - res->problem_s > PROBLEM_GRACE_S)
			break;
		if (spec->on_poll && spec->on_poll(spec->poll_arg))
			w->caller_stop = 1;
		if (spec->progress_file && !stat(spec->progress_file, &st) &&
		    (st.st_size != last_size || st.st_mtime != last_mtime)) {
			last_size = st.st_size;
			last_mtime = st.st_mtime;
			last_change = now_s();
		}
		if (stop_signal || w->caller_stop)
			break;
		if (spec->stall_s && now_s() - last_change > spec->stall_s) {
			w->stalled = 1;
			break;
		}
		if (res->boot_s < 0 && console_has(spec->console, "csbench-init:"))
			res->boot_s = now_s() - start;
		if (waitpid(pid, &w->wstatus, WNOHANG) == pid) {
			w->exited = 1;
			return;
		}
		if (now_s() > deadline)
			break;
		usleep(POLL_MS * 1000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &w->wstatus, 0);
}

/* The outcome, from the console first: a crash explains a timeout too. */
static void classify(const struct vm_spec *spec, const char *qemu_log,
		     const struct watch *w, struct vm_result *res)
{
	char line[8192];
	const char *kind = console_scan(spec->console, line, sizeof(line));

	if ((stop_signal || w->caller_stop) && !w->exited) {
		res->outcome = VM_INTERRUPTED;
		snprintf(res->problem, sizeof(res->problem), "stopped by %s",
			 stop_signal ? strsignal(stop_signal) : "csbench");
	} else if (kind) {
		res->outcome = VM_CRASHED;
		if (res->problem_s >= 0)
			snprintf(res->problem, sizeof(res->problem), "%s at %.1f s%s: %.400s",
				 kind, res->problem_s, w->exited ? "" : ", guest stopped",
				 line);
		else
			snprintf(res->problem, sizeof(res->problem), "%s: %.400s", kind, line);
	} else if (w->stalled) {
		res->outcome = VM_TIMED_OUT;
		snprintf(res->problem, sizeof(res->problem),
			 "no progress in %s for %d s", spec->progress_file,
			 spec->stall_s);
	} else if (!w->exited) {
		res->outcome = VM_TIMED_OUT;
		snprintf(res->problem, sizeof(res->problem),
			 "no power-off within %d s", spec->timeout_s);
	} else if (!WIFEXITED(w->wstatus) || WEXITSTATUS(w->wstatus)) {
		qemu_failed(res, "QEMU exited with status %d (see %s)",
			    WIFEXITED(w->wstatus) ? WEXITSTATUS(w->wstatus) : -1, qemu_log);
	} else {
		res->outcome = VM_POWERED_OFF;
	}
}

int vm_run(const struct vm_spec *spec, const char *qemu_log,
	   struct vm_result *res)
{
	struct smtcap cap = { 0 };
	struct watch w;
	double start;
	pid_t pid;

	memset(res, 0, sizeof(*res));
	res->boot_s = -1;
	res->problem_s = -1;
	start = now_s();
	pid = launch(spec, qemu_log, res, &cap);
	if (pid < 0)
		return -1;
	watch(spec, pid, start, res, &w);
	/* QEMU is gone (watch() reaped it): its threads left the caps. */
	smtcap_remove(&cap);
	res->seconds = now_s() - start;
	/* Init came and went between two polls: its time is at most this. */
	if (res->boot_s < 0 && console_has(spec->console, "csbench-init:"))
		res->boot_s = res->seconds;
	classify(spec, qemu_log, &w, res);
	return res->outcome == VM_POWERED_OFF ? 0 : -1;
}
