/*
 * The SQLite results store (DESIGN.md section 7): one file, WAL mode, one
 * transaction per run, a schema version in PRAGMA user_version moved forward
 * by an append-only list of migrations. The only file that includes
 * sqlite3.h; every value reaches SQL through a bound parameter.
 */
#include "contend/store.h"
#include "contend/util.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

/* "ctnd" (0x63746e64) in PRAGMA application_id marks a file as a contend
 * store, so a database of another program is refused before anything is
 * written to it. */
#define CT_STORE_APP_ID 1668574820
#define BUSY_TIMEOUT_MS 5000

/*
 * Forward migrations: migrations[i] takes user_version i to i + 1, in one
 * transaction. Append only; never edit an entry once released.
 */
static const char *const migrations[] = {
	/* 1: the initial schema */
	"PRAGMA application_id = 1668574820;" /* CT_STORE_APP_ID */
	"CREATE TABLE configs ("
	" id INTEGER PRIMARY KEY,"
	" label TEXT NOT NULL,"
	" fingerprint TEXT NOT NULL,"
	" kernel_release TEXT NOT NULL,"
	" kernel_version TEXT NOT NULL,"
	" cmdline TEXT NOT NULL,"
	" preempt TEXT NOT NULL,"
	" cpu_model TEXT NOT NULL,"
	" ncpus INTEGER NOT NULL,"
	" ram_bytes INTEGER NOT NULL,"
	" swap_bytes INTEGER NOT NULL,"
	" mem_available INTEGER NOT NULL," /* when the config was first stored */
	" fs_type TEXT NOT NULL,"
	" fs_source TEXT NOT NULL,"
	" block_dev TEXT NOT NULL,"
	" iosched TEXT NOT NULL,"
	" sysctls TEXT NOT NULL," /* "name=value\n" lines */
	" created_at INTEGER NOT NULL,"
	" UNIQUE (label, fingerprint));"
	"CREATE TABLE sessions ("
	" id INTEGER PRIMARY KEY,"
	" config_id INTEGER REFERENCES configs (id),"
	" argv TEXT NOT NULL,"
	" workload TEXT NOT NULL,"
	" profile TEXT NOT NULL,"
	" status TEXT NOT NULL,"
	" started_at INTEGER NOT NULL,"
	" ended_at INTEGER);"
	"CREATE TABLE runs ("
	" id INTEGER PRIMARY KEY,"
	" session_id INTEGER NOT NULL REFERENCES sessions (id),"
	" config_id INTEGER NOT NULL REFERENCES configs (id),"
	" workload TEXT NOT NULL,"
	" load TEXT NOT NULL,"
	" seq INTEGER NOT NULL,"
	" status TEXT NOT NULL,"
	" reason TEXT NOT NULL,"
	" started_at INTEGER NOT NULL,"
	" wall_ns INTEGER NOT NULL,"
	" user_us INTEGER NOT NULL,"
	" sys_us INTEGER NOT NULL,"
	" exit_code INTEGER NOT NULL,"
	" load_work INTEGER NOT NULL,"
	" load_unit_scale REAL,"
	" load_user_us INTEGER NOT NULL,"
	" load_sys_us INTEGER NOT NULL,"
	" workload_params TEXT NOT NULL,"
	" load_params TEXT NOT NULL,"
	" have_psi INTEGER NOT NULL,"
	" psi_cpu_some_us INTEGER NOT NULL,"
	" psi_cpu_full_us INTEGER NOT NULL,"
	" psi_io_some_us INTEGER NOT NULL,"
	" psi_io_full_us INTEGER NOT NULL,"
	" psi_mem_some_us INTEGER NOT NULL,"
	" psi_mem_full_us INTEGER NOT NULL,"
	" steal_us INTEGER NOT NULL,"
	" foreign_cpu_us INTEGER NOT NULL,"
	" majflt INTEGER NOT NULL,"
	" pswpin INTEGER NOT NULL,"
	" sectors_read INTEGER NOT NULL,"
	" sectors_written INTEGER NOT NULL);"
	"CREATE INDEX runs_by_config ON runs (config_id, workload, load);"
	"CREATE INDEX runs_by_session ON runs (session_id);",
	/* 2: who ran a session, so a session left "running" by a contend that
	 * was SIGKILLed or lost with a reboot can be told from a live one */
	"ALTER TABLE sessions ADD COLUMN pid INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE sessions ADD COLUMN pid_start INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE sessions ADD COLUMN boot_id TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE sessions ADD COLUMN machine_id TEXT NOT NULL DEFAULT '';",
	/* 3: a workload's own figures (oltp's tps, latency percentiles...) and
	 * its per-second series, as text beside the run */
	"ALTER TABLE runs ADD COLUMN metrics TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE runs ADD COLUMN series TEXT NOT NULL DEFAULT '';",
	/* 4: the knob journal: the original value of every live setting a
	 * session changes, written before the change, deleted once restored */
	"CREATE TABLE knob_journal ("
	" id INTEGER PRIMARY KEY,"
	" path TEXT NOT NULL UNIQUE,"
	" knob TEXT NOT NULL,"
	" original TEXT NOT NULL,"
	" session_pid INTEGER NOT NULL,"
	" boot_id TEXT NOT NULL,"
	" created_at INTEGER NOT NULL);",
	/* 5: how a session of several configs ordered its runs (interleaved or
	 * sequential, the order's seed, the session of the first config), so
	 * its runs can be paired again */
	"ALTER TABLE sessions ADD COLUMN schedule TEXT NOT NULL DEFAULT '';",
};

#define SCHEMA_VERSION ((int)CT_ARRAY_SIZE(migrations))

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

#define MEMBER_SIZE(st, m) sizeof(((st *)0)->m)
#define COL(n, t, st, m)                                     \
	{                                                    \
		.name = n, .type = t, .off = offsetof(st, m) \
	}
#define TEXT(n, st, m)                                                                          \
	{                                                                                       \
		.name = n, .type = COL_TEXT, .off = offsetof(st, m), .size = MEMBER_SIZE(st, m) \
	}

#define RUN(name, type, m) COL(name, type, struct ct_run, m)
#define RUN_TEXT(name, m)  TEXT(name, struct ct_run, m)

