/*
 * What the store's files share. A backend (sqlite.c, pg.c) is a driver: a
 * connection and a cursor over it, plus what truly differs between
 * databases (opening, checking and migrating a store, its errors). The
 * entity operations (query.c) are written once over that cursor, in SQL
 * written once; the columns of the schema are data (cols.c).
 */
#ifndef CONTEND_STORE_INTERNAL_H
#define CONTEND_STORE_INTERNAL_H

#include "contend/store.h"

#include <stddef.h>

/* The schema version both backends are at in this contend: a new
 * migration appends to each backend's list and moves this. */
#define CT_STORE_SCHEMA 16

/* A connection; a driver's own struct embeds it as its first member. */
struct db {
	const struct db_ops *ops;
	struct ct_store *store; /* readonly and reconnects, which the driver sets */
	char *name;		/* the store in messages: a path, a target without password */
};

/* A statement of a driver, prepared once and run many times. */
struct db_stmt;

/*
 * A driver. Statements take SQL with ?1, ?2... placeholders (pg.c writes
 * them as $1, $2...). A bind never fails by itself: a value that cannot be
 * bound makes the next step fail. step() runs the statement or moves to
 * its next row: 1 with a row, 0 when done, or -errno with "cannot <what>
 * in results store '<name>': <why>" in err. Columns count from 0; a NULL
 * reads as 0 or "". reset() unbinds and ends the statement's run.
 */
struct db_ops {
	const char *name;
	bool (*accepts)(const char *target);
	/* connects, refuses what is no contend store of a schema it knows,
	 * migrates an older one; sets store->readonly */
	int (*open)(struct db **out, struct ct_store *store, const char *target, unsigned flags,
		    char *err, size_t len);
	void (*close)(struct db *db);
	/* why a store opened read-only cannot be written, for messages */
	const char *readonly_why;
	/* a write transaction; commit rolls back when it fails */
	int (*begin)(struct db *db, const char *what, char *err, size_t len);
	int (*commit)(struct db *db, const char *what, char *err, size_t len);
	void (*rollback)(struct db *db);
	int (*prepare)(struct db *db, const char *sql, struct db_stmt **out, char *err, size_t len);
	void (*finalize)(struct db_stmt *st);
	void (*bind_i64)(struct db_stmt *st, int i, int64_t v);
	void (*bind_double)(struct db_stmt *st, int i, double v);
	/* at most size bytes of t; NULL is SQL NULL */
	void (*bind_text)(struct db_stmt *st, int i, const char *t, size_t size);
	int (*step)(struct db_stmt *st, const char *what, char *err, size_t len);
	void (*reset)(struct db_stmt *st);
	int64_t (*col_i64)(struct db_stmt *st, int i);
	double (*col_double)(struct db_stmt *st, int i);
	const char *(*col_text)(struct db_stmt *st, int i);
	/* its stores may hold the knob journal of SQLite's schemas 4 to 6 */
	bool knob_journal;
};

/* A driver's ops from the prefix of its functions (sq_open, pg_open...),
 * so none can be left out; the name and the rest after it. */
#define CT_STORE_DRIVER(p, ...)                                                                   \
	{                                                                                         \
		.accepts = p##_accepts, .open = p##_open, .close = p##_close, .begin = p##_begin, \
		.commit = p##_commit, .rollback = p##_rollback, .prepare = p##_prepare,           \
		.finalize = p##_finalize, .bind_i64 = p##_bind_i64,                               \
		.bind_double = p##_bind_double, .bind_text = p##_bind_text, .step = p##_step,     \
		.reset = p##_reset, .col_i64 = p##_col_i64, .col_double = p##_col_double,         \
		.col_text = p##_col_text, __VA_ARGS__                                             \
	}

extern const struct db_ops ct_store_sqlite;
extern const struct db_ops ct_store_pg;

/* Statements query.c caches: one per kind, and one per filter of runs. */
enum {
	Q_CONFIG_FIND,
	Q_CONFIG_PUT,
	Q_CONFIG_GET,
	Q_SESSION_PUT,
	Q_SESSION_GROUP,
	Q_SESSION_END,
	Q_SESSION_FIND,
	Q_SESSION_COUNTS,
	Q_RUN_PUT,
	Q_RUN_SERIES,
	Q_RUN_HISTS,
	Q_RUN_COUNTERS,
	Q_LATEST,
	Q_CALIB_PUT,
	Q_CALIB_GET,
	Q_REF_PUT,
	Q_REFS,
	Q__COUNT
};
#define CT_STORE_RUN_FILTERS 128

/* An open store: what contend sees (first), its driver's connection, the
 * statements prepared on it, the depth of ct_store_begin(). */
struct store {
	struct ct_store pub;
	struct db *db;
	struct db_stmt *st[Q__COUNT];
	struct db_stmt *runs_st[CT_STORE_RUN_FILTERS];
	unsigned txn;
};

/* query.c's entry points that store.c wraps: a session inserted as it is
 * (the first of a group becomes the group), a run's histograms as stored
 * (malloc'd JSON text, "" when none), the statements' release. */
int ct_store_session_insert(struct ct_store *pub, struct ct_session_rec *rec, char *err,
			    size_t len) CT_WUR;
int ct_store_run_hists_text(struct ct_store *pub, int64_t run_id, char **out, char *err,
			    size_t len) CT_WUR;
