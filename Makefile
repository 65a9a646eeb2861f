# csbench: does Linux core scheduling beat turning SMT off?
#
#   make bench     everything: packages, kernel, image, the benchmark matrix
#   make check     the tests: unit tests and an in-guest boot test
#
# One non-recursive Makefile. Kernel and image live in a cache outside the
# repository ($(CSBENCH_CACHE)), keyed by their inputs; see README.md.

SHELL := /bin/sh
.DEFAULT_GOAL := help

export CSBENCH_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/csbench
export FLAVOR ?= bench
export PATCHSET ?= $(CURDIR)/patchset

B := build
# Real guest tool output and traces (copied from the project's shared fixtures).
FIXTURES ?= $(CURDIR)/tests/fixtures/guest-tool-output
CC := gcc
# Truncation of over-long paths is checked where it matters; the warning
# fires on every fixed-size path buffer.
CFLAGS ?= -O2 -g
CFLAGS += -Wall -Wextra -Wno-format-truncation -std=gnu11 -D_GNU_SOURCE
HOST_LIBS := -ljansson
GUEST_CFLAGS := $(CFLAGS) -static

LIB_SRC := $(wildcard bench/lib/*.c)
HOST_SRC := $(wildcard bench/host/*.c)
HOST_OBJ := $(patsubst %.c,$(B)/%.o,$(LIB_SRC) $(HOST_SRC))
HOST_NOMAIN := $(filter-out $(B)/bench/host/main.o,$(HOST_OBJ))

UNIT_SRC := $(wildcard tests/unit/t[0-9]*.c)
UNIT_BIN := $(patsubst tests/unit/%.c,$(B)/tests/unit/%,$(UNIT_SRC))

# Static binaries that run inside the guest, copied onto its 9p share.
GUEST_BIN := $(B)/guest/boot_checks

DEPS_STAMP := $(B)/.deps-ok

.PHONY: help deps kernel image kernel-path image-path boot-test bench \
	check unit-test clean distclean all

help:
	@echo "make bench      install what is missing, build kernel and image, run the benchmarks"
	@echo "make check      unit tests and the in-guest boot test"
	@echo "make deps | kernel | image | boot-test | kernel-path | image-path | clean"

# ---- packages -------------------------------------------------------------
deps:
	@scripts/deps.sh

$(DEPS_STAMP): scripts/packages.txt scripts/deps.sh
	@scripts/deps.sh
	@mkdir -p $(@D) && touch $@

# ---- C code ---------------------------------------------------------------
all: $(B)/csbench $(B)/initramfs.cpio $(GUEST_BIN) $(UNIT_BIN)

$(B)/%.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

$(B)/csbench: $(HOST_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(HOST_LIBS)

$(B)/guest/init: bench/guest/init.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $<

$(B)/guest/%: tests/guest/%.c tests/tap.h | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(CC) $(GUEST_CFLAGS) -o $@ $<

# The initramfs holds only csbench-init; it mounts the Debian image and
# chroots into it. Owner 0:0 so no root is needed to build it.
$(B)/initramfs.cpio: $(B)/guest/init
	@rm -rf $(B)/initramfs && mkdir -p $(B)/initramfs
	cp $< $(B)/initramfs/init
	cd $(B)/initramfs && echo init | cpio --quiet -o -H newc -R 0:0 >../initramfs.cpio.tmp
	mv $@.tmp $@

$(B)/tests/unit/%: tests/unit/%.c $(HOST_NOMAIN) tests/tap.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -DFIXTURES=\"$(FIXTURES)\" -o $@ $< $(HOST_NOMAIN) $(HOST_LIBS) -lm

-include $(shell find $(B) -name '*.d' 2>/dev/null)

# ---- kernel and image (cached outside the repository) -----------------------
kernel: $(DEPS_STAMP)
	@scripts/kernel-build.sh

image: $(DEPS_STAMP)
	@scripts/image-build.sh

kernel-path: $(DEPS_STAMP)
	@echo "$$(scripts/kernel-build.sh)/bzImage"

image-path: $(DEPS_STAMP)
	@scripts/image-build.sh

# ---- tests ----------------------------------------------------------------
unit-test: $(UNIT_BIN)
	@scripts/run-tap.sh $(UNIT_BIN)

BOOT_OUT := $(B)/boot-test
boot-test: $(B)/csbench $(B)/initramfs.cpio $(GUEST_BIN) $(DEPS_STAMP)
	@k=$$(scripts/kernel-build.sh) && i=$$(scripts/image-build.sh) && \
	rm -rf $(BOOT_OUT) && \
	$(B)/csbench boot --kernel $$k/bzImage --initrd $(B)/initramfs.cpio \
		--image $$i --job tests/guest/boot-test.sh --bin $(B)/guest \
		--out $(BOOT_OUT) --timeout 900 --show-log >$(BOOT_OUT).tap; \
	status=$$?; cat $(BOOT_OUT).tap; \
	scripts/run-tap.sh --summarise $(BOOT_OUT).tap && exit $$status

check: unit-test boot-test

# ---- the benchmark ----------------------------------------------------------
bench: boot-test
	@echo "bench: kernel, image and boot check are ready; the benchmark driver (csbench run) is not built yet"

clean:
	rm -rf $(B)