static const struct col run_cols[] = {
	RUN("session_id", COL_I64, session_id),
	RUN("config_id", COL_I64, config_id),
	RUN_TEXT("workload", workload),
	RUN_TEXT("load", load),
	RUN("seq", COL_UINT, seq),
	RUN("status", COL_STATUS, status),
	RUN_TEXT("reason", reason),
	RUN("started_at", COL_I64, started_at),
	RUN("wall_ns", COL_I64, wall_ns),
	RUN("user_us", COL_I64, user_us),
	RUN("sys_us", COL_I64, sys_us),
	RUN("exit_code", COL_INT, exit_code),
	RUN("load_work", COL_U64, load_work),
	RUN("load_unit_scale", COL_DOUBLE, load_unit_scale),
	RUN("load_user_us", COL_I64, load_user_us),
	RUN("load_sys_us", COL_I64, load_sys_us),
	RUN_TEXT("workload_params", workload_params),
	RUN_TEXT("load_params", load_params),
	RUN("have_psi", COL_BOOL, mon.have_psi),
	RUN("psi_cpu_some_us", COL_I64, mon.psi_us[0][0]),
	RUN("psi_cpu_full_us", COL_I64, mon.psi_us[0][1]),
	RUN("psi_io_some_us", COL_I64, mon.psi_us[1][0]),
	RUN("psi_io_full_us", COL_I64, mon.psi_us[1][1]),
	RUN("psi_mem_some_us", COL_I64, mon.psi_us[2][0]),
	RUN("psi_mem_full_us", COL_I64, mon.psi_us[2][1]),
	RUN("steal_us", COL_I64, mon.steal_us),
	RUN("foreign_cpu_us", COL_I64, mon.foreign_cpu_us),
	RUN("majflt", COL_I64, mon.majflt),
	RUN("pswpin", COL_I64, mon.pswpin),
	RUN("sectors_read", COL_I64, mon.sectors_read),
	RUN("sectors_written", COL_I64, mon.sectors_written),
	RUN_TEXT("metrics", metrics),
};

#define SI(name, type, m) COL(name, type, struct ct_sysinfo, m)
#define SI_TEXT(name, m)  TEXT(name, struct ct_sysinfo, m)

/* sysctl[] is stored as text lines, label and created_at separately. */
static const struct col config_cols[] = {
	SI_TEXT("fingerprint", fingerprint),
	SI_TEXT("kernel_release", kernel_release),
	SI_TEXT("kernel_version", kernel_version),
	SI_TEXT("cmdline", cmdline),
	SI_TEXT("preempt", preempt),
	SI_TEXT("cpu_model", cpu_model),
	SI("ncpus", COL_UINT, ncpus),
	SI("ram_bytes", COL_U64, ram_bytes),
	SI("swap_bytes", COL_U64, swap_bytes),
	SI("mem_available", COL_U64, mem_available),
	SI_TEXT("fs_type", fs_type),
	SI_TEXT("fs_source", fs_source),
	SI_TEXT("block_dev", block_dev),
	SI_TEXT("iosched", iosched),
};

enum stmt_id {
	ST_CONFIG_FIND,
	ST_CONFIG_INSERT,
	ST_CONFIG_GET,
	ST_SESSION_BEGIN,
	ST_SESSION_END,
	ST_SESSIONS,
	ST_RUN_INSERT,
	ST_LATEST,
	ST_JOURNAL_PUT,
	ST_JOURNAL_LIST,
	ST_JOURNAL_DELETE,
	ST__COUNT
};

/* Run filters, one bit each; ct_store_runs caches a statement per mask. */
enum {
	RF_SESSION = 1 << 0,
	RF_LABEL = 1 << 1,
	RF_WORKLOAD = 1 << 2,
	RF_LOAD = 1 << 3,
	RF_WPARAMS = 1 << 4,
	RF_OK = 1 << 5,
	RF__COUNT = 1 << 6
};

static const struct {
	unsigned bit;
	const char *sql;
} run_filters[] = {
	{ RF_SESSION, "r.session_id = ?1" },	  { RF_LABEL, "c.label = ?2" },
	{ RF_WORKLOAD, "r.workload = ?3" },	  { RF_LOAD, "r.load = ?4" },
	{ RF_WPARAMS, "r.workload_params = ?5" }, { RF_OK, "r.status = 'ok'" },
};

struct ct_store {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *st[ST__COUNT];
	sqlite3_stmt *runs_st[RF__COUNT];
};

/* Maps a SQLite result code to -errno; system errors keep their errno. */
static int map_rc(sqlite3 *db, int rc)
{
	int sys = db ? sqlite3_system_errno(db) : 0;

	switch (rc & 0xff) {
	case SQLITE_OK:
	case SQLITE_DONE:
	case SQLITE_ROW:
		return 0;
	case SQLITE_NOMEM:
		return -ENOMEM;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_READONLY:
		return -EROFS;
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return -EACCES;
	case SQLITE_CANTOPEN:
		return sys > 0 ? -sys : -EACCES;
	case SQLITE_IOERR:
		return sys > 0 ? -sys : -EIO;
	case SQLITE_INTERRUPT:
		return -EINTR;
	case SQLITE_NOTADB:
	case SQLITE_CONSTRAINT:
	case SQLITE_MISMATCH:
	case SQLITE_RANGE:
	case SQLITE_TOOBIG:
		return -EINVAL;
	default:
		return -EIO;
	}
}

/* "cannot <what> in results store '<path>': <sqlite's message>" */
static int db_err(struct ct_store *s, int rc, const char *what, char *err, size_t len)
{
	return ct_err(err, len, map_rc(s->db, rc), "cannot %s in results store '%s': %s", what,
		      s->path, sqlite3_errmsg(s->db));
}

static char *join_cols(const struct col *cols, size_t n, const char *prefix, const char *sep)
{
	size_t size = 1;
	char *buf, *p;

	for (size_t i = 0; i < n; i++)
		size += strlen(prefix) + strlen(cols[i].name) + strlen(sep);
	buf = malloc(size);
	if (!buf)
		return NULL;
	p = buf;
	*p = '\0';
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s%s%s", i ? sep : "", prefix, cols[i].name);
	return buf;
}

static char *placeholders(size_t n, size_t first)
{
	char *buf = malloc(n * 8 + 1), *p = buf;

	if (!buf)
		return NULL;
	*p = '\0';
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s?%zu", i ? "," : "", first + i);
	return buf;
}

/* SQL text of the cached statements; NULL entries are built from the
 * column tables by build_sql(). */
