// SPDX-License-Identifier: GPL-2.0
/*
 * csbench-agent: runs benchmark cells inside the guest.
 *
 *   csbench-agent CELLS WORKLOAD_DIR OUT_DIR
 *
 * CELLS has one cell per line: "ID MODE WORKLOAD DURATION WARMUP". For each
 * cell the agent sets the mode up and verifies it, starts every tenant of
 * the workload in its own cgroup, records forced idle, context switches,
 * CPU time and a sched_switch + core-scheduling trace while they run,
 * extracts the workload's metrics from each tenant's output, and writes
 * OUT_DIR/ID.json atomically. A cell whose mode check fails is written as
 * an error and not measured. Tenant outputs stay in OUT_DIR/ID.TENANT.out.
 * Progress lines go to stdout ("cell ID: ..."), which the host keeps.
 */
#include <errno.h>
#include <jansson.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../lib/extract.h"
#include "../lib/paths.h"
#include "../lib/spawn.h"
#include "../lib/workload.h"
#include "../lib/cotrace.h"
#include "../lib/fileio.h"
#include "../lib/cell_schema.h"
#include "../lib/hist_json.h"
#include "../lib/mode.h"
#include "modeset.h"
#include "trace_util.h"

#define MAX_TIDS	8192
#define GRACE_S		60	/* beyond its duration before a tenant is killed */

struct sysstat {
	unsigned long long ctxt;
	unsigned long long busy, total;	/* jiffies over all CPUs */
};

struct cell_run {
	const char *id, *out_dir;
	enum csb_mode mode;
	struct workload w;
	struct wl_topology topo;	/* what `threads cores` means here */
	int duration, warmup;
	json_t *result;
	struct cotrace_tenant tids[MAX_TIDS];
	double fi_ms[MAX_TIDS];		/* last core_forceidle_sum seen, ms */
	int ntids;
};

/* core_forceidle_sum of a thread from /proc/TID/sched, in ms, or -1. */
static double task_forceidle_ms(int tid)
{
	char path[64], line[256];
	double v = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/sched", tid);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "core_forceidle_sum", 18)) {
			v = strtod(strchr(line, ':') ? strchr(line, ':') + 1 : line, NULL);
			break;
		}
	if (f)
		fclose(f);
	return v;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void read_sysstat(struct sysstat *s)
{
	unsigned long long v[10] = { 0 };
	char line[512];
	FILE *f = fopen("/proc/stat", "r");
	int i;

	memset(s, 0, sizeof(*s));
	while (f && fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "cpu ", 4)) {
			sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu",
			       &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]);
			for (i = 0; i < 8; i++)
				s->total += v[i];
			s->busy = s->total - v[3] - v[4];	/* minus idle, iowait */
		} else if (!strncmp(line, "ctxt ", 5)) {
			s->ctxt = strtoull(line + 5, NULL, 10);
		}
	}
	if (f)
		fclose(f);
}

