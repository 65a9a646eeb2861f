// SPDX-License-Identifier: GPL-2.0
/* Console scanning finds the first sign of a crash, and only real ones. */
#include "../../bench/host/machine/console.h"
#include "../tap.h"

static const struct {
	const char *text, *want_kind, *want_line, *desc;
} cases[] = {
	{ "[    1.0] Linux version 6.1\r\ncsbench-init: step chroot ok\r\n",
	  NULL, NULL, "clean boot log" },
	{ "[ 5.1] int3: 0000 [#1] PREEMPT SMP\r\n[ 5.2] Kernel panic - not syncing: Fatal exception\r\n",
	  "trap", "[ 5.1] int3: 0000 [#1] PREEMPT SMP", "fatal int3, first line wins" },
	{ "ok\n[ 9.0] BUG: kernel NULL pointer dereference, address: 0\n",
	  "bug", "[ 9.0] BUG: kernel NULL pointer dereference, address: 0", "BUG line" },
	{ "[ 2.0] WARNING: CPU: 1 PID: 7 at kernel/sched/core.c:100 f+0x1/0x2\n",
	  "warning", "[ 2.0] WARNING: CPU: 1 PID: 7 at kernel/sched/core.c:100 f+0x1/0x2",
	  "WARNING line" },
	{ "x\n[ 3.0] Kernel panic - not syncing: Attempted to kill init!\n",
	  "panic", "[ 3.0] Kernel panic - not syncing: Attempted to kill init!", "panic" },
	{ "[ 4.0] WARNING: possible circular locking dependency detected\n",
	  "warning", "[ 4.0] WARNING: possible circular locking dependency detected",
	  "lockdep report" },
	{ "[ 0.3] RETBleed: WARNING: Spectre v2 mitigation leaves CPU vulnerable\n",
	  NULL, NULL, "a mitigation notice saying WARNING is not a warning" },
	{ "WARNING: CPU: 0 PID: 1 at x.c:1\n", "warning", "WARNING: CPU: 0 PID: 1 at x.c:1",
	  "WARNING at the very start of the log" },
	{ "[ 4.8] traps: PANIC: double fault, error_code: 0x0\n[ 4.8] double fault: 0000 [#1] PREEMPT SMP PTI\n",
	  "panic", "[ 4.8] traps: PANIC: double fault, error_code: 0x0",
	  "a double fault, before its Kernel panic line" },
	{ "[ 2.4] invalid opcode: 0000 [#1] PREEMPT SMP PTI\n", "oops",
	  "[ 2.4] invalid opcode: 0000 [#1] PREEMPT SMP PTI", "a trap's first die() report" },
	{ "csbench-init: job finished: exit 0\nsysbench says BUGS are fine\n",
	  NULL, NULL, "'BUGS' without the colon is not a bug" },
};

int main(void)
{
	char line[256];
	size_t i;

	tap_plan_start();
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *kind = console_scan_text(cases[i].text, line, sizeof(line));

		if (!cases[i].want_kind) {
			tap_ok(kind == NULL, "%s: no problem found", cases[i].desc);
			continue;
		}
		check_str(kind, cases[i].want_kind, cases[i].desc);
		check_str(line, cases[i].want_line, cases[i].desc);
	}
	return tap_finish();
}
