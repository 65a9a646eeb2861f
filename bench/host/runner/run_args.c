// SPDX-License-Identifier: GPL-2.0
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../lib/log.h"
#include "../machine/accel.h"
#include "../../lib/mode.h"
#include "../../lib/paths.h"
#include "../../lib/spawn.h"
#include "../../lib/strnum.h"
#include "../machine/checkout.h"
#include "../exit_codes.h"
#include "run_args.h"
#include "run_boots.h"
#include "run_dir.h"
#include "../machine/smtcap.h"
#include "../machine/vm.h"
#include "../../lib/workload.h"

const char run_args_usage[] = "[OPTIONS] (see --help)";

void run_args_init(struct run_args *a)
{
	memset(a, 0, sizeof(*a));
	a->accel = "auto";
	a->results = "results";
	a->rev = "norev";
	a->progress = "text";
	a->min_free_mb = 256;
	a->min_reps = 3;
	/* cap_period_us and cap_core_pct stay 0 until typed or settled. */
}

int run_args_opts(struct run_args *a, struct opt *opts)
{
	const struct opt table[] = {
		{ "profile", OPT_STR, &a->profile, 0, 0, "smoke|quick|full",
		  "durations and default repetitions (default quick)" },
		{ "modes", OPT_STR, &a->modes, 0, 0, "LIST", "comma-separated modes (default: all)" },
		{ "workloads", OPT_STR, &a->workloads, 0, 0, "LIST",
		  "comma-separated workload names (default: all)" },
		{ "reps", OPT_INT, &a->reps, 1, BLOCKS_MAX_REPS, "N",
		  "repetitions (blocks); with --target the most it may take (default 40)" },
		{ "target", OPT_INT, &a->target, 1, 1000, "PCT",
		  "add blocks until every workload's coresched vs smt-off interval is within +-PCT%" },
		{ "budget", OPT_INT, &a->budget, 1, 100000, "MIN",
		  "with --target: start no block that would end after MIN minutes" },
		{ "min-reps", OPT_INT, &a->min_reps, 2, BLOCKS_MAX_REPS, "N",
		  "with --target: blocks before the first look (default 3)" },
		{ "workload-dir", OPT_STR, &a->workload_dir, 0, 0, "DIR",
		  "where the .wl files are (default: the checkout's workloads/)" },
		{ "resume", OPT_STR, &a->resume, 0, 0, "DIR",
		  "finish an interrupted run; profile, modes, workloads and reps come from its manifest" },
		{ "results", OPT_STR, &a->results, 0, 0, "DIR",
		  "parent of new run directories (default ./results)" },
		{ "dir", OPT_STR, &a->dir, 0, 0, "DIR",
		  "this run directory (new, or one with the same matrix: runs what --reps adds)" },
		{ "ab-session", OPT_STR, &a->ab_session, 0, 0, "ID", "A/B session this run is one side of" },
		{ "ab-side", OPT_STR, &a->ab_side, 0, 0, "a|b", "which side (with --ab-session)" },
		{ "rev", OPT_STR, &a->rev, 0, 0, "REV", "short source revision, for the run directory's name" },
		{ "kernel", OPT_STR, &a->kernel, 0, 0, "FILE",
		  "bzImage (default: the cached build, as make kernel-path)" },
		{ "initrd", OPT_STR, &a->initrd, 0, 0, "FILE",
		  "initramfs with csbench-init (default: build/initramfs.cpio)" },
		{ "image", OPT_STR, &a->image, 0, 0, "FILE",
		  "root image (default: the cached one, as make image-path)" },
		{ "cloud-image", OPT_STR, &a->cloud_image, 0, 0, "FILE",
		  "boot this cloud image (qcow2, e.g. Debian's genericcloud) instead: cloud-init "
		  "provisions it offline; the file is never written" },
		{ "cloud-root", OPT_STR, &a->cloud_root, 0, 0, "DEV",
		  "with --cloud-image: its root partition (default " VM_CLOUD_ROOT ")" },
		{ "bin", OPT_STR, &a->bin, 0, 0, "DIR",
		  "guest binaries with csbench-agent (default: build/guest)" },
		{ "accel", OPT_STR, &a->accel, 0, 0, "auto|tcg|kvm", "accelerator (default auto)" },
		{ "emulation", OPT_STR, &a->emulation, 0, 0, "auto|concurrent|time-shared",
		  "TCG: siblings on own host CPUs (concurrent) or time-sharing one (default "
		  RUN_DEFAULT_EMULATION ": concurrent where the host has a CPU per vCPU)" },
		{ "cores", OPT_INT, &a->cores, 1, VM_MAX_CORES, "N",
		  "guest cores of two threads (default: a host CPU per vCPU when concurrent, else 2)" },
		{ "smt-yield", OPT_STR, &a->smt_yield_arg, 0, 0, "Y",
		  "TCG: emulate SMT yield Y (1.0..2.0); concurrent: two busy siblings each at Y/2 "
		  "(the yield plugin); time-shared: a core's vCPU threads get S of a host CPU, one alone S/Y" },
		{ "cap-core-pct", OPT_INT, &a->cap_core_pct, 50, 100, "PCT",
		  "with --smt-yield: S, the core's share of its host CPU, in percent (default 70)" },
		{ "cap-period-us", OPT_INT, &a->cap_period_us, 1000, 1000000, "US",
		  "with --smt-yield: the caps' CFS period (default 10000)" },
		{ "boot-per-cell", OPT_FLAG, &a->boot_per_cell, 0, 0, NULL,
		  "a fresh boot for every cell (slower; no state carried over)" },
		{ "min-free-mb", OPT_INT, &a->min_free_mb, 0, 1 << 20, "MIB",
		  "free space the results need before each boot (default 256)" },
		{ "hang-after", OPT_INT, &a->hang_after, 10, 86400, "SEC",
		  "guest hung after this long without progress (default: longest cell + 5 min)" },
		{ "progress", OPT_STR, &a->progress, 0, 0, "text|json",
		  "progress lines as text or JSON (default text)" },
		{ "quiet", OPT_FLAG, &a->quiet, 0, 0, NULL, "no progress lines" },
		{ "report", OPT_FLAG, &a->report, 0, 0, NULL,
		  "end with csbench report's verdicts instead of the raw means" },
		{ NULL }
	};
	_Static_assert(sizeof(table) / sizeof(table[0]) == RUN_NOPTS + 1,
		       "RUN_NOPTS is the size of run's option table");

	memcpy(opts, table, sizeof(table));
	return RUN_NOPTS;
}

