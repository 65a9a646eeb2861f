/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CSBENCH_ACCEL_H
#define CSBENCH_ACCEL_H

#include <stddef.h>

#include "vm.h"

/* @want is an --accel value: auto, tcg or kvm. */
int accel_known(const char *want);

/*
 * Choose the accelerator. @want is "auto", "tcg" or "kvm". For auto, KVM
 * is used only when /dev/kvm opens and a short probe boot of @kernel and
 * @initrd reaches csbench-init; the answer is cached per machine in
 * @cache_dir. @why receives the reason for the choice.
 * Returns 0 and sets @out, or -1 on a bad @want.
 */
int accel_choose(const char *want, const char *kernel, const char *initrd,
		 const char *cache_dir, enum accel *out, char *why, size_t len);

#endif
