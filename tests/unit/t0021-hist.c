// SPDX-License-Identifier: GPL-2.0
/*
 * The log-linear histogram shared by guest and host: its layout (every
 * value in exactly one bucket, at most 1/64 of its value wide),
 * percentiles whose answer is plain by eye, merges with and without
 * overflow, and its JSON form, including cells written before it.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "../../bench/lib/hist_json.h"
#include "../tap.h"

/* One sample at each of 0..n-1 us, each count times @per. */
static void flat(struct hist *h, int n, long per)
{
	int i;

	hist_init(h);
	for (i = 0; i < n; i++)
		hist_record(h, i, per);
}

static void test_layout(void)
{
	long v, bad_in = 0, bad_width = 0, bad_next = 0;
	int i, last;

	/* Every value up to 2^22 us (4 s), then sparse steps to 2^40. */
	for (v = 0; v < (1L << 40); v = v < (1L << 22) ? v + 1 : v * 3 / 2 + 1) {
		i = hist_bucket(v);
		if (hist_bucket_low(i) > v || hist_bucket_high(i) < v)
			bad_in++;
		if (v >= 128 && (hist_bucket_high(i) - hist_bucket_low(i) + 1) * 64 >
				hist_bucket_low(i))
			bad_width++;
	}
	check_int(bad_in, ==, 0, "each value lies in its bucket's [low, high]");
	check_int(bad_width, ==, 0, "buckets are at most 1/64 of their values wide");
	last = hist_bucket(1L << 40);
	for (i = 0; i < last; i++)
		if (hist_bucket_high(i) + 1 != hist_bucket_low(i + 1))
			bad_next++;
	check_int(bad_next, ==, 0, "buckets tile the values without gap or overlap");
	check_int(hist_bucket(127), ==, 127, "values below 128 have a bucket each");
	tap_ok(hist_bucket_low(hist_bucket(20000)) == 19968 &&
	       hist_bucket_high(hist_bucket(20000)) == 20223, "20000 us is in [19968, 20223]");
	tap_ok(hist_bucket(3600L * 1000 * 1000) < 2200, "an hour fits in %d buckets",
	       hist_bucket(3600L * 1000 * 1000) + 1);
}

static void test_percentile(void)
{
	struct hist h, big;
	double v;
	int cens = -1;

	flat(&h, 100, 1);
	check_int(hist_total(&h), ==, 100, "total of 1 x 100 values");
	check_int(hist_percentile(&h, 0.5, &v, &cens), ==, 0, "p50");
	check_near(v, 49, 0, "p50 of 0..99 is 49 (50th value)");
	check_int(cens, ==, 0, "p50 not censored");
	hist_percentile(&h, 0.99, &v, &cens);
	check_near(v, 98, 0, "p99 of 0..99 is 98");
	hist_percentile(&h, 1, &v, &cens);
	check_near(v, 99, 0, "q = 1 is the max, 99");
	hist_percentile(&h, 0.001, &v, NULL);
	check_near(v, 0, 0, "tiny q is the min; censored may be NULL");
	/* 0.07 * 100 = 7.000000000000001 in doubles: still the 7th value. */
	hist_percentile(&h, 0.07, &v, NULL);
	check_near(v, 6, 0, "p7 is the 7th value despite rounding");
	hist_free(&h);

	/* 99.9% of 1000 is 999.0000000000001: rank 999, 998 us, in [992, 999]. */
	flat(&big, 1000, 1);
	hist_percentile(&big, 0.999, &v, NULL);
	check_near(v, 999, 0, "p99.9 of 0..999 is the top of 998's bucket");
	hist_free(&big);

	check_int(hist_percentile(&h, 0.5, &v, &cens), ==, -ENODATA,
		  "freed histogram is -ENODATA");
	hist_record(&h, 3, 1);
	check_int(hist_percentile(&h, 0, &v, &cens), ==, -EINVAL, "q = 0 is -EINVAL");
	check_int(hist_percentile(&h, 1.01, &v, &cens), ==, -EINVAL, "q > 1 is -EINVAL");
	check_int(hist_record(&h, -1, 1), ==, -EINVAL, "a negative value is -EINVAL");
	hist_free(&h);
}

