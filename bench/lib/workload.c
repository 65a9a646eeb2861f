// SPDX-License-Identifier: GPL-2.0
/*
 * The workload file parser. One directive per line, looked up in a table
 * that carries its argument count, where it may appear and its usage, so
 * every error can say what was expected.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "strnum.h"
#include "workload.h"

#define LINE_MAX_LEN	1024
#define MAX_ARGS	8
#define MAX_SECONDS	86400

static const char *const profile_names[WL_NPROFILES] = {
	[WL_SMOKE] = "smoke", [WL_QUICK] = "quick", [WL_FULL] = "full",
};

const char *wl_profile_name(enum wl_profile_id id)
{
	return id < WL_NPROFILES ? profile_names[id] : "?";
}

int wl_profile_lookup(const char *name)
{
	int i;

	for (i = 0; i < WL_NPROFILES; i++)
		if (!strcmp(name, profile_names[i]))
			return i;
	return -1;
}

struct parse {
	struct workload *w;
	struct wl_tenant *tenant;	/* the block we are in, or NULL */
	const char *path;
	int line;
	char *err;
	size_t errlen;
};

static int fail(struct parse *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int fail(struct parse *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	/* Line 0: the file as a whole (something missing). */
	if (p->line)
		n = snprintf(p->err, p->errlen, "%s:%d: ", p->path, p->line);
	else
		n = snprintf(p->err, p->errlen, "%s: ", p->path);
	if (n < 0 || (size_t)n >= p->errlen)
		return -1;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - n, fmt, ap);
	va_end(ap);
	return -1;
}

static int copy(struct parse *p, char *dst, size_t len, const char *src,
		const char *what)
{
	if (strlen(src) >= len)
		return fail(p, "%s longer than %zu characters", what, len - 1);
	strcpy(dst, src);
	return 0;
}

static int is_name(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("-_.", *s))
			return 0;
	return 1;
}

static int d_name(struct parse *p, char **a, int n, const char *rest)
{
	(void)n;
	(void)rest;
	if (*p->w->name)
		return fail(p, "a second 'name' line (the workload is already '%s')", p->w->name);
	if (!is_name(a[0]))
		return fail(p, "expected a name of letters, digits, '-', '_' or '.', got '%s'", a[0]);
	return copy(p, p->w->name, WL_NAME, a[0], "name");
}

static int d_description(struct parse *p, char **a, int n, const char *rest)
{
	(void)a;
	(void)n;
	if (*p->w->description)
		return fail(p, "a second 'description' line");
	return copy(p, p->w->description, WL_TEXT, rest, "description");
}

static int d_requires(struct parse *p, char **a, int n, const char *rest)
{
	int i;

	(void)rest;
	for (i = 0; i < n; i++) {
		if (p->w->nrequires == WL_MAX_REQUIRES)
			return fail(p, "at most %d required tools", WL_MAX_REQUIRES);
		if (!is_name(a[i]))
			return fail(p, "expected a tool name, got '%s'", a[i]);
		if (copy(p, p->w->requires[p->w->nrequires++], WL_NAME, a[i], "tool name"))
			return -1;
	}
	return 0;
}

static int parse_seconds(struct parse *p, const char *arg, const char *key,
			 long min, int *out)
{
	size_t klen = strlen(key);
	long v;
	int ret;

	if (strncmp(arg, key, klen) || arg[klen] != '=')
		return fail(p, "expected %s=SECONDS, got '%s'", key, arg);
	ret = parse_long(arg + klen + 1, min, MAX_SECONDS, &v);
	if (ret)
		return fail(p, "%s: expected a whole number of seconds in %ld..%d, got '%s'",
			    key, min, MAX_SECONDS, arg + klen + 1);
	*out = v;
	return 0;
}