void run_args_help_defaults(void)
{
	printf("\nWithout --kernel, --image, --initrd, --bin and --workload-dir, csbench\n"
	       "takes them from the checkout it was built in (the build cache,\n"
	       "building what is missing as make bench does).\n");
}

/* The path a build script prints last on stdout (it builds on a miss). */
static int script_path(const char *root, const char *script, char *out, size_t len)
{
	char cmd[PATH_MAX + 64];
	char *argv[] = { cmd, NULL };

	if (snprintf(cmd, sizeof(cmd), "%s/scripts/%s", root, script) >= (int)sizeof(cmd))
		return -1;
	/* By argv: the checkout's path may hold any character. */
	return spawn_last_line(argv, out, len) || !out[0] ? -1 : 0;
}

/* An input the user named (@path not NULL) that is not there, said. */
static int given_input_missing(const char *opt, const char *path, unsigned int type)
{
	return path && input_missing(opt, path, type);
}

/*
 * --workloads names workloads, comma-separated: an empty list or an empty
 * name ("a,,b") is a typo, and is refused before any directory is read.
 */
static int check_workload_list(const char *list)
{
	const char *p = list;

	if (!*list) {
		err_msg("--workloads '': expected a comma-separated list of workload names "
			"(csbench list shows them); leave it out to run them all");
		return EXIT_USAGE;
	}
	for (; *p; p++)
		if (*p == ',' && (p == list || p[1] == ',' || !p[1])) {
			err_msg("--workloads %s: an empty name; expected names separated "
				"by single commas", list);
			return EXIT_USAGE;
		}
	return 0;
}

/* The checkout's defaults for the paths not given; nothing is built here. */
static int default_paths(struct run_args *a, char *root, size_t len)
{
	if (a->kernel && (a->image || a->cloud_image) && a->initrd && a->bin && a->workload_dir)
		return 0;
	if (checkout_root(root, len)) {
		err_msg("--kernel, --initrd, --image, --bin and --workload-dir have no default: "
			"this csbench was not run from the checkout it was built in");
		return EXIT_USAGE;
	}
	if (!a->workload_dir) {
		xsnprintf(a->default_wl_dir, sizeof(a->default_wl_dir), "%s/workloads", root);
		a->workload_dir = a->default_wl_dir;
	}
	if (!a->initrd) {
		xsnprintf(a->default_initrd, sizeof(a->default_initrd), "%s/build/initramfs.cpio", root);
		a->initrd = a->default_initrd;
	}
	if (!a->bin) {
		xsnprintf(a->default_bin, sizeof(a->default_bin), "%s/build/guest", root);
		a->bin = a->default_bin;
	}
	return 0;
}