static const char *const stmt_sql[ST__COUNT] = {
	[ST_CONFIG_FIND] = "SELECT id FROM configs WHERE label = ?1 AND fingerprint = ?2",
	[ST_SESSION_BEGIN] = "INSERT INTO sessions (config_id, argv, workload, profile, status,"
			     " started_at, pid, pid_start, boot_id, machine_id, schedule)"
			     " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
	[ST_SESSION_END] = "UPDATE sessions SET status = ?1, ended_at = ?2 WHERE id = ?3",
	[ST_SESSIONS] = "SELECT s.id, coalesce(s.config_id, 0), coalesce(c.label, ''), s.argv,"
			" s.workload, s.profile, s.status, s.started_at, coalesce(s.ended_at, 0),"
			" (SELECT count(*) FROM runs r WHERE r.session_id = s.id),"
			" (SELECT count(*) FROM runs r WHERE r.session_id = s.id"
			"  AND r.status <> 'ok')"
			" , s.pid, s.pid_start, s.boot_id, s.machine_id, s.schedule"
			" FROM sessions s LEFT JOIN configs c ON c.id = s.config_id"
			" ORDER BY s.id DESC LIMIT ?1",
	[ST_LATEST] = "SELECT max(r.session_id) FROM runs r JOIN configs c ON c.id = r.config_id"
		      " WHERE c.label = ?1 AND r.workload = ?2 AND r.load = ?3"
		      " AND (?4 IS NULL OR r.workload_params = ?4) AND r.status = 'ok'",
	/* the first original recorded for a path is the one to go back to */
	[ST_JOURNAL_PUT] = "INSERT INTO knob_journal (path, knob, original, session_pid, boot_id,"
			   " created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"
			   " ON CONFLICT (path) DO NOTHING",
	[ST_JOURNAL_LIST] = "SELECT id, path, knob, original, session_pid, boot_id, created_at"
			    " FROM knob_journal ORDER BY id",
	[ST_JOURNAL_DELETE] = "DELETE FROM knob_journal WHERE path = ?1",
};

static char *build_sql(enum stmt_id id)
{
	char *cols = NULL, *vals = NULL, *sql = NULL;
	size_t n = 0;

	switch (id) {
	case ST_CONFIG_INSERT:
		n = CT_ARRAY_SIZE(config_cols);
		cols = join_cols(config_cols, n, "", ", ");
		vals = placeholders(n, 4);
		if (cols && vals &&
		    asprintf(&sql,
			     "INSERT INTO configs (label, sysctls, created_at, %s) VALUES"
			     " (?1, ?2, ?3, %s) ON CONFLICT (label, fingerprint) DO NOTHING",
			     cols, vals) < 0)
			sql = NULL;
		break;
	case ST_CONFIG_GET:
		cols = join_cols(config_cols, CT_ARRAY_SIZE(config_cols), "", ", ");
		if (cols && asprintf(&sql, "SELECT label, sysctls, %s FROM configs WHERE id = ?1",
				     cols) < 0)
			sql = NULL;
		break;
	case ST_RUN_INSERT:
		n = CT_ARRAY_SIZE(run_cols);
		cols = join_cols(run_cols, n, "", ", ");
		vals = placeholders(n, 1);
		if (cols && vals &&
		    asprintf(&sql, "INSERT INTO runs (%s) VALUES (%s)", cols, vals) < 0)
			sql = NULL;
		break;
	default:
		sql = strdup(stmt_sql[id]);
		break;
	}
	free(cols);
	free(vals);
	return sql;
}

static int prepare(struct ct_store *s, const char *sql, sqlite3_stmt **st, char *err, size_t len)
{
	int rc;

	if (!sql)
		return ct_err(err, len, -ENOMEM, "out of memory");
	rc = sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT, st, NULL);
	if (rc != SQLITE_OK)
		return db_err(s, rc, "prepare a statement", err, len);
	return 0;
}

/* The cached statement id, prepared on first use, reset and unbound. */
static int stmt(struct ct_store *s, enum stmt_id id, sqlite3_stmt **out, char *err, size_t len)
{
	char *sql;
	int rc;

	if (!s->st[id]) {
		sql = build_sql(id);
		rc = prepare(s, sql, &s->st[id], err, len);
		free(sql);
		if (rc)
			return rc;
	}
	*out = s->st[id];
	return 0;
}

static void stmt_done(sqlite3_stmt *st)
{
	if (st) {
		sqlite3_reset(st);
		sqlite3_clear_bindings(st);
	}
}

static int bind_text(sqlite3_stmt *st, int i, const char *p, size_t size)
{
	return sqlite3_bind_text(st, i, p, (int)strnlen(p, size), SQLITE_TRANSIENT);
}

/* Binds base's members as ?first, ?first+1, ... */
static int bind_cols(sqlite3_stmt *st, int first, const struct col *cols, size_t n,
		     const void *base)
{
	int rc = SQLITE_OK;

	for (size_t i = 0; i < n && rc == SQLITE_OK; i++) {
		const char *p = (const char *)base + cols[i].off;
		int idx = first + (int)i;

		switch (cols[i].type) {
		case COL_I64:
			rc = sqlite3_bind_int64(st, idx, *(const int64_t *)p);
			break;
		case COL_U64:
			/* values past INT64_MAX wrap and wrap back on read */
			rc = sqlite3_bind_int64(st, idx, (sqlite3_int64) * (const uint64_t *)p);
			break;
		case COL_INT:
			rc = sqlite3_bind_int64(st, idx, *(const int *)p);
			break;
		case COL_UINT:
			rc = sqlite3_bind_int64(st, idx, *(const unsigned *)p);
			break;
		case COL_BOOL:
			rc = sqlite3_bind_int(st, idx, *(const bool *)p);
			break;
		case COL_DOUBLE:
			rc = sqlite3_bind_double(st, idx, *(const double *)p);
			break;
		case COL_TEXT:
			rc = bind_text(st, idx, p, cols[i].size);
			break;
		case COL_STATUS: {
			enum ct_run_status v = *(const enum ct_run_status *)p;

			rc = sqlite3_bind_text(st, idx, ct_run_status_name(v), -1, SQLITE_STATIC);
			break;
		}
		}
	}
	return rc;
}

static void col_text(sqlite3_stmt *st, int i, char *buf, size_t size)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	size_t n = t ? (size_t)sqlite3_column_bytes(st, i) : 0;

	if (n >= size)
		n = size - 1;
	if (n)
		memcpy(buf, t, n);
	buf[n] = '\0';
}

/* Reads columns first, first+1, ... into base's members. Returns 0, or
 * 1 + the column index of a stored value that cannot be a member (an
 * unknown run status). */