static int d_profile(struct parse *p, char **a, int n, const char *rest)
{
	struct wl_profile *pr;
	int id = wl_profile_lookup(a[0]);

	(void)rest;
	if (id < 0)
		return fail(p, "expected profile smoke, quick or full, got '%s'", a[0]);
	pr = &p->w->profiles[id];
	if (pr->set)
		return fail(p, "profile %s given twice", a[0]);
	if (parse_seconds(p, a[1], "duration", 1, &pr->duration_s))
		return -1;
	pr->warmup_s = 0;
	if (n > 2 && parse_seconds(p, a[2], "warmup", 0, &pr->warmup_s))
		return -1;
	pr->set = 1;
	return 0;
}

static int d_tenant(struct parse *p, char **a, int n, const char *rest)
{
	struct wl_tenant *t;
	int i;

	(void)n;
	(void)rest;
	if (p->w->ntenants == WL_MAX_TENANTS)
		return fail(p, "at most %d tenants", WL_MAX_TENANTS);
	if (!is_name(a[0]))
		return fail(p, "expected a tenant name, got '%s'", a[0]);
	for (i = 0; i < p->w->ntenants; i++)
		if (!strcmp(p->w->tenants[i].name, a[0]))
			return fail(p, "tenant %s given twice", a[0]);
	t = &p->w->tenants[p->w->ntenants++];
	memset(t, 0, sizeof(*t));
	t->line = p->line;
	p->tenant = t;
	return copy(p, t->name, WL_NAME, a[0], "tenant name");
}

static int d_threads(struct parse *p, char **a, int n, const char *rest)
{
	long v;

	(void)n;
	(void)rest;
	static const struct {
		const char *word;
		enum wl_per per;
	} units[] = { { "cores", WL_PER_CORE }, { "cpus", WL_PER_CPU } };
	const char *star = strchr(a[0], '*'), *unit = star ? star + 1 : a[0];
	char num[16];
	size_t i;

	(void)n;
	(void)rest;
	if (p->tenant->threads)
		return fail(p, "tenant %s: a second 'threads' line", p->tenant->name);
	/* "cores", "cpus", "N*cores", "N*cpus": relative to the guest booted. */
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(unit, units[i].word))
			continue;
		v = 1;
		if (star && ((size_t)(star - a[0]) >= sizeof(num) ||
			     (snprintf(num, sizeof(num), "%.*s", (int)(star - a[0]), a[0]),
			      parse_long(num, 1, 64, &v))))
			return fail(p, "threads: expected N*%s with N a whole number in 1..64, "
				    "got '%s'", units[i].word, a[0]);
		p->tenant->threads = v;
		p->tenant->threads_per = units[i].per;
		return 0;
	}
	if (parse_long(a[0], 1, 1024, &v))
		return fail(p, "threads: expected a whole number in 1..1024, cores, cpus, "
			    "N*cores or N*cpus, got '%s'", a[0]);
	p->tenant->threads = v;
	p->tenant->threads_per = WL_PER_GUEST;
	return 0;
}

/* Only {threads}, {duration}, {cores} and {cpus} may be substituted. */
static int check_placeholders(struct parse *p, const char *cmd)
{
	const char *o, *c;

	/*
	 * A placeholder is '{' lowercase letters '}'; other braces are the
	 * shell's or awk's ({print $0}, ${VAR}) and pass through as written.
	 */
	for (o = strchr(cmd, '{'); o; o = strchr(o + 1, '{')) {
		for (c = o + 1; (*c >= 'a' && *c <= 'z') || *c == '_'; c++)
			;
		if (!*c && c > o + 1)
			return fail(p, "unterminated '{' in command");
		if (*c != '}' || c == o + 1 || (o > cmd && o[-1] == '$'))
			continue;
		if (strncmp(o, "{threads}", 9) && strncmp(o, "{duration}", 10) &&
		    strncmp(o, "{cores}", 7) && strncmp(o, "{cpus}", 6))
			return fail(p, "unknown placeholder %.*s (expected {threads}, {duration}, "
				    "{cores} or {cpus})", (int)(c - o + 1), o);
	}
	return 0;
}

