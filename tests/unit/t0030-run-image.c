// SPDX-License-Identifier: GPL-2.0
/*
 * The cloud image's record: its format and checksum read from the file,
 * each boot's own account taken into the manifest, and csbench verify's
 * verdict on constructed runs whose answers are known (a boot that ran
 * the job from the wrong place, cloud-init errors, a changed file).
 */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../bench/host/machine/cloud_image.h"
#include "../../bench/host/runner/run_image.h"
#include "../../bench/lib/paths.h"
#include "../tap.h"

static char dir[] = "/tmp/csbench-t0030-XXXXXX";

static void put(const char *name, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	write_atomic(path, text, strlen(text));
}

static const char *at(const char *name)
{
	static char path[512];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return path;
}

static void cloud_manifest(const char *after)
{
	char text[512];

	snprintf(text, sizeof(text), "{\"image\": {\"kind\": \"cloud\", \"format\": \"qcow2\","
		 " \"sha256\": \"aa\"%s%s%s, \"boots\": []}}", after ? ", \"sha256_after\": \"" : "",
		 after ?: "", after ? "\"" : "");
	put("manifest.json", text);
}

/* Boot 1's share as a guest leaves it; @result is cloud-init's result.json. */
static void boot_share(const char *runner, const char *pid1, const char *result)
{
	char text[512];

	snprintf(text, sizeof(text), "runner=%s\npid1=%s\nroot=/dev/vda1\nos=Debian GNU/Linux 12\n"
		 "cloud_init=yes\nprovisioned=sysbench=1.0.20 in 31s\n", runner, pid1);
	put("boots/1/share/guest.info", text);
	put("boots/1/share/cloud-init-status.txt", "\nstatus: done\ntime: Fri\n");
	if (result)
		put("boots/1/share/cloud-init-result.json", result);
	else
		unlink(at("boots/1/share/cloud-init-result.json"));
}

static int verify(void)
{
	FILE *out = fopen("/dev/null", "w");
	int n = run_image_verify(dir, out);

	fclose(out);
	return n;
}

static const char clean[] = "{\"v1\": {\"datasource\": \"DataSourceNoCloud\", \"errors\": []}}";

int main(void)
{
	static const unsigned char qcow2[] = { 'Q', 'F', 'I', 0xfb, 0, 0, 0, 3 };
	unsigned char sector[512] = { 0 };
	struct cloud_image ci;
	char err[512];

	tap_plan_start();
	if (!mkdtemp(dir))
		return 1;
	mkdirs(at("boots/1/share"), 0755);

	write_atomic(at("img.qcow2"), (const char *)qcow2, sizeof(qcow2));
	check_int(cloud_image_inspect(at("img.qcow2"), &ci, err, sizeof(err)), ==, 0,
		  "a qcow2 header is read");
	check_str(ci.format, "qcow2", "as qcow2");
	/* sha256 of the 8 bytes above, from sha256sum. */
	check_str(ci.sha256, "3afc8409bb5bef7e6e18de350e88046f5bd9190b012e133c756f8af783b62d6a",
		  "and its sha256");
	sector[510] = 0x55;
	sector[511] = 0xaa;
	write_atomic(at("disk.raw"), (const char *)sector, sizeof(sector));
	check_int(cloud_image_inspect(at("disk.raw"), &ci, err, sizeof(err)), ==, 0,
		  "a partitioned raw disk is read");
	check_str(ci.format, "raw", "as raw");
	sector[511] = 0;
	write_atomic(at("junk.img"), (const char *)sector, sizeof(sector));
	check_int(cloud_image_inspect(at("junk.img"), &ci, err, sizeof(err)), ==, -1,
		  "a file that is no disk image is refused");
	tap_ok(strstr(err, "junk.img") && strstr(err, "neither a qcow2"), "naming the file: %s", err);
	check_int(cloud_image_inspect(dir, &ci, err, sizeof(err)), ==, -1, "a directory is refused");

	put("manifest.json", "{\"image\": {\"kind\": \"built\", \"path\": \"/c/rootfs.ext4\"}}");
	boot_share("init", "csbench-init", NULL);
	run_image_record_boot(dir, 1, at("boots/1"));
	check_int(verify(), ==, 0, "the built image: nothing to check");

	cloud_manifest("aa");
	boot_share("service", "systemd", clean);
	run_image_record_boot(dir, 1, at("boots/1"));
	check_int(verify(), ==, 0, "a clean cloud boot passes");
	cloud_manifest(NULL);
	check_int(verify(), ==, 1, "a cloud run with no boot on record fails");

	cloud_manifest("aa");
	boot_share("init", "csbench-init", clean);
	run_image_record_boot(dir, 1, at("boots/1"));
	check_int(verify(), ==, 1, "a job run by csbench-init as PID 1 fails");

	cloud_manifest("aa");
	boot_share("service", "systemd",
		   "{\"v1\": {\"errors\": [\"('scripts_user', RuntimeError())\"]}}");
	run_image_record_boot(dir, 1, at("boots/1"));
	check_int(verify(), ==, 1, "cloud-init errors fail");

	cloud_manifest("aa");
	boot_share("service", "systemd", NULL);
	run_image_record_boot(dir, 1, at("boots/1"));
	check_int(verify(), ==, 1, "no result.json from cloud-init fails");

	cloud_manifest("bb");
	boot_share("service", "systemd", clean);
	run_image_record_boot(dir, 1, at("boots/1"));
	check_int(verify(), ==, 1, "an image file changed during the run fails");

	snprintf(err, sizeof(err), "rm -rf '%s'", dir);
	if (system(err))
		tap_diag("cannot remove %s", dir);
	return tap_finish();
}
