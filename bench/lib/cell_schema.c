// SPDX-License-Identifier: GPL-2.0
/* The cell schema's table and its checks (see cell_schema.h). */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "cell_schema.h"
#include "hist_json.h"
#include "mode.h"

const struct cell_key cell_keys[CK_COUNT] = {
#define X(id, p, k, t, n, s, u, d) \
	[CK_##id] = { .part = p, .key = k, .type = t, .need = n, .since = s, .until = u, .doc = d },
	CELL_SCHEMA(X)
#undef X
};

/*
 * The values a number may take. Every verdict is computed from these keys,
 * so a value outside its range is a malformed cell, never an average: a
 * negative forced-idle count or a co-residency share above 1 would move a
 * row without anyone seeing why. Numeric keys without an entry are only
 * held to CELL_NUMBER_LIMIT, which keeps sums finite.
 */
#define CELL_NUMBER_LIMIT	1e15
#define CELL_SECONDS_LIMIT	1e6	/* eleven days: no cell runs longer */

struct cell_range {
	double min, max;
	int set;
};

#define RANGE(lo, hi) { .min = (lo), .max = (hi), .set = 1 }
static const struct cell_range cell_ranges[CK_COUNT] = {
	[CK_DURATION_S] = RANGE(0, CELL_SECONDS_LIMIT),
	[CK_WARMUP_S] = RANGE(0, CELL_SECONDS_LIMIT),
	[CK_MEASURED_S] = RANGE(0, CELL_SECONDS_LIMIT),
	[CK_WALL_S] = RANGE(0, CELL_SECONDS_LIMIT),
	[CK_FORCE_IDLE_USEC] = RANGE(0, CELL_NUMBER_LIMIT),
	[CK_TASK_FORCEIDLE_MS] = RANGE(0, CELL_NUMBER_LIMIT),
	[CK_CONTEXT_SWITCHES] = RANGE(0, CELL_NUMBER_LIMIT),
	[CK_CPU_UTIL] = RANGE(0, 1.001),	/* /proc/stat rounding */
	/* value: cell_value_problem() also wants rates above 0 */
	[CK_M_VALUE] = RANGE(0, CELL_NUMBER_LIMIT),
	[CK_M_PERCENTILE] = RANGE(0, 100),
	[CK_C_SPAN_S] = RANGE(0, CELL_SECONDS_LIMIT),
	[CK_C_WINDOWS] = RANGE(0, CELL_NUMBER_LIMIT),
	[CK_C_PAIR_SHARE] = RANGE(0, 1),
	[CK_C_CORUN_PCT] = RANGE(0, CELL_NUMBER_LIMIT),	/* 100 per pair */
	[CK_C_HANDOFF] = RANGE(0, CELL_NUMBER_LIMIT),
	[CK_C_HANDOFF_MS] = RANGE(0, CELL_NUMBER_LIMIT),
	[CK_C_HANDOFF_P50_US] = RANGE(0, CELL_NUMBER_LIMIT),
	[CK_C_HANDOFF_P99_US] = RANGE(0, CELL_NUMBER_LIMIT),
	[CK_C_HANDOFF_MAX_US] = RANGE(0, CELL_NUMBER_LIMIT),
	[CK_C_UNEXPLAINED] = RANGE(0, CELL_NUMBER_LIMIT),
	[CK_C_UNEXPLAINED_MS] = RANGE(0, CELL_NUMBER_LIMIT),
	[CK_C_TRUNCATED] = RANGE(0, CELL_NUMBER_LIMIT),
	[CK_C_ONE_BUSY_S] = RANGE(0, CELL_SECONDS_LIMIT),
	[CK_C_BOTH_BUSY_S] = RANGE(0, CELL_SECONDS_LIMIT),
};
#undef RANGE

static const char *const part_names[CP_COUNT] = {
	[CP_CELL] = "cell", [CP_METRIC] = "metrics[]", [CP_CORUN] = "corun",
	[CP_HIST] = "metrics[].hist",
};

static const char *const type_names[] = {
	[CT_STRING] = "string", [CT_INT] = "integer", [CT_NUMBER] = "number",
	[CT_BOOL] = "boolean", [CT_MODE] = "mode name", [CT_COUNTS] = "object of numbers",
	[CT_OBJECT] = "object", [CT_ARRAY] = "array",
};

static const char *const need_names[] = {
	[CN_CORE] = "always, every version", [CN_ALWAYS] = "always",
	[CN_OK] = "if status is ok", [CN_OPTIONAL] = "optional",
};

int cell_schema_version(json_t *cell)
{
	json_t *v = json_object_get(cell, CK(SCHEMA));
	json_int_t n = json_is_integer(v) ? json_integer_value(v) : 1;

	/* Clamped, so that 4294967295 stays a version from the future. */
	return n > INT_MAX ? INT_MAX : n < INT_MIN ? INT_MIN : (int)n;
}

static int problem(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, len, fmt, ap);
	va_end(ap);
	return -1;
}

