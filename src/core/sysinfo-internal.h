/*
 * What sysinfo.c and sysinfo-fs.c share: paths under the root a capture
 * reads (the live system, or a fixture tree), the small text helpers, and
 * the filesystem, block device and I/O scheduler under a directory.
 */
#ifndef CONTEND_CORE_SYSINFO_INTERNAL_H
#define CONTEND_CORE_SYSINFO_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

/* "" or NULL: the live system */
bool si_is_live(const char *root);
/* root + rel into buf; -ENAMETOOLONG */
int si_root_path(char *buf, size_t len, const char *root, const char *rel);
/* Copies with truncation; dst always terminated. */
void si_copy(char *dst, size_t len, const char *src);
/* s without leading and trailing blanks (in place) */
char *si_trim(char *s);
/* root + rel read into buf; its length or -errno */
ssize_t si_read_optional(const char *root, const char *rel, char *buf, size_t len);
/* root + rel opened for reading; NULL with *rc and one line in err */
FILE *si_open_required(const char *root, const char *rel, char *err, size_t errlen, int *rc);
/* The entry of a choice list the kernel marks as active: "[bfq]" in a
 * scheduler file, "(full)" in debugfs' preempt file. */
bool si_bracketed(const char *s, char open, char close, char *out, size_t len);

/* sysinfo-fs.c: the filesystem under a directory, its source and block
 * device (from the mount table and sysfs), and a disk's active scheduler. */
struct si_fsloc {
	char fs_type[32];
	char fs_source[256];
	char block_dev[64];
};
int si_resolve_fs(const char *root, const char *dir, struct si_fsloc *loc, char *err, size_t len);
void si_read_iosched(const char *root, const char *disk, char *out, size_t len);

#endif
