/*
 * The tree the tar loads (ctar, xtar) archive and extract: as many files
 * and bytes as a kernel source tree, of source-like text, laid out in
 * directories as deep and as full as the kernel's. Deterministic: the same
 * size gives the byte-identical tree on every machine.
 */
#ifndef CONTEND_TARTREE_H
#define CONTEND_TARTREE_H

#include "contend/common.h"

/* The full profile's tree, near Linux 6.1's: 78,579 files holding 1.30 GB
 * in 5,096 directories (the tar listing of Debian's linux-source-6.1). */
#define CT_TARTREE_FILES (70u * 1000u)
#define CT_TARTREE_BYTES (1ull << 30)
/* The quick profile takes a sixteenth of it. */
#define CT_TARTREE_QUICK_DIV 16
/* The tree never takes more than a tenth of the free space. */
#define CT_TARTREE_FREE_DIV 10
/* Below these a tree says nothing about a kernel tree: refused. */
#define CT_TARTREE_MIN_FILES 100
#define CT_TARTREE_MIN_BYTES (1ull << 20)

/* The files and bytes of the tree for a profile on a filesystem with
 * avail bytes free: the profile's size, both scaled down together to a
 * tenth of avail. -ENOSPC when that leaves less than the minimum. */
int ct_tartree_size(bool quick, uint64_t avail, unsigned *files, uint64_t *bytes) CT_WUR;

/* Writes a tree of files files and bytes bytes (exactly) into dir, which
 * is created, and flushes it to disk. 0, -EINVAL (fewer bytes than files,
 * or zero files), or -errno with err saying which file. */
int ct_tartree_generate(const char *dir, unsigned files, uint64_t bytes, char *err,
			size_t len) CT_WUR;

#endif
