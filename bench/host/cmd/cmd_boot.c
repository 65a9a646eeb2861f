// SPDX-License-Identifier: GPL-2.0
/*
 * csbench boot: one guest, one job script. Used by `make boot-test` and
 * by anyone who wants to run something by hand in exactly the guest the
 * benchmarks use.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../lib/fileio.h"
#include "../../lib/log.h"
#include "../../lib/opts.h"
#include "../../lib/paths.h"
#include "../../lib/strnum.h"
#include "../machine/accel.h"
#include "cmd.h"
#include "../machine/console.h"
#include "../machine/job.h"
#include "../machine/pin.h"
#include "../runner/run_args.h"
#include "../machine/smtcap.h"

/* Each input is a readable file; if not, say which and how to build it. */
static int inputs_missing(const char *kernel, const char *initrd, const char *image,
			  const char *script)
{
	const struct { const char *opt, *path, *hint; } inputs[] = {
		{ "--kernel", kernel, "make kernel-path" },
		{ "--initrd", initrd, "make build/initramfs.cpio" },
		{ "--image", image, "make image-path" },
		{ "--job", script, NULL },
	};

	for (size_t i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		if (!input_missing(inputs[i].opt, inputs[i].path, S_IFREG))
			continue;
		if (inputs[i].hint)
			fprintf(stderr, "  (build it with: %s)\n", inputs[i].hint);
		return 1;
	}
	return 0;
}

/*
 * A job that sees what cells see: @script after the fidelity probe csbench
 * run starts every boot with (its figures go to boot.info), written to
 * @out/job-with-probe.sh, named in @path. 0, or -1 said.
 */
static int with_fidelity_probe(const char *script, const char *out, char *path, size_t len)
{
	char *text = read_file(script);
	FILE *f;
	int bad;

	if (!text) {
		err_errno(errno, "cannot read %s", script);
		return -1;
	}
	snprintf(path, len, "%s/job-with-probe.sh", out);
	f = fopen(path, "w");
	/* The job's own path stays out: it could hold a newline. */
	bad = !f || fprintf(f, "# csbench boot: the fidelity probe first (--no-fidelity: "
			    "without), then the job\nmkdir -p out\n" JOB_FIDELITY_PROBE "%s",
			    text) < 0;
	if (f && fclose(f))
		bad = 1;
	free(text);
	if (bad) {
		err_errno(errno, "cannot write %s", path);
		return -1;
	}
	return 0;
}

/*
 * Print the job's output. A TAP job whose guest crashed or hung never
 * prints its own "not ok": add one that names the test it was in (the
 * last "# --- NAME" line, kernel-tests.sh's marker) and what the console
 * showed, so the failure is in the stream, not only in the exit code.
 */
static void print_job_log(const char *share, const struct vm_result *vm)
{
	char path[4200], line[512], test[256] = "";
	int at_start = 1;
	FILE *f;

	snprintf(path, sizeof(path), "%s/job.log", share);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (at_start && !strncmp(line, "# --- ", 6))
			snprintf(test, sizeof(test), "%.*s", (int)strcspn(line + 6, " \n"),
				 line + 6);
		at_start = strchr(line, '\n') != NULL;
		fputs(line, stdout);
	}
	if (f)
		fclose(f);
	if (vm->outcome == VM_POWERED_OFF)
		return;
	if (!at_start)
		putchar('\n');
	printf("not ok - %s: guest %s: %s\n", *test ? test : "the job",
	       vm_outcome_name(vm->outcome), vm->problem);
}

