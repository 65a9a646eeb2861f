// SPDX-License-Identifier: GPL-2.0
/*
 * Noise bands from csbench calibrate: per workload x tenant x metric, how
 * far apart two groups of cells of one mode landed (A/A). A report takes a
 * difference inside that band as not distinguishable whatever a t-test
 * says. Bands only make sense for the profile and accelerator they were
 * measured with.
 */
#include <jansson.h>
#include <string.h>

#include "../lib/json_file.h"
#include "../lib/paths.h"
#include "report.h"

const char *report_calibration_name(const struct report *r)
{
	const char *slash = strrchr(r->calibration, '/');

	return slash ? slash + 1 : r->calibration;
}

/* Why this file's bands do not apply to @r (1, @err says), or 0. */
static int refused(json_t *cal, const struct report *r, const char *path, char *err,
		   size_t errlen)
{
	const char *profile = json_string_value(json_object_get(cal, "profile"));
	const char *accel = json_string_value(json_object_get(cal, "accel"));

	if (!profile || !json_is_array(json_object_get(cal, "rows")))
		snprintf(err, errlen, "%s: not a calibration file (no profile or rows)", path);
	else if (!accel)
		snprintf(err, errlen, "%s: no \"accel\": from an older csbench calibrate, "
			 "run it again", path);
	else if (strcmp(accel, r->accel))
		snprintf(err, errlen, "%s: calibrated under %s, this run is %s", path, accel,
			 r->accel);
	else if (strcmp(profile, r->profile))
		snprintf(err, errlen, "%s: calibrated with profile %s, this run is %s",
			 path, profile, r->profile);
	else
		return 0;
	return 1;
}

int report_load_calibration(struct report *r, const char *path, char *err,
			    size_t errlen)
{
	json_error_t jerr;
	json_t *cal, *rows, *e;
	size_t i;
	int k, n;

	cal = json_load_regular(path, &jerr);
	if (!cal) {
		json_error_where(err, errlen, path, &jerr);
		return -1;
	}
	rows = json_object_get(cal, "rows");
	if (refused(cal, r, path, err, errlen)) {
		json_decref(cal);
		return -1;
	}
	json_array_foreach(rows, i, e) {
		const char *wl = json_string_value(json_object_get(e, "workload")) ?: "";
		const char *tenant = json_string_value(json_object_get(e, "tenant")) ?: "";
		const char *metric = json_string_value(json_object_get(e, "metric")) ?: "";
		double band = json_number_value(json_object_get(e, "band"));
		struct report_row *row = report_find_row(r, wl, tenant, metric);

		for (k = 0; row && k < CMP_COUNT; k++)
			row->cmp[k].band = band;
	}
	/* Each workload's own band, and the overall one, where measured. */
	json_array_foreach(json_object_get(cal, "workloads"), i, e) {
		n = report_find_workload(r, json_string_value(json_object_get(e, "workload")) ?: "");
		if (n >= 0)
			r->wl[n].cal_band = json_number_value(json_object_get(e, "band"));
	}
	r->cal_band_overall = json_number_value(json_object_get(cal, "overall_band"));
	snprintf(r->calibration, sizeof(r->calibration), "%s", path);
	json_decref(cal);
	return 0;
}
