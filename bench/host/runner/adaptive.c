// SPDX-License-Identifier: GPL-2.0
/* Adaptive repetitions: measure, decide, record (see adaptive.h). */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/json_file.h"
#include "../../lib/paths.h"
#include "../../report/report.h"
#include "adaptive.h"

const char *adaptive_stop_name(enum adaptive_stop s)
{
	static const char *const names[] = {
		[STOP_NONE] = "running", [STOP_TARGET] = "target reached",
		[STOP_BUDGET] = "budget spent", [STOP_MAX_REPS] = "maximum repetitions",
	};

	return names[s];
}

int adaptive_measure(const char *dir, struct adaptive_state *st, char *err, size_t errlen)
{
	struct report *r = calloc(1, sizeof(*r));
	int w;

	if (!r) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	/* Only the verdicts: per-mode summaries (bootstraps) are not needed here. */
	if (report_load(dir, r, err, errlen) || report_compute_verdicts(r)) {
		if (!err[0])
			snprintf(err, errlen, "%s: statistics failed", dir);
		report_free(r);
		free(r);
		return -1;
	}
	st->widest = 0;
	st->widest_wl[0] = '\0';
	for (w = 0; w < r->nwl; w++) {
		const struct comparison *c = &r->wl[w].verdict[CMP_CS_OFF];
		/* Half the interval's width on the log scale; none yet: infinite. */
		double half = c->valid && c->lo > 0 && isfinite(c->hi) ?
			      sqrt(c->hi / c->lo) - 1 : INFINITY;

		if (half > st->widest) {
			st->widest = half;
			snprintf(st->widest_wl, sizeof(st->widest_wl), "%s", r->wl[w].name);
		}
	}
	report_free(r);
	free(r);
	return 0;
}

enum adaptive_stop adaptive_decide(const struct adaptive_state *st, double elapsed_s,
				   double block_s, int max_blocks)
{
	if (st->widest <= st->target)
		return STOP_TARGET;
	if (st->blocks >= max_blocks)
		return STOP_MAX_REPS;
	if (st->budget_s > 0 && elapsed_s + block_s > st->budget_s)
		return STOP_BUDGET;
	return STOP_NONE;
}

int adaptive_record(const char *dir, const struct adaptive_state *st, enum adaptive_stop s,
		    int min_blocks)
{
	char path[4200];
	json_error_t jerr;
	json_t *m;
	int ret;

	snprintf(path, sizeof(path), "%s/manifest.json", dir);
	m = json_load_regular(path, &jerr);
	if (!m)
		return -EINVAL;
	json_object_set_new(m, "adaptive", json_pack(
		"{s:f,s:f,s:i,s:i,s:s,s:o,s:s}", "target_pct", st->target * 100,
		"budget_min", st->budget_s / 60, "min_blocks", min_blocks,
		"blocks", st->blocks, "stopped_by", adaptive_stop_name(s),
		"widest_half_width_pct", isfinite(st->widest) ?
		json_real(st->widest * 100) : json_null(),
		"widest_workload", st->widest_wl));
	ret = json_write_atomic(path, m, JSON_INDENT(1) | JSON_SORT_KEYS);
	json_decref(m);
	return ret;
}
