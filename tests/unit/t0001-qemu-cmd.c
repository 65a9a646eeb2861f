// SPDX-License-Identifier: GPL-2.0
/* The QEMU command line carries every property the measurements rely on. */
#include "../../bench/host/machine/vm.h"
#include "../tap.h"

static const char *arg_after(char **argv, const char *flag)
{
	for (int i = 0; argv[i]; i++)
		if (!strcmp(argv[i], flag))
			return argv[i + 1];
	return NULL;
}

/* The first argument containing @needle, or NULL. */
static const char *arg_with(char **argv, const char *needle)
{
	for (int i = 0; argv[i]; i++)
		if (strstr(argv[i], needle))
			return argv[i];
	return NULL;
}

static int count(char **argv, const char *flag)
{
	int n = 0;

	for (int i = 0; argv[i]; i++)
		n += !strcmp(argv[i], flag);
	return n;
}

int main(void)
{
	struct vm_spec s = {
		.kernel = "/k/bzImage", .initrd = "/k/initrd", .image = "/i/root.ext4",
		.share = "/r/share", .console = "/r/console.log", .qmp = "/tmp/q.sock",
		.append = "trace_event=sched:sched_switch", .accel = ACCEL_TCG,
		.timeout_s = 60,
	};
	char *argv[64], buf[8192];
	const char *a;
	int argc;

	tap_plan_start();
	argc = qemu_cmd_build(&s, argv, 64, buf, sizeof(buf));
	tap_ok(argc > 0 && argv[argc] == NULL, "command line builds, NULL-terminated");
	check_str(argv[0], "qemu-system-x86_64", "default binary");
	check_str(arg_after(argv, "-machine"), "q35", "q35 machine");
	check_str(arg_after(argv, "-smp"), "4,sockets=1,cores=2,threads=2",
		  "2 cores x 2 threads");
	check_str(arg_after(argv, "-accel"), "tcg,thread=multi", "multi-threaded TCG");
	check_str(arg_after(argv, "-cpu"), "Skylake-Client",
		  "Intel-vendor CPU model (AMD/default models hide siblings)");
	a = arg_after(argv, "-drive");
	tap_ok(a && strstr(a, "file=/i/root.ext4") && strstr(a, "snapshot=on"),
	       "image attached with snapshot=on");
	a = arg_after(argv, "-virtfs");
	tap_ok(a && strstr(a, "path=/r/share") && strstr(a, "mount_tag=csbench"),
	       "9p share with the tag csbench-init mounts");
	a = arg_after(argv, "-append");
	tap_ok(a && strstr(a, "console=ttyS0") && strstr(a, "panic=-1") &&
	       strstr(a, "rdinit=/init") && strstr(a, "trace_event=sched:sched_switch"),
	       "kernel command line has console, panic, init and the extra args");
	tap_ok(a && !strstr(a, "csbench.probe"), "no probe flag on a normal boot");
	tap_ok(a && strstr(a, "loglevel=5"),
	       "console keeps KERN_WARNING (WARN and lockdep reports print there)");
	check_int(count(argv, "-no-reboot"), ==, 1, "-no-reboot turns a panic into an exit");
	check_int(count(argv, "-S"), ==, 1, "starts paused so vCPUs are pinned first");
	a = arg_after(argv, "-chardev");
	tap_ok(a && strstr(a, "path=/r/console.log"), "console goes to a file");

	s.accel = ACCEL_KVM;
	s.probe = 1;
	s.append = NULL;
	argc = qemu_cmd_build(&s, argv, 64, buf, sizeof(buf));
	check_str(arg_after(argv, "-accel"), "kvm", "kvm accelerator");
	check_str(arg_after(argv, "-smp"), "1", "probe boots one vCPU");
	check_int(count(argv, "-drive") + count(argv, "-virtfs"), ==, 0,
		  "probe needs no disk and no share");
	a = arg_after(argv, "-append");
	tap_ok(a && strstr(a, "csbench.probe"), "probe flag on the command line");

	/* The replay a person pastes: running at once, console on the terminal. */
	s.accel = ACCEL_TCG;
	s.probe = 0;
	s.qmp = NULL;
	s.console = NULL;
	argc = qemu_cmd_build(&s, argv, 64, buf, sizeof(buf));
	check_int(count(argv, "-S") + count(argv, "-qmp"), ==, 0,
		  "without QMP: no paused start, no socket");
	check_str(arg_after(argv, "-serial"), "mon:stdio", "without a console file: the terminal");
	s.qmp = "/tmp/q.sock";
	s.console = "/r/console.log";

	/* A cloud image: its own root and systemd, the seed, the package share. */
	s.image = "/u/debian-12-genericcloud-amd64.qcow2";
	s.image_format = "qcow2";
	s.cloud_seed = "/c/seed.iso";
	s.cloud_debs = "/c/debs";
	argc = qemu_cmd_build(&s, argv, 64, buf, sizeof(buf));
	check_int(count(argv, "-initrd"), ==, 0, "cloud image: no initramfs");
	a = arg_after(argv, "-append");
	tap_ok(a && strstr(a, " root=" VM_CLOUD_ROOT) && strstr(a, " rw "),
	       "cloud image: root on its partition 1, read-write");
	tap_ok(a && strstr(a, "systemd.mask=systemd-networkd-wait-online.service") &&
	       strstr(a, "network-config=disabled"),
	       "cloud image: no wait for a network that is not there");
	tap_ok(a && strstr(a, "systemd.mask=systemd-resolved.service"),
	       "cloud image: no name resolution to restart forever");
	check_int(count(argv, "-drive"), ==, 2, "cloud image: the image and the seed");
	a = arg_with(argv, "file=/u/debian-12-genericcloud-amd64.qcow2");
	tap_ok(a && strstr(a, "format=qcow2,snapshot=on"),
	       "cloud image opened as qcow2 with snapshot=on: the user's file is never written");
	a = arg_with(argv, "file=/c/seed.iso");
	tap_ok(a && strstr(a, "readonly=on"), "seed attached read-only");
	a = arg_with(argv, "mount_tag=csbench-debs");
	tap_ok(a && strstr(a, "path=/c/debs") && strstr(a, "readonly=on"),
	       "offline packages shared read-only");
	s.cloud_root = "/dev/vda3";
	qemu_cmd_build(&s, argv, 64, buf, sizeof(buf));
	tap_ok(strstr(arg_after(argv, "-append"), " root=/dev/vda3") != NULL, "--cloud-root taken");
	s.probe = 1;
	qemu_cmd_build(&s, argv, 64, buf, sizeof(buf));
	tap_ok(arg_after(argv, "-initrd") && !strstr(arg_after(argv, "-append"), "root="),
	       "the probe still boots the initramfs");
	s.probe = 0;
	s.cloud_seed = s.cloud_debs = s.cloud_root = NULL;
	s.image_format = NULL;
	s.image = "/i/root.ext4";

	check_int(qemu_cmd_build(&s, argv, 64, buf, 100), ==, -1,
		  "too small a buffer is reported, not overrun");
	check_int(qemu_cmd_build(&s, argv, 5, buf, sizeof(buf)), ==, -1,
		  "too few argv slots is reported, not overrun");
	return tap_finish();
}
