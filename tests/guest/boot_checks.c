// SPDX-License-Identifier: GPL-2.0
/*
 * In-guest checks run by `make boot-test`: the guest has the topology
 * csbench depends on, SMT can be switched at run time, core scheduling is
 * compiled in, every benchmark tool runs, and the guest survives the
 * cookie and SMT churn that crashed TCG guests built with jump labels.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../tap.h"
#include "guest_util.h"

static void check_topology(void)
{
	check_str(read_line(SYS_CPU "/online"), "0-3", "4 CPUs online");
	check_str(read_line(SYS_CPU "/cpu0/topology/thread_siblings_list"),
		  "0-1", "cpu0 siblings are 0-1");
	check_str(read_line(SYS_CPU "/cpu2/topology/thread_siblings_list"),
		  "2-3", "cpu2 siblings are 2-3");
	check_str(read_line(SYS_CPU "/smt/control"), "on", "smt/control is on");
}

static int smt_set(const char *state, const char *want_online)
{
	const char *online;

	if (write_str(SYS_CPU "/smt/control", state))
		return 0;
	online = read_line(SYS_CPU "/online");
	return online && !strcmp(online, want_online);
}

static void check_smt_switch(void)
{
	tap_ok(smt_set("off", "0,2"), "smt off leaves cpus 0,2 online");
	tap_ok(smt_set("on", "0-3"), "smt on brings cpus 0-3 back");
}

static void check_prctl(void)
{
	unsigned long cookie = 1;
	int ret;

	ret = prctl(PR_SCHED_CORE, PR_SCHED_CORE_GET, 0, SCOPE_THREAD,
		    (unsigned long)&cookie);
	if (!tap_ok(ret == 0, "prctl(PR_SCHED_CORE_GET) works"))
		tap_diag("  prctl: %s (is CONFIG_SCHED_CORE set?)",
			 strerror(errno));
	check_int(cookie, ==, 0, "a fresh task has no core cookie");
}

/* The tools the workloads use, and a command that proves each runs. */
static const struct tool {
	const char *name, *cmd;
} tools[] = {
	{ "sysbench", "sysbench --version" },
	{ "stress-ng", "stress-ng --version" },
	{ "fio", "fio --version" },
	{ "cyclictest", "cyclictest --help 2>&1 | grep -q cyclictest" },
	{ "hackbench", "hackbench --help 2>&1 | grep -qi usage" },
	{ "perf", "perf --version" },
	{ "trace-cmd", "trace-cmd list -e sched:sched_switch >/dev/null" },
	{ "taskset", "taskset -c 0 true" },
};

static void check_tools(void)
{
	char cmd[256];
	size_t i;

	for (i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		snprintf(cmd, sizeof(cmd), "%s >/dev/null 2>&1", tools[i].cmd);
		tap_ok(system(cmd) == 0, "%s runs (%s)", tools[i].name,
		       tools[i].cmd);
	}
}

static pid_t spawn_spinner(void)
{
	pid_t pid = fork();

	if (pid == 0)
		for (;;)
			;
	return pid;
}

/* A child takes a fresh cookie and exits: core scheduling goes on, off. */
static int cookie_cycle(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		unsigned long long cookie;
		struct timespec ts = { 0, 2000000 };

		if (cookie_create(0))
			_exit(1);
		if (cookie_get(0, &cookie) || !cookie)
			_exit(2);
		nanosleep(&ts, NULL);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void check_churn(int cookies, int smt_toggles)
{
	pid_t load[4];
	int i, bad_cookie = 0, bad_smt = 0;

	for (i = 0; i < 4; i++)
		load[i] = spawn_spinner();
	for (i = 0; i < cookies; i++) {
		if (cookie_cycle())
			bad_cookie++;
		if (i % (cookies / smt_toggles) == 0 && i / (cookies / smt_toggles) < smt_toggles)
			if (!smt_set("off", "0,2") || !smt_set("on", "0-3"))
				bad_smt++;
	}
	for (i = 0; i < 4; i++) {
		kill(load[i], SIGKILL);
		waitpid(load[i], NULL, 0);
	}
	check_int(bad_cookie, ==, 0, "churn: cookie create/drop cycles all succeeded");
	check_int(bad_smt, ==, 0, "churn: SMT off/on cycles all succeeded");
	tap_ok(1, "churn: guest survived %d cookie and %d SMT cycles under load",
	       cookies, smt_toggles);
}

int main(void)
{
	tap_plan_start();
	check_topology();
	check_smt_switch();
	check_prctl();
	check_tools();
	check_churn(50, 20);
	return tap_finish();
}
