# csbench: does Linux core scheduling beat turning SMT off?
#
#   make bench     everything: packages, kernel, image, the benchmark matrix
#   make check     the tests: unit, sanitizer and fuzz tests, the in-guest boot and
#                  kernel tests (bench and debug kernels), bench, fault and sweep smokes
#
# One non-recursive Makefile. Kernel and image live in a cache outside the
# repository ($(CSBENCH_CACHE)), keyed by their inputs; see docs/stages.md.

SHELL := /bin/sh
.DEFAULT_GOAL := help

export CSBENCH_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/csbench
export FLAVOR ?= bench
export PATCHSET ?= $(CURDIR)/patchset

B := build
# Packages installed (scripts/deps.sh). Defined before any rule names it:
# a rule's prerequisites are expanded when make reads the rule.
DEPS_STAMP := $(B)/.deps-ok
# Real guest tool output and traces (copied from the project's shared fixtures).
FIXTURES ?= $(CURDIR)/tests/fixtures/guest-tool-output
CC := gcc
# -Wformat-truncation (in -Wall at -O2) stays on: a path that must fit is
# made with xsnprintf() (bench/lib/paths.h), which stops on truncation;
# messages say how much of a long name they keep (%.Ns).
CFLAGS ?= -O2 -g
CFLAGS += -Wall -Wextra -Wformat-truncation -std=gnu11 -D_GNU_SOURCE \
	-DCSBENCH_VERSION=\"$(shell cat VERSION)\" $(SANITIZE)
HOST_LIBS := -ljansson -lgsl -lgslcblas -lm
GUEST_CFLAGS = $(filter-out $(SANITIZE),$(CFLAGS)) -static

