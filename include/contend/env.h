/*
 * What a workload or load needs to know about the machine and the session:
 * CPU count, memory, the work directory, the profile and any sizes the user
 * set. Filled once by the session before anything is prepared; read-only
 * afterwards. Sizes of 0 mean "derive from the machine".
 */
#ifndef CONTEND_ENV_H
#define CONTEND_ENV_H

#include "contend/common.h"
#include <limits.h>

struct ct_oltp_opts;
struct ct_journal;

struct ct_env {
	unsigned ncpus;
	uint64_t ram_bytes;
	uint64_t swap_bytes;
	uint64_t mem_available; /* MemAvailable at session start */

	char dir[PATH_MAX];    /* session work directory (exists) */
	const char *other_dir; /* io_other target directory, or NULL */
	const char *list_dir;  /* list load root (default /usr) */
	const char *tree_dir;  /* --tar-tree: the tree ctar/xtar use, NULL: generate */
	bool quick;	       /* quick profile: scaled-down sizes */
	bool keep_files;       /* leave load files behind */
	/* the report's file (-o FILE), NULL: none; a workload keeps its own
	 * log beside it, as FILE.NAME.log (pgbench: the server's) */
	const char *report_file;

	/* user-set sizes; 0 = derive */
	uint64_t file_size;    /* io, io_other, read */
	uint64_t mem_size;     /* mem */
	unsigned procs;	       /* process ring size */
	unsigned dbench_procs; /* dbench clients */
	double scale;	       /* kbuild tree scale (1.0 default) */
	int64_t null_tick_ns;  /* null load tick (tests) */
	/* oltp workload and load options; NULL = all derived */
	const struct ct_oltp_opts *oltp;
	/* the machine's journal, where a workload records the cgroup of the
	 * processes it leaves running between runs (a server); NULL: none */
	struct ct_journal *journal;
};

#endif
