// SPDX-License-Identifier: GPL-2.0
/*
 * Each of the four modes can be set up and passes its own verification
 * (topology and cookies), and the verification fails when the mode is not
 * what it claims: SMT left off, or one tenant left untagged.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../bench/guest/modeset.h"
#include "../tap.h"
#include "guest_util.h"

static const char *const tenants[] = { "a", "b" };
static pid_t kids[4];

static void start_tenants(enum csb_mode m)
{
	char *const argv[] = { "sleep", "60", NULL };
	char err[256];
	int t, i;

	for (t = 0; t < 2; t++) {
		if (tenant_cgroup_setup(tenants[t], m, err, sizeof(err)))
			tap_diag("%s", err);
		/* The second process shares the first one's prctl cookie. */
		for (i = 0; i < 2; i++)
			kids[t * 2 + i] = tenant_spawn(tenants[t], m,
						       i ? kids[t * 2] : 0, argv,
						       "/dev/null");
		usleep(100000);
	}
	usleep(300000);		/* let them reach their cgroups and exec */
}

static void stop_tenants(void)
{
	int i;

	for (i = 0; i < 4; i++)
		kill_child(kids[i]);
	for (i = 0; i < 2; i++)
		tenant_cgroup_remove(tenants[i]);
}

int main(void)
{
	char err[512];
	int m;

	tap_plan_start();
	for (m = 0; m < MODE_COUNT; m++) {
		const char *name = mode_name(m);

		if (!tap_ok(mode_prepare(m, err, sizeof(err)) == 0, "%s: prepared", name))
			tap_diag("  %s", err);
		if (!tap_ok(mode_check_topology(m, err, sizeof(err)) == 0,
			    "%s: topology verified", name))
			tap_diag("  %s", err);
		start_tenants(m);
		if (!tap_ok(mode_check_cookies(m, tenants, 2, err, sizeof(err)) == 0,
			    "%s: cookies verified", name))
			tap_diag("  %s", err);

		if (m == MODE_CORESCHED) {
			char tag[300];

			tenant_cgroup_path("b", tag, sizeof(tag));
			strcat(tag, "/cpu.tag");
			write_str(tag, "0");
			tap_ok(mode_check_cookies(m, tenants, 2, err, sizeof(err)) == -1 &&
			       strstr(err, "tenant b"),
			       "coresched: an untagged tenant is caught (%s)", err);
		}
		if (m == MODE_SMT_ON)
			tap_ok(mode_check_cookies(MODE_CORESCHED, tenants, 2, err, sizeof(err)) == -1,
			       "smt-on tenants fail the coresched cookie check (%s)", err);
		stop_tenants();
		if (m == MODE_SMT_OFF)
			tap_ok(mode_check_topology(MODE_SMT_ON, err, sizeof(err)) == -1 &&
			       strstr(err, "online"),
			       "with SMT off, the smt-on topology check fails (%s)", err);
	}
	/* Leave the guest as it booted. */
	mode_prepare(MODE_SMT_ON, err, sizeof(err));
	return tap_finish();
}
