// SPDX-License-Identifier: GPL-2.0
/* The run's image record (see run_image.h). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/json_file.h"
#include "../../lib/fileio.h"
#include "../../lib/log.h"
#include "../../lib/paths.h"
#include "../machine/cloud_image.h"
#include "run_image.h"
#include "../machine/vm.h"

json_t *run_image_manifest(const struct run_args *a)
{
	if (!a->cloud_image)
		return json_pack("{s:s,s:s,s:s}", "kind", "built", "path", a->image,
				 "format", "raw");
	return json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s,s:[]}", "kind", "cloud",
			 "path", a->cloud_image, "format", a->cloud.format,
			 "sha256", a->cloud.sha256, "root", a->cloud_root ?: VM_CLOUD_ROOT,
			 "seed", a->cloud_seed, "packages", a->cloud_debs, "boots");
}

/*
 * cloud-init's verdict: result.json's "errors" (empty when every stage
 * went well) and the status line of `cloud-init status --long`.
 */
static void add_cloud_init(json_t *entry, const char *share)
{
	char path[4400], line[256], status[64] = "unknown";
	json_t *result, *errors;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cloud-init-status.txt", share);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "status: %63s", status) == 1)
			break;
	if (f)
		fclose(f);
	snprintf(path, sizeof(path), "%s/cloud-init-result.json", share);
	result = json_load_regular(path, NULL);
	errors = json_object_get(json_object_get(result, "v1"), "errors");
	json_object_set_new(entry, "cloud_init_status", json_string(status));
	json_object_set_new(entry, "cloud_init_errors", json_is_array(errors) ?
			    json_incref(errors) :
			    json_pack("[s]", "no result.json from cloud-init"));
	json_decref(result);
}

/* What the image's own services took while the job ran (background.info). */
static void add_background(json_t *entry, const char *share)
{
	static const char *const keys[] = { "background_cpu_s", "background_pct", "job_wall_s" };
	char path[4400];
	json_t *bg;
	size_t i;

	snprintf(path, sizeof(path), "%s/background.info", share);
	bg = json_from_info(path);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *v = json_string_value(json_object_get(bg, keys[i]));

		if (v)
			json_object_set_new(entry, keys[i], json_real(strtod(v, NULL)));
	}
	json_decref(bg);
}

void run_image_record_boot(const char *run_dir, int boot, const char *boot_dir)
{
	char path[4400], share[4200], line[1024];
	json_t *m, *image, *boots, *entry;

	snprintf(path, sizeof(path), "%s/manifest.json", run_dir);
	m = json_load_regular(path, NULL);
	image = json_object_get(m, "image");
	boots = json_object_get(image, "boots");
	if (!json_is_array(boots)) {
		json_decref(m);
		return;		/* the built image: guest.info stays on the share */
	}
	snprintf(share, sizeof(share), "%s/share", boot_dir);
	snprintf(path, sizeof(path), "%s/guest.info", share);
	entry = json_from_info(path);
	json_object_set_new(entry, "boot", json_integer(boot));
	add_background(entry, share);
	add_cloud_init(entry, share);
	json_array_append_new(boots, entry);
	snprintf(path, sizeof(path), "%s/manifest.json", run_dir);
	if (json_write_atomic(path, m, JSON_INDENT(1) | JSON_SORT_KEYS))
		warn("cannot record boot %d's image in %s", boot, path);
	snprintf(path, sizeof(path), "%s/boot.info", boot_dir);
	snprintf(line, sizeof(line), "image_kind=cloud\nguest_runner=%s\ncloud_init_status=%s\n"
		 "background_pct=%.2f\n",
		 json_string_value(json_object_get(entry, "runner")) ?: "unknown",
		 json_string_value(json_object_get(entry, "cloud_init_status")),
		 json_number_value(json_object_get(entry, "background_pct")));
	if (write_file_flags(path, line, strlen(line), O_APPEND | O_CREAT))
		warn("cannot add the image record to %s", path);
	json_decref(m);
}

int run_image_check_after(const char *run_dir, const struct run_args *a)
{
	char path[4200], hex[65], err[512];
	json_t *m;
	int changed;

	if (!a->cloud_image)
		return 0;
	if (file_sha256(a->cloud_image, hex, err, sizeof(err))) {
		warn("%s", err);
		return 0;
	}
	changed = strcmp(hex, a->cloud.sha256) != 0;
	if (changed)
		err_msg("%s changed during the run (sha256 %.12s... before, %.12s... after): "
			"something besides csbench wrote to it", a->cloud_image, a->cloud.sha256, hex);
	snprintf(path, sizeof(path), "%s/manifest.json", run_dir);
	m = json_load_regular(path, NULL);
	json_object_set_new(json_object_get(m, "image"), "sha256_after", json_string(hex));
	if (!m || json_write_atomic(path, m, JSON_INDENT(1) | JSON_SORT_KEYS))
		warn("cannot record the image's checksum after the run in %s", path);
	json_decref(m);
	return changed ? -1 : 0;
}

/* One boot of a cloud run: provisioned, under systemd, cloud-init clean. */
static int verify_cloud_boot(json_t *b, FILE *out)
{
	const char *runner = json_string_value(json_object_get(b, "runner")) ?: "none";
	const char *pid1 = json_string_value(json_object_get(b, "pid1")) ?: "none";
	const char *prov = json_string_value(json_object_get(b, "provisioned")) ?: "no";
	const char *status = json_string_value(json_object_get(b, "cloud_init_status")) ?: "";
	json_t *errors = json_object_get(b, "cloud_init_errors");
	int boot = json_integer_value(json_object_get(b, "boot"));

	if (strcmp(runner, "service") || strcmp(pid1, "systemd")) {
		fprintf(out, "boot %d: the job ran from %s under %s, not from the cloud image's "
			"systemd unit\n", boot, runner, pid1);
		return 1;
	}
	if (!strcmp(prov, "no")) {
		fprintf(out, "boot %d: the cloud image was not provisioned\n", boot);
		return 1;
	}
	if (strcmp(status, "done") || json_array_size(errors)) {
		fprintf(out, "boot %d: cloud-init status %s, %zu errors%s%s\n", boot, status,
			json_array_size(errors), json_array_size(errors) ? ": " : "",
			json_string_value(json_array_get(errors, 0)) ?: "");
		return 1;
	}
	return 0;
}

int run_image_verify(const char *run_dir, FILE *out)
{
	char path[4200];
	json_t *m, *image, *boots, *b;
	const char *kind, *before, *after;
	size_t i;
	int problems = 0;

	snprintf(path, sizeof(path), "%s/manifest.json", run_dir);
	m = json_load_regular(path, NULL);
	image = json_object_get(m, "image");
	kind = json_string_value(json_object_get(image, "kind"));
	if (!kind || strcmp(kind, "cloud")) {
		json_decref(m);
		return 0;	/* the built image, or a run from before the record */
	}
	boots = json_object_get(image, "boots");
	if (!json_array_size(boots)) {
		fprintf(out, "%s: a cloud-image run with no boot on record\n", run_dir);
		problems++;
	}
	json_array_foreach(boots, i, b)
		problems += verify_cloud_boot(b, out);
	before = json_string_value(json_object_get(image, "sha256"));
	after = json_string_value(json_object_get(image, "sha256_after"));
	if (after && before && strcmp(before, after)) {
		fprintf(out, "%s: the cloud image changed during the run\n", run_dir);
		problems++;
	}
	json_decref(m);
	return problems;
}
