/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Minimal TAP for csbench's tests, kselftest-flavoured: "ok N - desc",
 * "not ok N - desc", "# SKIP", a closing "N passed, N failed, N skipped"
 * line, and exit codes PASS 0 / FAIL 1 / SKIP 4. check_int() and
 * check_near() print both sides when a comparison fails (after git's t/).
 * Header-only so guest binaries link it statically with nothing else.
 */
#ifndef CSBENCH_TAP_H
#define CSBENCH_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KSFT_PASS	0
#define KSFT_FAIL	1
#define KSFT_SKIP	4

static int tap_n, tap_pass, tap_fail, tap_skip;

static inline void tap_plan_start(void)
{
	/* Buffered output would be duplicated across fork(). */
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
}

static inline void tap_vresult(int ok, const char *fmt, va_list ap)
{
	printf("%sok %d - ", ok ? "" : "not ", ++tap_n);
	vprintf(fmt, ap);
	putchar('\n');
	if (ok)
		tap_pass++;
	else
		tap_fail++;
}

static inline int tap_ok(int ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline int tap_ok(int ok, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tap_vresult(ok, fmt, ap);
	va_end(ap);
	return ok;
}

static inline void tap_skip_test(const char *why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static inline void tap_skip_test(const char *why, const char *fmt, ...)
{
	va_list ap;

	printf("ok %d - ", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf(" # SKIP %s\n", why);
	tap_skip++;
}

/* Test chatter goes out as TAP comments and never starts with "ok". */
static inline void tap_diag(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

#define check_int(a, op, b, desc) ({					\
	long long _a = (a), _b = (b);					\
	int _ok = tap_ok(_a op _b, "%s", desc);				\
	if (!_ok)							\
		tap_diag("  %s: %lld %s %lld is false (%s)", desc, _a,	\
			 #op, _b, #a " " #op " " #b);			\
	_ok;								\
})

#define check_str(a, b, desc) ({					\
	const char *_a = (a), *_b = (b);				\
	int _ok = tap_ok(_a && _b && !strcmp(_a, _b), "%s", desc);	\
	if (!_ok)							\
		tap_diag("  %s: got '%s', want '%s'", desc,		\
			 _a ? _a : "(null)", _b ? _b : "(null)");	\
	_ok;								\
})

/*
 * |a - b| <= tol, printing both sides when not. Equal values pass (so do
 * matching infinities), and so does NAN against NAN, for results that
 * must be NAN. No fabs(): guest binaries do not link libm.
 */
#define check_near(a, b, tol, fmt, ...) ({				\
	double _a = (a), _b = (b), _t = (tol);				\
	int _ok = _a == _b || (_a != _a && _b != _b) ||			\
		  (_a - _b <= _t && _b - _a <= _t);			\
	tap_ok(_ok, fmt, ##__VA_ARGS__);				\
	if (!_ok)							\
		tap_diag("  got %.17g, want %.17g +- %g (%s)", _a, _b,	\
			 _t, #a);					\
	_ok;								\
})

/* Print "1..N" and the closing count; return the kselftest exit code. */
static inline int tap_finish(void)
{
	printf("1..%d\n", tap_n);
	printf("# %d passed, %d failed, %d skipped\n", tap_pass, tap_fail,
	       tap_skip);
	if (tap_fail)
		return KSFT_FAIL;
	return tap_pass ? KSFT_PASS : KSFT_SKIP;
}

#endif
