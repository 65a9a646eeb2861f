/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The part of QEMU's TCG plugin API (include/qemu/qemu-plugin.h, API
 * version 1 as in QEMU 7.2) that csbench's SMT yield plugin uses. Debian
 * does not package the header; these declarations follow its ABI, and a
 * mismatch shows at load time: QEMU refuses a plugin whose
 * qemu_plugin_version it does not support, and an unresolved symbol fails
 * dlopen() with the name.
 */
#ifndef CSBENCH_QEMU_PLUGIN_API_H
#define CSBENCH_QEMU_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QEMU_PLUGIN_EXPORT	__attribute__((visibility("default")))
#define QEMU_PLUGIN_VERSION	1

typedef uint64_t qemu_plugin_id_t;

typedef struct qemu_info_t {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
typedef void (*qemu_plugin_vcpu_simple_cb_t)(qemu_plugin_id_t id, unsigned int vcpu_index);

void qemu_plugin_register_vcpu_idle_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_simple_cb_t cb);
void qemu_plugin_register_vcpu_resume_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_simple_cb_t cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb,
				    void *userdata);
void qemu_plugin_outs(const char *string);

#endif
