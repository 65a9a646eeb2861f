/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CSBENCH_PATHS_H
#define CSBENCH_PATHS_H

#include <stddef.h>

/* $CSBENCH_CACHE, else $XDG_CACHE_HOME/csbench, else ~/.cache/csbench. */
void cache_dir(char *buf, size_t len);
/* mkdir -p */
int mkdirs(const char *path, int mode);
/* Write @len bytes to @path through a temporary file and rename(). */
int write_atomic(const char *path, const void *data, size_t len);
struct json_t;
/*
 * json_dumps(@o, @flags) written as write_atomic() does. 0, -ENOMEM, or
 * the negative errno of the write.
 */
int json_write_atomic(const char *path, const struct json_t *o, size_t flags);
/* Would execvp() find @prog (a name looked up in $PATH, or a path)? */
int have_program(const char *prog);
/* Copy a file, keeping its mode bits. */
int copy_file(const char *src, const char *dst);
/*
 * 1, with the reason printed against option @opt, when @path is not a
 * readable @type (S_IFREG or S_IFDIR); 0 when it is. For a command's
 * input files, checked before anything is created or booted.
 */
int input_missing(const char *opt, const char *path, unsigned int type);

#endif