/* The exit code for how the boot and its job ended, said in words. */
static int job_verdict(const struct job_spec *spec, const struct job_result *res)
{
	if (res->vm.outcome == VM_INTERRUPTED) {
		err_msg("interrupted (%s): the guest was stopped; what it wrote is in %s",
			res->vm.problem, spec->out);
		return EXIT_INTERRUPTED;
	}
	if (res->vm.outcome != VM_POWERED_OFF) {
		err_msg("guest %s: %s; console: %s/console.log",
			vm_outcome_name(res->vm.outcome), res->vm.problem, spec->out);
		console_tail(spec->vm.console, 15);
		return EXIT_GUEST;
	}
	if (!res->have_status) {
		err_msg("guest powered off without running the job; see %s/share/init.log "
			"and %s/console.log", spec->out, spec->out);
		console_tail(spec->vm.console, 10);
		return EXIT_GUEST;
	}
	if (res->exit_code) {
		err_msg("job %s ended with %s; see %s/job.log", spec->script,
			res->status, res->share);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

int cmd_boot(int argc, char **argv)
{
	const char *kernel = NULL, *initrd = NULL, *image = NULL;
	const char *script = NULL, *bin = NULL, *out = NULL, *append = NULL;
	const char *accel = "auto", *cpu = NULL, *qemu = NULL, *yield = NULL;
	const char *emulation = RUN_DEFAULT_EMULATION;
	long timeout = 600, memory = 2048, period = SMTCAP_PERIOD_US, cores = 0;
	long core_pct = SMTCAP_CORE_PCT;
	int show_log = 0, no_fidelity = 0;
	const struct opt opts[] = {
		{ "kernel", OPT_STR, &kernel, 0, 0, "FILE", "bzImage to boot" },
		{ "initrd", OPT_STR, &initrd, 0, 0, "FILE", "initramfs with csbench-init" },
		{ "image", OPT_STR, &image, 0, 0, "FILE", "root image (attached with snapshot=on)" },
		{ "job", OPT_STR, &script, 0, 0, "FILE", "shell script the guest runs" },
		{ "bin", OPT_STR, &bin, 0, 0, "DIR", "guest binaries, on PATH in the guest" },
		{ "out", OPT_STR, &out, 0, 0, "DIR", "where console, logs and the share go" },
		{ "append", OPT_STR, &append, 0, 0, "ARGS", "extra kernel command line" },
		{ "accel", OPT_STR, &accel, 0, 0, "auto|tcg|kvm", "accelerator (auto probes KVM)" },
		{ "cpu", OPT_STR, &cpu, 0, 0, "MODEL", "QEMU CPU model (Intel vendor)" },
		{ "qemu", OPT_STR, &qemu, 0, 0, "PROG", "QEMU binary (default qemu-system-x86_64)" },
		{ "timeout", OPT_INT, &timeout, 10, 86400, "SEC", "kill the guest after this long" },
		{ "memory", OPT_INT, &memory, 256, 65536, "MB", "guest memory" },
		{ "show-log", OPT_FLAG, &show_log, 0, 0, NULL, "print the job's output" },
		{ "no-fidelity", OPT_FLAG, &no_fidelity, 0, 0, NULL,
		  "skip the fidelity probe csbench run (and by default this) runs first" },
		{ "cores", OPT_INT, &cores, 1, VM_MAX_CORES, "N",
		  "guest cores of two threads (default: a host CPU per vCPU when concurrent, else 2)" },
		{ "emulation", OPT_STR, &emulation, 0, 0, "auto|concurrent|time-shared",
		  "TCG: siblings on own host CPUs, or time-sharing one (default " RUN_DEFAULT_EMULATION
		  ": concurrent where the host has a CPU per vCPU)" },
		{ "smt-yield", OPT_STR, &yield, 0, 0, "Y",
		  "TCG: emulate SMT yield Y (1.0..2.0): the yield plugin, or caps when time-shared" },
		{ "cap-period-us", OPT_INT, &period, 1000, 1000000, "US",
		  "with --smt-yield: the caps' CFS period (default 10000)" },
		{ "cap-core-pct", OPT_INT, &core_pct, 50, 100, "PCT",
		  "with --smt-yield: a core's share of its host CPU, percent (default 70)" },
		{ NULL }
	};
	char cache[4096], why[512], pins[VM_MAX_CPUS * 6], probed[4200];
	struct job_spec spec = { 0 };
	struct job_result res;
	int idx;

	idx = opts_parse("boot", "--kernel F --initrd F --image F --job F --out D [OPTIONS]",
			 opts, argc, argv);
	if (idx == -2)
		return EXIT_OK;
	if (idx < 0)
		return EXIT_USAGE;
	if (!kernel || !initrd || !image || !script || !out) {
		err_msg("--kernel, --initrd, --image, --job and --out are required");
		return EXIT_USAGE;
	}
	if (inputs_missing(kernel, initrd, image, script))
		return EXIT_USAGE;
	if (yield && parse_double(yield, SMTCAP_MIN_YIELD, SMTCAP_MAX_YIELD, &spec.vm.smt_yield)) {
		err_msg("--smt-yield %s: expected a number from %.1f to %.1f", yield,
			SMTCAP_MIN_YIELD, SMTCAP_MAX_YIELD);
		return EXIT_USAGE;
	}
	cache_dir(cache, sizeof(cache));
	if (accel_choose(accel, kernel, initrd, cache, &spec.vm.accel, why,
			 sizeof(why))) {
		err_msg("--accel %s: expected auto, tcg or kvm", accel);
		return EXIT_USAGE;
	}
	if (spec.vm.smt_yield && spec.vm.accel != ACCEL_TCG) {
		err_msg("--smt-yield: only under TCG (under %s the hardware's own SMT yield "
			"applies)", accel_name(spec.vm.accel));
		return EXIT_USAGE;
	}
	if (vm_choose_emulation(emulation, cores, &spec.vm))
		return EXIT_USAGE;
	/* Caps are the time-shared layout's yield; the plugin takes any 1..2. */
	if (yield && spec.vm.emu == EMU_TIMESHARED) {
		struct smtcap_plan plan = { .yield = spec.vm.smt_yield,
					    .core_share = core_pct / 100.0,
					    .period_us = period };

		if (smtcap_check(&plan, why, sizeof(why))) {
			err_msg("--smt-yield %s: %s", yield, why);
			return EXIT_USAGE;
		}
	}
	spec = (struct job_spec){ .out = out, .script = script, .bin_dir = bin,
				  .accel_why = why, .vm = spec.vm };
	spec.vm.cap_period_us = period;
	spec.vm.cap_core_pct = core_pct;
	spec.vm.kernel = kernel;
	spec.vm.initrd = initrd;
	spec.vm.image = image;
	spec.vm.append = append;
	spec.vm.cpu_model = cpu;
	spec.vm.qemu = qemu;
	spec.vm.timeout_s = timeout;
	spec.vm.memory_mb = memory;
	if (mkdirs(out, 0755)) {
		err_errno(errno, "cannot create %s", out);
		return EXIT_FAIL;
	}

	if (!no_fidelity) {
		if (with_fidelity_probe(script, out, probed, sizeof(probed)))
			return EXIT_FAIL;
		spec.script = probed;
	}
	info("accelerator %s (%s)", accel_name(spec.vm.accel), why);
	/* Ctrl-C, SIGTERM, SIGHUP: the guest is stopped, not left running. */
	vm_catch_interrupts();
	job_run(&spec, &res);
	if (!no_fidelity)
		job_record_fidelity(out);
	info("emulation: %s, %d cores; pinning: %s (vCPUs on host cpus %s)",
	     emu_name(spec.vm.emu), vm_cores(&spec.vm), res.vm.pinning.how,
	     vm_pinning_list(&res.vm.pinning, vm_cores(&spec.vm) * VM_THREADS, pins,
			     sizeof(pins)));
	info("guest %s after %.1f s (init reached after %.1f s)",
	     vm_outcome_name(res.vm.outcome), res.vm.seconds, res.vm.boot_s);
	if (show_log)
		print_job_log(res.share, &res.vm);
	return job_verdict(&spec, &res);
}