static int d_command(struct parse *p, char **a, int n, const char *rest)
{
	(void)a;
	(void)n;
	if (*p->tenant->command)
		return fail(p, "tenant %s: a second 'command' line", p->tenant->name);
	if (check_placeholders(p, rest))
		return -1;
	return copy(p, p->tenant->command, WL_COMMAND, rest, "command");
}

static const struct {
	const char *name;
	enum wl_extract kind;
} extractors[] = {
	{ "after", WL_AFTER },
	{ "json", WL_JSON },
	{ "hist", WL_HIST },
};

static int d_metric(struct parse *p, char **a, int n, const char *rest)
{
	struct wl_tenant *t = p->tenant;
	struct wl_metric *m;
	size_t i;

	(void)n;
	(void)rest;
	if (t->nmetrics == WL_MAX_METRICS)
		return fail(p, "at most %d metrics per tenant", WL_MAX_METRICS);
	m = &t->metrics[t->nmetrics];
	if (!is_name(a[0]))
		return fail(p, "expected a metric name, got '%s'", a[0]);
	for (i = 0; i < (size_t)t->nmetrics; i++)
		if (!strcmp(t->metrics[i].name, a[0]))
			return fail(p, "tenant %s: metric '%s' twice (reports key rows by it)",
				    t->name, a[0]);
	if (copy(p, m->name, WL_NAME, a[0], "metric name") ||
	    copy(p, m->unit, WL_NAME, a[1], "unit"))
		return -1;
	if (!strcmp(a[2], "higher"))
		m->higher_is_better = 1;
	else if (!strcmp(a[2], "lower"))
		m->higher_is_better = 0;
	else
		return fail(p, "expected higher or lower, got '%s'", a[2]);
	for (i = 0; i < sizeof(extractors) / sizeof(extractors[0]); i++)
		if (!strcmp(a[3], extractors[i].name))
			break;
	if (i == sizeof(extractors) / sizeof(extractors[0]))
		return fail(p, "expected an extractor after, json or hist, got '%s'", a[3]);
	m->extract = extractors[i].kind;
	if (!*a[4])
		return fail(p, "expected the %s extractor's argument", a[3]);
	if (copy(p, m->arg, WL_TEXT, a[4], "extractor argument"))
		return -1;
	if (m->extract == WL_HIST && strcmp(m->arg, "max")) {
		double pct;

		if (m->arg[0] != 'p' || parse_double(m->arg + 1, 0.001, 100, &pct))
			return fail(p, "hist: expected pNN (e.g. p99.9) or max, got '%s'", m->arg);
	}
	if (m->extract == WL_JSON && m->arg[0] != '/')
		return fail(p, "json: expected a JSON pointer starting with '/', got '%s'", m->arg);
	t->nmetrics++;
	return 0;
}

enum scope { TOP, TENANT, ANYWHERE };

static const struct directive {
	const char *name;
	int min_args, max_args;
	enum scope scope;
	int (*apply)(struct parse *p, char **args, int nargs, const char *rest);
	const char *usage;
} directives[] = {
	{ "name", 1, 1, TOP, d_name, "name NAME" },
	{ "description", 1, MAX_ARGS, TOP, d_description, "description TEXT" },
	{ "requires", 1, MAX_ARGS, TOP, d_requires, "requires TOOL..." },
	{ "profile", 2, 3, ANYWHERE, d_profile,
	  "profile smoke|quick|full duration=SEC [warmup=SEC]" },
	{ "tenant", 1, 1, ANYWHERE, d_tenant, "tenant NAME" },
	{ "threads", 1, 1, TENANT, d_threads, "threads N|cores|cpus|N*cores|N*cpus" },
	{ "command", 1, MAX_ARGS, TENANT, d_command, "command SHELL-COMMAND" },
	{ "metric", 5, 5, TENANT, d_metric,
	  "metric NAME UNIT higher|lower after|json|hist ARG" },
};