static int read_cols(sqlite3_stmt *st, int first, const struct col *cols, size_t n, void *base)
{
	for (size_t i = 0; i < n; i++) {
		char *p = (char *)base + cols[i].off;
		int idx = first + (int)i;

		switch (cols[i].type) {
		case COL_I64:
			*(int64_t *)p = sqlite3_column_int64(st, idx);
			break;
		case COL_U64:
			*(uint64_t *)p = (uint64_t)sqlite3_column_int64(st, idx);
			break;
		case COL_INT:
			*(int *)p = (int)sqlite3_column_int64(st, idx);
			break;
		case COL_UINT:
			*(unsigned *)p = (unsigned)sqlite3_column_int64(st, idx);
			break;
		case COL_BOOL:
			*(bool *)p = sqlite3_column_int(st, idx) != 0;
			break;
		case COL_DOUBLE:
			*(double *)p = sqlite3_column_double(st, idx);
			break;
		case COL_TEXT:
			col_text(st, idx, p, cols[i].size);
			break;
		case COL_STATUS: {
			const char *t = (const char *)sqlite3_column_text(st, idx);

			if (!t || ct_run_status_parse(t, (enum ct_run_status *)p))
				return idx + 1;
			break;
		}
		}
	}
	return 0;
}

static int exec(struct ct_store *s, const char *sql, const char *what, char *err, size_t len)
{
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

	if (rc != SQLITE_OK)
		return db_err(s, rc, what, err, len);
	return 0;
}

static void rollback(struct ct_store *s)
{
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

/* Runs a one-row, one-column query (PRAGMAs); *v is 0 when no row. */
static int query_int(struct ct_store *s, const char *sql, int64_t *v)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*v = 0;
	rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW)
			*v = sqlite3_column_int64(st, 0);
		rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
	}
	sqlite3_finalize(st);
	return rc;
}

int ct_store_default_path(char *buf, size_t len)
{
	const char *env;
	int n;

	if ((env = getenv("CONTEND_DB")) && *env)
		n = snprintf(buf, len, "%s", env);
	else if ((env = getenv("XDG_DATA_HOME")) && *env == '/') /* relative: ignored, per XDG */
		n = snprintf(buf, len, "%s/contend/results.db", env);
	else if ((env = getenv("HOME")) && *env)
		n = snprintf(buf, len, "%s/.local/share/contend/results.db", env);
	else
		return ct_err(buf, len, -ENOENT,
			      "cannot find the results store: none of CONTEND_DB, XDG_DATA_HOME"
			      " and HOME is set");
	if (n < 0 || (size_t)n >= len)
		return ct_err(buf, len, -ENAMETOOLONG, "results store path is too long");
	return 0;
}

static int open_err(struct ct_store *s, int rc, char *err, size_t len)
{
	int e = map_rc(s->db, rc);

	if ((rc & 0xff) == SQLITE_CANTOPEN || (rc & 0xff) == SQLITE_IOERR)
		return ct_err(err, len, e, "cannot open results store '%s': %s", s->path,
			      strerror(-e));
	return ct_err(err, len, e, "cannot open results store '%s': %s", s->path,
		      s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
}

static int make_parent(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int rc;

	if (!slash || slash == path)
		return 0;
	dir = strndup(path, (size_t)(slash - path));
	if (!dir)
		return -ENOMEM;
	rc = ct_mkdir_p(dir, 0755);
	free(dir);
	return rc;
}

static int newer_err(struct ct_store *s, int64_t version, char *err, size_t len)
{
	return ct_err(err, len, -EINVAL,
		      "results store '%s' has schema version %" PRId64
		      ", this contend knows up to %d",
		      s->path, version, SCHEMA_VERSION);
}

/* Refuses, before anything is written, a file that is not a database, a
 * database of another program, or a store of a newer contend. */
static int check_store(struct ct_store *s, int64_t *version, char *err, size_t len)
{
	int64_t appid, ntables;
	int rc;

	rc = query_int(s, "PRAGMA application_id", &appid);
	if (rc == SQLITE_OK)
		rc = query_int(s, "PRAGMA user_version", version);
	if (rc == SQLITE_OK)
		rc = query_int(s, "SELECT count(*) FROM sqlite_master", &ntables);
	if ((rc & 0xff) == SQLITE_NOTADB)
		return ct_err(err, len, -EINVAL, "'%s' is not a contend results store: %s", s->path,
			      sqlite3_errmsg(s->db));
	if (rc != SQLITE_OK)
		return open_err(s, rc, err, len);

	if (appid != 0 && appid != CT_STORE_APP_ID)
		return ct_err(err, len, -EINVAL,
			      "'%s' is not a contend results store (application id %" PRId64 ")",
			      s->path, appid);
	if (*version > SCHEMA_VERSION)
		return newer_err(s, *version, err, len);
	if (appid == 0 && (ntables || *version))
		return ct_err(err, len, -EINVAL,
			      "'%s' is not a contend results store (a database of another program)",
			      s->path);
	return 0;
}

/* Applies the missing migrations, each in its own write transaction. The
 * version is re-read under the write lock so two contends opening a new
 * store at once do not both migrate it. */
static int migrate(struct ct_store *s, char *err, size_t len)
{
	char sql[64];
	int64_t v;
	int rc;

	for (;;) {
		rc = exec(s, "BEGIN IMMEDIATE", "migrate the schema", err, len);
		if (rc)
			return rc;
		rc = query_int(s, "PRAGMA user_version", &v);
		if (rc != SQLITE_OK) {
			rc = db_err(s, rc, "migrate the schema", err, len);
			goto fail;
		}
		if (v >= SCHEMA_VERSION)
			break;
		rc = exec(s, migrations[v], "migrate the schema", err, len);
		if (rc)
			goto fail;
		snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", (int)v + 1);
		rc = exec(s, sql, "migrate the schema", err, len);
		if (rc)
			goto fail;
		rc = exec(s, "COMMIT", "migrate the schema", err, len);
		if (rc)
			goto fail;
	}
	rollback(s);
	if (v > SCHEMA_VERSION) /* a newer contend migrated it meanwhile */
		return newer_err(s, v, err, len);
	return 0;
fail:
	rollback(s);
	return rc;
}

int ct_store_open(struct ct_store **out, const char *path, char *err, size_t len)
{
	bool memory = path && !strcmp(path, ":memory:");
	struct ct_store *s = NULL;
	int64_t version;
	const char *mode;
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	if (!path || !*path)
		return ct_err(err, len, -EINVAL, "results store path is empty");
	s = calloc(1, sizeof(*s));
	if (!s || !(s->path = strdup(path))) {
		rc = ct_err(err, len, -ENOMEM, "out of memory");
		goto fail;
	}
	if (!memory) {
		rc = make_parent(path);
		if (rc) {
			ct_err(err, len, rc, "cannot open results store '%s': %s", path,
			       strerror(-rc));
			goto fail;
		}
	}
	rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK) {
		rc = open_err(s, rc, err, len);
		goto fail;
	}
	sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
	if (sqlite3_db_readonly(s->db, "main") == 1) {
		/* SQLite fell back to read-only; access() says why. */
		rc = access(path, W_OK) ? -errno : -EACCES;
		ct_err(err, len, rc, "cannot open results store '%s': %s", path, strerror(-rc));
		goto fail;
	}
	rc = check_store(s, &version, err, len);
	if (rc)
		goto fail;

	rc = prepare(s, "PRAGMA journal_mode = WAL", &st, err, len);
	if (rc)
		goto fail;
	rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		/* the file itself opened: what failed is creating a journal beside it */
		if ((rc & 0xff) == SQLITE_CANTOPEN) {
			rc = map_rc(s->db, rc);
			ct_err(err, len, rc,
			       "cannot open results store '%s': cannot create its journal: %s",
			       path, strerror(-rc));
		} else {
			rc = open_err(s, rc, err, len);
		}
		goto fail;
	}
	mode = (const char *)sqlite3_column_text(st, 0);
	if (!mode || (strcmp(mode, "wal") && !(memory && !strcmp(mode, "memory")))) {
		rc = ct_err(err, len, -EIO,
			    "cannot open results store '%s': cannot use WAL journal mode"
			    " (got '%s')",
			    path, mode ? mode : "");
		goto fail;
	}
	sqlite3_finalize(st);
	st = NULL;
	rc = exec(s, "PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL",
		  "configure the connection", err, len);
	if (rc)
		goto fail;
	rc = migrate(s, err, len);
	if (rc)
		goto fail;
	*out = s;
	return 0;