static int type_ok(json_t *v, enum cell_type t)
{
	const char *key;
	json_t *x;

	switch (t) {
	case CT_STRING:
		return json_is_string(v);
	case CT_INT:
		return json_is_integer(v);
	case CT_NUMBER:
		return json_is_number(v);
	case CT_BOOL:
		return json_is_boolean(v);
	case CT_MODE:
		return json_is_string(v) && mode_lookup(json_string_value(v)) >= 0;
	case CT_COUNTS:
		if (!json_is_object(v))
			return 0;
		json_object_foreach(v, key, x)
			if (!json_is_number(x))
				return 0;
		return 1;
	case CT_OBJECT:
		return json_is_object(v);
	case CT_ARRAY:
		return json_is_array(v);
	}
	return 0;
}

const char *cell_value_problem(double v, int higher_is_better)
{
	if (!isfinite(v) || v < 0 || v > CELL_NUMBER_LIMIT)
		return "outside 0..1e15";
	/*
	 * A rate of 0 means nothing ran; the comparisons are of logs, so it
	 * would drop its block without a word.
	 */
	if (higher_is_better && !(v > 0))
		return "a rate must be above 0";
	return NULL;
}

/* @v (a number) within @k's range; the bounds in @err otherwise. */
static int range_ok(const struct cell_key *k, json_t *v, const char *where,
		    const char *sub, char *err, size_t len)
{
	const struct cell_range *r = &cell_ranges[k - cell_keys];
	double x = json_number_value(v);
	double lo = r->set ? r->min : -CELL_NUMBER_LIMIT;
	double hi = r->set ? r->max : CELL_NUMBER_LIMIT;

	if (isfinite(x) && x >= lo && x <= hi)
		return 1;
	problem(err, len, "%s: \"%s\"%s%s is %g, outside %g..%g", where, k->key,
		sub ? "." : "", sub ?: "", x, lo, hi);
	return 0;
}

/* Every number of @v (a number, or an object of them) within range. */
static int values_ok(const struct cell_key *k, json_t *v, const char *where,
		     char *err, size_t len)
{
	const char *key;
	json_t *x;

	if (k->type == CT_INT || k->type == CT_NUMBER)
		return range_ok(k, v, where, NULL, err, len);
	if (k->type == CT_COUNTS)
		json_object_foreach(v, key, x)
			if (!range_ok(k, x, where, key, err, len))
				return 0;
	return 1;
}

static int in_version(const struct cell_key *k, int version)
{
	return version >= k->since && (!k->until || version <= k->until);
}