LIB_SRC := $(wildcard bench/lib/*.c)
HOST_SRC := $(wildcard bench/host/*/*.c bench/report/*.c)
HOST_OBJ := $(patsubst %.c,$(B)/%.o,$(LIB_SRC) $(HOST_SRC))
HOST_NOMAIN := $(filter-out $(B)/bench/host/cmd/main.o,$(HOST_OBJ))

UNIT_SRC := $(wildcard tests/unit/t[0-9]*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(B)/tests/unit/%,$(UNIT_SRC))
UNIT_SH := $(wildcard tests/unit/t[0-9]*.sh)

# The guest agent: static, built from bench/guest and the parts of
# bench/lib both sides share (jansson's static library from libjansson-dev).
AGENT_SRC := bench/guest/agent.c bench/guest/modeset.c bench/guest/trace_util.c \
	bench/lib/workload.c bench/lib/extract.c bench/lib/cotrace.c \
	bench/lib/mode.c bench/lib/strnum.c bench/lib/fileio.c \
	bench/lib/hist.c bench/lib/hist_json.c bench/lib/cell_schema.c \
	bench/lib/paths.c bench/lib/log.c bench/lib/spawn.c
$(B)/guest/csbench-agent: $(AGENT_SRC) $(wildcard bench/guest/*.h bench/host/*.h bench/host/*/*.h bench/lib/*.h) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $(AGENT_SRC) -ljansson -lm

# The SMT yield plugin QEMU loads when siblings run on their own host CPUs
# (TCG): a shared object, built with the host's flags but no sanitizer
# (QEMU would need the sanitizer runtime preloaded).
YIELD_PLUGIN := $(B)/plugin/csbench-smt-yield.so
$(YIELD_PLUGIN): bench/plugin/smt_yield.c bench/plugin/qemu_plugin_api.h bench/plugin/smt_yield_math.h | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(filter-out $(SANITIZE),$(CFLAGS)) -fPIC -shared -fvisibility=hidden -o $@ $<

# The guest's measured SMT yield, before every run's cells.
$(B)/guest/csbench-yield: bench/guest/yield.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $<

# The emulation's fidelity (wake-up latency beside a busy sibling), too.
$(B)/guest/csbench-fidelity: bench/guest/fidelity.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -pthread -o $@ $<

# Static binaries that run inside the guest, copied onto its 9p share.
GUEST_TESTS := boot_checks cpu_tag_test flip_pick_test cpu_tag_v1_test isolation_test stress_test \
	cs_prctl_test mode_test forceidle_flip_test prctl_nomem_test
GUEST_BIN := $(addprefix $(B)/guest/,$(GUEST_TESTS)) $(B)/guest/csbench-agent \
	$(B)/guest/csbench-yield $(B)/guest/csbench-fidelity $(B)/guest/csbench-init $(B)/guest/csbench-cloud-provision
GUEST_UTIL_SRC := tests/guest/guest_util.c bench/guest/trace_util.c bench/lib/cotrace.c \
	bench/guest/modeset.c bench/lib/mode.c bench/lib/fileio.c
GUEST_UTIL := $(GUEST_UTIL_SRC) $(wildcard tests/guest/*.h) bench/lib/cotrace.h \
	bench/guest/modeset.h bench/guest/trace_util.h bench/lib/mode.h


.PHONY: help deps kernel image cloud-image cloud-smoke kernel-path image-path boot-test bench ab ab-planted \
	check unit-test sanitize-test yield-test kernel-test kernel-test-debug bisect-build mutant-test fuzz bench-smoke \
	fuzz-regress bench-faults sweep-smoke calibrate report clean all

# One place: each target's "## " comment is its line here, and check's
# steps are CHECK_STEPS, so help cannot drift from what the targets do.
help:
	@awk -F ':[^#]*## ' '/^[a-z][a-z-]*:.*## / { printf "make %-18s %s\n", $$1, $$2 }' \
		$(firstword $(MAKEFILE_LIST))
	@echo
	@echo "make check runs, in order: $(strip $(CHECK_STEPS))"
	@echo "Variables: TARGET= BUDGET= ADAPTIVE= (bench), SMT_YIELD=1.3, IMAGE=FILE.qcow2,"
	@echo "  YIELDS=\"1.0 1.15 1.3\" BLOCKS=3 SWEEP_ARGS=..., CORES= EMULATION=, OLD= NEW= AB_ARGS=."

# ---- packages -------------------------------------------------------------
deps: ## install the Debian packages the kit needs (apt, from the host's mirror)
	@scripts/deps.sh

$(DEPS_STAMP): scripts/packages.txt scripts/deps.sh
	@scripts/deps.sh
	@mkdir -p $(@D) && touch $@

# ---- C code ---------------------------------------------------------------
all: $(B)/csbench $(YIELD_PLUGIN) $(B)/initramfs.cpio $(GUEST_BIN) $(UNIT_BIN)

$(B)/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(B)/csbench: $(HOST_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(HOST_LIBS)

$(B)/init: bench/guest/init.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $<

# A cloud image runs the same init as a systemd service (--service), after
# cloud-init ran the provisioning script; both travel on the share.
$(B)/guest/csbench-init: $(B)/init
	@mkdir -p $(@D)
	cp $< $@

$(B)/guest/csbench-cloud-provision: bench/guest/cloud-provision.sh
	@mkdir -p $(@D)
	cp $< $@

# The tree's own core-scheduling selftest, taken from the source tarball.
KERNEL_TARBALL ?= /usr/src/linux-source-6.1.tar.xz
$(B)/guest/cs_prctl_test: | $(DEPS_STAMP)
	@mkdir -p $(@D)
	tar -xOf $(KERNEL_TARBALL) linux-source-6.1/tools/testing/selftests/sched/cs_prctl_test.c >$(B)/cs_prctl_test.c
	$(CC) -O2 -static -o $@ $(B)/cs_prctl_test.c -lpthread

$(B)/guest/%: tests/guest/%.c tests/tap.h $(GUEST_UTIL) | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -pthread -o $@ $< $(GUEST_UTIL_SRC)

# The initramfs holds only csbench-init; it mounts the Debian image and
# chroots into it. Owner 0:0 so no root is needed to build it.
$(B)/initramfs.cpio: $(B)/init
	@rm -rf $(B)/initramfs && mkdir -p $(B)/initramfs
	cp $< $(B)/initramfs/init
	cd $(B)/initramfs && echo init | cpio --quiet -o -H newc -R 0:0 >../initramfs.cpio.tmp
	mv $@.tmp $@

$(B)/tests/unit/fake-qemu: tests/unit/fake-qemu.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -o $@ $<

$(B)/tests/unit/t0008-vm-outcomes: $(B)/tests/unit/fake-qemu

$(B)/tests/unit/%: tests/unit/%.c $(HOST_NOMAIN) tests/tap.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -DFIXTURES=\"$(FIXTURES)\" \
		-DFAKE_QEMU=\"$(CURDIR)/$(B)/tests/unit/fake-qemu\" \
		-DWORKLOADS=\"$(CURDIR)/workloads\" \
		-o $@ $< $(HOST_NOMAIN) $(HOST_LIBS) -lm -rdynamic -ldl -pthread

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# ---- fuzzing the workload parser (libFuzzer) ------------------------------
FUZZ_CC := clang
FUZZ_FLAGS := -g -O1 -fsanitize=fuzzer,address,undefined -D_GNU_SOURCE
FUZZ_CORPUS := tests/fuzz/corpus-workload

$(B)/fuzz/workload_fuzz: tests/fuzz/workload_fuzz.c bench/lib/workload.c bench/lib/strnum.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $^

# Replay the committed corpus once (part of make check).
fuzz-regress: $(B)/fuzz/workload_fuzz ## replay the workload-parser fuzz corpus
	@$< -runs=0 $(FUZZ_CORPUS) 2>$(B)/fuzz/regress.log || \
		{ tail -n 30 $(B)/fuzz/regress.log; exit 1; }
	@echo "fuzz-regress: $$(ls $(FUZZ_CORPUS) | wc -l) corpus inputs replayed cleanly"

# Explore for FUZZ_SECONDS; new interesting inputs land in the corpus.
FUZZ_SECONDS ?= 60
fuzz: $(B)/fuzz/workload_fuzz ## fuzz the workload parser for FUZZ_SECONDS (default 60)
	$< -max_total_time=$(FUZZ_SECONDS) -max_len=4096 $(FUZZ_CORPUS)

# ---- kernel and image (cached outside the repository) -----------------------
kernel: $(DEPS_STAMP) ## build the patched bench kernel (cached by input hash)
	@scripts/kernel-build.sh

image: $(DEPS_STAMP) ## build the Debian guest rootfs image (cached)
	@scripts/image-build.sh

# A stand-in for Debian's genericcloud qcow2 (prints its path); boot it, or
# the real one, with make bench IMAGE=FILE.
cloud-image: $(DEPS_STAMP) ## build a stand-in Debian cloud image (prints its path)
	@scripts/cloud-image-build.sh

# Every prefix of the series builds (slow: one kernel build per patch,
# mostly ccache hits); not part of make check.
bisect-build: $(DEPS_STAMP) ## build the kernel at each prefix of the series, then without cgroups
	@scripts/bisect-build.sh

# The kernel tests seen failing: one bench kernel per tests/mutants/*.patch
# (a bug put back), each of whose expected tests must fail. Slow (a kernel
# build and a boot per mutant), so not part of check. MUTANTS="a b" picks.
mutant-test: $(GUEST_READY) ## kernel tests against planted kernel bugs: each must be caught
	@tests/mutants/run.sh $(MUTANTS)

kernel-path: $(DEPS_STAMP) ## print the cached kernel's directory (builds it if missing)
	@echo "$$(scripts/kernel-build.sh)/bzImage"

image-path: $(DEPS_STAMP) ## print the cached image's path (builds it if missing)
	@scripts/image-build.sh

# ---- tests ----------------------------------------------------------------
# The shell tests find csbench in $CSBENCH_BUILD; the agent is a static
# guest binary and always comes from build/.
unit-test: $(UNIT_BIN) $(B)/csbench $(YIELD_PLUGIN) build/guest/csbench-agent ## host unit tests (C and shell, no guest)
	@dups=$$(ls tests/unit | sed -n 's/^t\([0-9]*\)-.*/\1/p' | sort | uniq -d); \
	if [ -n "$$dups" ]; then echo "unit-test: duplicate test numbers: $$dups" >&2; exit 1; fi
	@CSBENCH_BUILD=$(CURDIR)/$(B) scripts/run-tap.sh $(UNIT_BIN) $(UNIT_SH)

# The host tool and the unit tests again under AddressSanitizer and
# UBSan (leaks included), in $(B)/san; any report fails the test it is in.
SAN_FLAGS := -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
sanitize-test: build/guest/csbench-agent ## the unit tests rebuilt with ASan and UBSan
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1 \
		$(MAKE) --no-print-directory B=$(B)/san DEPS_STAMP=$(DEPS_STAMP) \
		SANITIZE="$(SAN_FLAGS)" unit-test

# $(call guest_inputs,FLAVOR): a recipe's prologue setting $k to the FLAVOR
# kernel's cache entry and $i to the root image, building what is missing.
guest_inputs = k=$$(FLAVOR=$(or $(1),$(FLAVOR)) scripts/kernel-build.sh) && \
	i=$$(scripts/image-build.sh)

# $(call guest_job,NAME,JOB,FLAVOR[,TIMEOUT]): boot the FLAVOR kernel, run
# JOB in the guest (killed after TIMEOUT seconds, 1800 unless given), keep
# everything under $(B)/NAME and the TAP output in $(B)/NAME.tap.
# The TAP summary decides, and so does csbench's exit code (a guest crash).
# The kernel's own tests want two cores (cookies placed across cores,
# stealing), so they boot the time-shared 2x2 layout on any host.
GUEST_TEST_EMULATION ?= --emulation time-shared --cores 2
define guest_job
	@$(call guest_inputs,$(3)) && rm -rf $(B)/$(1) && \
	$(B)/csbench boot --kernel $$k/bzImage --initrd $(B)/initramfs.cpio \
		--image $$i --job $(2) --bin $(B)/guest $(GUEST_TEST_EMULATION) \
		--out $(B)/$(1) --timeout $(or $(4),1800) --show-log >$(B)/$(1).tap; \
	status=$$?; cat $(B)/$(1).tap; \
	echo "# $(1): console log in $(B)/$(1)/console.log"; \
	scripts/run-tap.sh --summarise $(B)/$(1).tap && exit $$status
endef

GUEST_READY := $(B)/csbench $(YIELD_PLUGIN) $(B)/initramfs.cpio $(GUEST_BIN) $(DEPS_STAMP)

boot-test: $(GUEST_READY) ## boot the bench kernel; check topology, modes and cpu.tag
	$(call guest_job,boot-test,tests/guest/boot-test.sh,bench)
	@tests/replay.sh $(B)/boot-test >$(B)/boot-test.replay.tap; \
	cat $(B)/boot-test.replay.tap; scripts/run-tap.sh --summarise $(B)/boot-test.replay.tap

# The patch series' own tests, on the bench kernel and on the debug kernel
# (lockdep, atomic-sleep checks, kmemleak), where any kernel warning fails.
kernel-test: $(GUEST_READY) ## in-guest core-scheduling tests on the bench kernel
	$(call guest_job,kernel-test-bench,tests/guest/kernel-tests.sh,bench)

kernel-test-debug: $(GUEST_READY) ## the same tests on the debug kernel (lockdep, kmemleak, list checks)
	$(call guest_job,kernel-test-debug,tests/guest/kernel-tests.sh,debug)

# Thirty rounds of the stress test on the debug kernel while a second
# guest (the bench kernel, the same job) competes for the host's CPUs:
# the interleavings a quiet host never produces. Not part of make check
# (about 55 minutes: 110 s a round); the series' cover letter quotes it.
stress-test-debug: $(GUEST_READY) ## 30 stress rounds on the debug kernel beside a competing guest
	@k=$$(FLAVOR=bench scripts/kernel-build.sh) && i=$$(scripts/image-build.sh) && \
	rm -rf $(B)/stress-competitor && \
	{ $(B)/csbench boot --kernel $$k/bzImage --initrd $(B)/initramfs.cpio \
		--image $$i --job tests/guest/stress-rounds.sh --bin $(B)/guest $(GUEST_TEST_EMULATION) \
		--out $(B)/stress-competitor --timeout 5400 >$(B)/stress-competitor.tap 2>&1 & } ; \
	competitor=$$!; \
	$(MAKE) --no-print-directory stress-debug-only; status=$$?; \
	kill $$competitor 2>/dev/null; wait $$competitor 2>/dev/null; \
	echo "# competitor: $(B)/stress-competitor.tap"; exit $$status

stress-debug-only: $(GUEST_READY)
	$(call guest_job,stress-debug,tests/guest/stress-rounds.sh,debug,5400)

CHECK_STEPS := unit-test sanitize-test fuzz-regress boot-test kernel-test kernel-test-debug \
	bench-smoke bench-faults yield-test sweep-smoke cloud-smoke
check: $(CHECK_STEPS) ## every test: the steps listed below

# ---- the benchmark ----------------------------------------------------------
# $(call bench_run,PROFILE,EXTRA-ARGS): csbench run with the cached kernel
# and image; prints the run directory's name last. No PROFILE: a resumed
# run, whose profile is in its manifest.
# IMAGE=FILE: boot that cloud image (csbench run --cloud-image) instead of
# the built one.
define bench_run
	@k=$$(FLAVOR=$(FLAVOR) scripts/kernel-build.sh) && \
	i=$$($(if $(IMAGE),echo "$(IMAGE)",scripts/image-build.sh)) && \
	$(B)/csbench run $(if $(1),--profile $(1)) $(2) --rev $$(git rev-parse --short HEAD 2>/dev/null || echo norev) \
		--kernel $$k/bzImage --initrd $(B)/initramfs.cpio \
		$(if $(IMAGE),--cloud-image,--image) "$$i" --bin $(B)/guest
endef

# RESUME=DIR finishes an interrupted run instead of starting one.
# ADAPTIVE: blocks are added until every workload's coresched vs smt-off
# interval is within +-TARGET% or the next block would end after BUDGET
# minutes (ADAPTIVE= for the profile's fixed repetitions).
PROFILE ?= quick
TARGET ?= 10
BUDGET ?= 15
ADAPTIVE ?= --target $(TARGET) --budget $(BUDGET)
# SMT_YIELD=Y: emulate an SMT yield under TCG (csbench run --smt-yield).
YIELD_ARGS = $(if $(SMT_YIELD),--smt-yield $(SMT_YIELD)) $(TOPOLOGY_ARGS)
# CORES=N, EMULATION=concurrent|time-shared|auto: the guest's layout
# (csbench run --cores, --emulation; docs/emulation.md, "Emulation layouts").
TOPOLOGY_ARGS = $(if $(CORES),--cores $(CORES)) $(if $(EMULATION),--emulation $(EMULATION))
# YIELDS="1.0 1.15 1.3": a yield sweep instead, BLOCKS blocks of every
# yield interleaved (scripts/sweep.sh; SWEEP_ARGS="--modes ..." passes run
# options, not those the sweep sets: --dir, --reps, --profile, --smt-yield,
# --rev); RESUME=DIR of a sweep finishes it.
BLOCKS ?= 3
define sweep_run
	@$(call guest_inputs) && \
	YIELDS="$(YIELDS)" SWEEP_BLOCKS=$(BLOCKS) SWEEP_PROFILE=$(PROFILE) SWEEP_RESULTS=results \
	scripts/sweep.sh $(if $(RESUME),--resume $(RESUME),--kernel $$k/bzImage \
		--initrd $(B)/initramfs.cpio $(if $(IMAGE),--cloud-image "$(IMAGE)",--image $$i) \
		--bin $(B)/guest $(SWEEP_ARGS))
endef
bench: $(GUEST_READY) ## install, build and run the default matrix, print the table
	$(if $(or $(YIELDS),$(wildcard $(RESUME)/sweep.info)),$(sweep_run),$(call bench_run,$(if $(RESUME),,$(PROFILE)),--report $(if $(RESUME),--resume $(RESUME),--results results $(ADAPTIVE)) $(YIELD_ARGS)))

# The whole pipeline at smoke size, checked: every cell present and ok,
# no unexplained co-residency in the coresched modes, a report written.
bench-smoke: $(GUEST_READY) ## the whole pipeline at smoke size: run, report, verify
	@rm -rf $(B)/smoke && mkdir -p $(B)/smoke
	$(call bench_run,smoke,--report --results $(B)/smoke)
	@$(B)/csbench verify $(B)/smoke/*
	@jq -e '.schema == 2 and ([.metrics[] | select(.hist.buckets | length > 0)] | length == 1)' \
		$(B)/smoke/*/cells/latency-noisy.smt-off.r1.json >/dev/null || \
		{ echo "bench-smoke: the latency cell lacks schema 2 or its histogram" >&2; exit 1; }
	@for f in report.md report.csv report.json plots/gains.svg; do \
		test -s $(B)/smoke/*/$$f || { echo "bench-smoke: report has no $$f" >&2; exit 1; }; \
	done; echo "bench-smoke: report.md, report.csv, report.json and plots written"

# Faults end to end on the real kernel: a guest panic, a hung guest,
# Ctrl-C then --resume, a disk that fills mid-run.
bench-faults: $(GUEST_READY) ## guest panic, hang, Ctrl-C, full disk, hostile paths: said, no result lost
	@$(call guest_inputs) && \
	args="$$k/bzImage $(B)/initramfs.cpio $$i $(B)/guest" && \
	tests/faults/faults.sh $(B)/faults/run $$args >$(B)/faults.tap 2>&1; \
	tests/faults/disk-full.sh $(B)/faults/disk $$args >>$(B)/faults.tap 2>&1; \
	tests/faults/hostile-paths.sh $(B)/faults/hostile $$args >>$(B)/faults.tap 2>&1; \
	cat $(B)/faults.tap; scripts/run-tap.sh --summarise $(B)/faults.tap

# The emulated SMT yield: caps applied, measured, removed, also after a
# csbench killed with SIGKILL (tests/yield/smt-yield.sh; TCG only).
yield-test: $(GUEST_READY) ## the emulated SMT yield lands near its target
	@$(call guest_inputs) && \
	tests/yield/smt-yield.sh $(B)/yield $$k/bzImage $(B)/initramfs.cpio $$i $(B)/guest \
		>$(B)/yield.tap 2>&1; \
	cat $(B)/yield.tap; scripts/run-tap.sh --summarise $(B)/yield.tap

# A yield sweep at smoke size: two yields, two blocks, interleaved.
sweep-smoke: $(GUEST_READY) ## a sweep end to end: yields 1.0 and 1.3, 2 blocks, smoke profile
	@$(call guest_inputs) && \
	tests/yield/sweep-smoke.sh $(B)/sweep-smoke $$k/bzImage $(B)/initramfs.cpio $$i $(B)/guest \
		>$(B)/sweep-smoke.tap 2>&1; \
	cat $(B)/sweep-smoke.tap; scripts/run-tap.sh --summarise $(B)/sweep-smoke.tap

# The cloud-image path once at smoke size, on the stand-in: cloud-init
# provisions it offline, the agent runs from its systemd unit, csbench
# verify checks that, and the image file is byte-identical afterwards.
cloud-smoke: $(GUEST_READY) ## a run on the stand-in Debian cloud image
	@k=$$(scripts/kernel-build.sh) && i=$$(scripts/cloud-image-build.sh) && \
	tests/cloud/cloud-smoke.sh $(B)/cloud-smoke $$k/bzImage $(B)/initramfs.cpio $$i $(B)/guest \
		>$(B)/cloud-smoke.tap 2>&1; \
	cat $(B)/cloud-smoke.tap; scripts/run-tap.sh --summarise $(B)/cloud-smoke.tap

# Rebuild a run's report (default: the newest run in results/).
RUN ?= $(lastword $(sort $(wildcard results/2*)))
report: $(B)/csbench ## rebuild a run's report (RUN=results/DIR; default: newest)
	@test -n "$(RUN)" || { echo "make report: no run in results/ (make bench makes one)" >&2; exit 1; }
	$(B)/csbench report $(RUN)

# A/A noise bands for the quick profile: the run goes to results/calibration/
# (out of history's way), the bands to results/calibration-quick-ACCEL.json.
calibrate: $(GUEST_READY) ## A/A noise bands for the quick profile
	@$(call guest_inputs) && \
	$(B)/csbench calibrate --profile quick --results results/calibration --out-dir results \
		--rev $$(git rev-parse --short HEAD 2>/dev/null || echo norev) \
		--kernel $$k/bzImage --initrd $(B)/initramfs.cpio --image $$i --bin $(B)/guest

clean: ## remove build/ (caches in ~/.cache/csbench stay)
	rm -rf $(B)

# Interleaved A/B run of two series revisions: make ab OLD=DIR NEW=DIR
# [AB_ARGS="--workloads cpu-vs-cpu"] [AB_BLOCKS=6]; exits with compare's code.
ab: $(GUEST_READY) ## interleaved A/B run of two series revisions (OLD=DIR NEW=DIR)
	@test -n "$(OLD)" -a -n "$(NEW)" || \
		{ echo "make ab: give OLD=DIR and NEW=DIR (patch series directories)" >&2; exit 2; }
	@scripts/ab.sh $(OLD) $(NEW) $(AB_ARGS)

# The end-to-end A/B check: this series against itself plus a planted
# core-pick delay (tests/ab/slow-core-pick.patch, outside patchset/).
ab-planted: $(GUEST_READY) ## an A/B run against a planted slow core pick: must be found
	@tests/ab/planted.sh
