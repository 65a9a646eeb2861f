// SPDX-License-Identifier: GPL-2.0
/*
 * A run directory's manifest.json: written once when the run starts,
 * kept true as an adaptive or A/B run grows, and read back by --dir and
 * --resume so a run directory only ever holds one matrix.
 */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../lib/json_file.h"
#include "../../lib/log.h"
#include "../../lib/paths.h"
#include "run_dir.h"
#include "run_manifest.h"

void run_manifest_write(const struct run *r, const char *kernel,
			const char *image, const char *modes, int reps,
			const char *accel_why, enum accel accel, json_t *extra)
{
	char path[4096], line[512], kinfo[4096];
	json_t *m = json_object(), *k, *wl = json_array();
	FILE *f;
	int i, cores;

	snprintf(kinfo, sizeof(kinfo), "%s", kernel);
	if (strrchr(kinfo, '/'))
		strcpy(strrchr(kinfo, '/'), "/info");
	k = json_from_info(kinfo);
	for (i = 0; i < r->nwl; i++)
		json_array_append_new(wl, json_string(r->wl[i].name));
	f = fopen("/proc/cpuinfo", "r");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "model name", 10)) {
			line[strcspn(line, "\n")] = '\0';
			json_object_set_new(m, "host_cpu", json_string(strchr(line, ':') + 2));
			break;
		}
	if (f)
		fclose(f);
	json_object_set_new(m, "schema", json_integer(1));
	json_object_set_new(m, "csbench_version", json_string(CSBENCH_VERSION));
	json_object_set_new(m, "host_cpus", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	/* The topology the boots give the guest (qemu_cmd.c's -smp and -cpu). */
	cores = (int)json_integer_value(json_object_get(json_object_get(extra, "emulation"), "cores"));
	snprintf(line, sizeof(line), "1 socket x %d core%s x %d threads, Skylake-Client",
		 cores > 0 ? cores : VM_CORES, cores == 1 ? "" : "s", VM_THREADS);
	json_object_set_new(m, "guest_topology", json_string(line));
	json_object_set_new(m, "kernel", k);
	json_object_set_new(m, "kernel_image", json_string(kernel));
	json_object_set_new(m, "root_image", json_string(image));
	json_object_set_new(m, "accel", json_string(accel_name(accel)));
	json_object_set_new(m, "accel_reason", json_string(accel_why));
	json_object_set_new(m, "profile", json_string(wl_profile_name(r->profile)));
	json_object_set_new(m, "modes", json_string(modes));
	json_object_set_new(m, "reps", json_integer(reps));
	json_object_set_new(m, "workloads", wl);
	json_object_set_new(m, "cells", json_integer(r->ncells));
	json_object_update(m, extra);
	snprintf(path, sizeof(path), "%s/manifest.json", r->dir);
	if (access(path, F_OK))
		json_dump_file(m, path, JSON_INDENT(1) | JSON_SORT_KEYS);
	json_decref(m);
}

/*
 * Keep the manifest's matrix size true when a run grew (adaptive blocks,
 * or the next block of an A/B session): reps and the expected cells.
 */
int run_manifest_update(const struct run *r, int reps, int may_shrink)
{
	char path[4200];
	json_error_t jerr;
	json_t *m;
	int ret;

	snprintf(path, sizeof(path), "%s/manifest.json", r->dir);
	m = json_load_regular(path, &jerr);
	if (!m)
		return -1;
	/*
	 * Running an earlier block again (--dir with fewer --reps) shrinks
	 * nothing; an adaptive run ends at the blocks it ran.
	 */
	if (json_integer_value(json_object_get(m, "reps")) > reps && !may_shrink)
		reps = json_integer_value(json_object_get(m, "reps"));
	json_object_set_new(m, "reps", json_integer(reps));
	json_object_set_new(m, "cells", json_integer(r->ncells / r->reps_max * reps));
	ret = json_write_atomic(path, m, JSON_INDENT(1) | JSON_SORT_KEYS);
	json_decref(m);
	return ret;
}

/* An existing run directory (--dir) must hold the same matrix. */
int run_manifest_same_matrix(const char *dir, const char *profile, const char *modes,
			     const struct run_params *caps, const struct run *r)
{
	struct run_params p;
	char err[512], names[2048] = "";
	int i, used = 0;

	if (run_dir_read_params(dir, &p, err, sizeof(err))) {
		err_msg("--dir %s: %s", dir, err);
		return 0;
	}
	for (i = 0; i < r->nwl; i++)
		used += snprintf(names + used, sizeof(names) - used, "%s%s", i ? "," : "",
				 r->wl[i].name);
	if (strcmp(p.profile, profile) || strcmp(p.modes, modes) || strcmp(p.workloads, names)) {
		err_msg("--dir %s holds another matrix (profile %s, modes %s, workloads %s)",
			dir, p.profile, p.modes, p.workloads);
		return 0;
	}
	/* Blocks at another yield would be paired as if they were the same. */
	if (fabs(p.smt_yield - caps->smt_yield) > 1e-9) {
		if (p.smt_yield && caps->smt_yield)
			err_msg("--dir %s runs --smt-yield %g, not %g", dir, p.smt_yield,
				caps->smt_yield);
		else if (p.smt_yield)
			err_msg("--dir %s runs --smt-yield %g: give that too", dir, p.smt_yield);
		else
			err_msg("--dir %s runs without vCPU caps, not --smt-yield %g", dir,
				caps->smt_yield);
		return 0;
	}
	/* Caps only when it ran with them (the yield plugin has none). */
	if (p.smt_yield && p.cap_period_us && (p.cap_core_pct != caps->cap_core_pct ||
					       p.cap_period_us != caps->cap_period_us)) {
		err_msg("--dir %s runs --cap-core-pct %ld --cap-period-us %ld, not %ld and %ld",
			dir, p.cap_core_pct, p.cap_period_us, caps->cap_core_pct,
			caps->cap_period_us);
		return 0;
	}
	return 1;
}

/* What --resume takes from an adaptive run's manifest. */
void run_manifest_adaptive(const char *dir, long *target, long *budget, long *min_reps)
{
	char path[4200];
	json_t *m, *a;

	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	m = json_load_regular(path, NULL);
	a = json_object_get(m, "adaptive");
	if (a) {
		*target = json_number_value(json_object_get(a, "target_pct"));
		*budget = json_number_value(json_object_get(a, "budget_min"));
		*min_reps = json_integer_value(json_object_get(a, "min_blocks"));
	}
	json_decref(m);
}