fail:
	sqlite3_finalize(st);
	ct_store_close(s);
	return rc;
}

void ct_store_close(struct ct_store *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < CT_ARRAY_SIZE(s->st); i++)
		sqlite3_finalize(s->st[i]);
	for (size_t i = 0; i < CT_ARRAY_SIZE(s->runs_st); i++)
		sqlite3_finalize(s->runs_st[i]);
	/* the last connection checkpoints and removes the WAL file */
	sqlite3_close(s->db);
	free(s->path);
	free(s);
}

static char *sysctl_text(const struct ct_sysinfo *si)
{
	size_t size = 1;
	unsigned n = si->nsysctl < CT_SYSINFO_MAX_SYSCTL ? si->nsysctl : CT_SYSINFO_MAX_SYSCTL;
	char *buf, *p;

	for (unsigned i = 0; i < n; i++)
		size += sizeof(si->sysctl[i].name) + sizeof(si->sysctl[i].value) + 2;
	buf = malloc(size);
	if (!buf)
		return NULL;
	p = buf;
	*p = '\0';
	for (unsigned i = 0; i < n; i++)
		p += sprintf(p, "%.*s=%.*s\n", (int)sizeof(si->sysctl[i].name), si->sysctl[i].name,
			     (int)sizeof(si->sysctl[i].value), si->sysctl[i].value);
	return buf;
}

static void sysctl_parse(const char *t, struct ct_sysinfo *si)
{
	si->nsysctl = 0;
	while (t && *t && si->nsysctl < CT_SYSINFO_MAX_SYSCTL) {
		const char *nl = strchr(t, '\n'), *end = nl ? nl : t + strlen(t);
		const char *eq = memchr(t, '=', (size_t)(end - t));

		if (eq) {
			snprintf(si->sysctl[si->nsysctl].name, sizeof(si->sysctl[0].name), "%.*s",
				 (int)(eq - t), t);
			snprintf(si->sysctl[si->nsysctl].value, sizeof(si->sysctl[0].value), "%.*s",
				 (int)(end - eq - 1), eq + 1);
			si->nsysctl++;
		}
		t = nl ? nl + 1 : end;
	}
}

static int config_find(struct ct_store *s, const char *label, const struct ct_sysinfo *si,
		       int64_t *id, char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc;

	*id = 0;
	rc = stmt(s, ST_CONFIG_FIND, &st, err, len);
	if (rc)
		return rc;
	rc = sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = bind_text(st, 2, si->fingerprint, sizeof(si->fingerprint));
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : db_err(s, rc, "look up config", err, len);
	stmt_done(st);
	return rc;
}

int ct_store_config_put(struct ct_store *s, const char *label, const struct ct_sysinfo *si,
			int64_t *id, char *err, size_t len)
{
	sqlite3_stmt *st = NULL;
	char *sysctls = NULL;
	int rc;

	*id = 0;
	if (!label || !*label)
		return ct_err(err, len, -EINVAL, "config label is empty");
	if (!si->fingerprint[0])
		return ct_err(err, len, -EINVAL, "config '%s' has no fingerprint", label);
	rc = config_find(s, label, si, id, err, len);
	if (rc || *id)
		return rc;

	rc = stmt(s, ST_CONFIG_INSERT, &st, err, len);
	if (rc)
		return rc;
	sysctls = sysctl_text(si);
	if (!sysctls) {
		rc = ct_err(err, len, -ENOMEM, "out of memory");
		goto out;
	}
	rc = sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 2, sysctls, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 3, ct_wall_ns());
	if (rc == SQLITE_OK)
		rc = bind_cols(st, 4, config_cols, CT_ARRAY_SIZE(config_cols), si);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc != SQLITE_DONE) {
		rc = db_err(s, rc, "store config", err, len);
		goto out;
	}
	stmt_done(st);
	st = NULL;
	/* another contend may have inserted it first: read the id back */
	rc = config_find(s, label, si, id, err, len);
	if (!rc && !*id)
		rc = ct_err(err, len, -EIO, "config '%s' vanished from results store '%s'", label,
			    s->path);
out:
	stmt_done(st);
	free(sysctls);
	return rc;
}

int ct_store_config_get(struct ct_store *s, int64_t id, char *label, size_t label_len,
			struct ct_sysinfo *si, char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc;

	rc = stmt(s, ST_CONFIG_GET, &st, err, len);
	if (rc)
		return rc;
	memset(si, 0, sizeof(*si));
	rc = sqlite3_bind_int64(st, 1, id);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		if (label && label_len)
			col_text(st, 0, label, label_len);
		sysctl_parse((const char *)sqlite3_column_text(st, 1), si);
		read_cols(st, 2, config_cols, CT_ARRAY_SIZE(config_cols), si);
		rc = 0;
	} else if (rc == SQLITE_DONE) {
		rc = ct_err(err, len, -ENOENT, "no config %" PRId64 " in results store '%s'", id,
			    s->path);
	} else {
		rc = db_err(s, rc, "read config", err, len);
	}
	stmt_done(st);
	return rc;
}

