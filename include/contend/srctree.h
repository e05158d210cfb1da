/*
 * The generated source tree: a deterministic synthetic C tree with a
 * Makefile, built by the kbuild workload and archived by the ctar and xtar
 * loads. Lives in core so both layers can use it without knowing each
 * other.
 */
#ifndef CONTEND_SRCTREE_H
#define CONTEND_SRCTREE_H

#include "contend/common.h"

/* Source files at scale 1.0: about 15 s of "make -j8" on a 2-core machine
 * of 2025, so a run is long enough to feel a load and short enough to repeat. */
#define CT_SRCTREE_FILES_PER_SCALE 160
/* The binary the tree's Makefile links; "make clean" removes it. */
#define CT_SRCTREE_BIN "vmcontend"

/* Writes the tree into dir (created as needed): about scale x 160 source
 * files, at least two. Returns the number of source files via *nfiles
 * (may be NULL). -EINVAL for a scale that is negative, not finite or over
 * 100,000 files; -errno when a file cannot be written. */
int ct_srctree_generate(const char *dir, double scale, unsigned *nfiles, char *err,
			size_t len) CT_WUR;
/* The source files ct_srctree_generate() would write at scale, without
 * writing them (a dry run's parameters); -EINVAL as it gives it. */
int ct_srctree_files(double scale, unsigned *nfiles, char *err, size_t len) CT_WUR;

#endif