/* The kernel and image not given: built, or taken from the cache. */
static int default_builds(struct run_args *a, const char *root)
{
	char dir[PATH_MAX];

	if (!a->kernel) {
		info("no --kernel: taking %s/scripts/kernel-build.sh's (builds it if not cached)", root);
		if (script_path(root, "kernel-build.sh", dir, sizeof(dir))) {
			err_msg("no --kernel, and %s/scripts/kernel-build.sh failed", root);
			return EXIT_FAIL;
		}
		xsnprintf(a->default_kernel, sizeof(a->default_kernel), "%s/bzImage", dir);
		a->kernel = a->default_kernel;
	}
	/* A cloud run boots the cloud image: no rootfs is built for it. */
	if (!a->image && !a->cloud_image) {
		if (script_path(root, "image-build.sh", a->default_image, sizeof(a->default_image))) {
			err_msg("no --image, and %s/scripts/image-build.sh failed", root);
			return EXIT_FAIL;
		}
		a->image = a->default_image;
	}
	return 0;
}

/* A workload directory with no .wl file in it, said before anything is built. */
static int no_workload_files(const char *dir)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, NULL), i, found = 0;

	for (i = 0; i < n; i++) {
		size_t len = strlen(names[i]->d_name);

		found |= len > 3 && !strcmp(names[i]->d_name + len - 3, ".wl");
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	if (n >= 0 && !found) {
		err_msg("--workload-dir %s: no .wl files (expected <name>.wl workload files; "
			"see workloads/README.md)", dir);
		return 1;
	}
	return 0;
}

/*
 * --cloud-image: what the image is, and the seed and offline packages it
 * boots with, built through the checkout's scripts when not cached.
 */
static int cloud_inputs(struct run_args *a)
{
	char root[PATH_MAX], err[1024];

	if (a->cloud_root && strncmp(a->cloud_root, "/dev/", 5)) {
		err_msg("--cloud-root %s: expected a device such as " VM_CLOUD_ROOT, a->cloud_root);
		return EXIT_USAGE;
	}
	info("--cloud-image %s: reading its format and checksum", a->cloud_image);
	if (cloud_image_inspect(a->cloud_image, &a->cloud, err, sizeof(err))) {
		err_msg("--cloud-image %s", err);
		return EXIT_USAGE;
	}
	if (checkout_root(root, sizeof(root))) {
		err_msg("--cloud-image needs the checkout csbench was built in "
			"(scripts/cloud-seed.sh and scripts/cloud-debs.sh)");
		return EXIT_USAGE;
	}
	if (script_path(root, "cloud-seed.sh", a->cloud_seed, sizeof(a->cloud_seed))) {
		err_msg("--cloud-image: %s/scripts/cloud-seed.sh failed", root);
		return EXIT_FAIL;
	}
	info("--cloud-image: gathering the benchmark tools' packages for the offline guest");
	if (script_path(root, "cloud-debs.sh", a->cloud_debs, sizeof(a->cloud_debs))) {
		err_msg("--cloud-image: %s/scripts/cloud-debs.sh failed", root);
		return EXIT_FAIL;
	}
	if (a->resume && strcmp(a->cloud.sha256, a->resumed_cloud_sha256)) {
		err_msg("--resume %s: its cloud image had sha256 %.12s...; %s has %.12s...",
			a->resume, a->resumed_cloud_sha256, a->cloud_image, a->cloud.sha256);
		return EXIT_USAGE;
	}
	a->image = a->cloud_image;
	return 0;
}

/*
 * --resume runs the matrix in the manifest; an option typed with it that
 * says otherwise is refused rather than ignored.
 */