int ct_store_session_begin(struct ct_store *s, struct ct_session_rec *rec, char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc;

	rc = stmt(s, ST_SESSION_BEGIN, &st, err, len);
	if (rc)
		return rc;
	if (!rec->started_at)
		rec->started_at = ct_wall_ns();
	snprintf(rec->status, sizeof(rec->status), "running");
	rec->ended_at = 0;
	rec->nruns = rec->nfailed = 0;
	rc = rec->config_id ? sqlite3_bind_int64(st, 1, rec->config_id) : sqlite3_bind_null(st, 1);
	if (rc == SQLITE_OK)
		rc = bind_text(st, 2, rec->argv, sizeof(rec->argv));
	if (rc == SQLITE_OK)
		rc = bind_text(st, 3, rec->workload, sizeof(rec->workload));
	if (rc == SQLITE_OK)
		rc = bind_text(st, 4, rec->profile, sizeof(rec->profile));
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 5, rec->status, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 6, rec->started_at);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 7, rec->pid);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 8, (sqlite3_int64)rec->pid_start);
	if (rc == SQLITE_OK)
		rc = bind_text(st, 9, rec->boot_id, sizeof(rec->boot_id));
	if (rc == SQLITE_OK)
		rc = bind_text(st, 10, rec->machine_id, sizeof(rec->machine_id));
	if (rc == SQLITE_OK)
		rc = bind_text(st, 11, rec->schedule, sizeof(rec->schedule));
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		rec->id = sqlite3_last_insert_rowid(s->db);
		rc = 0;
	} else {
		rc = db_err(s, rc, "begin session", err, len);
	}
	stmt_done(st);
	return rc;
}

int ct_store_session_end(struct ct_store *s, int64_t id, const char *status, char *err, size_t len)
{
	static const char *const ends[] = { "complete", "interrupted", "failed" };
	sqlite3_stmt *st;
	size_t i;
	int rc;

	for (i = 0; i < CT_ARRAY_SIZE(ends); i++)
		if (status && !strcmp(status, ends[i]))
			break;
	if (i == CT_ARRAY_SIZE(ends))
		return ct_err(err, len, -EINVAL, "unknown session status '%s'",
			      status ? status : "");
	rc = stmt(s, ST_SESSION_END, &st, err, len);
	if (rc)
		return rc;
	rc = sqlite3_bind_text(st, 1, ends[i], -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 2, ct_wall_ns());
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 3, id);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc != SQLITE_DONE)
		rc = db_err(s, rc, "end session", err, len);
	else if (sqlite3_changes(s->db) == 0)
		rc = ct_err(err, len, -ENOENT, "no session %" PRId64 " in results store '%s'", id,
			    s->path);
	else
		rc = 0;
	stmt_done(st);
	return rc;
}

/* The series as text, "%.6g" values separated by spaces: compact, exact
 * enough for a per-second rate, and readable with plain SQL. */
static int put_series(struct ct_store *s, const struct ct_run *r, char *err, size_t len)
{
	size_t cap = (size_t)r->nseries * 24 + 1, off = 0;
	char *text = malloc(cap);
	sqlite3_stmt *st = NULL;
	int rc;

	if (!text)
		return ct_err(err, len, -ENOMEM, "out of memory");
	text[0] = '\0';
	for (unsigned i = 0; i < r->nseries; i++)
		off += (size_t)snprintf(text + off, cap - off, "%s%.6g", i ? " " : "",
					r->series[i]);
	rc = prepare(s, "UPDATE runs SET series = ?1 WHERE id = ?2", &st, err, len);
	if (!rc) {
		rc = sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
		if (rc == SQLITE_OK)
			rc = sqlite3_bind_int64(st, 2, r->id);
		if (rc == SQLITE_OK)
			rc = sqlite3_step(st);
		rc = rc == SQLITE_DONE ? 0 : db_err(s, rc, "store a run's series", err, len);
		sqlite3_finalize(st);
	}
	free(text);
	return rc;
}

int ct_store_run_series(struct ct_store *s, int64_t run_id, double **out, size_t *n, char *err,
			size_t len)
{
	sqlite3_stmt *st = NULL;
	const char *text;
	double *v = NULL;
	size_t cnt = 0, cap;
	int rc;

	*out = NULL;
	*n = 0;
	rc = prepare(s, "SELECT series FROM runs WHERE id = ?1", &st, err, len);
	if (rc)
		return rc;
	rc = sqlite3_bind_int64(st, 1, run_id);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc != SQLITE_ROW) {
		rc = rc == SQLITE_DONE ? ct_err(err, len, -ENOENT, "no run %" PRId64, run_id)
				       : db_err(s, rc, "read a run's series", err, len);
		goto out;
	}
	text = (const char *)sqlite3_column_text(st, 0);
	cap = text ? strlen(text) / 2 + 1 : 1;
	v = malloc(cap * sizeof(*v));
	if (!v) {
		rc = ct_err(err, len, -ENOMEM, "out of memory");
		goto out;
	}
	for (const char *p = text ? text : ""; *p && cnt < cap;) {
		char *end;

		v[cnt] = strtod(p, &end);
		if (end == p)
			break;
		cnt++;
		p = end;
	}
	*out = v;
	*n = cnt;
	v = NULL;
	rc = 0;
out:
	free(v);
	sqlite3_finalize(st);
	return rc;
}

int ct_store_run_put(struct ct_store *s, struct ct_run *r, char *err, size_t len)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (!strcmp(ct_run_status_name(r->status), "unknown"))
		return ct_err(err, len, -EINVAL, "run has unknown status %d", (int)r->status);
	rc = stmt(s, ST_RUN_INSERT, &st, err, len);
	if (rc)
		return rc;
	rc = exec(s, "BEGIN IMMEDIATE", "store run", err, len);
	if (rc)
		return rc;
	rc = bind_cols(st, 1, run_cols, CT_ARRAY_SIZE(run_cols), r);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc != SQLITE_DONE) {
		rc = db_err(s, rc, "store run", err, len);
		goto out;
	}
	r->id = sqlite3_last_insert_rowid(s->db);
	stmt_done(st);
	st = NULL;
	if (r->series && r->nseries) {
		rc = put_series(s, r, err, len);
		if (rc)
			goto out;
	}
	rc = exec(s, "COMMIT", "store run", err, len);
