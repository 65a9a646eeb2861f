// SPDX-License-Identifier: GPL-2.0
/*
 * csbench-init: PID 1 of every csbench guest, run from the initramfs.
 *
 * A straight list of named steps (after virtme-ng): mount the kernel's
 * filesystems, mount the Debian root image from the virtio disk and the
 * host's 9p share inside it, chroot there, run the job the host left on the
 * share, write its status and this log back, sync and power off. Results
 * travel over the share, never through the console; the console only
 * carries this log and whatever the kernel prints, which the host scans for
 * panics.
 *
 * PID 1 must never exit (the kernel panics when it does), so every failure
 * ends in power_off(), and power_off() never returns.
 *
 * Kernel command line:
 *   csbench.probe   print "csbench-init: probe ok" and power off at once
 *                   (the host's accelerator probe; needs no disk or share)
 *   csbench.root=   root device (default /dev/vda)
 *
 * csbench-init --service is the same job runner in a cloud image, where
 * systemd is PID 1 and has mounted everything: started by the unit the
 * provisioning writes (bench/guest/cloud-provision.sh) once cloud-init is
 * done, with the share already at /csbench. It skips the mount and chroot
 * steps and powers the guest off the same way.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NEWROOT		"/newroot"
#define SHARE		"/csbench"	/* inside the new root */
#define SHARE_TAG	"csbench"	/* QEMU -virtfs mount_tag */
#define JOB		SHARE "/job"
#define JOB_LOG		SHARE "/job.log"
#define JOB_STATUS	SHARE "/job.status"
#define INIT_LOG	SHARE "/init.log"
#define GUEST_INFO	SHARE "/guest.info"
#define BACKGROUND	SHARE "/background.info"

static FILE *share_log;		/* init.log on the share, once mounted */
static char cmdline[4096];
static char root_dev[128] = "/dev/vda";
/* Where the Debian root is seen before the chroot: "" in service mode. */
static const char *root_prefix = NEWROOT;
static int service_mode;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	struct timespec ts;
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	/* The console is line-oriented and shared with the kernel: one write. */
	dprintf(STDOUT_FILENO, "csbench-init: [%ld.%03ld] %s\n",
		(long)ts.tv_sec, ts.tv_nsec / 1000000, msg);
	if (share_log) {
		fprintf(share_log, "[%ld.%03ld] %s\n", (long)ts.tv_sec,
			ts.tv_nsec / 1000000, msg);
		fflush(share_log);
	}
}

static void __attribute__((noreturn)) power_off(void)
{
	if (share_log) {
		fclose(share_log);
		share_log = NULL;
	}
	sync();
	reboot(RB_POWER_OFF);
	/* Only reached if power-off failed; PID 1 must not return. */
	dprintf(STDOUT_FILENO, "csbench-init: power off failed: %s\n",
		strerror(errno));
	for (;;)
		pause();
}

static int do_mount(const char *src, const char *dst, const char *type,
		    unsigned long flags, const char *data)
{
	mkdir(dst, 0755);
	if (mount(src, dst, type, flags, data)) {
		say("mount %s on %s (%s) failed: %s", src, dst, type,
		    strerror(errno));
		return -1;
	}
	return 0;
}

static int has_param(const char *name)
{
	size_t len = strlen(name);
	const char *p = cmdline;

	while ((p = strstr(p, name))) {
		if ((p == cmdline || p[-1] == ' ') &&
		    (p[len] == ' ' || p[len] == '\n' || p[len] == '\0' ||
		     p[len] == '='))
			return 1;
		p += len;
	}
	return 0;
}

static int step_early_mounts(void)
{
	int fd;
	ssize_t n;

	if (do_mount("proc", "/proc", "proc", 0, NULL) ||
	    do_mount("sysfs", "/sys", "sysfs", 0, NULL) ||
	    do_mount("devtmpfs", "/dev", "devtmpfs", 0, NULL))
		return -1;
	fd = open("/proc/cmdline", O_RDONLY);
	if (fd >= 0) {
		n = read(fd, cmdline, sizeof(cmdline) - 1);
		cmdline[n > 0 ? n : 0] = '\0';
		close(fd);
	}
	if (has_param("csbench.root")) {
		const char *v = strstr(cmdline, "csbench.root=") + 13;

		snprintf(root_dev, sizeof(root_dev), "%.*s",
			 (int)strcspn(v, " \n"), v);
	}
	return 0;
}

static int step_mount_root(void)
{
	/*
	 * Read-write: QEMU attaches the image with snapshot=on, so writes
	 * (fio's files, /var) land in a throw-away overlay on the host.
	 */
	return do_mount(root_dev, NEWROOT, "ext4", 0, NULL);
}

static int step_open_log(void)
{
	char path[256];

	snprintf(path, sizeof(path), "%s%s", root_prefix, INIT_LOG);
	share_log = fopen(path, "w");
	if (!share_log)
		say("cannot write %s: %s", INIT_LOG, strerror(errno));
	return 0;
}

