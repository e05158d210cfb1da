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

/* What an option of `contend run` applies to. A workload's and each
 * load's ops say which scopes they take; an option with a scope that
 * neither the workload nor a chosen load takes is refused. */
enum ct_opt_scope {
	CT_SCOPE_TREE = 1 << 0,	     /* --tree, --make-args */
	CT_SCOPE_SCALE = 1 << 1,     /* --scale */
	CT_SCOPE_SELFTEST = 1 << 2,  /* --selftest-mode */
	CT_SCOPE_OLTP = 1 << 3,	     /* the engine's options */
	CT_SCOPE_FILE = 1 << 4,	     /* --file-size */
	CT_SCOPE_MEM = 1 << 5,	     /* --mem-size */
	CT_SCOPE_PROCS = 1 << 6,     /* --procs */
	CT_SCOPE_DBENCH = 1 << 7,    /* --dbench-procs */
	CT_SCOPE_OTHER_DIR = 1 << 8, /* --other-dir */
	CT_SCOPE_LIST_DIR = 1 << 9,  /* --list-dir */
	CT_SCOPE_TAR_TREE = 1 << 10, /* --tar-tree */
	CT_SCOPE_CMD = 1 << 11,	     /* --prepare, --cleanup, --shell */
	CT_SCOPE_LATENCY = 1 << 12,  /* --task, --cpu, --period */
};

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

	/* user-set sizes; 0 = derive */
	uint64_t file_size;    /* io, io_other, read */
	uint64_t mem_size;     /* mem */
	unsigned procs;	       /* process ring size */
	unsigned dbench_procs; /* dbench clients */
	double scale;	       /* kbuild tree scale (1.0 default) */
	int64_t null_tick_ns;  /* null load tick (tests) */
	/* oltp workload and load options; NULL = all derived */
	const struct ct_oltp_opts *oltp;
};

#endif