out:
	stmt_done(st);
	if (rc) {
		rollback(s);
		r->id = 0;
	}
	return rc;
}

static int runs_stmt(struct ct_store *s, unsigned mask, sqlite3_stmt **out, char *err, size_t len)
{
	char *cols = NULL, *sql = NULL, where[256] = "";
	size_t off = 0;
	int rc;

	if (s->runs_st[mask]) {
		*out = s->runs_st[mask];
		return 0;
	}
	for (size_t i = 0; i < CT_ARRAY_SIZE(run_filters); i++)
		if (mask & run_filters[i].bit)
			off += (size_t)snprintf(where + off, sizeof(where) - off, "%s%s",
						off ? " AND " : " WHERE ", run_filters[i].sql);
	cols = join_cols(run_cols, CT_ARRAY_SIZE(run_cols), "r.", ", ");
	if (cols && asprintf(&sql,
			     "SELECT r.id, c.label, %s FROM runs r"
			     " JOIN configs c ON c.id = r.config_id%s ORDER BY r.id",
			     cols, where) < 0)
		sql = NULL;
	rc = prepare(s, sql, &s->runs_st[mask], err, len);
	free(cols);
	free(sql);
	*out = s->runs_st[mask];
	return rc;
}

int ct_store_runs(struct ct_store *s, const struct ct_run_filter *f, struct ct_run **out, size_t *n,
		  char *err, size_t len)
{
	static const struct ct_run_filter all;
	struct ct_run *runs = NULL, *grown, *r;
	size_t cap = 0, cnt = 0;
	unsigned mask = 0;
	sqlite3_stmt *st = NULL;
	int rc, bad;

	*out = NULL;
	*n = 0;
	if (!f)
		f = &all;
	mask |= f->session_id ? RF_SESSION : 0;
	mask |= f->label ? RF_LABEL : 0;
	mask |= f->workload ? RF_WORKLOAD : 0;
	mask |= f->load ? RF_LOAD : 0;
	mask |= f->workload_params ? RF_WPARAMS : 0;
	mask |= f->ok_only ? RF_OK : 0;
	rc = runs_stmt(s, mask, &st, err, len);
	if (rc)
		return rc;
	rc = SQLITE_OK;
	if (mask & RF_SESSION)
		rc = sqlite3_bind_int64(st, 1, f->session_id);
	if (rc == SQLITE_OK && (mask & RF_LABEL))
		rc = sqlite3_bind_text(st, 2, f->label, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK && (mask & RF_WORKLOAD))
		rc = sqlite3_bind_text(st, 3, f->workload, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK && (mask & RF_LOAD))
		rc = sqlite3_bind_text(st, 4, f->load, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK && (mask & RF_WPARAMS))
		rc = sqlite3_bind_text(st, 5, f->workload_params, -1, SQLITE_STATIC);
	if (rc != SQLITE_OK) {
		rc = db_err(s, rc, "read runs", err, len);
		goto out;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (cnt == cap) {
			cap = cap ? cap * 2 : 16;
			grown = realloc(runs, cap * sizeof(*runs));
			if (!grown) {
				rc = ct_err(err, len, -ENOMEM, "out of memory");
				goto out;
			}
			runs = grown;
		}
		r = &runs[cnt];
		memset(r, 0, sizeof(*r));
		r->id = sqlite3_column_int64(st, 0);
		col_text(st, 1, r->label, sizeof(r->label));
		bad = read_cols(st, 2, run_cols, CT_ARRAY_SIZE(run_cols), r);
		if (bad) {
			rc = ct_err(err, len, -EPROTO,
				    "run %" PRId64 " in results store '%s' has unknown status '%s'",
				    r->id, s->path, sqlite3_column_text(st, bad - 1));
			goto out;
		}
		cnt++;
	}
	if (rc != SQLITE_DONE) {
		rc = db_err(s, rc, "read runs", err, len);
		goto out;
	}
	rc = 0;
	*out = runs;
	*n = cnt;
	runs = NULL;
out:
	stmt_done(st);
	free(runs);
	return rc;
}

int ct_store_sessions(struct ct_store *s, size_t limit, struct ct_session_rec **out, size_t *n,
		      char *err, size_t len)
{
	struct ct_session_rec *recs = NULL, *grown, *rec;
	size_t cap = 0, cnt = 0;
	sqlite3_stmt *st;
	int rc;

	*out = NULL;
	*n = 0;
	rc = stmt(s, ST_SESSIONS, &st, err, len);
	if (rc)
		return rc;
	/* a negative LIMIT is none */
	rc = sqlite3_bind_int64(st, 1, limit && limit <= INT64_MAX ? (sqlite3_int64)limit : -1);
	if (rc != SQLITE_OK) {
		rc = db_err(s, rc, "list sessions", err, len);
		goto out;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (cnt == cap) {
			cap = cap ? cap * 2 : 16;
			grown = realloc(recs, cap * sizeof(*recs));
			if (!grown) {
				rc = ct_err(err, len, -ENOMEM, "out of memory");
				goto out;
			}
			recs = grown;
		}
		rec = &recs[cnt++];
		memset(rec, 0, sizeof(*rec));
		rec->id = sqlite3_column_int64(st, 0);
		rec->config_id = sqlite3_column_int64(st, 1);
		col_text(st, 2, rec->label, sizeof(rec->label));
		col_text(st, 3, rec->argv, sizeof(rec->argv));
		col_text(st, 4, rec->workload, sizeof(rec->workload));
		col_text(st, 5, rec->profile, sizeof(rec->profile));
		col_text(st, 6, rec->status, sizeof(rec->status));
		rec->started_at = sqlite3_column_int64(st, 7);
		rec->ended_at = sqlite3_column_int64(st, 8);
		rec->nruns = (unsigned)sqlite3_column_int64(st, 9);
		rec->nfailed = (unsigned)sqlite3_column_int64(st, 10);
		rec->pid = (int)sqlite3_column_int64(st, 11);
		rec->pid_start = (uint64_t)sqlite3_column_int64(st, 12);
		col_text(st, 13, rec->boot_id, sizeof(rec->boot_id));
		col_text(st, 14, rec->machine_id, sizeof(rec->machine_id));
		col_text(st, 15, rec->schedule, sizeof(rec->schedule));
	}
	if (rc != SQLITE_DONE) {
		rc = db_err(s, rc, "list sessions", err, len);
		goto out;
	}
	rc = 0;
	*out = recs;
	*n = cnt;
	recs = NULL;
out:
	stmt_done(st);
	free(recs);
	return rc;
}

