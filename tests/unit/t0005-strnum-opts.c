// SPDX-License-Identifier: GPL-2.0
/* Number parsing and the option table: whole strings, ranges, errors. */
#include <errno.h>

#include "../../bench/lib/opts.h"
#include "../../bench/lib/strnum.h"
#include "../tap.h"

int main(void)
{
	long v = 0, timeout = 5;
	double d;
	const char *name = NULL;
	int flag = 0;
	const struct opt opts[] = {
		{ "timeout", OPT_INT, &timeout, 10, 100, "SEC", "limit" },
		{ "name", OPT_STR, &name, 0, 0, "S", "a name" },
		{ "flag", OPT_FLAG, &flag, 0, 0, NULL, "a flag" },
		{ NULL }
	};

	tap_plan_start();
	check_int(parse_long("42", 0, 100, &v), ==, 0, "42 parses");
	check_int(v, ==, 42, "42 is 42");
	check_int(parse_long("42x", 0, 100, &v), ==, -EINVAL, "trailing text is -EINVAL");
	check_int(parse_long("", 0, 100, &v), ==, -EINVAL, "empty is -EINVAL");
	check_int(parse_long("101", 0, 100, &v), ==, -ERANGE, "above max is -ERANGE");
	check_int(parse_long("-1", 0, 100, &v), ==, -ERANGE, "below min is -ERANGE");
	check_int(parse_long("99999999999999999999", 0, 100, &v), ==, -ERANGE,
		  "overflow is -ERANGE");
	check_int(parse_double("2.5", 0, 3, &d), ==, 0, "2.5 parses");
	check_int(parse_double("nan", 0, 3, &d), ==, -EINVAL, "nan is rejected");

	{
		char *argv[] = { "boot", "--timeout", "20", "--name", "x", "--flag", "rest", NULL };

		check_int(opts_parse("boot", "", opts, 7, argv), ==, 6, "options parsed, index of rest");
		tap_ok(timeout == 20 && name && !strcmp(name, "x") && flag == 1,
		       "values stored");
	}
	{
		char *argv[] = { "boot", "--timeout", "5", NULL };

		check_int(opts_parse("boot", "", opts, 3, argv), ==, -1, "out-of-range value refused");
	}
	{
		char *argv[] = { "boot", "--nope", NULL };

		check_int(opts_parse("boot", "", opts, 2, argv), ==, -1, "unknown option refused");
	}
	return tap_finish();
}