static void test_overflow(void)
{
	struct hist h;
	double v;
	int cens;

	/* 10 samples at 0..9 us, 10 more at 10 us or above. */
	flat(&h, 10, 1);
	h.limit = 10;
	h.overflow = 10;
	check_int(hist_total(&h), ==, 20, "total counts the overflow");
	hist_percentile(&h, 0.5, &v, &cens);
	tap_ok(v == 9 && !cens, "p50 = rank 10 = 9 us, exact");
	check_int(hist_percentile(&h, 0.6, &v, &cens), ==, 0, "p60 in the overflow");
	check_near(v, 10, 0, "an overflow percentile is the limit");
	check_int(cens, ==, 1, "an overflow percentile is censored");
	hist_record(&h, 12, 1);
	check_int(h.overflow, ==, 11, "recording past the limit counts as overflow");
	hist_free(&h);

	/* A bucket straddling the limit reports a value below it. */
	hist_init(&h);
	hist_record(&h, 19990, 1);
	h.limit = 20000;
	hist_percentile(&h, 1, &v, &cens);
	tap_ok(v == 19999 && !cens, "19990 us under a 20000 us limit reads 19999 (%g)", v);
	hist_free(&h);
}

static void test_merge(void)
{
	struct hist a, b, z = { 0 };
	double v;

	flat(&a, 10, 1);
	hist_init(&b);
	hist_record(&b, 15, 5);
	hist_record(&b, 3, 2);

	check_int(hist_add(&z, &a), ==, 0, "merge into a zeroed hist");
	tap_ok(hist_total(&z) == 10 && z.count[9] == 1, "zeroed dst takes src's samples");
	check_int(hist_add(&z, &b), ==, 0, "merge a wider histogram");
	check_int(hist_total(&z), ==, 17, "merged total 10 + 7");
	tap_ok(z.count[3] == 3 && z.count[15] == 5 && z.count[12] == 0 && z.overflow == 0,
	       "merged bucket counts");
	hist_percentile(&z, 1, &v, NULL);
	check_near(v, 15, 0, "merged max is b's 15 us");
	check_int(hist_add(&z, &a), ==, 0, "merge a narrower histogram");
	tap_ok(z.count[3] == 4 && z.count[15] == 5 && hist_total(&z) == 27,
	       "narrower src adds in place");
	hist_free(&z);

	/*
	 * a's 2 overflow samples are only "at 10 us or more": the merge
	 * cannot place them, so b's 15-us samples join them.
	 */
	a.limit = 10;
	a.overflow = 2;
	check_int(hist_add(&b, &a), ==, 0, "merge src with overflow");
	tap_ok(b.limit == 10 && b.overflow == 7 && b.count[3] == 3 && hist_total(&b) == 19,
	       "dst cut at src's limit, its tail moved to the overflow");
	hist_free(&a);
	hist_free(&b);

	/* Without overflow the limits only widen. */
	flat(&a, 5, 1);
	a.limit = 100;
	hist_init(&b);
	hist_record(&b, 500, 1);
	b.limit = 1000;
	hist_add(&a, &b);
	tap_ok(a.limit == 1000 && a.overflow == 0 && hist_total(&a) == 6,
	       "no overflow: nothing cut, the wider limit kept");
	hist_free(&a);
	hist_free(&b);
}

