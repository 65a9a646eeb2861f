// SPDX-License-Identifier: GPL-2.0
/*
 * Extractors, one function per kind, chosen from a table: "after" finds the
 * first number after a text, "json" follows a JSON pointer, "hist" reads a
 * percentile from a cyclictest histogram with its overflows counted.
 */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strnum.h"
#include "extract.h"

static int fail(char *err, size_t len, const char *fmt, const char *a)
{
	snprintf(err, len, fmt, a);
	return -1;
}

static int extract_after(const struct wl_metric *m, const char *out,
			 double *v, int *censored, char *err, size_t len)
{
	const char *p = strstr(out, m->arg);
	char *end;

	*censored = 0;
	if (!p)
		return fail(err, len, "no \"%s\" in the output", m->arg);
	p += strlen(m->arg);
	while (*p == ' ' || *p == '\t')
		p++;
	*v = strtod(p, &end);
	if (end == p || !isfinite(*v))
		return fail(err, len, "no number after \"%s\"", m->arg);
	return 0;
}

/* RFC 6901: "/a/0/b", with ~1 for '/' and ~0 for '~' inside a key. */
static json_t *json_pointer(json_t *root, const char *ptr)
{
	char key[256];
	json_t *node = root;
	const char *p = ptr;

	if (*p != '/')
		return NULL;
	while (node && *p == '/') {
		size_t n = 0;

		for (p++; *p && *p != '/'; p++) {
			char c = *p;

			if (c == '~' && (p[1] == '0' || p[1] == '1'))
				c = *++p == '1' ? '/' : '~';
			if (n + 1 >= sizeof(key))
				return NULL;
			key[n++] = c;
		}
		key[n] = '\0';
		if (json_is_array(node)) {
			long idx;

			if (parse_long(key, 0, (long)json_array_size(node) - 1, &idx))
				return NULL;
			node = json_array_get(node, idx);
		} else {
			node = json_object_get(node, key);
		}
	}
	return node;
}

static int extract_json(const struct wl_metric *m, const char *out,
			double *v, int *censored, char *err, size_t len)
{
	const char *start = strchr(out, '{');
	json_error_t jerr;
	json_t *root, *node;

	*censored = 0;
	/* fio may print notices before its JSON. */
	if (!start)
		return fail(err, len, "no JSON object in the output%s", "");
	root = json_loads(start, JSON_DISABLE_EOF_CHECK, &jerr);
	if (!root) {
		snprintf(err, len, "output is not JSON: %s (line %d)", jerr.text, jerr.line);
		return -1;
	}
	node = json_pointer(root, m->arg);
	if (!node || !json_is_number(node)) {
		json_decref(root);
		return fail(err, len, "no number at %s in the JSON output", m->arg);
	}
	*v = json_number_value(node);
	json_decref(root);
	return 0;
}

/* Sum of the numbers after @label on its line ("# Histogram Overflows:"). */
static long line_numbers(const char *out, const char *label, int want_max)
{
	const char *p = strstr(out, label);
	long total = 0, v;
	char *end;

	if (!p)
		return -1;
	p += strlen(label);
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p < '0' || *p > '9')
			break;
		v = strtol(p, &end, 10);
		if (end == p)
			break;
		total = want_max ? (v > total ? v : total) : total + v;
		p = end;
	}
	return total;
}

int cyclictest_parse(const char *out, struct hist *h, long *max_us)
{
	long lines = 0;
	const char *line;

	hist_init(h);
	for (line = out; line && *line; line = strchr(line, '\n'), line = line ? line + 1 : NULL) {
		long bucket, c, sum = 0;
		char *end;
		const char *p;

		if (*line < '0' || *line > '9')
			continue;
		bucket = strtol(line, &end, 10);
		if (end == line || (*end != ' ' && *end != '\t') || bucket < 0 ||
		    bucket >= HIST_MAX_BUCKETS)
			continue;
		for (p = end;;) {
			while (*p == ' ' || *p == '\t')
				p++;
			/* strtol() would skip the newline into the next line. */
			if (*p < '0' || *p > '9')
				break;
			c = strtol(p, &end, 10);
			if (end == p)
				break;
			sum += c;
			p = end;
		}
		if (bucket >= lines)
			lines = bucket + 1;
		if (hist_record(h, bucket, sum)) {
			hist_free(h);
			return -1;
		}
	}
	if (!lines)
		return -1;
	/* cyclictest -h N prints buckets 0..N-1 and counts the rest. */
	h->limit = lines;
	h->overflow = line_numbers(out, "# Histogram Overflows:", 0);
	if (h->overflow < 0)
		h->overflow = 0;
	*max_us = line_numbers(out, "# Max Latencies:", 1);
	return 0;
}

static int extract_hist(const struct wl_metric *m, const char *out,
			double *v, int *censored, char *err, size_t len)
{
	struct hist h;
	long max_us;
	double p;

	if (cyclictest_parse(out, &h, &max_us))
		return fail(err, len, "no cyclictest histogram in the output%s", "");
	if (!strcmp(m->arg, "max")) {
		*censored = 0;
		*v = max_us;
		hist_free(&h);
		if (max_us < 0)
			return fail(err, len, "no \"# Max Latencies:\" line%s", "");
		return 0;
	}
	if (m->arg[0] != 'p' || parse_double(m->arg + 1, 0.001, 100, &p)) {
		hist_free(&h);
		return fail(err, len, "hist: expected pNN (e.g. p99.9) or max, got '%s'", m->arg);
	}
	if (hist_percentile(&h, p / 100, v, censored)) {
		hist_free(&h);
		return fail(err, len, "the cyclictest histogram has no samples%s", "");
	}
	hist_free(&h);
	return 0;
}

static int (*const extractors[])(const struct wl_metric *, const char *,
				 double *, int *, char *, size_t) = {
	[WL_AFTER] = extract_after,
	[WL_JSON] = extract_json,
	[WL_HIST] = extract_hist,
};

int extract_metric(const struct wl_metric *m, const char *output,
		   double *value, int *censored, char *err, size_t errlen)
{
	return extractors[m->extract](m, output, value, censored, err, errlen);
}
