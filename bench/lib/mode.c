// SPDX-License-Identifier: GPL-2.0
#include <stdio.h>
#include <string.h>

#include "mode.h"

static const struct {
	const char *name, *desc, *colour;
	enum mode_smt smt;
	enum mode_cookie cookie;
} modes[] = {
#define X(id, name_, smt_, cookie_, colour_, desc_)			\
	[MODE_##id] = { .name = name_, .desc = desc_, .colour = colour_,	\
			.smt = smt_, .cookie = cookie_ },
	CSB_MODES(X)
#undef X
};

const char *mode_name(enum csb_mode m)
{
	return m < MODE_COUNT ? modes[m].name : "?";
}

const char *mode_description(enum csb_mode m)
{
	return m < MODE_COUNT ? modes[m].desc : "?";
}

int mode_lookup(const char *name)
{
	int i;

	for (i = 0; i < MODE_COUNT; i++)
		if (!strcmp(name, modes[i].name))
			return i;
	return -1;
}

int mode_has_cookies(enum csb_mode m)
{
	return mode_cookie(m) != COOKIE_NONE;
}

enum mode_smt mode_smt(enum csb_mode m)
{
	return m < MODE_COUNT ? modes[m].smt : SMT_ON;
}

enum mode_cookie mode_cookie(enum csb_mode m)
{
	return m < MODE_COUNT ? modes[m].cookie : COOKIE_NONE;
}

const char *mode_colour(enum csb_mode m)
{
	return m < MODE_COUNT ? modes[m].colour : "#000000";
}

int mode_online_cpus(enum csb_mode m)
{
	return mode_smt(m) == SMT_ON ? GUEST_CPUS_SMT_ON : GUEST_CPUS_SMT_OFF;
}

void mode_list_all(char *buf, size_t len, const char *sep)
{
	size_t used = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < MODE_COUNT && used < len; i++)
		used += snprintf(buf + used, len - used, "%s%s", i ? sep : "",
				 modes[i].name);
}

int mode_parse_list(const char *list, int *out, char *err, size_t errlen)
{
	char word[64], valid[128];
	const char *p = list, *end;
	int n = 0, m, i;

	mode_list_all(valid, sizeof(valid), ", ");
	if (!*list) {
		snprintf(err, errlen, "empty mode list (valid: %s)", valid);
		return -1;
	}
	for (;;) {
		end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		snprintf(word, sizeof(word), "%.*s", (int)(end - p), p);
		m = mode_lookup(word);
		if (m < 0) {
			snprintf(err, errlen, "unknown mode '%s' (valid: %s)", word, valid);
			return -1;
		}
		for (i = 0; i < n; i++)
			if (out[i] == m) {
				snprintf(err, errlen, "mode '%s' given twice", word);
				return -1;
			}
		out[n++] = m;
		if (!*end)
			return n;
		p = end + 1;
	}
}