static int step_mount_share(void)
{
	if (do_mount(SHARE_TAG, NEWROOT SHARE, "9p", 0,
		     "trans=virtio,version=9p2000.L,msize=262144,cache=none"))
		return -1;
	return step_open_log();
}

static int step_api_mounts(void)
{
	static const struct {
		const char *src, *dst, *type, *data;
	} mounts[] = {
		{ "proc", NEWROOT "/proc", "proc", NULL },
		{ "sysfs", NEWROOT "/sys", "sysfs", NULL },
		{ "devtmpfs", NEWROOT "/dev", "devtmpfs", NULL },
		{ "devpts", NEWROOT "/dev/pts", "devpts", NULL },
		{ "cgroup2", NEWROOT "/sys/fs/cgroup", "cgroup2", NULL },
		{ "tracefs", NEWROOT "/sys/kernel/tracing", "tracefs", NULL },
		{ "debugfs", NEWROOT "/sys/kernel/debug", "debugfs", NULL },
		{ "tmpfs", NEWROOT "/tmp", "tmpfs", "mode=1777" },
		{ "tmpfs", NEWROOT "/run", "tmpfs", "mode=755" },
		{ "tmpfs", NEWROOT "/dev/shm", "tmpfs", "mode=1777" },
	};
	size_t i;

	for (i = 0; i < sizeof(mounts) / sizeof(mounts[0]); i++)
		if (do_mount(mounts[i].src, mounts[i].dst, mounts[i].type, 0,
			     mounts[i].data))
			return -1;
	return 0;
}

/*
 * Events are enabled on the kernel command line and record from boot on;
 * tests and benchmarks switch recording on around what they measure.
 */
static int step_tracing_off(void)
{
	char path[256];
	int fd;

	snprintf(path, sizeof(path), "%s/sys/kernel/tracing/tracing_on", root_prefix);
	fd = open(path, O_WRONLY);

	if (fd < 0 || write(fd, "0", 1) != 1) {
		say("cannot stop tracing: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

static int step_chroot(void)
{
	if (chroot(NEWROOT) || chdir("/")) {
		say("chroot %s: %s", NEWROOT, strerror(errno));
		return -1;
	}
	return 0;
}

/* The first line of @path starting with @key, value only, into @out. */
static void read_value(const char *path, const char *key, char *out, size_t len)
{
	char line[512];
	FILE *f = fopen(path, "r");

	snprintf(out, len, "unknown");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key))) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, len, "%s", line + strlen(key));
			break;
		}
	if (f)
		fclose(f);
}

/* The device mounted on "/", as /proc/self/mounts has it. */
static void root_source(char *out, size_t len)
{
	char dev[256], dir[256];
	FILE *m = fopen("/proc/self/mounts", "r");

	snprintf(out, len, "unknown");
	while (m && fscanf(m, "%255s %255s %*[^\n]", dev, dir) == 2)
		if (!strcmp(dir, "/"))
			snprintf(out, len, "%s", dev);
	if (m)
		fclose(m);
}

/*
 * What the job runs on, for csbench verify: which init started it, the
 * root filesystem, the distribution and whether the cloud image's
 * provisioning ran (its stamp names the packages it installed).
 */
static int step_guest_info(void)
{
	char os[256], root[256], stamp[512], pid1[64];
	FILE *f;

	read_value("/etc/os-release", "PRETTY_NAME=", os, sizeof(os));
	if (os[0] == '"' && strlen(os) > 1 && os[strlen(os) - 1] == '"') {
		memmove(os, os + 1, strlen(os) - 2);
		os[strlen(os) - 2] = '\0';
	}
	root_source(root, sizeof(root));
	read_value("/proc/1/comm", "", pid1, sizeof(pid1));
	read_value("/var/lib/csbench/provisioned", "", stamp, sizeof(stamp));
	/* Not fatal: the job's results matter more than this record. */
	f = fopen(GUEST_INFO, "w");
	if (!f) {
		say("cannot write %s: %s", GUEST_INFO, strerror(errno));
		return 0;
	}
	fprintf(f, "runner=%s\npid1=%s\nroot=%s\nos=%s\ncloud_init=%s\nprovisioned=%s\n",
		service_mode ? "service" : "init", service_mode ? pid1 : "csbench-init",
		root, os, access("/etc/cloud/cloud.cfg", F_OK) ? "no" : "yes",
		access("/var/lib/csbench/provisioned", F_OK) ? "no" : stamp);
	if (fclose(f))
		say("cannot write %s: %s", GUEST_INFO, strerror(errno));
	return 0;
}

static int write_status(const char *text)
{
	FILE *f = fopen(JOB_STATUS ".tmp", "w");

	if (!f)
		return -1;
	fprintf(f, "%s\n", text);
	if (fclose(f))
		return -1;
	return rename(JOB_STATUS ".tmp", JOB_STATUS);
}

