/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Loading a JSON file that may not be what its name says. A FIFO named
 * cells/x.json once hung report, verify and show forever in
 * json_load_file()'s open(); a directory or a device is no better.
 */
#ifndef CSBENCH_JSON_FILE_H
#define CSBENCH_JSON_FILE_H

#include <jansson.h>

/*
 * json_load_file(@path, 0, @err) for regular files only: the file is
 * opened without blocking and refused, with "not a regular file (a
 * FIFO)" or the like in @err->text, unless fstat() says it is one.
 * @err may be NULL.
 */
json_t *json_load_regular(const char *path, json_error_t *err);

#endif