static void test_json(void)
{
	struct hist h, back;
	char err[256] = "";
	json_t *o, *legacy;
	double v1, v2;
	int i, same = 1;

	hist_init(&h);
	for (i = 0; i < 20000; i += 7)
		hist_record(&h, i, 1 + i % 3);
	h.limit = 20000;
	h.overflow = 6;
	o = hist_to_json(&h);
	tap_ok(o && json_array_size(json_object_get(o, "buckets")) < 700,
	       "sparse: %zu buckets written for 2858 values",
	       json_array_size(json_object_get(o, "buckets")));
	check_int(hist_from_json(o, &back, err, sizeof(err)), ==, 0, "it reads back");
	for (i = 0; i < h.nbuckets; i++)
		same &= h.count[i] == (i < back.nbuckets ? back.count[i] : 0);
	tap_ok(same && back.limit == 20000 && back.overflow == 6 &&
	       back.nbuckets == h.nbuckets, "round trip keeps every count, limit and overflow");
	hist_free(&back);
	hist_free(&h);
	json_decref(o);

	/* A schema 1 cell: one count per microsecond up to cyclictest's -h. */
	legacy = json_pack("{s:[i,i,i,i,i],s:i}", "hist_buckets_us", 0, 4, 0, 0, 1,
			   "hist_overflow", 2);
	check_int(hist_from_legacy_json(legacy, &back, err, sizeof(err)), ==, 0,
		  "a schema 1 histogram loads");
	hist_percentile(&back, 0.5, &v1, NULL);
	hist_percentile(&back, 0.9, &v2, &i);
	tap_ok(v1 == 1 && back.limit == 5 && v2 == 5 && i,
	       "into the same type: p50 1 us, p90 censored at the old size 5");
	hist_free(&back);
	json_decref(legacy);

	/* Malformed forms are refused with the cause. */
	static const char *const bad[][2] = {
		{ "[]", "not an object" },
		{ "{\"overflow\": 0}", "\"buckets\" is not an array" },
		{ "{\"buckets\": [], \"overflow\": -1}", "\"overflow\" is not a count" },
		{ "{\"buckets\": [[1]], \"overflow\": 0}", "[low, count]" },
		{ "{\"buckets\": [[1, -3]], \"overflow\": 0}", "[low, count]" },
		{ "{\"buckets\": [], \"overflow\": 3}", "no \"limit\"" },
		{ "{\"buckets\": [], \"overflow\": 0, \"limit\": 0}", "positive" },
		{ "{\"buckets\": [], \"overflow\": 0, \"unit\": \"ms\"}", "unit" },
		/* Counts a hostile cell may hold: refused, never summed past a long. */
		{ "{\"buckets\": [[5, 4611686018427387904]], \"overflow\": 0}", "past 2^40" },
		{ "{\"buckets\": [[5, 1099511627776], [5, 1]], \"overflow\": 0}", "past 2^40" },
		{ "{\"buckets\": [], \"overflow\": 9223372036854775807, \"limit\": 9}", "up to 2^40" },
	};
	for (i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++) {
		json_t *b = json_loads(bad[i][0], 0, NULL);

		err[0] = '\0';
		tap_ok(hist_from_json(b, &back, err, sizeof(err)) == -1 && strstr(err, bad[i][1]),
		       "%s refused: %s", bad[i][0], err);
		hist_free(&back);
		json_decref(b);
	}
}

/* Sums that would pass a bucket's bound are refused and change nothing. */
static void test_bounds(void)
{
	struct hist a, b;

	hist_init(&a);
	hist_init(&b);
	check_int(hist_record(&a, 7, HIST_MAX_COUNT), ==, 0, "a bucket takes 2^40 samples");
	check_int(hist_record(&a, 7, 1), ==, -EOVERFLOW, "and not one more");
	check_int(hist_record(&a, 9, LONG_MAX), ==, -EOVERFLOW, "LONG_MAX samples are refused");
	check_int(hist_record(&b, 7, 1), ==, 0, "another histogram has one there");
	check_int(hist_add(&a, &b), ==, -EOVERFLOW, "merging it would pass the bound: refused");
	tap_ok(a.count[hist_bucket(7)] == HIST_MAX_COUNT && hist_total(&a) == HIST_MAX_COUNT,
	       "and the target is unchanged (%ld)", hist_total(&a));
	a.limit = 100;
	a.overflow = HIST_MAX_COUNT;
	b.limit = 100;
	b.overflow = 1;
	check_int(hist_add(&a, &b), ==, -EOVERFLOW, "overflow counts are bounded too");
	a.overflow = HIST_MAX_COUNT + 1;
	tap_ok(!hist_valid(&a), "a histogram with an overflow past the bound is not valid");
	hist_free(&a);
	hist_free(&b);
}

int main(void)
{
	tap_plan_start();
	test_bounds();
	test_layout();
	test_percentile();
	test_overflow();
	test_merge();
	test_json();
	return tap_finish();
}