void ct_store_stmts_free(struct store *s);
/* A driver's struct db and its name, what the driver held released. */
void ct_store_db_free(struct db *db);
/* -EINVAL: "results store NAME has schema version V, this contend knows up to N" */
int ct_store_newer_err(struct db *db, int64_t version, char *err, size_t len);

/* query.c's cursor, for runs.c: a statement cached by its id (built from
 * the SQL text or the columns on its first use) or prepared for one use;
 * columns bound from and read into a struct (read: 0, or 1 + the column
 * of a value no member can hold); a string bound (NULL: SQL NULL) or read
 * into buf; one row (1, read it and reset; 0 none; -errno), the id it
 * gives, every row into a malloc'd array of elem-sized elements; a write
 * in its own transaction or the caller's (ct_store_begin). */
#define DB(s) ((s)->db->ops)
struct col;
int ct_store_stmt(struct store *s, int id, struct db_stmt **out, char *err, size_t len) CT_WUR;
int ct_store_prepare(struct store *s, const char *sql, struct db_stmt **out, char *err,
		     size_t len) CT_WUR;
void ct_store_bind_cols(struct store *s, struct db_stmt *st, int first, const struct col *cols,
			size_t n, const void *base);
int ct_store_read_cols(struct store *s, struct db_stmt *st, int first, const struct col *cols,
		       size_t n, void *base);
void ct_store_bind_str(struct store *s, struct db_stmt *st, int i, const char *t);
void ct_store_text(struct store *s, struct db_stmt *st, int i, char *buf, size_t size);
int ct_store_step_one(struct store *s, struct db_stmt *st, const char *what, char *err,
		      size_t len) CT_WUR;
int ct_store_one_id(struct store *s, struct db_stmt *st, const char *what, int64_t *id, char *err,
		    size_t len) CT_WUR;
int ct_store_read_rows(struct store *s, struct db_stmt *st, const char *what, size_t elem,
		       int (*read)(struct store *s, struct db_stmt *st, void *row, char *err,
				   size_t len),
		       void **out, size_t *n, char *err, size_t len) CT_WUR;
int ct_store_write_begin(struct store *s, const char *what, char *err, size_t len) CT_WUR;
int ct_store_write_end(struct store *s, int rc, const char *what, char *err, size_t len) CT_WUR;

/* migrate.c: what SQLite's schema 6 and both backends' schema 11 do
 * that SQL alone cannot, inside the migration's transaction. */
int ct_store_migrate_6(struct db *db, char *err, size_t len) CT_WUR;
int ct_store_migrate_11(struct db *db, char *err, size_t len) CT_WUR;

/*
 * Columns as data (fio's options are the model): one table per struct says
 * which member lands in which column, and the INSERT and SELECT texts are
 * built from it, so a field cannot be written but not read back.
 */
enum col_type {
	COL_I64,
	COL_ID, /* an int64_t id or time, 0 stored as NULL */
	COL_U64,
	COL_INT,
	COL_UINT,
	COL_BOOL,
	COL_DOUBLE,
	COL_TEXT,
	COL_ENUM /* an enum stored as its word */
};

struct col {
	const char *name;
	enum col_type type;
	size_t off;
	size_t size;		  /* COL_TEXT: the array's size; COL_ENUM: the words' */
	const char *const *names; /* COL_ENUM: the words, indexed by value */
};

/* A table's entries: member m of struct st in column n. */
#define MEMBER_SIZE(st, m) sizeof(((st *)0)->m)
#define COL(n, t, st, m)                                     \
	{                                                    \
		.name = n, .type = t, .off = offsetof(st, m) \
	}
#define TEXT(n, st, m)                                                                          \
	{                                                                                       \
		.name = n, .type = COL_TEXT, .off = offsetof(st, m), .size = MEMBER_SIZE(st, m) \
	}
/* an enum member (int-sized) stored as a word of names[nn] */
#define ENUM(n, st, m, words, nn)                                                               \
	{                                                                                       \
		.name = n, .type = COL_ENUM, .off = offsetof(st, m), .size = nn, .names = words \
	}

/* rows.c: a new row of base's members in table (its id in *id); the
 * columns from first on written to row id (-ENOENT when there is none);
 * "SELECT id, cols FROM table WHERE where ORDER BY id order", malloc'd. */
int ct_store_put_row(struct store *s, const char *table, const struct col *cols, size_t n,
		     const void *base, int64_t *id, const char *what, char *err, size_t len) CT_WUR;
int ct_store_end_row(struct store *s, const char *table, const struct col *cols, size_t first,
		     size_t n, const void *base, int64_t id, const char *what, char *err,
		     size_t len) CT_WUR;
char *ct_store_select_sql(const char *table, const struct col *cols, size_t n, const char *where,
			  const char *order);

extern const struct col ct_store_run_cols[]; /* struct ct_run */
extern const size_t ct_store_nrun_cols;
extern const struct col ct_store_config_cols[]; /* struct ct_sysinfo, but its sysctls */
extern const size_t ct_store_nconfig_cols;
extern const struct col ct_store_session_cols[]; /* struct ct_session_rec, as stored */
extern const size_t ct_store_nsession_cols;

/* "<prefix>name<sep><prefix>name..." of cols, malloc'd (NULL: no memory). */
char *ct_store_join_cols(const struct col *cols, size_t n, const char *prefix, const char *sep);
/* A config's sysctls as "name=value\n" lines, malloc'd, and back. */
char *ct_store_sysctl_text(const struct ct_sysinfo *si);
void ct_store_sysctl_parse(const char *text, struct ct_sysinfo *si);

#endif
