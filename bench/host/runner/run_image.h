/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Which image a run's guests booted, and the evidence that they did: the
 * manifest's "image" object (kind "built" or "cloud", path, format,
 * sha256 of a cloud image before and after the run, the seed and package
 * repository), each boot's own account (guest.info and cloud-init's result
 * on its share) appended to image.boots, and csbench verify's check that
 * every boot ran on the kind of image the manifest names.
 */
#ifndef CSBENCH_RUN_IMAGE_H
#define CSBENCH_RUN_IMAGE_H

#include <jansson.h>
#include <stdio.h>

#include "run_args.h"

/* The manifest's "image" object for the settled @a (new reference). */
json_t *run_image_manifest(const struct run_args *a);

/*
 * Boot @boot's account of its image, from @boot_dir/share: into the
 * boot's boot.info and the manifest of the run in @run_dir.
 */
void run_image_record_boot(const char *run_dir, int boot, const char *boot_dir);

/*
 * After the run: a cloud image's checksum again, which must not have
 * changed (it is opened with snapshot=on); recorded as sha256_after.
 * Returns 0, or -1 (said on stderr) when the file changed.
 */
int run_image_check_after(const char *run_dir, const struct run_args *a);

/*
 * csbench verify: every boot recorded in @run_dir's manifest ran on the
 * kind of image the manifest names, and a cloud image's provisioning and
 * cloud-init succeeded. Problems are printed to @out; returns their number.
 */
int run_image_verify(const char *run_dir, FILE *out);

#endif
