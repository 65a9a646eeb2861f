/* SPDX-License-Identifier: GPL-2.0 */
#ifndef CSBENCH_PATHS_H
#define CSBENCH_PATHS_H

#include <stddef.h>

/*
 * snprintf() for a string that must fit whole, such as a path made of a
 * directory the user gave and a name of ours: a cut path would name
 * another file, so truncation ends csbench with a message (as git's
 * xsnprintf() does). Returns the length written.
 */
int xsnprintf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
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
/*
 * The "key=value" lines of @path (a kernel build's info, a boot's
 * guest.info) as a JSON object of strings; lines without '=' are skipped,
 * and an unreadable file gives an empty object. New reference.
 */
struct json_t *json_from_info(const char *path);
/*
 * Where and why jansson could not load @path, once: "PATH:LINE: what" for
 * a parse error, jansson's own text (which names the file) when the file
 * could not be opened or read. Returns @buf.
 */
struct json_error_t;
const char *json_error_where(char *buf, size_t len, const char *path,
			     const struct json_error_t *e);
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
