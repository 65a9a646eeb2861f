// SPDX-License-Identifier: GPL-2.0
/* What differs between two runs' setups (see setup_diff.h). */
#include <stdio.h>
#include <string.h>

#include "setup_diff.h"

static void get_yield(const struct report *r, char *buf, size_t len)
{
	/* Runs from before the yield was recorded measured at 1.0 (TCG). */
	snprintf(buf, len, "%.2f", r->yield_target > 0 ? r->yield_target : 1.0);
}

static void get_emulation(const struct report *r, char *buf, size_t len)
{
	/* Runs from before --emulation were time-shared (run_dir.c). */
	snprintf(buf, len, "%s", r->emulation_key[0] ? r->emulation_key : "time-shared");
}

static void get_topology(const struct report *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s", r->topology[0] ? r->topology : "unknown");
}

static void get_accel(const struct report *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s", r->accel);
}

static void get_profile(const struct report *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s", r->profile);
}

static void get_kernel(const struct report *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s", r->kernel_key);
}

static void get_image(const struct report *r, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s", r->image_kind[0] ? r->image_kind : "built",
		 r->image_name[0] ? r->image_name : "image");
}

static const struct {
	const char *what;
	int incomparable;	/* what a mode measures depends on it */
	void (*get)(const struct report *r, char *buf, size_t len);
} fields[] = {
	{ "SMT yield", 1, get_yield },
	{ "emulation", 1, get_emulation },
	{ "guest topology", 1, get_topology },
	{ "accelerator", 0, get_accel },
	{ "profile", 0, get_profile },
	{ "kernel", 0, get_kernel },
	{ "root image", 0, get_image },
};

int report_setup_diff(const struct report *a, const struct report *b, const char *indent,
		      FILE *out)
{
	char va[320], vb[320];
	size_t i;
	int bad = 0;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		fields[i].get(a, va, sizeof(va));
		fields[i].get(b, vb, sizeof(vb));
		if (!strcmp(va, vb))
			continue;
		bad += fields[i].incomparable;
		if (out)
			fprintf(out, "%s%s: %s in %s, %s in %s%s\n", indent, fields[i].what, va,
				a->run, vb, b->run,
				fields[i].incomparable ? " (not the same measurement)" : "");
	}
	return bad;
}

void report_setup_brief(const struct report *r, char *buf, size_t len)
{
	char y[32], e[32];

	get_yield(r, y, sizeof(y));
	get_emulation(r, e, sizeof(e));
	if (r->guest_cores > 0 && r->guest_threads > 0)
		snprintf(buf, len, "Y %s, %s, %dx%d", y, e, r->guest_cores, r->guest_threads);
	else
		snprintf(buf, len, "Y %s, %s", y, e);
}