static int take_resumed_matrix(struct run_args *a)
{
	static struct run_params p;
	static char yield[32];
	char err[512];
	double typed;

	if (run_dir_read_params(a->resume, &p, err, sizeof(err))) {
		err_msg("--resume %s: %s", a->resume, err);
		return EXIT_USAGE;
	}
#define SAME_STR(opt, field)						\
	if (a->field && strcmp(a->field, p.field)) {			\
		err_msg("--resume %s: it runs --%s %s (from its manifest), not %s", \
			a->resume, opt, p.field, a->field);		\
		return EXIT_USAGE;					\
	}
	SAME_STR("profile", profile)
	SAME_STR("modes", modes)
	SAME_STR("workloads", workloads)
#undef SAME_STR
	if (a->reps && a->reps != p.reps) {
		err_msg("--resume %s: it runs --reps %ld (from its manifest), not %ld "
			"(use --dir %s --reps %ld to add repetitions)",
			a->resume, p.reps, a->reps, a->resume, a->reps);
		return EXIT_USAGE;
	}
	/* (A typed value out of range is check_smt_yield()'s to refuse.) */
	if (a->smt_yield_arg && !parse_double(a->smt_yield_arg, SMTCAP_MIN_YIELD,
					      SMTCAP_MAX_YIELD, &typed) &&
	    fabs(typed - p.smt_yield) > 1e-9) {
		if (p.smt_yield)
			err_msg("--resume %s: it runs --smt-yield %g (from its manifest), not %s",
				a->resume, p.smt_yield, a->smt_yield_arg);
		else
			err_msg("--resume %s: it runs without vCPU caps (from its manifest), "
				"not --smt-yield %s", a->resume, a->smt_yield_arg);
		return EXIT_USAGE;
	}
	if (p.smt_yield) {
		if ((a->cap_core_pct && a->cap_core_pct != p.cap_core_pct) ||
		    (a->cap_period_us && a->cap_period_us != p.cap_period_us)) {
			err_msg("--resume %s: it runs --cap-core-pct %ld --cap-period-us %ld "
				"(from its manifest), not %ld and %ld", a->resume,
				p.cap_core_pct, p.cap_period_us,
				a->cap_core_pct ?: p.cap_core_pct,
				a->cap_period_us ?: p.cap_period_us);
			return EXIT_USAGE;
		}
		snprintf(yield, sizeof(yield), "%.6g", p.smt_yield);
		a->smt_yield_arg = yield;
		a->cap_period_us = p.cap_period_us;
		a->cap_core_pct = p.cap_core_pct;
	}
	if ((a->emulation && strcmp(a->emulation, p.emulation) && strcmp(a->emulation, "auto")) ||
	    (a->cores && a->cores != p.cores)) {
		err_msg("--resume %s: it runs --emulation %s --cores %ld (from its manifest), "
			"not %s and %ld", a->resume, p.emulation, p.cores,
			a->emulation ?: p.emulation, a->cores ?: p.cores);
		return EXIT_USAGE;
	}
	{
		static char emulation[16];

		snprintf(emulation, sizeof(emulation), "%s", p.emulation);
		a->emulation = emulation;
		a->cores = p.cores;
	}
	if (p.cloud_sha256[0] && !a->cloud_image) {
		err_msg("--resume %s: it runs on a cloud image (sha256 %.12s..., from its "
			"manifest): give it again with --cloud-image FILE", a->resume, p.cloud_sha256);
		return EXIT_USAGE;
	}
	if (!p.cloud_sha256[0] && a->cloud_image) {
		err_msg("--resume %s: it runs on the built image (from its manifest), not "
			"--cloud-image", a->resume);
		return EXIT_USAGE;
	}
	snprintf(a->resumed_cloud_sha256, sizeof(a->resumed_cloud_sha256), "%s",
		 p.cloud_sha256);
	a->profile = p.profile;
	a->modes = p.modes;
	a->workloads = p.workloads;
	a->reps = p.reps;
	return 0;
}

/*
 * --smt-yield: a number in range, caps the kernel can set, and a host CPU
 * controller to set them with.
 */
static int check_smt_yield(struct run_args *a)
{
	if (parse_double(a->smt_yield_arg, SMTCAP_MIN_YIELD, SMTCAP_MAX_YIELD, &a->smt_yield)) {
		err_msg("--smt-yield %s: expected a number from %.1f to %.1f", a->smt_yield_arg,
			SMTCAP_MIN_YIELD, SMTCAP_MAX_YIELD);
		return EXIT_USAGE;
	}
	return 0;
}