int ct_store_latest_session_with(struct ct_store *s, const char *label, const char *workload,
				 const char *load, const char *workload_params, int64_t *session_id,
				 char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc;

	*session_id = 0;
	if (!label || !workload || !load)
		return ct_err(err, len, -EINVAL,
			      "reference session needs a label, workload and load");
	rc = stmt(s, ST_LATEST, &st, err, len);
	if (rc)
		return rc;
	rc = sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 2, workload, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 3, load, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = workload_params ? sqlite3_bind_text(st, 4, workload_params, -1, SQLITE_STATIC)
				     : sqlite3_bind_null(st, 4);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*session_id = sqlite3_column_int64(st, 0); /* NULL (no runs) reads as 0 */
		rc = 0;
	} else {
		rc = db_err(s, rc, "find reference session", err, len);
	}
	stmt_done(st);
	return rc;
}

/* A journal text that does not fit its array would be restored cut short:
 * refuse it instead. */
static int journal_text(struct ct_store *s, sqlite3_stmt *st, int i, char *buf, size_t size,
			int64_t id, char *err, size_t len)
{
	if ((size_t)sqlite3_column_bytes(st, i) >= size)
		return ct_err(err, len, -EPROTO,
			      "knob journal entry %" PRId64 " in results store '%s' has a %s"
			      " longer than %zu bytes",
			      id, s->path, sqlite3_column_name(st, i), size - 1);
	col_text(st, i, buf, size);
	return 0;
}

static int journal_check(const struct ct_journal_entry *e, char *err, size_t len)
{
	if (!e->path[0] || strnlen(e->path, sizeof(e->path)) == sizeof(e->path))
		return ct_err(err, len, -EINVAL, "knob journal entry has a bad path");
	if (!e->knob[0] || strnlen(e->knob, sizeof(e->knob)) == sizeof(e->knob))
		return ct_err(err, len, -EINVAL, "knob journal entry for '%s' has a bad knob name",
			      e->path);
	if (strnlen(e->original, sizeof(e->original)) == sizeof(e->original))
		return ct_err(err, len, -EINVAL,
			      "knob journal entry for '%s' has an unterminated original", e->path);
	return 0;
}

/*
 * One transaction for all entries, committed before this returns: the
 * caller changes nothing until then, so a contend killed at any point
 * leaves a journal that covers every change it made. synchronous=NORMAL
 * is enough: a commit survives the process, and what a power loss could
 * take from the WAL is the journal of settings that a reboot resets too.
 */
int ct_store_journal_put(struct ct_store *s, const struct ct_journal_entry *e, size_t n, char *err,
			 size_t len)
{
	sqlite3_stmt *st = NULL;
	int rc;

	for (size_t i = 0; i < n; i++) {
		rc = journal_check(&e[i], err, len);
		if (rc)
			return rc;
	}
	rc = stmt(s, ST_JOURNAL_PUT, &st, err, len);
	if (rc)
		return rc;
	rc = exec(s, "BEGIN IMMEDIATE", "write the knob journal", err, len);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		rc = bind_text(st, 1, e[i].path, sizeof(e[i].path));
		if (rc == SQLITE_OK)
			rc = bind_text(st, 2, e[i].knob, sizeof(e[i].knob));
		if (rc == SQLITE_OK)
			rc = bind_text(st, 3, e[i].original, sizeof(e[i].original));
		if (rc == SQLITE_OK)
			rc = sqlite3_bind_int64(st, 4, e[i].session_pid);
		if (rc == SQLITE_OK)
			rc = bind_text(st, 5, e[i].boot_id, sizeof(e[i].boot_id));
		if (rc == SQLITE_OK)
			rc = sqlite3_bind_int64(st, 6,
						e[i].created_at ? e[i].created_at : ct_wall_ns());
		if (rc == SQLITE_OK)
			rc = sqlite3_step(st);
		if (rc != SQLITE_DONE) {
			rc = db_err(s, rc, "write the knob journal", err, len);
			goto out;
		}
		stmt_done(st);
	}
	st = NULL;
	rc = exec(s, "COMMIT", "write the knob journal", err, len);
out:
	stmt_done(st);
	if (rc)
		rollback(s);
	return rc;
}

int ct_store_journal_list(struct ct_store *s, struct ct_journal_entry **out, size_t *n, char *err,
			  size_t len)
{
	struct ct_journal_entry *es = NULL, *grown, *e;
	size_t cap = 0, cnt = 0;
	sqlite3_stmt *st;
	int rc;

	*out = NULL;
	*n = 0;
	rc = stmt(s, ST_JOURNAL_LIST, &st, err, len);
	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (cnt == cap) {
			cap = cap ? cap * 2 : 8;
			grown = realloc(es, cap * sizeof(*es));
			if (!grown) {
				rc = ct_err(err, len, -ENOMEM, "out of memory");
				goto out;
			}
			es = grown;
		}
		e = &es[cnt];
		memset(e, 0, sizeof(*e));
		e->id = sqlite3_column_int64(st, 0);
		rc = journal_text(s, st, 1, e->path, sizeof(e->path), e->id, err, len);
		if (!rc)
			rc = journal_text(s, st, 2, e->knob, sizeof(e->knob), e->id, err, len);
		if (!rc)
			rc = journal_text(s, st, 3, e->original, sizeof(e->original), e->id, err,
					  len);
		if (!rc)
			rc = journal_text(s, st, 5, e->boot_id, sizeof(e->boot_id), e->id, err,
					  len);
		if (rc)
			goto out;
		e->session_pid = (int)sqlite3_column_int64(st, 4);
		e->created_at = sqlite3_column_int64(st, 6);
		cnt++;
	}
	if (rc != SQLITE_DONE) {
		rc = db_err(s, rc, "read the knob journal", err, len);
		goto out;
	}
	rc = 0;
	*out = es;
	*n = cnt;
	es = NULL;
out:
	stmt_done(st);
	free(es);
	return rc;
}

int ct_store_journal_delete(struct ct_store *s, const char *path, char *err, size_t len)
{
	sqlite3_stmt *st;
	int rc;

	rc = stmt(s, ST_JOURNAL_DELETE, &st, err, len);
	if (rc)
		return rc;
	rc = sqlite3_bind_text(st, 1, path, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc != SQLITE_DONE)
		rc = db_err(s, rc, "delete a knob journal entry", err, len);
	else if (sqlite3_changes(s->db) == 0)
		rc = ct_err(err, len, -ENOENT,
			    "no knob journal entry for '%s' in results store '%s'", path, s->path);
	else
		rc = 0;
	stmt_done(st);
	return rc;
}