static int step_run_job(void)
{
	char status[64];
	int wstatus, fd;
	pid_t pid, w;

	if (access(JOB, R_OK)) {
		say("no job at %s: %s", JOB, strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		say("fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		fd = open(JOB_LOG, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
			close(fd);
		}
		if (chdir(SHARE))
			_exit(126);
		setsid();
		setenv("PATH", "/csbench/bin:/usr/sbin:/usr/bin:/sbin:/bin", 1);
		setenv("HOME", "/root", 1);
		setenv("TMPDIR", "/tmp", 1);
		execl("/bin/sh", "sh", "-e", JOB, (char *)NULL);
		_exit(127);
	}
	/* As PID 1 we also reap orphans the job leaves behind. */
	for (;;) {
		w = wait(&wstatus);
		if (w == pid)
			break;
		if (w < 0 && errno != EINTR) {
			say("wait: %s", strerror(errno));
			return -1;
		}
	}
	if (WIFEXITED(wstatus))
		snprintf(status, sizeof(status), "exit %d",
			 WEXITSTATUS(wstatus));
	else
		snprintf(status, sizeof(status), "signal %d",
			 WTERMSIG(wstatus));
	say("job finished: %s", status);
	if (write_status(status))
		say("cannot write %s: %s", JOB_STATUS, strerror(errno));
	return 0;
}

static const struct step {
	const char *name;
	int (*run)(void);
} steps[] = {
	{ "early-mounts", step_early_mounts },
	{ "mount-root", step_mount_root },
	{ "mount-share", step_mount_share },
	{ "api-mounts", step_api_mounts },
	{ "tracing-off", step_tracing_off },
	{ "chroot", step_chroot },
	{ "guest-info", step_guest_info },
	{ "run-job", step_run_job },
};

/* usage_usec of the cgroup @name under /sys/fs/cgroup, or 0 if it has none. */
static double cgroup_cpu_s(const char *name)
{
	char path[256], value[64];

	snprintf(path, sizeof(path), "/sys/fs/cgroup/%s/cpu.stat", name);
	read_value(path, "usage_usec ", value, sizeof(value));
	return strtod(value, NULL) / 1e6;
}

/*
 * The CPU the image's own services take while the job runs, which tenants
 * on that image also pay: everything systemd runs (init.scope, the system
 * and user slices) except this unit, whose children are the job. The
 * tenants' cgroups are the agent's own, outside these slices.
 */
static double background_cpu_s(void)
{
	return cgroup_cpu_s("init.scope") + cgroup_cpu_s("system.slice") +
	       cgroup_cpu_s("user.slice") -
	       cgroup_cpu_s("system.slice/csbench-agent.service");
}

static double background_start_cpu, background_start_wall;

static double now_mono(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int step_background_start(void)
{
	background_start_cpu = background_cpu_s();
	background_start_wall = now_mono();
	return 0;
}

static int step_background_end(void)
{
	double cpu = background_cpu_s() - background_start_cpu;
	double wall = now_mono() - background_start_wall;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	FILE *f = fopen(BACKGROUND, "w");

	if (!f) {
		say("cannot write %s: %s", BACKGROUND, strerror(errno));
		return 0;
	}
	fprintf(f, "background_cpu_s=%.3f\njob_wall_s=%.3f\ncpus=%ld\n"
		"background_pct=%.3f\n", cpu, wall, ncpu,
		wall > 0 && ncpu > 0 ? 100 * cpu / (wall * ncpu) : 0);
	if (fclose(f))
		say("cannot write %s: %s", BACKGROUND, strerror(errno));
	return 0;
}

/* In a cloud image systemd has done the mounts; the share is there. */
static const struct step service_steps[] = {
	{ "open-log", step_open_log },
	{ "tracing-off", step_tracing_off },
	{ "guest-info", step_guest_info },
	{ "background-start", step_background_start },
	{ "run-job", step_run_job },
	{ "background-end", step_background_end },
};

static void __attribute__((noreturn)) run_steps(const struct step *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (list[i].run()) {
			say("step %s failed; powering off", list[i].name);
			power_off();
		}
		say("step %s ok", list[i].name);
		/* The probe only needs to know that a kernel reaches init. */
		if (!service_mode && i == 0 && has_param("csbench.probe")) {
			say("probe ok");
			power_off();
		}
	}
	say("done; powering off");
	power_off();
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "--service")) {
		service_mode = 1;
		root_prefix = "";
		run_steps(service_steps, sizeof(service_steps) / sizeof(service_steps[0]));
	}
	/* Console fds are inherited from the kernel; make sure they exist. */
	if (fcntl(STDOUT_FILENO, F_GETFD) < 0) {
		int fd = open("/dev/console", O_RDWR);

		if (fd >= 0) {
			dup2(fd, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
	}
	if (getpid() != 1) {
		fprintf(stderr, "csbench-init: must run as PID 1, or with --service\n");
		return 1;
	}
	run_steps(steps, sizeof(steps) / sizeof(steps[0]));
}