/* core_sched.force_idle_usec of a tenant's cgroup, or -1. */
static long long force_idle_usec(const char *tenant)
{
	char path[300], dir[256], line[256];
	long long v = -1;
	FILE *f;

	tenant_cgroup_path(tenant, dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/cpu.stat", dir);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "core_sched.force_idle_usec %lld", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

/* Remember which thread belongs to which tenant, for the trace analysis. */
static void sample_tids(struct cell_run *c)
{
	char path[300], dir[256];
	int t, tid, i;
	FILE *f;

	for (t = 0; t < c->w.ntenants; t++) {
		tenant_cgroup_path(c->w.tenants[t].name, dir, sizeof(dir));
		snprintf(path, sizeof(path), "%s/cgroup.threads", dir);
		f = fopen(path, "r");
		while (f && fscanf(f, "%d", &tid) == 1) {
			for (i = 0; i < c->ntids && c->tids[i].pid != tid; i++)
				;
			if (i == c->ntids && c->ntids < MAX_TIDS) {
				c->tids[c->ntids].pid = tid;
				c->tids[c->ntids].tenant = t + 1;
				c->fi_ms[c->ntids] = 0;
				c->ntids++;
			}
			/* Threads take their sum with them: keep the last value seen. */
			if (i < MAX_TIDS) {
				double v = task_forceidle_ms(tid);

				if (v >= 0)
					c->fi_ms[i] = v;
			}
		}
		if (f)
			fclose(f);
	}
}

static void fail_cell(struct cell_run *c, const char *status, const char *why)
{
	json_object_set_new(c->result, CK(STATUS), json_string(status));
	json_object_set_new(c->result, CK(ERROR), json_string(why));
	printf("cell %s: %s: %s\n", c->id, status, why);
}

/* Start every tenant; returns the number started. */
static int start_tenants(struct cell_run *c, int duration, pid_t *pids,
			 int keep_output)
{
	char cmd[WL_COMMAND + 64], out[512];
	int t;

	for (t = 0; t < c->w.ntenants; t++) {
		char *argv[] = { "/bin/sh", "-c", cmd, NULL };

		if (workload_command(&c->w.tenants[t], duration, &c->topo, cmd, sizeof(cmd)))
			return t;
		if (keep_output)
			snprintf(out, sizeof(out), "%s/%s.%s.out", c->out_dir, c->id,
				 c->w.tenants[t].name);
		else
			snprintf(out, sizeof(out), "/dev/null");
		pids[t] = tenant_spawn(c->w.tenants[t].name, c->mode, 0, argv, out);
		if (pids[t] < 0)
			return t;
	}
	return t;
}

/* Wait for the tenants, sampling their threads; kill them after @limit s. */
static int wait_tenants(struct cell_run *c, pid_t *pids, int n, double limit,
			int *status)
{
	double end = now() + limit;
	int left = n, i, st, timed_out = 0;

	while (left) {
		pid_t w = waitpid(-1, &st, WNOHANG);

		for (i = 0; w > 0 && i < n; i++)
			if (pids[i] == w) {
				status[i] = st;
				pids[i] = 0;
				left--;
			}
		if (w > 0)
			continue;
		if (now() > end && !timed_out) {
			for (i = 0; i < n; i++)
				if (pids[i] > 0)
					kill(-pids[i], SIGKILL), kill(pids[i], SIGKILL);
			timed_out = 1;
		}
		sample_tids(c);
		usleep(100000);
	}
	return timed_out ? -1 : 0;
}

static void collect_metrics(struct cell_run *c, const int *status)
{
	json_t *metrics = json_array();
	char path[512], err[256];
	int t, k, failed = 0;

	for (t = 0; t < c->w.ntenants; t++) {
		const struct wl_tenant *tn = &c->w.tenants[t];
		char *out;

		snprintf(path, sizeof(path), "%s/%s.%s.out", c->out_dir, c->id, tn->name);
		out = read_file(path);
		if (!WIFEXITED(status[t]) || WEXITSTATUS(status[t])) {
			snprintf(err, sizeof(err), "tenant %s: command %s %d (output in %s.%s.out)",
				 tn->name, WIFEXITED(status[t]) ? "exited with" : "killed by signal",
				 WIFEXITED(status[t]) ? WEXITSTATUS(status[t]) : WTERMSIG(status[t]),
				 c->id, tn->name);
			if (!failed++)
				fail_cell(c, "error", err);
		}
		for (k = 0; out && k < tn->nmetrics; k++) {
			const struct wl_metric *m = &tn->metrics[k];
			double v;
			int censored;
			json_t *o = json_pack("{s:s,s:s,s:s,s:b}", CK(M_TENANT), tn->name,
					      CK(M_METRIC), m->name, CK(M_UNIT), m->unit,
					      CK(M_HIGHER), m->higher_is_better);

			const char *bad = NULL;
			int wrong = extract_metric(m, out, &v, &censored, err, sizeof(err));

			/* A value no verdict can use is the metric's error, not a value. */
			if (!wrong && (bad = cell_value_problem(v, m->higher_is_better))) {
				snprintf(err, sizeof(err), "metric %s: read %g from the output: %s",
					 m->name, v, bad);
				wrong = 1;
			}
			if (wrong) {
				json_object_set_new(o, CK(M_ERROR), json_string(err));
				if (!failed++)
					fail_cell(c, "error", err);
			} else {
				json_object_set_new(o, CK(M_VALUE), json_real(v));
				json_object_set_new(o, CK(M_CENSORED), json_boolean(censored));
			}
			/* Which percentile of the tenant's histogram this is (max: 100). */
			if (m->extract == WL_HIST)
				json_object_set_new(o, CK(M_PERCENTILE), json_real(
					!strcmp(m->arg, "max") ? 100 : strtod(m->arg + 1, NULL)));
			/* Keep the histogram: percentiles merge across reps, not averages. */
			if (m->extract == WL_HIST && k == 0) {
				struct hist h;
				long max_us;

				if (!cyclictest_parse(out, &h, &max_us)) {
					json_object_set_new(o, CK(M_HIST), hist_to_json(&h));
					hist_free(&h);
				}
			}
			json_array_append_new(metrics, o);
		}
		free(out);
	}
	json_object_set_new(c->result, CK(METRICS), metrics);
}

static void collect_trace(struct cell_run *c)
{
	struct cotrace_config cfg = { .tenants = c->tids, .ntenants = c->ntids };
	struct cotrace_result r;
	FILE *f = fopen("/sys/kernel/tracing/trace", "r");

	if (!f)
		return;
	cotrace_pairs_default(&cfg, c->topo.cpus);
	if (cotrace_analyse(f, &cfg, &r)) {
		fclose(f);
		return;
	}
	fclose(f);
	/* A cell with unexplained co-residency keeps its trace for the host. */
	if (r.unexplained) {
		char path[512];

		snprintf(path, sizeof(path), "%s/%s.trace", c->out_dir, c->id);
		trace_save(path, c->id, c->tids, c->ntids);
	}
	json_object_set_new(c->result, CK(CORUN), json_pack(
			"{s:f,s:i,s:f,s:f,s:i,s:f,s:f,s:f,s:f,s:i,s:f,s:i,s:b,s:f,s:f}",
			CK(C_SPAN_S), r.span_s, CK(C_WINDOWS), r.windows,
			CK(C_PAIR_SHARE), r.pair_share, CK(C_CORUN_PCT), r.corun_pct,
			CK(C_HANDOFF), r.handoff, CK(C_HANDOFF_MS), r.handoff_s * 1e3,
			CK(C_HANDOFF_P50_US), r.handoff_p50_us,
			CK(C_HANDOFF_P99_US), r.handoff_p99_us,
			CK(C_HANDOFF_MAX_US), r.handoff_max_us,
			CK(C_UNEXPLAINED), r.unexplained,
			CK(C_UNEXPLAINED_MS), r.unexplained_s * 1e3,
			CK(C_TRUNCATED), r.truncated,
			CK(C_CORE_EVENTS), r.have_core_events,
			CK(C_ONE_BUSY_S), r.one_busy_s, CK(C_BOTH_BUSY_S), r.both_busy_s));
}

/* Tools present, mode set and checked, tenant cgroups made: 0, or failed. */
static int prepare_cell(struct cell_run *c, const char *const *names)
{
	char err[512];
	int t;

	for (t = 0; t < c->w.nrequires; t++) {
		/* Looked up in C: a workload file's field never reaches a shell. */
		if (!on_path(c->w.requires[t])) {
			snprintf(err, sizeof(err), "tool %s is not in the guest image (add it to "
				 "guest-image/packages.txt)", c->w.requires[t]);
			fail_cell(c, "missing-tool", err);
			return -1;
		}
	}
	if (mode_prepare(c->mode, err, sizeof(err)) ||
	    mode_check_topology(c->mode, err, sizeof(err))) {
		fail_cell(c, "mode-check-failed", err);
		return -1;
	}
	for (t = 0; t < c->w.ntenants; t++)
		if (tenant_cgroup_setup(names[t], c->mode, err, sizeof(err))) {
			fail_cell(c, "mode-check-failed", err);
			return -1;
		}
	return 0;
}

/*
 * The measured run: tenants started, traced once each is in place with
 * its cookie, their cookies checked, waited for. 0, or the cell failed.
 */
static int measured_run(struct cell_run *c, const char *const *names, int *status)
{
	pid_t pids[WL_MAX_TENANTS];
	char err[512];
	double m0 = now();
	int t, n;

	n = start_tenants(c, c->duration, pids, 1);
	/*
	 * Trace only once every tenant's first process is in its cgroup with
	 * its cookie: while launching it is still the agent's child and nobody
	 * isolates it (seen as "unexplained" windows at the start of traces).
	 */
	for (t = 0; t < n; t++)
		if (tenant_wait_ready(names[t], c->mode, pids[t], 2000))
			printf("cell %s: tenant %s not ready after 2 s\n", c->id, names[t]);
	trace_start();
	/* Verify cookies once the tenants' first processes are in place. */
	usleep(300000);
	sample_tids(c);
	if (n < c->w.ntenants ||
	    mode_check_cookies(c->mode, names, c->w.ntenants, err, sizeof(err))) {
		if (n < c->w.ntenants)
			snprintf(err, sizeof(err), "could not start tenant %s", names[n]);
		for (t = 0; t < n; t++)
			kill(pids[t], SIGKILL);
		wait_tenants(c, pids, n, 5, status);
		trace_stop();
		fail_cell(c, "mode-check-failed", err);
		return -1;
	}
	if (wait_tenants(c, pids, n, c->duration + GRACE_S, status))
		fail_cell(c, "timeout", "a tenant ran past its duration plus 60 s and was killed");
	json_object_set_new(c->result, CK(MEASURED_S), json_real(now() - m0));
	trace_stop();
	return 0;
}

/* Forced idle per tenant: from its cgroup, and from its tasks' samples. */
static void record_forced_idle(struct cell_run *c, const char *const *names,
			       const long long *fi_before)
{
	json_t *fi = json_object();
	int t;

	for (t = 0; t < c->w.ntenants; t++) {
		long long after = force_idle_usec(names[t]);

		if (after >= 0 && fi_before[t] >= 0)
			json_object_set_new(fi, names[t], json_integer(after - fi_before[t]));
	}
	json_object_set_new(c->result, CK(FORCE_IDLE_USEC), fi);
	/* The same from each task's core_forceidle_sum, sampled every 100 ms. */
	fi = json_object();
	for (t = 0; t < c->w.ntenants; t++) {
		double sum = 0;

		for (int i = 0; i < c->ntids; i++)
			if (c->tids[i].tenant == t + 1)
				sum += c->fi_ms[i];
		json_object_set_new(fi, names[t], json_real(sum));
	}
	json_object_set_new(c->result, CK(TASK_FORCEIDLE_MS), fi);
}

static void record_sysstat(struct cell_run *c, const struct sysstat *s0,
			   const struct sysstat *s1)
{
	json_object_set_new(c->result, CK(CONTEXT_SWITCHES),
			    json_integer(s1->ctxt - s0->ctxt));
	if (s1->total > s0->total)
		json_object_set_new(c->result, CK(CPU_UTIL),
				    json_real((double)(s1->busy - s0->busy) /
					      (s1->total - s0->total)));
}

static void run_cell(struct cell_run *c)
{
	pid_t pids[WL_MAX_TENANTS];
	int status[WL_MAX_TENANTS] = { 0 }, t, n;
	const char *names[WL_MAX_TENANTS];
	long long fi_before[WL_MAX_TENANTS];
	struct sysstat s0, s1;
	double t0 = now();

	for (t = 0; t < c->w.ntenants; t++)
		names[t] = c->w.tenants[t].name;
	if (prepare_cell(c, names))
		return;
	if (c->warmup > 0) {
		n = start_tenants(c, c->warmup, pids, 0);
		wait_tenants(c, pids, n, c->warmup + GRACE_S, status);
	}
	c->ntids = 0;
	for (t = 0; t < c->w.ntenants; t++)
		fi_before[t] = force_idle_usec(names[t]);
	read_sysstat(&s0);
	if (measured_run(c, names, status))
		return;
	read_sysstat(&s1);
	record_forced_idle(c, names, fi_before);
	record_sysstat(c, &s0, &s1);
	collect_metrics(c, status);
	collect_trace(c);
	json_object_set_new(c->result, CK(WALL_S), json_real(now() - t0));
}

static int write_result(struct cell_run *c)
{
	char path[512];
	int ret;

	if (!json_object_get(c->result, CK(STATUS)))
		json_object_set_new(c->result, CK(STATUS), json_string("ok"));
	snprintf(path, sizeof(path), "%s/%s.json", c->out_dir, c->id);
	/* Only this file needs to be on the host before it gets its name. */
	ret = json_write_atomic(path, c->result, JSON_INDENT(1) | JSON_SORT_KEYS);
	if (ret) {
		printf("cell %s: cannot write %s: %s\n", c->id, path, strerror(-ret));
		return -1;
	}
	return 0;
}

/* The guest's tool versions, once per boot, for the run's manifest. */
static int record_versions(const char *out_dir)
{
	static char *const tools[][3] = {
		{ "uname", "-r", NULL },
		{ "sysbench", "--version", NULL },
		{ "stress-ng", "--version", NULL },
		{ "fio", "--version", NULL },
		{ "cyclictest", "--help", NULL },
		{ "perf", "--version", NULL },
	};
	char path[512], line[512];
	size_t t;
	FILE *f;

	snprintf(path, sizeof(path), "%s/versions.txt", out_dir);
	f = fopen(path, "w");
	if (!f)
		return -1;
	/* One line each, as the run keeps them (tool-versions.txt). */
	for (t = 0; t < sizeof(tools) / sizeof(tools[0]); t++) {
		if (spawn_first_line(tools[t], line, sizeof(line)) < 0 || !line[0])
			snprintf(line, sizeof(line), "%s: not found", tools[t][0]);
		fprintf(f, "%s\n", line);
	}
	return fclose(f) ? -1 : 0;
}

int main(int argc, char **argv)
{
	static struct cell_run c;
	char line[1024], id[128], mode[32], wl[128], path[512], err[512];
	struct wl_topology topo;
	FILE *cells;
	int lineno = 0, bad = 0, stored;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc != 4) {
		fprintf(stderr, "usage: csbench-agent CELLS WORKLOAD_DIR OUT_DIR\n");
		return 2;
	}
	if (record_versions(argv[3]))
		fprintf(stderr, "csbench-agent: could not record tool versions\n");
	if (guest_topology(&topo.cpus, &topo.cores, err, sizeof(err))) {
		fprintf(stderr, "csbench-agent: %s\n", err);
		return 2;
	}
	printf("csbench-agent: guest of %d cores, %d CPUs\n", topo.cores, topo.cpus);
	cells = fopen(argv[1], "r");
	if (!cells) {
		fprintf(stderr, "csbench-agent: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	while (fgets(line, sizeof(line), cells)) {
		int m;

		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		memset(&c, 0, sizeof(c));
		if (sscanf(line, "%127s %31s %127s %d %d", id, mode, wl, &c.duration,
			   &c.warmup) != 5 || (m = mode_lookup(mode)) < 0) {
			fprintf(stderr, "csbench-agent: %s:%d: expected ID MODE WORKLOAD DURATION WARMUP\n",
				argv[1], lineno);
			bad++;
			continue;
		}
		c.id = id;
		c.topo = topo;
		c.out_dir = argv[3];
		c.mode = m;
		c.result = json_pack("{s:i,s:s,s:s,s:s,s:i,s:i}",
				     CK(SCHEMA), CELL_SCHEMA_VERSION, CK(CELL), id,
				     CK(MODE), mode, CK(WORKLOAD), wl,
				     CK(DURATION_S), c.duration, CK(WARMUP_S), c.warmup);
		snprintf(path, sizeof(path), "%s/%s.wl", argv[2], wl);
		printf("cell %s: start\n", id);
		if (workload_load(path, &c.w, err, sizeof(err)))
			fail_cell(&c, "error", err);
		else
			run_cell(&c);
		stored = !write_result(&c);
		if (stored)
			printf("cell %s: done (%s)\n", id,
			       json_string_value(json_object_get(c.result, CK(STATUS))));
		json_decref(c.result);
		for (int t = 0; t < c.w.ntenants; t++)
			tenant_cgroup_remove(c.w.tenants[t].name);
		/*
		 * A result that cannot be stored (the host's disk is full) would
		 * be lost with every cell after it: stop, the host says why.
		 */
		if (!stored) {
			bad++;
			break;
		}
	}
	fclose(cells);
	return bad ? 1 : 0;
}
