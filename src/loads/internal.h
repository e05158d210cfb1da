/*
 * Helpers shared by the load files and nothing else: compact sizes for
 * l->params, the sizing and writer of the RAM-sized file (io, io_other,
 * read), and running tar (ctar, xtar). Kept out of the public headers
 * because no other subsystem has a use for them.
 */
#ifndef CONTEND_LOADS_INTERNAL_H
#define CONTEND_LOADS_INTERNAL_H

#include "contend/load.h"

#include <limits.h>
#include <math.h>
#include <sys/types.h>

/* load.c */

/* "1.0GiB": ct_fmt_size without the space, so params stay key=value words. */
const char *ct_load_size_str(uint64_t bytes, char *buf, size_t len);
/* Appends " fmt" (or "fmt" when params is empty) to l->params. */
void ct_load_param(struct ct_load *l, const char *fmt, ...) CT_PRINTF(2, 3);
/* write()/pwrite() loops over short writes and EINTR; 0 or -errno. */
int ct_load_pwrite_full(int fd, const void *buf, size_t len, off_t off) CT_WUR;

/* cmd.c: the loads --load-cmd defines, listed after the built-in ones */

size_t ct_load_cmd_count(void);
const struct ct_load_ops *ct_load_cmd_at(size_t i);

/* io.c: the load file of io, io_other and read */

/* Options more than one load declares: one option on the command line,
 * listed under every load that takes it. */
#define CT_LOAD_FILE_SIZE_OPTION                                                                  \
	CT_ENV_OPTION(CT_OPTION_SIZE, "file-size", file_size, "SIZE",                             \
		      "io/read file size (default: RAM, capped by free space;\n%R)", 0, INFINITY, \
		      CT_OPTION_MIN_OPEN)
#define CT_LOAD_TAR_TREE_OPTION                                                           \
	CT_ENV_OPTION(CT_OPTION_STRING, "tar-tree", tree_dir, "DIR",                      \
		      "tree ctar and xtar archive (default: generate one the\nsize of a " \
		      "kernel tree)",                                                     \
		      0, 0, 0)

#define CT_IO_BLOCK	(1u << 20)
#define CT_IO_MIN_SIZE	(64ull << 20)
#define CT_IO_READY_MAX (2ull << 30)

struct ct_io_file {
	char path[PATH_MAX];
	uint64_t size;
};

/* prepare for io, io_other and read: sizes file "name" in dir (env->file_size,
 * or RAM - quick profile: min(RAM/8, 1 GiB) - capped at half the free space;
 * -ENOSPC when a set size does not fit or the capped size is under
 * CT_IO_MIN_SIZE), writes it in full and flushes it, untimed, and sets
 * l->priv to a struct ct_io_file, l->size and l->params. */
int ct_io_prepare_in(struct ct_load *l, const char *dir, const char *name, char *err,
		     size_t len) CT_WUR;
/* check for io, io_other and read: the file size ct_io_prepare_in() would
 * take in dir fits (-ENOSPC), nothing made. */
int ct_io_check_in(const struct ct_env *env, const char *load, const char *dir, char *err,
		   size_t len) CT_WUR;
/* The writer of io and io_other: reads its file into the page cache from
 * its end to its start (so every run meets the same cache, whatever ran
 * before), then rewrites it from offset 0 in 1 MiB blocks, forever. */
int ct_io_work(struct ct_load *l, unsigned i);
/* For io and io_other, after ct_io_prepare_in(): the foreground starts once
 * the writer has written an eighth of its file (at most CT_IO_READY_MAX)
 * after reading it into the cache, a head start in bytes on top of the
 * delay, which runs from its first write. */
void ct_io_ready_after_warm(struct ct_load *l);
/* Removes the file (unless keep_files) and frees l->priv. */
void ct_io_cleanup(struct ct_load *l);

/* ctar.c: tar for ctar and xtar */

/* 0 when tar is in PATH and --tar-tree (env->tree_dir), when set, is a
 * directory; else -ENOTSUP or -errno with the reason. */
int ct_tar_supported(const struct ct_env *env, const char *load, char *why, size_t len);
/* Resolves the tree to archive: env->tree_dir, or a kernel-sized tree
 * generated with ct_tartree_generate() in l->dir/tree, sized by the profile
 * and the free space there (*generated set). *bytes is its size. */
int ct_tar_tree(struct ct_load *l, char *tree, size_t tlen, bool *generated, unsigned *nfiles,
		uint64_t *bytes, char *err, size_t len) CT_WUR;
/* Runs argv (argv[0] is "tar") with stdin/stdout on /dev/null and stderr
 * in log, and waits; with l, the bytes tar writes count as l's work as it
 * goes. 0, or -EIO with tar's status and first error line. */
int ct_tar_run(const char *load, char *const argv[], const char *log, struct ct_load *l, char *err,
	       size_t len) CT_WUR;

#endif
