// SPDX-License-Identifier: GPL-2.0
/* A histogram in and out of a cell's JSON (see hist_json.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "hist_json.h"

json_t *hist_to_json(const struct hist *h)
{
	json_t *o = json_object(), *b = json_array();
	int i;

	if (!o || !b)
		goto fail;
	for (i = 0; i < h->nbuckets; i++)
		if (h->count[i] &&
		    json_array_append_new(b, json_pack("[I,I]", (json_int_t)hist_bucket_low(i),
							(json_int_t)h->count[i])))
			goto fail;
	if (json_object_set_new(o, "unit", json_string("us")) ||
	    json_object_set_new(o, "sub_bucket_bits", json_integer(HIST_SUB_BITS)) ||
	    json_object_set_new(o, "overflow", json_integer(h->overflow)) ||
	    (h->limit > 0 && h->limit != HIST_NO_LIMIT &&
	     json_object_set_new(o, "limit", json_integer(h->limit))) ||
	    json_object_set_new(o, "buckets", b))
		goto fail_o;
	return o;
fail:
	json_decref(b);
fail_o:
	json_decref(o);
	return NULL;
}

static int bad(char *err, size_t len, const char *what)
{
	snprintf(err, len, "histogram: %s", what);
	return -1;
}

int hist_from_json(json_t *o, struct hist *h, char *err, size_t errlen)
{
	json_t *b = json_object_get(o, "buckets"), *pair, *limit = json_object_get(o, "limit");
	json_t *over = json_object_get(o, "overflow");
	size_t i;
	int ret;

	hist_init(h);
	if (!json_is_object(o))
		return bad(err, errlen, "not an object");
	if (json_is_string(json_object_get(o, "unit")) &&
	    strcmp(json_string_value(json_object_get(o, "unit")), "us"))
		return bad(err, errlen, "unit is not \"us\"");
	if (!json_is_array(b))
		return bad(err, errlen, "\"buckets\" is not an array");
	if (limit && (!json_is_integer(limit) || json_integer_value(limit) < 1))
		return bad(err, errlen, "\"limit\" is not a positive integer");
	if (!json_is_integer(over) || json_integer_value(over) < 0 ||
	    json_integer_value(over) > HIST_MAX_COUNT)
		return bad(err, errlen, "\"overflow\" is not a count up to 2^40");
	if (limit)
		h->limit = json_integer_value(limit);
	h->overflow = json_integer_value(over);
	if (h->overflow && !limit)
		return bad(err, errlen, "overflow samples but no \"limit\"");
	json_array_foreach(b, i, pair) {
		json_t *low = json_array_get(pair, 0), *n = json_array_get(pair, 1);

		if (json_array_size(pair) != 2 || !json_is_integer(low) || !json_is_integer(n) ||
		    json_integer_value(low) < 0 || json_integer_value(n) < 0) {
			hist_free(h);
			return bad(err, errlen, "a bucket is not [low, count] of two counts");
		}
		ret = hist_record(h, json_integer_value(low), json_integer_value(n));
		if (ret) {
			hist_free(h);
			return bad(err, errlen, ret == -EOVERFLOW ?
				   "a bucket's count is past 2^40 samples" : "out of memory");
		}
	}
	return 0;
}

int hist_from_legacy_json(json_t *m, struct hist *h, char *err, size_t errlen)
{
	json_t *b = json_object_get(m, "hist_buckets_us"), *v;
	json_t *over = json_object_get(m, "hist_overflow");
	size_t i;
	int ret;

	hist_init(h);
	if (!json_is_array(b) || !json_array_size(b))
		return bad(err, errlen, "\"hist_buckets_us\" is not a non-empty array");
	/* cyclictest -h N: N one-microsecond buckets, then the overflow. */
	h->limit = (long)json_array_size(b);
	h->overflow = json_integer_value(over);
	if (h->overflow < 0 || h->overflow > HIST_MAX_COUNT) {
		h->overflow = 0;
		return bad(err, errlen, "\"hist_overflow\" is not a count up to 2^40");
	}
	json_array_foreach(b, i, v) {
		if (!json_is_integer(v) || json_integer_value(v) < 0) {
			hist_free(h);
			return bad(err, errlen, "a \"hist_buckets_us\" entry is not a count");
		}
		ret = json_integer_value(v) ? hist_record(h, (long)i, json_integer_value(v)) : 0;
		if (ret) {
			hist_free(h);
			return bad(err, errlen, ret == -EOVERFLOW ?
				   "a \"hist_buckets_us\" count is past 2^40 samples" : "out of memory");
		}
	}
	return 0;
}