/* One object against the table's keys of @part. @where prefixes messages. */
static int check_part(json_t *o, enum cell_part part, int version, int ok,
		      const char *where, char *err, size_t len)
{
	const char *key;
	json_t *v;
	int i;

	if (!json_is_object(o))
		return problem(err, len, "%s is not an object", where);
	for (i = 0; i < CK_COUNT; i++) {
		const struct cell_key *k = &cell_keys[i];

		if (k->part != part)
			continue;
		v = json_object_get(o, k->key);
		if (!v) {
			if (in_version(k, version) &&
			    (k->need == CN_CORE ||
			     (version >= 2 && (k->need == CN_ALWAYS || (k->need == CN_OK && ok)))))
				return problem(err, len, "%s: no \"%s\" (%s)", where, k->key,
					       need_names[k->need]);
			continue;
		}
		if (!type_ok(v, k->type))
			return problem(err, len, "%s: \"%s\" is not a %s", where, k->key,
				       type_names[k->type]);
		if (!values_ok(k, v, where, err, len))
			return -1;
	}
	/* A cell that claims this version must keep to its keys. */
	if (version != CELL_SCHEMA_VERSION)
		return 0;
	json_object_foreach(o, key, v) {
		for (i = 0; i < CK_COUNT; i++)
			if (cell_keys[i].part == part && !strcmp(cell_keys[i].key, key) &&
			    in_version(&cell_keys[i], version))
				break;
		if (i == CK_COUNT)
			return problem(err, len, "%s: unknown key \"%s\" in schema %d", where,
				       key, version);
	}
	return 0;
}

/* "<workload>.<mode>.r<N>.json", with the cell's own id, workload and mode. */
static int check_name(json_t *cell, const char *file, char *err, size_t len)
{
	const char *id = json_string_value(json_object_get(cell, CK(CELL)));
	const char *wl = json_string_value(json_object_get(cell, CK(WORKLOAD)));
	const char *mode = json_string_value(json_object_get(cell, CK(MODE)));
	char want[512];
	size_t n = strlen(file);

	if (n < 6 || strcmp(file + n - 5, ".json"))
		return problem(err, len, "the file name does not end in .json");
	if (id && (strlen(id) != n - 5 || strncmp(id, file, n - 5)))
		return problem(err, len, "\"cell\" is \"%s\", the file name says %.*s", id,
			       (int)(n - 5), file);
	snprintf(want, sizeof(want), "%s.%s.r", wl ?: "", mode ?: "");
	if (wl && mode && strncmp(file, want, strlen(want)))
		return problem(err, len, "workload \"%s\" and mode \"%s\" do not match the "
			       "file name", wl, mode);
	return 0;
}

static int check_metrics(json_t *metrics, int version, char *err, size_t len)
{
	char where[64], why[200];
	json_t *m, *m2;
	size_t i, j;

	json_array_foreach(metrics, i, m) {
		json_t *hist;

		snprintf(where, sizeof(where), "metrics[%zu]", i);
		if (check_part(m, CP_METRIC, version, 1, where, err, len))
			return -1;
		if (!json_object_get(m, CK(M_VALUE)) && !json_object_get(m, CK(M_ERROR)))
			return problem(err, len, "%s: neither \"value\" nor \"error\"", where);
		if (json_is_number(json_object_get(m, CK(M_VALUE)))) {
			double v = json_number_value(json_object_get(m, CK(M_VALUE)));
			const char *bad = cell_value_problem(v,
				json_is_true(json_object_get(m, CK(M_HIGHER))));

			if (bad)
				return problem(err, len, "%s: \"value\" is %g: %s", where, v, bad);
		}
		hist = json_object_get(m, CK(M_HIST));
		snprintf(where, sizeof(where), "metrics[%zu].hist", i);
		if (hist && check_part(hist, CP_HIST, version, 1, where, err, len))
			return -1;
		if (hist) {
			struct hist h;

			if (hist_from_json(hist, &h, why, sizeof(why)))
				return problem(err, len, "%s: %s", where, why);
			hist_free(&h);
		}
		for (j = 0; j < i; j++) {
			m2 = json_array_get(metrics, j);
			if (json_equal(json_object_get(m, CK(M_TENANT)),
				       json_object_get(m2, CK(M_TENANT))) &&
			    json_equal(json_object_get(m, CK(M_METRIC)),
				       json_object_get(m2, CK(M_METRIC))))
				return problem(err, len, "metrics[%zu] and [%zu]: tenant %s has "
					       "metric \"%s\" twice", j, i,
					       json_string_value(json_object_get(m, CK(M_TENANT))),
					       json_string_value(json_object_get(m, CK(M_METRIC))));
		}
	}
	return 0;
}

