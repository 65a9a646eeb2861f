// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/json_file.h"
#include "../../lib/fileio.h"
#include "../../lib/log.h"
#include "../../lib/paths.h"
#include "checkout.h"
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

/*
 * What the yield plugin did in this boot, from its stats file: its target,
 * the longest spin (the longest stall it put on a vCPU) and the time spun
 * against the time a vCPU ran beside a busy sibling. Appended to @text.
 */
static int yield_plugin_info(const char *stats, double target, char *text, size_t len)
{
	double max_spin = 0, spun = 0, late = 0, v;
	unsigned long long spins = 0, ticks = 0;
	char line[256], key[64];
	FILE *f = stats ? fopen(stats, "r") : NULL;

	if (!f)
		return snprintf(text, len, "yield_plugin_target=%.3f\nyield_plugin_stats=missing\n",
				target > 0 ? target : 1.0);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "vcpu%*d_%63[a-z_]=%lf", key, &v) != 2)
			continue;
		if (!strcmp(key, "max_spin_us") && v > max_spin)
			max_spin = v;
		else if (!strcmp(key, "spun_ms"))
			spun += v;
		else if (!strcmp(key, "late_ms"))
			late += v;
		else if (!strcmp(key, "spins"))
			spins += (unsigned long long)v;
		else if (!strcmp(key, "ticks"))
			ticks += (unsigned long long)v;
	}
	fclose(f);
	return snprintf(text, len, "yield_plugin_target=%.3f\nyield_plugin_period_us=%d\n"
			"yield_plugin_max_spin_us=%.1f\nyield_plugin_spun_s=%.3f\n"
			"yield_plugin_late_s=%.3f\nyield_plugin_spins=%llu\nyield_plugin_ticks=%llu\n",
			target > 0 ? target : 1.0, vm_yield_period_us(target), max_spin, spun / 1e3,
			late / 1e3, spins, ticks);
}

static void write_info(const char *path, const struct job_spec *s,
		       const struct job_result *r)
{
	char text[4096], pins[VM_MAX_CPUS * 6];
	int n;

	n = snprintf(text, sizeof(text),
		     "accel=%s\naccel_reason=%s\nemulation=%s\nemulation_name=%s\n"
		     "guest_cores=%d\nguest_threads=%d\npinning=%s\n"
		     "pin_vcpus=%s\noutcome=%s\nproblem=%s\n"
		     "seconds=%.2f\nboot_to_init_s=%.2f\njob_status=%s\n",
		     accel_name(s->vm.accel), s->accel_why ? s->accel_why : "",
		     emu_key(s->vm.emu), emu_name(s->vm.emu), vm_cores(&s->vm), VM_THREADS,
		     r->vm.pinning.how,
		     vm_pinning_list(&r->vm.pinning, vm_cores(&s->vm) * VM_THREADS, pins,
				     sizeof(pins)),
		     vm_outcome_name(r->vm.outcome),
		     r->vm.problem, r->vm.seconds, r->vm.boot_s,
		     r->have_status ? r->status : "none");
	if (s->vm.emu == EMU_CONCURRENT && n < (int)sizeof(text))
		n += yield_plugin_info(s->vm.yield_stats, s->vm.smt_yield, text + n,
				       sizeof(text) - n);
	if (s->vm.smt_yield > 0 && s->vm.emu == EMU_TIMESHARED && n < (int)sizeof(text))
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
	char pinning[256 + VM_MAX_CPUS * 6], pins[VM_MAX_CPUS * 6], plugin[4096], stats[4096];
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
	if (s->vm.emu == EMU_CONCURRENT && s->vm.accel == ACCEL_TCG) {
		if (!s->vm.yield_plugin)
			s->vm.yield_plugin = checkout_yield_plugin(plugin, sizeof(plugin));
		if (!s->vm.yield_plugin)
			return setup_failed(r, ENOENT, "siblings on own host CPUs need the "
					    "yield plugin (make build/plugin/" YIELD_PLUGIN_NAME
					    "):", "plugin/" YIELD_PLUGIN_NAME);
		snprintf(stats, sizeof(stats), "%s/yield-plugin.stats", s->out);
		unlink(stats);
		s->vm.yield_stats = stats;
	}

	vm_run(&s->vm, qemu_log, &r->vm);
	unlink(qmp);
	snprintf(pinning, sizeof(pinning), "%s; vCPUs on host cpus %s", r->vm.pinning.how,
		 vm_pinning_list(&r->vm.pinning, vm_cores(&s->vm) * VM_THREADS, pins,
				 sizeof(pins)));
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

/*
 * The emulation's fidelity the boot measured (csbench-fidelity's JSON on
 * the share) into its boot.info: wake-up latency beside an idle and a busy
 * sibling, and the sibling round trip. A time-shared layout shows here.
 */
void job_record_fidelity(const char *boot_dir)
{
	static const char *const parts[] = { "sibling_idle", "sibling_busy", "other_core_busy",
					     "sibling_rtt" };
	static const char *const keys[] = { "avg_us", "p99_us", "max_us", "missed_pct" };
	char path[4400], text[2048];
	size_t i, k, used = 0;
	json_t *f;

	snprintf(path, sizeof(path), "%s/share/out/fidelity.json", boot_dir);
	f = json_load_regular(path, NULL);
	if (!json_is_object(f)) {
		json_decref(f);
		return;		/* the guest died before, or SMT was off */
	}
	for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		json_t *o = json_object_get(f, parts[i]);

		for (k = 0; o && k < sizeof(keys) / sizeof(keys[0]) && used < sizeof(text); k++)
			used += snprintf(text + used, sizeof(text) - used, "fidelity_%s_%s=%.2f\n",
					 parts[i], keys[k],
					 json_number_value(json_object_get(o, keys[k])));
	}
	if (used < sizeof(text))
		used += snprintf(text + used, sizeof(text) - used,
				 "fidelity_busy_over_idle_avg=%.3f\n",
				 json_number_value(json_object_get(f, "busy_over_idle_avg")));
	snprintf(path, sizeof(path), "%s/boot.info", boot_dir);
	if (used < sizeof(text) &&
	    write_file_flags(path, text, used, O_APPEND | O_CREAT))
		warn("cannot add the fidelity probe to %s", path);
	json_decref(f);
}
