/*
 * What the store's files share: the backends' ops tables, the columns of
 * the schema (cols.c), and the readers of the text that stores of schema 3
 * to 5 kept, for their migration.
 */
#ifndef CONTEND_STORE_INTERNAL_H
#define CONTEND_STORE_INTERNAL_H

#include "contend/store.h"

extern const struct ct_store_ops ct_store_sqlite;
extern const struct ct_store_ops ct_store_pg;

/*
 * Columns as data (fio's options are the model): one table per struct says
 * which member lands in which column, and the INSERT and SELECT texts are
 * built from it, so a field cannot be written but not read back.
 */
enum col_type { COL_I64, COL_U64, COL_INT, COL_UINT, COL_BOOL, COL_DOUBLE, COL_TEXT, COL_STATUS };

struct col {
	const char *name;
	enum col_type type;
	size_t off;
	size_t size; /* COL_TEXT: the array's size */
};

/* Metrics as schema 3 wrote them, "name=value name=value"; "" is none.
 * -EPROTO for a word that is not name=number. */
int ct_store_metrics_parse_v3(const char *text, struct ct_run *r) CT_WUR;
/* A series as schema 3 wrote it, numbers separated by spaces. *out
 * malloc'd (NULL when empty). */
int ct_store_series_parse_v3(const char *text, double **out, size_t *n) CT_WUR;

extern const struct col ct_store_run_cols[]; /* struct ct_run */
extern const size_t ct_store_nrun_cols;
extern const struct col ct_store_config_cols[]; /* struct ct_sysinfo, but its sysctls */
extern const size_t ct_store_nconfig_cols;

/* The columns that hold command lines, whose passwords schema 11 hid. */
struct secret_col {
	const char *table, *col;
};
extern const struct secret_col ct_store_secret_cols[4];

/* "<prefix>name<sep><prefix>name..." of cols, malloc'd (NULL: no memory). */
char *ct_store_join_cols(const struct col *cols, size_t n, const char *prefix, const char *sep);
/* A config's sysctls as "name=value\n" lines, malloc'd, and back. */
char *ct_store_sysctl_text(const struct ct_sysinfo *si);
void ct_store_sysctl_parse(const char *text, struct ct_sysinfo *si);

#endif