/*
 * Split @line into words; a double-quoted word may hold spaces and \".
 * Returns the word count, or -1 on an unterminated quote.
 */
static int split(char *line, char **words, int max)
{
	char *r = line, *w;
	int n = 0;

	for (;;) {
		while (isspace((unsigned char)*r))
			r++;
		if (!*r || *r == '#')
			return n;
		if (n == max)
			return n + 1;	/* too many: caller reports */
		words[n++] = w = r;
		if (*r == '"') {
			words[n - 1] = w = ++r;
			while (*r && *r != '"') {
				if (*r == '\\' && (r[1] == '"' || r[1] == '\\'))
					r++;
				*w++ = *r++;
			}
			if (*r != '"')
				return -1;
			r++;
			if (*r && !isspace((unsigned char)*r))
				return -1;
		} else {
			while (*r && !isspace((unsigned char)*r))
				*w++ = *r++;
		}
		if (*r)
			r++;
		*w = '\0';
	}
}

static int parse_line(struct parse *p, char *line)
{
	char *words[MAX_ARGS + 2], raw[LINE_MAX_LEN], *rest;
	const struct directive *d = NULL;
	size_t i;
	int n;

	/* CRLF endings are fine; a carriage return inside a line is not. */
	i = strcspn(line, "\r\n");
	if (line[i] == '\r' && line[i + 1] && line[i + 1] != '\n')
		return fail(p, "a carriage return inside the line (it would cut it short)");
	line[i] = '\0';
	rest = line + strspn(line, " \t");
	rest += strcspn(rest, " \t");
	rest += strspn(rest, " \t");
	snprintf(raw, sizeof(raw), "%s", rest);
	/* Raw text keeps the shell's quoting; only trailing blanks go. */
	for (i = strlen(raw); i && isspace((unsigned char)raw[i - 1]); i--)
		raw[i - 1] = '\0';

	/* A command is shell text: only its first word is the directive's. */
	if (!strncmp(line + strspn(line, " \t"), "command", 7) &&
	    (!line[strspn(line, " \t") + 7] || isspace((unsigned char)line[strspn(line, " \t") + 7]))) {
		char *cmd = line + strspn(line, " \t");

		cmd[7] = '\0';
		words[0] = cmd;
		n = *raw ? 2 : 1;
		words[1] = raw;
	} else {
		n = split(line, words, MAX_ARGS + 1);
	}
	if (n < 0)
		return fail(p, "unterminated or misplaced quote");
	if (n == 0)
		return 0;
	for (i = 0; i < sizeof(directives) / sizeof(directives[0]); i++)
		if (!strcmp(words[0], directives[i].name))
			d = &directives[i];
	if (!d)
		return fail(p, "unknown directive '%s' (expected name, description, requires, profile, tenant, threads, command or metric)",
			    words[0]);
	if (d->scope == TENANT && !p->tenant)
		return fail(p, "'%s' belongs inside a tenant block (expected 'tenant NAME' first)",
			    d->name);
	if (d->scope == TOP && p->tenant)
		return fail(p, "'%s' must come before the first tenant", d->name);
	if (n - 1 < d->min_args || (n - 1 > d->max_args && d->max_args != MAX_ARGS))
		return fail(p, "expected '%s'", d->usage);
	return d->apply(p, words + 1, n - 1, raw);
}

static int validate(struct parse *p)
{
	struct workload *w = p->w;
	int i;

	p->line = 0;
	if (!*w->name)
		return fail(p, "expected a 'name NAME' line");
	if (!w->ntenants)
		return fail(p, "expected at least one 'tenant NAME' block");
	for (i = 0; i < w->ntenants; i++) {
		struct wl_tenant *t = &w->tenants[i];

		p->line = t->line;
		if (!t->threads)
			return fail(p, "tenant %s: expected a 'threads N' line", t->name);
		if (!*t->command)
			return fail(p, "tenant %s: expected a 'command ...' line", t->name);
		if (!t->nmetrics)
			return fail(p, "tenant %s: expected at least one 'metric ...' line", t->name);
	}
	p->line = 0;
	for (i = 0; i < WL_NPROFILES; i++)
		if (!w->profiles[i].set)
			return fail(p, "expected a 'profile %s duration=SEC' line",
				    profile_names[i]);
	return 0;
}

