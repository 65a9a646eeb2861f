/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The histogram's form in a cell (key "hist" of a tenant's first
 * percentile metric, see docs/cell-schema.md):
 *
 *   {"unit": "us", "sub_bucket_bits": 6, "limit": 20000, "overflow": 6,
 *    "buckets": [[low, count], ...]}
 *
 * Only buckets that were hit are written, each as its lowest value, so a
 * reader with another layout can still place them. "limit" is left out
 * when the recorder had none. Cells of schema 1 carried one count per
 * microsecond instead ("hist_buckets_us", "hist_overflow"); they load into
 * the same type.
 */
#ifndef CSBENCH_HIST_JSON_H
#define CSBENCH_HIST_JSON_H

#include <jansson.h>
#include <stddef.h>

#include "hist.h"

/* A new JSON object, or NULL when out of memory. */
json_t *hist_to_json(const struct hist *h);

/*
 * Fill @h (initialised here; free with hist_free()) from @o. 0, or -1
 * with the cause in @err for a malformed object or when out of memory.
 */
int hist_from_json(json_t *o, struct hist *h, char *err, size_t errlen);

/* The same from a schema 1 metric's "hist_buckets_us" and "hist_overflow". */
int hist_from_legacy_json(json_t *metric, struct hist *h, char *err, size_t errlen);

#endif