int run_args_check_caps(struct run_args *a)
{
	struct smtcap_plan plan;
	struct smtcap cap;
	char err[1024];

	if (!a->smt_yield)
		return 0;
	plan = (struct smtcap_plan){ .yield = a->smt_yield, .core_share = a->cap_core_pct / 100.0,
				     .period_us = a->cap_period_us };
	if (smtcap_check(&plan, err, sizeof(err))) {
		err_msg("--smt-yield %s: %s", a->smt_yield_arg, err);
		return EXIT_USAGE;
	}
	if (smtcap_find(SMTCAP_CGROUP_BASE, &cap, err, sizeof(err))) {
		err_msg("--smt-yield: %s", err);
		return EXIT_USAGE;
	}
	return 0;
}

int run_args_settle(struct run_args *a)
{
	static char all_modes[256];
	char root[PATH_MAX] = "";
	int ret;

	if (strcmp(a->progress, "text") && strcmp(a->progress, "json")) {
		err_msg("--progress %s: expected text or json", a->progress);
		return EXIT_USAGE;
	}
	if (a->resume && a->dir) {
		err_msg("--resume and --dir: give one of them");
		return EXIT_USAGE;
	}
	if (!a->ab_session != !a->ab_side ||
	    (a->ab_side && strcmp(a->ab_side, "a") && strcmp(a->ab_side, "b"))) {
		err_msg("--ab-session ID and --ab-side a|b go together");
		return EXIT_USAGE;
	}
	if (a->resume && (ret = take_resumed_matrix(a)))
		return ret;
	if (!a->profile)
		a->profile = "quick";
	if (!a->modes) {
		mode_list_all(all_modes, sizeof(all_modes), ",");
		a->modes = all_modes;
	}
	a->profile_id = wl_profile_lookup(a->profile);
	if (a->profile_id < 0) {
		err_msg("--profile %s: expected smoke, quick or full", a->profile);
		return EXIT_USAGE;
	}
	if ((a->budget || a->min_reps != 3) && !a->target) {
		err_msg("--budget and --min-reps go with --target");
		return EXIT_USAGE;
	}
	if (!a->cap_period_us)
		a->cap_period_us = SMTCAP_PERIOD_US;
	if (!a->cap_core_pct)
		a->cap_core_pct = SMTCAP_CORE_PCT;
	if (!a->emulation)
		a->emulation = RUN_DEFAULT_EMULATION;
	if (emu_lookup(a->emulation) < 0) {
		err_msg("--emulation %s: expected auto, concurrent or time-shared", a->emulation);
		return EXIT_USAGE;
	}
	if (a->smt_yield_arg && (ret = check_smt_yield(a)))
		return ret;
	if (!accel_known(a->accel)) {
		err_msg("--accel %s: expected auto, tcg or kvm", a->accel);
		return EXIT_USAGE;
	}
	if (a->workloads && (ret = check_workload_list(a->workloads)))
		return ret;
	if (a->cloud_root && !a->cloud_image) {
		err_msg("--cloud-root goes with --cloud-image");
		return EXIT_USAGE;
	}
	if (a->cloud_image && a->image) {
		err_msg("--image and --cloud-image: give one of them");
		return EXIT_USAGE;
	}
	/*
	 * The paths given come first: nothing is built, inspected or
	 * created for a run whose --kernel or --cloud-image is a typo.
	 */
	if (given_input_missing("--kernel", a->kernel, S_IFREG) ||
	    given_input_missing("--initrd", a->initrd, S_IFREG) ||
	    given_input_missing("--image", a->image, S_IFREG) ||
	    given_input_missing("--cloud-image", a->cloud_image, S_IFREG) ||
	    given_input_missing("--bin", a->bin, S_IFDIR) ||
	    given_input_missing("--workload-dir", a->workload_dir, S_IFDIR))
		return EXIT_USAGE;
	if ((ret = default_paths(a, root, sizeof(root))))
		return ret;
	if (input_missing("--workload-dir", a->workload_dir, S_IFDIR) ||
	    no_workload_files(a->workload_dir))
		return EXIT_USAGE;
	if ((ret = default_builds(a, root)))
		return ret;
	if (a->cloud_image && (ret = cloud_inputs(a)))
		return ret;
	/*
	 * Check them before a run directory exists or a boot is tried: a
	 * missing kernel would otherwise fail every boot, and under
	 * --accel auto be taken for a KVM that does not work.
	 */
	if (input_missing("--kernel", a->kernel, S_IFREG) ||
	    input_missing("--initrd", a->initrd, S_IFREG) ||
	    input_missing("--image", a->image, S_IFREG) ||
	    input_missing("--bin", a->bin, S_IFDIR) ||
	    input_missing("--workload-dir", a->workload_dir, S_IFDIR))
		return EXIT_USAGE;
	return 0;
}