int workload_parse(FILE *f, const char *path, struct workload *w,
		   char *err, size_t errlen)
{
	struct parse p = { .w = w, .path = path, .err = err, .errlen = errlen };
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int ret = 0;

	memset(w, 0, sizeof(*w));
	while (!ret && (n = getline(&line, &cap, f)) >= 0) {
		p.line++;
		if (n > LINE_MAX_LEN)
			ret = fail(&p, "line longer than %d characters", LINE_MAX_LEN);
		else if (strlen(line) != (size_t)n)
			ret = fail(&p, "unexpected NUL byte");
		else
			ret = parse_line(&p, line);
	}
	free(line);
	if (ret)
		return ret;
	if (ferror(f))
		return fail(&p, "read error: %s", strerror(errno));
	return validate(&p);
}

/* A workload file is a few lines of text; anything bigger is not one. */
#define WL_MAX_FILE_BYTES	(1 << 20)

int workload_load(const char *path, struct workload *w, char *err,
		  size_t errlen)
{
	/* O_NONBLOCK: opening a FIFO named x.wl must not wait for a writer. */
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC), ret;
	struct stat st;
	FILE *f;

	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size > WL_MAX_FILE_BYTES) {
		snprintf(err, errlen, "%s: %s", path, S_ISREG(st.st_mode) ?
			 "larger than 1 MiB: not a workload file" : "not a regular file");
		close(fd);
		return -1;
	}
	f = fdopen(fd, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	ret = workload_parse(f, path, w, err, errlen);
	fclose(f);
	return ret;
}

int workload_threads(const struct wl_tenant *t, const struct wl_topology *topo)
{
	switch (t->threads_per) {
	case WL_PER_CORE:
		return t->threads * topo->cores;
	case WL_PER_CPU:
		return t->threads * topo->cpus;
	default:
		return t->threads;
	}
}

const char *workload_threads_spec(const struct wl_tenant *t, char *buf, size_t len)
{
	const char *unit = t->threads_per == WL_PER_CORE ? "cores" :
			   t->threads_per == WL_PER_CPU ? "cpus" : NULL;

	if (!unit)
		snprintf(buf, len, "%d", t->threads);
	else if (t->threads == 1)
		snprintf(buf, len, "%s", unit);
	else
		snprintf(buf, len, "%d*%s", t->threads, unit);
	return buf;
}

int workload_command(const struct wl_tenant *t, int duration_s,
		     const struct wl_topology *topo, char *out, size_t len)
{
	const char *s = t->command;
	size_t used = 0;
	int n;

	while (*s) {
		if (!strncmp(s, "{threads}", 9)) {
			n = snprintf(out + used, len - used, "%d", workload_threads(t, topo));
			s += 9;
		} else if (!strncmp(s, "{cores}", 7)) {
			n = snprintf(out + used, len - used, "%d", topo->cores);
			s += 7;
		} else if (!strncmp(s, "{cpus}", 6)) {
			n = snprintf(out + used, len - used, "%d", topo->cpus);
			s += 6;
		} else if (!strncmp(s, "{duration}", 10)) {
			n = snprintf(out + used, len - used, "%d", duration_s);
			s += 10;
		} else {
			n = snprintf(out + used, len - used, "%c", *s++);
		}
		if (n < 0 || (size_t)n >= len - used)
			return -1;
		used += n;
	}
	if (used >= len)
		return -1;
	out[used] = '\0';
	return 0;
}
