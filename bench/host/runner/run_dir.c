// SPDX-License-Identifier: GPL-2.0
/*
 * Run-directory bookkeeping for csbench run (see run_dir.h). Every failure
 * to store a result is reported with the file and errno, because a run
 * that silently drops a cell would be read as a cell never run.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "../../lib/json_file.h"
#include "../../lib/log.h"
#include "../../lib/paths.h"
#include "run_dir.h"
#include "../machine/vm.h"

int run_dir_cell_done(const char *dir, const char *id)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/cells/%s.json", dir, id);
	return !access(path, F_OK);
}

/* ID.something other than ID.json: traces and tenant outputs. */
static int is_aux_file(const char *name, const char *id)
{
	size_t len = strlen(id);

	return !strncmp(name, id, len) && name[len] == '.' &&
	       strcmp(name + len, ".json");
}

static int store(const char *src, const char *dst)
{
	int ret = copy_file(src, dst);

	if (ret)
		err_errno(-ret, "cannot store %s", dst);
	return ret;
}

int run_dir_collect(const char *dir, const char *share, const char *id)
{
	char src[4096], dst[4096], tmp[4200];
	struct dirent *de;
	DIR *d;
	int ret = 0;

	snprintf(src, sizeof(src), "%s/out/%s.json", share, id);
	if (access(src, R_OK))
		return 0;
	snprintf(dst, sizeof(dst), "%s/out", share);
	d = opendir(dst);
	while (d && !ret && (de = readdir(d))) {
		if (!is_aux_file(de->d_name, id))
			continue;
		snprintf(src, sizeof(src), "%s/out/%s", share, de->d_name);
		snprintf(dst, sizeof(dst), "%s/cells/%s", dir, de->d_name);
		ret = store(src, dst);
	}
	if (d)
		closedir(d);
	if (ret)
		return ret;
	snprintf(src, sizeof(src), "%s/out/%s.json", share, id);
	snprintf(dst, sizeof(dst), "%s/cells/%s.json", dir, id);
	snprintf(tmp, sizeof(tmp), "%s.tmp", dst);
	ret = store(src, tmp);
	if (!ret && rename(tmp, dst)) {
		ret = -errno;
		err_errno(errno, "cannot rename %s to %s", tmp, dst);
	}
	if (ret) {
		unlink(tmp);
		return ret;
	}
	return 1;
}

int run_dir_check_space(const char *dir, long min_mb)
{
	struct statvfs st;
	double free_mb;

	if (statvfs(dir, &st)) {
		int err = errno;

		err_errno(err, "%s", dir);
		return -err;
	}
	free_mb = (double)st.f_bavail * st.f_frsize / (1 << 20);
	if (free_mb < min_mb) {
		err_msg("%s: only %.0f MiB free, a boot needs %ld MiB (--min-free-mb)",
			dir, free_mb, min_mb);
		return -ENOSPC;
	}
	return 0;
}

static int copy_string(json_t *m, const char *key, char *dst, size_t len,
		       char *err, size_t errlen)
{
	const char *v = json_string_value(json_object_get(m, key));

	if (!v || strlen(v) >= len) {
		snprintf(err, errlen, "\"%s\" missing or too long", key);
		return -1;
	}
	strcpy(dst, v);
	return 0;
}

int run_dir_read_params(const char *dir, struct run_params *p, char *err,
			size_t errlen)
{
	char path[4096];
	json_error_t jerr;
	json_t *m, *wl, *v;
	size_t i, used = 0;
	int ret = -1;

	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	m = json_load_regular(path, &jerr);
	if (!m) {
		json_error_where(err, errlen, path, &jerr);
		return -1;
	}
	memset(p, 0, sizeof(*p));
	wl = json_object_get(m, "workloads");
	if (copy_string(m, "profile", p->profile, sizeof(p->profile), err, errlen) ||
	    copy_string(m, "modes", p->modes, sizeof(p->modes), err, errlen))
		goto out;
	p->reps = json_integer_value(json_object_get(m, "reps"));
	if (p->reps < 1 || !json_is_array(wl) || !json_array_size(wl)) {
		snprintf(err, errlen, "\"reps\" or \"workloads\" missing");
		goto out;
	}
	v = json_object_get(m, "smt_yield");
	if (json_object_get(v, "plugin")) {
		/*
		 * The plugin's yield (siblings on own host CPUs) has no caps:
		 * its period_us is the plugin's timer, set by the yield.
		 */
		p->smt_yield = json_number_value(json_object_get(v, "target"));
	} else if (json_object_get(v, "period_us")) {	/* capped; else the model's 1.0 */
		p->smt_yield = json_number_value(json_object_get(v, "target"));
		p->cap_period_us = json_integer_value(json_object_get(v, "period_us"));
		/* Runs from before the core cap capped only the threads. */
		p->cap_core_pct = json_integer_value(json_object_get(v, "core_pct")) ?: 100;
	}
	v = json_object_get(m, "emulation");
	/* Runs from before --emulation were time-shared on two cores. */
	snprintf(p->emulation, sizeof(p->emulation), "%s",
		 json_string_value(json_object_get(v, "key")) ?: "time-shared");
	p->cores = json_integer_value(json_object_get(v, "cores")) ?: VM_CORES;
	v = json_object_get(m, "image");
	if (!strcmp(json_string_value(json_object_get(v, "kind")) ?: "", "cloud"))
		snprintf(p->cloud_sha256, sizeof(p->cloud_sha256), "%s",
			 json_string_value(json_object_get(v, "sha256")) ?: "?");
	json_array_foreach(wl, i, v) {
		const char *name = json_string_value(v);

		if (!name || used + strlen(name) + 2 > sizeof(p->workloads)) {
			snprintf(err, errlen, "\"workloads\" entry %zu unusable", i);
			goto out;
		}
		used += sprintf(p->workloads + used, "%s%s", i ? "," : "", name);
	}
	ret = 0;
out:
	if (ret)
		snprintf(err + strlen(err), errlen - strlen(err), " (in %s)", path);
	json_decref(m);
	return ret;
}