int cell_validate(json_t *cell, const char *file, char *err, size_t len)
{
	int version = cell_schema_version(cell), ok;
	json_t *status = json_object_get(cell, CK(STATUS)), *v = json_object_get(cell, CK(SCHEMA));

	if (v && (!json_is_integer(v) || json_integer_value(v) < 1))
		return problem(err, len, "\"schema\" is not a version number");
	if (version > CELL_SCHEMA_VERSION)
		return problem(err, len, "schema %d is newer than this csbench's %d", version,
			       CELL_SCHEMA_VERSION);
	ok = json_is_string(status) && !strcmp(json_string_value(status), "ok");
	if (check_part(cell, CP_CELL, version, ok, "cell", err, len) ||
	    check_name(cell, file, err, len))
		return -1;
	if (json_object_get(cell, CK(CORUN)) &&
	    check_part(json_object_get(cell, CK(CORUN)), CP_CORUN, version, 1, "corun", err, len))
		return -1;
	return check_metrics(json_object_get(cell, CK(METRICS)), version, err, len);
}

void cell_schema_print(FILE *f)
{
	int p, i;

	fprintf(f, "# Cell schema, version %d\n\n"
		"Generated by `csbench schema` from `bench/lib/cell_schema.h`, the table the\n"
		"guest agent writes cells with and the report reads them with; `make check`\n"
		"fails when this file and the table differ. A cell is\n"
		"`<run>/cells/<workload>.<mode>.r<block>.json`. Cells without `schema` are\n"
		"version 1, written before this table: of them only the keys present\n"
		"\"always, every version\" are required, and the others are checked when\n"
		"present. Keys a version does not list are refused only in cells of the\n"
		"current version. A number outside its range makes the cell malformed:\n"
		"it is listed with the key, never averaged.\n", CELL_SCHEMA_VERSION);
	for (p = 0; p < CP_COUNT; p++) {
		fprintf(f, "\n## `%s`\n\n| key | type | present | versions | range | meaning |\n"
			"|---|---|---|---|---|---|\n", part_names[p]);
		for (i = 0; i < CK_COUNT; i++) {
			const struct cell_key *k = &cell_keys[i];
			const struct cell_range *r = &cell_ranges[i];
			char versions[32], range[64] = "";

			if (k->part != (enum cell_part)p)
				continue;
			if (k->until)
				snprintf(versions, sizeof(versions), "%d-%d", k->since, k->until);
			else
				snprintf(versions, sizeof(versions), "%d-", k->since);
			if (r->set)
				snprintf(range, sizeof(range), "%g..%g", r->min, r->max);
			else if (k->type == CT_INT || k->type == CT_NUMBER)
				snprintf(range, sizeof(range), "+-%g", CELL_NUMBER_LIMIT);
			if (i == CK_M_VALUE)
				snprintf(range, sizeof(range), "0..%g; a rate above 0",
					 CELL_NUMBER_LIMIT);
			if (i == CK_SCHEMA)
				snprintf(range, sizeof(range), "1..%d", CELL_SCHEMA_VERSION);
			fprintf(f, "| `%s` | %s | %s | %s | %s | %s |\n", k->key,
				type_names[k->type], need_names[k->need], versions, range,
				k->doc);
		}
	}
}
