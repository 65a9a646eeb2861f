// SPDX-License-Identifier: GPL-2.0
/* The cell schema's table and its checks (see cell_schema.h). */
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

	return json_is_integer(v) ? (int)json_integer_value(v) : 1;
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
		"current version.\n", CELL_SCHEMA_VERSION);
	for (p = 0; p < CP_COUNT; p++) {
		fprintf(f, "\n## `%s`\n\n| key | type | present | versions | meaning |\n"
			"|---|---|---|---|---|\n", part_names[p]);
		for (i = 0; i < CK_COUNT; i++) {
			const struct cell_key *k = &cell_keys[i];
			char versions[32];

			if (k->part != (enum cell_part)p)
				continue;
			if (k->until)
				snprintf(versions, sizeof(versions), "%d-%d", k->since, k->until);
			else
				snprintf(versions, sizeof(versions), "%d-", k->since);
			fprintf(f, "| `%s` | %s | %s | %s | %s |\n", k->key, type_names[k->type],
				need_names[k->need], versions, k->doc);
		}
	}
}
