/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A cloud image given with csbench run --cloud-image: a disk image the
 * user already has (Debian's genericcloud qcow2, or the stand-in make
 * cloud-image builds). csbench reads its format and checksum here, before
 * and after the run: the image is only ever opened with snapshot=on, and
 * the checksum after the run proves it.
 */
#ifndef CSBENCH_CLOUD_IMAGE_H
#define CSBENCH_CLOUD_IMAGE_H

#include <stddef.h>

struct cloud_image {
	const char *path;
	char format[8];		/* "qcow2" or "raw", from the file's first bytes */
	char sha256[65];	/* hex */
};

/*
 * Fill @ci for the image at @path: its format and sha256. Returns 0, or
 * -1 with the cause in @err (not a file, unreadable, not a disk image).
 */
int cloud_image_inspect(const char *path, struct cloud_image *ci, char *err, size_t len);

/* sha256 of the file at @path into @hex (65 bytes); 0 or -1 with @err. */
int file_sha256(const char *path, char *hex, char *err, size_t len);

#endif
