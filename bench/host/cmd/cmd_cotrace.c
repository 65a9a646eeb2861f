// SPDX-License-Identifier: GPL-2.0
/*
 * csbench cotrace TRACE...: re-analyse saved traces (isolation_test keeps
 * them on the share) for cross-tenant co-residency, without a guest. The
 * pid to tenant map comes from the trace's "# pid N tenant T" header.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "../../lib/cotrace.h"
#include "../../lib/log.h"
#include "../../lib/opts.h"
#include "cmd.h"

int cmd_cotrace(int argc, char **argv)
{
	long ncpus = 4;
	const struct opt opts[] = {
		{ "cpus", OPT_INT, &ncpus, 2, COTRACE_MAX_CPUS, "N",
		  "guest CPUs; siblings are 0-1, 2-3, ..." },
		{ NULL }
	};
	struct cotrace_tenant tenants[1024];
	int idx, i, bad = 0;

	idx = opts_parse("cotrace", "[--cpus N] TRACE...", opts, argc, argv);
	if (idx == -2)
		return EXIT_OK;
	if (idx < 0)
		return EXIT_USAGE;
	if (idx >= argc) {
		err_msg("no trace given (see csbench cotrace --help)");
		return EXIT_USAGE;
	}
	for (i = idx; i < argc; i++) {
		struct cotrace_config cfg = { .tenants = tenants };
		struct cotrace_result r;
		FILE *f = fopen(argv[i], "r");

		if (!f) {
			err_errno(errno, "%s", argv[i]);
			bad++;
			continue;
		}
		cfg.ntenants = cotrace_read_tenant_header(f, tenants, 1024);
		cotrace_pairs_default(&cfg, ncpus);
		rewind(f);
		if (!cfg.ntenants || cotrace_analyse(f, &cfg, &r)) {
			err_msg("%s: %s", argv[i], cfg.ntenants ?
				"no trace events" : "no '# pid N tenant T' header");
			fclose(f);
			bad++;
			continue;
		}
		fclose(f);
		printf("%s: span %.3f s, %d windows, co-run %.2f%% (%.2f%% of pair time), "
		       "handoff %d (%.3f ms, p50 %.0f us, p99 %.0f us, max %.0f us), "
		       "unexplained %d (%.3f ms), truncated %d",
		       argv[i], r.span_s, r.windows, r.corun_pct, r.pair_share * 100,
		       r.handoff, r.handoff_s * 1e3, r.handoff_p50_us,
		       r.handoff_p99_us, r.handoff_max_us, r.unexplained,
		       r.unexplained_s * 1e3, r.truncated);
		if (r.unexplained)
			printf(", first at %.6f", r.first_unexplained_ts);
		putchar('\n');
	}
	return bad ? EXIT_FAIL : EXIT_OK;
}
