/*
 * The SQLite results store (docs/store.md): one file, WAL mode, one
 * transaction per run, a schema version in PRAGMA user_version moved forward
 * by an append-only list of migrations. The only file that includes
 * sqlite3.h; every value reaches SQL through a bound parameter.
 */
#include "contend/store.h"
#include "contend/util.h"
#include "internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
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
	/* 6: the schedule as columns (the group of sessions one --vary run
	 * stored, its order and seed, the block of each run), and the metrics
	 * and series as JSON that SQL can query; migrate_6() converts the
	 * text of earlier versions and drops the schedule's */
	"ALTER TABLE sessions ADD COLUMN group_id INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE sessions ADD COLUMN run_order TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE sessions ADD COLUMN order_seed INTEGER NOT NULL DEFAULT 0;"
	"ALTER TABLE runs ADD COLUMN block INTEGER NOT NULL DEFAULT 0;"
	"CREATE INDEX sessions_by_group ON sessions (group_id);",
	/* 7: calibrations - the runs of one config and load whose spread says
	 * what the verdict rule can find (contend calibrate; run
	 * --target-effect reads the latest), values as a JSON array */
	"CREATE TABLE calibrations ("
	" id INTEGER PRIMARY KEY,"
	" config_id INTEGER NOT NULL REFERENCES configs(id),"
	" workload TEXT NOT NULL,"
	" workload_params TEXT NOT NULL,"
	" load TEXT NOT NULL,"
	" session_id INTEGER NOT NULL,"
	" created_at INTEGER NOT NULL,"
	" higher_better INTEGER NOT NULL,"
	" runs TEXT NOT NULL);"
	"CREATE INDEX calibrations_by_config ON calibrations (config_id, workload, load);",
	/* 8: the state each run started from - dirty and writeback page cache
	 * at the start stamp, the CPU's speed before the load - so a flagged run shows whether it began with
	 * more unwritten data than the others; -1 for runs stored before */
	"ALTER TABLE runs ADD COLUMN start_dirty_bytes INTEGER NOT NULL DEFAULT -1;"
	"ALTER TABLE runs ADD COLUMN start_writeback_bytes INTEGER NOT NULL DEFAULT -1;"
	"ALTER TABLE runs ADD COLUMN start_cpu_speed REAL NOT NULL DEFAULT -1;",
	/* 9: sessions a fleet can gather: a UUID of each (sessions stored
	 * before get one now) and the host that ran it, beside machine_id;
	 * unique where given (a row written by other means may have none) */
	"ALTER TABLE sessions ADD COLUMN uuid TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE sessions ADD COLUMN hostname TEXT NOT NULL DEFAULT '';"
	"UPDATE sessions SET uuid = lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' "
	"||"
	" substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + abs(random()) % 4, 1) ||"
	" substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)));"
	"CREATE UNIQUE INDEX sessions_by_uuid ON sessions (uuid) WHERE uuid <> '';",
	/* 10: latency distributions kept with a run (the wakeup probe's, each
	 * latency task's), as JSON of sparse buckets */
	"ALTER TABLE runs ADD COLUMN hists TEXT NOT NULL DEFAULT '';",
};

#define SCHEMA_VERSION ((int)CT_ARRAY_SIZE(migrations))

enum stmt_id {
	ST_CONFIG_FIND,
	ST_CONFIG_INSERT,
	ST_CONFIG_GET,
	ST_SESSION_BEGIN,
	ST_SESSION_END,
	ST_SESSIONS,
	ST_RUN_INSERT,
	ST_LATEST,
	ST_CALIB_PUT,
	ST_CALIB_GET,
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

struct sq {
	struct ct_store base; /* first: the ops */
	sqlite3 *db;
	char *path;
	sqlite3_stmt *st[ST__COUNT];
	sqlite3_stmt *runs_st[RF__COUNT];
	unsigned txn; /* depth of ct_store_begin() */
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
static int db_err(struct sq *s, int rc, const char *what, char *err, size_t len)
{
	if (s->base.readonly && (rc & 0xff) == SQLITE_READONLY)
		return ct_err(err, len, -EROFS,
			      "cannot %s in results store '%s': it was opened read-only (the file "
			      "or its filesystem cannot be written)",
			      what, s->path);
	return ct_err(err, len, map_rc(s->db, rc), "cannot %s in results store '%s': %s", what,
		      s->path, sqlite3_errmsg(s->db));
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
			     " started_at, pid, pid_start, boot_id, machine_id, group_id,"
			     " run_order, order_seed, uuid, hostname, ended_at)"
			     " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14,"
			     " ?15, ?16)",
	[ST_SESSION_END] = "UPDATE sessions SET status = ?1, ended_at = ?2 WHERE id = ?3",
	[ST_SESSIONS] = "SELECT s.id, coalesce(s.config_id, 0), coalesce(c.label, ''), s.argv,"
			" s.workload, s.profile, s.status, s.started_at, coalesce(s.ended_at, 0),"
			" (SELECT count(*) FROM runs r WHERE r.session_id = s.id),"
			" (SELECT count(*) FROM runs r WHERE r.session_id = s.id"
			"  AND r.status <> 'ok')"
			" , s.pid, s.pid_start, s.boot_id, s.machine_id, s.group_id, s.run_order,"
			" s.order_seed, s.uuid, s.hostname"
			" FROM sessions s LEFT JOIN configs c ON c.id = s.config_id"
			" ORDER BY s.id DESC LIMIT ?1",
	[ST_LATEST] = "SELECT max(r.session_id) FROM runs r JOIN configs c ON c.id = r.config_id"
		      " WHERE c.label = ?1 AND r.workload = ?2 AND r.load = ?3"
		      " AND (?4 IS NULL OR r.workload_params = ?4) AND r.status = 'ok'",
	[ST_CALIB_PUT] = "INSERT INTO calibrations (config_id, workload, workload_params, load,"
			 " session_id, created_at, higher_better, runs)"
			 " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
	[ST_CALIB_GET] = "SELECT k.id, k.config_id, k.session_id, k.created_at, k.higher_better,"
			 " k.runs, k.workload_params FROM calibrations k JOIN configs c ON c.id = "
			 "k.config_id"
			 " WHERE c.label = ?1 AND k.workload = ?2"
			 " AND (?3 IS NULL OR k.workload_params = ?3)"
			 " AND k.load = ?4 ORDER BY k.id DESC LIMIT 1",
	/* k.workload_params comes back too, for a search with any */
};

static char *build_sql(enum stmt_id id)
{
	char *cols = NULL, *vals = NULL, *sql = NULL;
	size_t n = 0;

	switch (id) {
	case ST_CONFIG_INSERT:
		n = ct_store_nconfig_cols;
		cols = ct_store_join_cols(ct_store_config_cols, n, "", ", ");
		vals = placeholders(n, 4);
		if (cols && vals &&
		    asprintf(&sql,
			     "INSERT INTO configs (label, sysctls, created_at, %s) VALUES"
			     " (?1, ?2, ?3, %s) ON CONFLICT (label, fingerprint) DO NOTHING",
			     cols, vals) < 0)
			sql = NULL;
		break;
	case ST_CONFIG_GET:
		cols = ct_store_join_cols(ct_store_config_cols, ct_store_nconfig_cols, "", ", ");
		if (cols && asprintf(&sql, "SELECT label, sysctls, %s FROM configs WHERE id = ?1",
				     cols) < 0)
			sql = NULL;
		break;
	case ST_RUN_INSERT:
		n = ct_store_nrun_cols;
		cols = ct_store_join_cols(ct_store_run_cols, n, "", ", ");
		vals = placeholders(n, 1);
		/* the metrics, series and hists as JSON, bound after the columns */
		if (cols && vals &&
		    asprintf(
			    &sql,
			    "INSERT INTO runs (%s, metrics, series, hists) VALUES (%s, ?%zu, ?%zu, "
			    "?%zu)",
			    cols, vals, n + 1, n + 2, n + 3) < 0)
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

static int prepare(struct sq *s, const char *sql, sqlite3_stmt **st, char *err, size_t len)
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
static int stmt(struct sq *s, enum stmt_id id, sqlite3_stmt **out, char *err, size_t len)
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

/* Binds v[0..n-1] to ?1..?n, a NULL as SQL NULL; the SQLite code. */
static int bind_texts(sqlite3_stmt *st, const char *const *v, int n)
{
	int rc = SQLITE_OK;

	for (int i = 0; i < n && rc == SQLITE_OK; i++)
		rc = v[i] ? sqlite3_bind_text(st, i + 1, v[i], -1, SQLITE_STATIC)
			  : sqlite3_bind_null(st, i + 1);
	return rc;
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

static int exec(struct sq *s, const char *sql, const char *what, char *err, size_t len)
{
	int rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);

	if (rc != SQLITE_OK)
		return db_err(s, rc, what, err, len);
	return 0;
}

static void rollback(struct sq *s)
{
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

/* Runs a one-row, one-column query (PRAGMAs); *v is 0 when no row. */
static int query_int(struct sq *s, const char *sql, int64_t *v)
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

static int open_err(struct sq *s, int rc, char *err, size_t len)
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

static int newer_err(struct sq *s, int64_t version, char *err, size_t len)
{
	return ct_err(err, len, -EINVAL,
		      "results store '%s' has schema version %" PRId64
		      ", this contend knows up to %d",
		      s->path, version, SCHEMA_VERSION);
}

/* Refuses, before anything is written, a file that is not a database, a
 * database of another program, or a store of a newer contend. */
static int check_store(struct sq *s, int64_t *version, char *err, size_t len)
{
	int64_t appid, ntables;
	int rc;

	/* one read transaction, so the three come from one state of the file:
	 * read apart, another contend making the store at the same moment could
	 * commit in between, and its tables would show without its id */
	rc = sqlite3_exec(s->db, "BEGIN", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = query_int(s, "PRAGMA application_id", &appid);
	if (rc == SQLITE_OK)
		rc = query_int(s, "PRAGMA user_version", version);
	if (rc == SQLITE_OK)
		rc = query_int(s, "SELECT count(*) FROM sqlite_master", &ntables);
	if (sqlite3_get_autocommit(s->db) == 0)
		sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
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

/* "interleaved seed=N first=ID" (ID 0: the first config itself) */
static int parse_schedule(const char *t, int64_t id, char order[16], uint64_t *seed, int64_t *group)
{
	unsigned long long sd;
	long long first;
	int n = 0;

	if (sscanf(t, "%15s seed=%llu first=%lld%n", order, &sd, &first, &n) != 3 || t[n] ||
	    (strcmp(order, "interleaved") && strcmp(order, "sequential")) || first < 0)
		return -EPROTO;
	*seed = sd;
	*group = first ? first : id;
	return 0;
}

/* For each row of select, fix() binds the parameters of update from it,
 * which then runs: a conversion of text that SQL alone cannot parse. */
static int rewrite_rows(struct sq *s, const char *select, const char *update,
			int (*fix)(struct sq *s, sqlite3_stmt *row, sqlite3_stmt *upd, char *err,
				   size_t len),
			char *err, size_t len)
{
	sqlite3_stmt *rd = NULL, *wr = NULL;
	int rc;

	rc = prepare(s, select, &rd, err, len);
	if (!rc)
		rc = prepare(s, update, &wr, err, len);
	while (!rc && (rc = sqlite3_step(rd)) == SQLITE_ROW) {
		rc = fix(s, rd, wr, err, len);
		if (rc)
			break;
		rc = sqlite3_step(wr);
		sqlite3_reset(wr);
		sqlite3_clear_bindings(wr);
		rc = rc == SQLITE_DONE ? 0 : db_err(s, rc, "migrate the schema", err, len);
	}
	if (rc == SQLITE_DONE)
		rc = 0;
	else if (rc > 0)
		rc = db_err(s, rc, "migrate the schema", err, len);
	sqlite3_finalize(rd);
	sqlite3_finalize(wr);
	return rc;
}

/* A session's schedule text as its three columns. */
static int fix_schedule(struct sq *s, sqlite3_stmt *row, sqlite3_stmt *upd, char *err, size_t len)
{
	int64_t id = sqlite3_column_int64(row, 0), group;
	char order[16];
	uint64_t seed;

	if (parse_schedule((const char *)sqlite3_column_text(row, 1), id, order, &seed, &group))
		return ct_err(err, len, -EPROTO,
			      "session %" PRId64 " in results store '%s' has a damaged schedule",
			      id, s->path);
	sqlite3_bind_text(upd, 1, order, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(upd, 2, (sqlite3_int64)seed);
	sqlite3_bind_int64(upd, 3, group);
	sqlite3_bind_int64(upd, 4, id);
	return 0;
}

/* Metrics "name=value name=value" and series "v v v" of version 3 as JSON. */
static int fix_metrics(struct sq *s, sqlite3_stmt *row, sqlite3_stmt *upd, char *err, size_t len)
{
	int64_t id = sqlite3_column_int64(row, 0);
	const char *m = (const char *)sqlite3_column_text(row, 1);
	const char *t = (const char *)sqlite3_column_text(row, 2);
	char json[CT_RUN_MAX_METRICS * (CT_METRIC_NAME + 32) + 4], *series = NULL;
	struct ct_run *r = calloc(1, sizeof(*r));
	double *v = NULL;
	size_t nv = 0;
	int rc = 0;

	if (!r || ct_store_metrics_parse_v3(m ? m : "", r) ||
	    ct_store_metrics_encode(r, json, sizeof(json)) ||
	    ct_store_series_parse_v3(t ? t : "", &v, &nv) ||
	    !(series = ct_store_series_encode(v, nv)))
		rc = ct_err(err, len, -EPROTO,
			    "run %" PRId64 " in results store '%s' has damaged metrics", id,
			    s->path);
	if (!rc) {
		sqlite3_bind_text(upd, 1, json, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(upd, 2, series, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(upd, 3, id);
	}
	free(r);
	free(v);
	free(series);
	return rc;
}

static int migrate_6(struct sq *s, char *err, size_t len)
{
	int rc = rewrite_rows(s, "SELECT id, schedule FROM sessions WHERE schedule <> ''",
			      "UPDATE sessions SET run_order = ?1, order_seed = ?2, group_id = ?3"
			      " WHERE id = ?4",
			      fix_schedule, err, len);

	if (!rc)
		rc = rewrite_rows(s, "SELECT id, metrics, series FROM runs",
				  "UPDATE runs SET metrics = ?1, series = ?2 WHERE id = ?3",
				  fix_metrics, err, len);
	if (!rc)
		rc = exec(s,
			  "UPDATE runs SET block = seq WHERE session_id IN"
			  " (SELECT id FROM sessions WHERE run_order = 'interleaved');"
			  "ALTER TABLE sessions DROP COLUMN schedule;",
			  "migrate the schema", err, len);
	return rc;
}

/* What SQL alone cannot do, run after migrations[i] in its transaction. */
static int (*const migration_fns[])(struct sq *s, char *err, size_t len) = {
	[5] = migrate_6,
};
_Static_assert(CT_ARRAY_SIZE(migration_fns) <= CT_ARRAY_SIZE(migrations), "migration_fns");

/* Applies the missing migrations, each in its own write transaction. The
 * version is re-read under the write lock so two contends opening a new
 * store at once do not both migrate it. */
static int migrate(struct sq *s, char *err, size_t len)
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
		if (!rc && (size_t)v < CT_ARRAY_SIZE(migration_fns) && migration_fns[v])
			rc = migration_fns[v](s, err, len);
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

static void sq_close(struct ct_store *base);

/* A SQLite URI naming path, read-only: immutable when nothing can be
 * written beside it (a read-only mount: no -shm file can exist, so no
 * lock can be taken, and none is needed). */
static int ro_uri(const char *path, bool immutable, char *buf, size_t len)
{
	size_t o = (size_t)snprintf(buf, len, "file:");

	for (const unsigned char *p = (const unsigned char *)path; *p && o + 4 < len; p++)
		if (*p == '?' || *p == '#' || *p == '%' || *p < 0x21 || *p >= 0x7f)
			o += (size_t)snprintf(buf + o, len - o, "%%%02X", *p);
		else
			buf[o++] = (char)*p;
	buf[o < len ? o : len - 1] = '\0';
	o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "?%s",
			      immutable ? "immutable=1" : "mode=ro");
	return o < len ? 0 : -ENAMETOOLONG;
}

/* A reader's store that cannot be written: opened read-only (immutable
 * when even a lock file cannot be made beside it), checked, never
 * migrated - an older schema is said to need a writable copy. */
static int open_readonly(struct sq *s, int64_t *version, char *err, size_t len)
{
	char uri[8192];
	int rc = -EIO;

	for (int immutable = 0; immutable < 2; immutable++) {
		sqlite3_close(s->db);
		s->db = NULL;
		if (ro_uri(s->path, immutable, uri, sizeof(uri)))
			return ct_err(err, len, -ENAMETOOLONG, "results store path is too long");
		rc = sqlite3_open_v2(uri, &s->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
		if (rc != SQLITE_OK) {
			rc = open_err(s, rc, err, len);
			continue;
		}
		sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
		rc = check_store(s, version, err, len);
		if (!rc)
			break;
	}
	if (rc)
		return rc;
	s->base.readonly = true;
	if (*version < SCHEMA_VERSION)
		return ct_err(err, len, -EROFS,
			      "results store '%s' is read-only and at schema %" PRId64
			      ", older than this contend's %d: copy it somewhere writable to "
			      "read it",
			      s->path, *version, SCHEMA_VERSION);
	return exec(s, "PRAGMA foreign_keys = ON", "configure the connection", err, len);
}

static int sq_open(struct ct_store **out, const char *path, unsigned flags, char *err, size_t len)
{
	bool memory = path && !strcmp(path, ":memory:");
	int oflags = SQLITE_OPEN_READWRITE;
	struct sq *s = NULL;
	struct stat sb;
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
	s->base.ops = &ct_store_sqlite;
	if (!memory && !(flags & CT_STORE_CREATE) && stat(path, &sb)) {
		rc = -errno;
		if (rc == -ENOENT)
			ct_err(err, len, rc, "no results store at '%s'", path);
		else
			ct_err(err, len, rc, "cannot open results store '%s': %s", path,
			       strerror(-rc));
		goto fail;
	}
	if (memory || (flags & CT_STORE_CREATE))
		oflags |= SQLITE_OPEN_CREATE;
	if (!memory && (flags & CT_STORE_CREATE)) {
		rc = make_parent(path);
		if (rc) {
			ct_err(err, len, rc, "cannot open results store '%s': %s", path,
			       strerror(-rc));
			goto fail;
		}
	}
	rc = sqlite3_open_v2(path, &s->db, oflags, NULL);
	if (rc != SQLITE_OK) {
		rc = open_err(s, rc, err, len);
		goto fail;
	}
	sqlite3_busy_timeout(s->db, BUSY_TIMEOUT_MS);
	if (sqlite3_db_readonly(s->db, "main") == 1 && !(flags & CT_STORE_CREATE) && !memory) {
		/* a reader: what it cannot write it can still read */
		rc = open_readonly(s, &version, err, len);
		if (rc)
			goto fail;
		*out = &s->base;
		return 0;
	}
	if (sqlite3_db_readonly(s->db, "main") == 1) {
		/* SQLite fell back to read-only; access() says why. */
		rc = access(path, W_OK) ? -errno : -EACCES;
		ct_err(err, len, rc, "cannot write results store '%s': %s", path, strerror(-rc));
		goto fail;
	}
	rc = check_store(s, &version, err, len);
	if (rc)
		goto fail;

	rc = prepare(s, "PRAGMA journal_mode = WAL", &st, err, len);
	if (rc)
		goto fail;
	/* switching a new file to WAL takes an exclusive lock without waiting
	 * for it: another contend making the same store at this moment holds
	 * one, so wait as the busy timeout would */
	for (int waited = 0;
	     ((rc = sqlite3_step(st)) & 0xff) == SQLITE_BUSY && waited < BUSY_TIMEOUT_MS;
	     waited += 10) {
		sqlite3_reset(st);
		usleep(10000);
	}
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
	*out = &s->base;
	return 0;
fail:
	if (rc == -ENOSPC && s && s->db && !(flags & CT_STORE_CREATE) && !memory) {
		/* a reader on a full disk (no room for the WAL's files): it can
		 * still read what is there */
		sqlite3_finalize(st);
		st = NULL;
		rc = open_readonly(s, &version, err, len);
		if (!rc) {
			*out = &s->base;
			return 0;
		}
	}
	sqlite3_finalize(st);
	if (s)
		sq_close(&s->base);
	return rc;
}

static void sq_close(struct ct_store *base)
{
	struct sq *s = (struct sq *)base;

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

static int config_find(struct sq *s, const char *label, const struct ct_sysinfo *si, int64_t *id,
		       char *err, size_t len)
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

static int sq_config_put(struct ct_store *base, const char *label, const struct ct_sysinfo *si,
			 int64_t *id, char *err, size_t len)
{
	struct sq *s = (struct sq *)base;
	sqlite3_stmt *st = NULL;
	char *sysctls = NULL;
	int rc;

	*id = 0;
	rc = config_find(s, label, si, id, err, len);
	if (rc || *id)
		return rc;

	rc = stmt(s, ST_CONFIG_INSERT, &st, err, len);
	if (rc)
		return rc;
	sysctls = ct_store_sysctl_text(si);
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
		rc = bind_cols(st, 4, ct_store_config_cols, ct_store_nconfig_cols, si);
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

static int sq_config_get(struct ct_store *base, int64_t id, char *label, size_t label_len,
			 struct ct_sysinfo *si, char *err, size_t len)
{
	struct sq *s = (struct sq *)base;
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
		ct_store_sysctl_parse((const char *)sqlite3_column_text(st, 1), si);
		read_cols(st, 2, ct_store_config_cols, ct_store_nconfig_cols, si);
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

/* A write of its own transaction, or part of the caller's (ct_store_begin). */
static int write_begin(struct sq *s, const char *what, char *err, size_t len)
{
	return s->txn ? 0 : exec(s, "BEGIN IMMEDIATE", what, err, len);
}

static int write_end(struct sq *s, int rc, const char *what, char *err, size_t len)
{
	if (s->txn)
		return rc;
	if (!rc)
		rc = exec(s, "COMMIT", what, err, len);
	if (rc)
		rollback(s);
	return rc;
}

static int bind_session(sqlite3_stmt *st, const struct ct_session_rec *rec)
{
	int rc = rec->config_id ? sqlite3_bind_int64(st, 1, rec->config_id)
				: sqlite3_bind_null(st, 1);

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
		rc = sqlite3_bind_int64(st, 7, rec->owner.pid);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 8, (sqlite3_int64)rec->owner.start);
	if (rc == SQLITE_OK)
		rc = bind_text(st, 9, rec->owner.boot, sizeof(rec->owner.boot));
	if (rc == SQLITE_OK)
		rc = bind_text(st, 10, rec->owner.machine, sizeof(rec->owner.machine));
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 11, rec->group_id);
	if (rc == SQLITE_OK)
		rc = bind_text(st, 12, rec->order, sizeof(rec->order));
	if (rc == SQLITE_OK)
		/* seeds past INT64_MAX wrap and wrap back on read */
		rc = sqlite3_bind_int64(st, 13, (sqlite3_int64)rec->order_seed);
	if (rc == SQLITE_OK)
		rc = bind_text(st, 14, rec->uuid, sizeof(rec->uuid));
	if (rc == SQLITE_OK)
		rc = bind_text(st, 15, rec->owner.host, sizeof(rec->owner.host));
	return rc;
}

/* Inserts rec as it is (ct_store_session_begin made it a new running
 * session); the first session of a group becomes the group. */
static int sq_session_put(struct ct_store *base, struct ct_session_rec *rec, char *err, size_t len)
{
	struct sq *s = (struct sq *)base;
	sqlite3_stmt *st;
	int rc;

	rc = stmt(s, ST_SESSION_BEGIN, &st, err, len);
	if (rc)
		return rc;
	rc = write_begin(s, "store session", err, len);
	if (rc)
		return rc;
	rc = bind_session(st, rec);
	if (rc == SQLITE_OK)
		rc = rec->ended_at ? sqlite3_bind_int64(st, 16, rec->ended_at)
				   : sqlite3_bind_null(st, 16);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		rec->id = sqlite3_last_insert_rowid(s->db);
		rc = 0;
	} else {
		rc = db_err(s, rc, "store session", err, len);
	}
	stmt_done(st);
	if (!rc && rec->order[0] && !rec->group_id) {
		char sql[96];

		snprintf(sql, sizeof(sql), "UPDATE sessions SET group_id = id WHERE id = %" PRId64,
			 rec->id);
		rc = exec(s, sql, "store session", err, len);
		if (!rc)
			rec->group_id = rec->id;
	}
	rc = write_end(s, rc, "store session", err, len);
	if (rc)
		rec->id = 0;
	return rc;
}

static int sq_session_find(struct ct_store *base, const char *uuid, int64_t *id, char *err,
			   size_t len)
{
	struct sq *s = (struct sq *)base;
	sqlite3_stmt *st = NULL;
	int rc;

	*id = 0;
	rc = prepare(s, "SELECT id FROM sessions WHERE uuid = ?1", &st, err, len);
	if (rc)
		return rc;
	rc = sqlite3_bind_text(st, 1, uuid, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	rc = rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : db_err(s, rc, "find a session", err, len);
	sqlite3_finalize(st);
	return rc;
}

static int sq_session_end(struct ct_store *base, int64_t id, const char *status, char *err,
			  size_t len)
{
	struct sq *s = (struct sq *)base;
	sqlite3_stmt *st;
	int rc;

	rc = stmt(s, ST_SESSION_END, &st, err, len);
	if (rc)
		return rc;
	rc = sqlite3_bind_text(st, 1, status, -1, SQLITE_STATIC);
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

/* The text of column col ("series", "hists") of run run_id, malloc'd;
 * what says it in an error ("read a run's series"). */
static int run_text(struct sq *s, int64_t run_id, const char *col, const char *what, char **out,
		    char *err, size_t len)
{
	sqlite3_stmt *st = NULL;
	char sql[64];
	int rc;

	*out = NULL;
	snprintf(sql, sizeof(sql), "SELECT %s FROM runs WHERE id = ?1", col);
	rc = prepare(s, sql, &st, err, len);
	if (rc)
		return rc;
	rc = sqlite3_bind_int64(st, 1, run_id);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);

		*out = strdup(t ? t : "");
		rc = *out ? 0 : ct_err(err, len, -ENOMEM, "out of memory");
	} else {
		rc = rc == SQLITE_DONE ? ct_err(err, len, -ENOENT, "no run %" PRId64, run_id)
				       : db_err(s, rc, what, err, len);
	}
	sqlite3_finalize(st);
	return rc;
}

static int sq_run_series(struct ct_store *base, int64_t run_id, double **out, size_t *n, char *err,
			 size_t len)
{
	struct sq *s = (struct sq *)base;
	char *text;
	int rc;

	*out = NULL;
	*n = 0;
	rc = run_text(s, run_id, "series", "read a run's series", &text, err, len);
	if (!rc && (rc = ct_store_series_decode(text, out, n)))
		rc = ct_err(err, len, rc,
			    "run %" PRId64 " in results store '%s' has a damaged series", run_id,
			    s->path);
	free(text);
	return rc;
}

static int sq_run_hists(struct ct_store *base, int64_t run_id, char **out, char *err, size_t len)
{
	return run_text((struct sq *)base, run_id, "hists", "read a run's histograms", out, err,
			len);
}

/* Binds the metrics, series and hists of r after its n columns. */
static int bind_json(struct sq *s, sqlite3_stmt *st, int n, const struct ct_run *r, char *err,
		     size_t len)
{
	char metrics[CT_RUN_MAX_METRICS * (CT_METRIC_NAME + 32) + 4];
	char *series = NULL, *hists;
	int rc;

	if (ct_store_metrics_encode(r, metrics, sizeof(metrics)))
		return ct_err(err, len, -EINVAL, "run has metrics that cannot be stored");
	if (r->series && r->nseries) {
		series = ct_store_series_encode(r->series, r->nseries);
		if (!series)
			return ct_err(err, len, -ENOMEM, "out of memory");
	}
	hists = r->nhists ? ct_store_hists_encode(r) : NULL;
	if (r->nhists && !hists) {
		free(series);
		return ct_err(err, len, -ENOMEM, "out of memory");
	}
	rc = sqlite3_bind_text(st, n + 1, metrics, -1, SQLITE_TRANSIENT);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, n + 2, series ? series : "[]", -1, SQLITE_TRANSIENT);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, n + 3, hists ? hists : "", -1, SQLITE_TRANSIENT);
	free(series);
	free(hists);
	return rc == SQLITE_OK ? 0 : db_err(s, rc, "store run", err, len);
}

static int sq_run_put(struct ct_store *base, struct ct_run *r, char *err, size_t len)
{
	struct sq *s = (struct sq *)base;
	sqlite3_stmt *st = NULL;
	int rc;

	rc = stmt(s, ST_RUN_INSERT, &st, err, len);
	if (rc)
		return rc;
	rc = write_begin(s, "store run", err, len);
	if (rc)
		return rc;
	rc = bind_cols(st, 1, ct_store_run_cols, ct_store_nrun_cols, r);
	if (rc != SQLITE_OK) {
		rc = db_err(s, rc, "store run", err, len);
		goto out;
	}
	rc = bind_json(s, st, (int)ct_store_nrun_cols, r, err, len);
	if (rc)
		goto out;
	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE) {
		rc = db_err(s, rc, "store run", err, len);
		goto out;
	}
	r->id = sqlite3_last_insert_rowid(s->db);
	rc = 0;
out:
	stmt_done(st);
	rc = write_end(s, rc, "store run", err, len);
	if (rc)
		r->id = 0;
	return rc;
}

static int runs_stmt(struct sq *s, unsigned mask, sqlite3_stmt **out, char *err, size_t len)
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
	cols = ct_store_join_cols(ct_store_run_cols, ct_store_nrun_cols, "r.", ", ");
	if (cols && asprintf(&sql,
			     "SELECT r.id, c.label, r.metrics, %s FROM runs r"
			     " JOIN configs c ON c.id = r.config_id%s ORDER BY r.id",
			     cols, where) < 0)
		sql = NULL;
	rc = prepare(s, sql, &s->runs_st[mask], err, len);
	free(cols);
	free(sql);
	*out = s->runs_st[mask];
	return rc;
}

static int sq_runs(struct ct_store *base, const struct ct_run_filter *f, struct ct_run **out,
		   size_t *n, char *err, size_t len)
{
	struct sq *s = (struct sq *)base;
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
		bad = read_cols(st, 3, ct_store_run_cols, ct_store_nrun_cols, r);
		if (bad) {
			rc = ct_err(err, len, -EPROTO,
				    "run %" PRId64 " in results store '%s' has unknown status '%s'",
				    r->id, s->path, sqlite3_column_text(st, bad - 1));
			goto out;
		}
		if (ct_store_metrics_decode((const char *)sqlite3_column_text(st, 2), r)) {
			rc = ct_err(err, len, -EPROTO,
				    "run %" PRId64 " in results store '%s' has damaged metrics",
				    r->id, s->path);
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

static int sq_sessions(struct ct_store *base, size_t limit, struct ct_session_rec **out, size_t *n,
		       char *err, size_t len)
{
	struct sq *s = (struct sq *)base;
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
		rec->owner.pid = (int)sqlite3_column_int64(st, 11);
		rec->owner.start = (uint64_t)sqlite3_column_int64(st, 12);
		col_text(st, 13, rec->owner.boot, sizeof(rec->owner.boot));
		col_text(st, 14, rec->owner.machine, sizeof(rec->owner.machine));
		rec->group_id = sqlite3_column_int64(st, 15);
		col_text(st, 16, rec->order, sizeof(rec->order));
		rec->order_seed = (uint64_t)sqlite3_column_int64(st, 17);
		col_text(st, 18, rec->uuid, sizeof(rec->uuid));
		col_text(st, 19, rec->owner.host, sizeof(rec->owner.host));
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

static int sq_latest_session_with(struct ct_store *base, const char *label, const char *workload,
				  const char *load, const char *workload_params,
				  int64_t *session_id, char *err, size_t len)
{
	struct sq *s = (struct sq *)base;
	sqlite3_stmt *st;
	int rc;

	*session_id = 0;
	rc = stmt(s, ST_LATEST, &st, err, len);
	if (rc)
		return rc;
	rc = bind_texts(st, (const char *const[]){ label, workload, load, workload_params }, 4);
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

static int sq_calibration_put(struct ct_store *base, struct ct_calibration *c, char *err,
			      size_t len)
{
	struct sq *s = (struct sq *)base;
	char *runs = ct_store_series_encode(c->values, c->n);
	sqlite3_stmt *st;
	int rc;

	if (!runs)
		return ct_err(err, len, -ENOMEM, "out of memory");
	rc = stmt(s, ST_CALIB_PUT, &st, err, len);
	if (rc) {
		free(runs);
		return rc;
	}
	rc = sqlite3_bind_int64(st, 1, c->config_id);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 2, c->workload, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 3, c->workload_params, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 4, c->load, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 5, c->session_id);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(st, 6, c->created_at);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int(st, 7, c->higher_better);
	if (rc == SQLITE_OK)
		rc = sqlite3_bind_text(st, 8, runs, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_DONE) {
		c->id = sqlite3_last_insert_rowid(s->db);
		rc = 0;
	} else {
		rc = db_err(s, rc, "store a calibration", err, len);
	}
	stmt_done(st);
	free(runs);
	return rc;
}

static int sq_calibration_get(struct ct_store *base, const char *label, const char *workload,
			      const char *workload_params, const char *load,
			      struct ct_calibration *c, char *err, size_t len)
{
	struct sq *s = (struct sq *)base;
	sqlite3_stmt *st;
	int rc;

	memset(c, 0, sizeof(*c));
	rc = stmt(s, ST_CALIB_GET, &st, err, len);
	if (rc)
		return rc;
	rc = bind_texts(st, (const char *const[]){ label, workload, workload_params, load }, 4);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const char *runs = (const char *)sqlite3_column_text(st, 5);

		c->id = sqlite3_column_int64(st, 0);
		c->config_id = sqlite3_column_int64(st, 1);
		c->session_id = sqlite3_column_int64(st, 2);
		c->created_at = sqlite3_column_int64(st, 3);
		c->higher_better = sqlite3_column_int(st, 4) != 0;
		snprintf(c->label, sizeof(c->label), "%s", label);
		snprintf(c->workload, sizeof(c->workload), "%s", workload);
		snprintf(c->workload_params, sizeof(c->workload_params), "%s",
			 (const char *)sqlite3_column_text(st, 6));
		snprintf(c->load, sizeof(c->load), "%s", load);
		rc = ct_store_series_decode(runs ? runs : "", &c->values, &c->n);
		if (rc)
			rc = ct_err(err, len, rc, "calibration %lld: its runs are not a JSON array",
				    (long long)c->id);
	} else if (rc == SQLITE_DONE) {
		rc = -ENOENT; /* none: no message, the caller says what to do */
	} else {
		rc = db_err(s, rc, "read a calibration", err, len);
	}
	stmt_done(st);
	return rc;
}

static int sq_knob_rows(struct ct_store *base, struct ct_store_knob_row **out, size_t *n, char *err,
			size_t len)
{
	struct sq *s = (struct sq *)base;
	struct ct_store_knob_row *rows = NULL, *grown, *r;
	size_t cap = 0, cnt = 0;
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	*n = 0;
	rc = prepare(s,
		     "SELECT path, knob, original, session_pid, boot_id, created_at"
		     " FROM knob_journal ORDER BY id",
		     &st, err, len);
	if (rc)
		return rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (cnt == cap) {
			cap = cap ? cap * 2 : 8;
			grown = realloc(rows, cap * sizeof(*rows));
			if (!grown) {
				rc = ct_err(err, len, -ENOMEM, "out of memory");
				goto out;
			}
			rows = grown;
		}
		r = &rows[cnt++];
		memset(r, 0, sizeof(*r));
		col_text(st, 0, r->path, sizeof(r->path));
		col_text(st, 1, r->knob, sizeof(r->knob));
		col_text(st, 2, r->original, sizeof(r->original));
		r->session_pid = (int)sqlite3_column_int64(st, 3);
		col_text(st, 4, r->boot_id, sizeof(r->boot_id));
		r->created_at = sqlite3_column_int64(st, 5);
	}
	if (rc != SQLITE_DONE) {
		rc = db_err(s, rc, "read the knob journal", err, len);
		goto out;
	}
	rc = 0;
	*out = rows;
	*n = cnt;
	rows = NULL;
out:
	sqlite3_finalize(st);
	free(rows);
	return rc;
}

static int sq_knob_rows_clear(struct ct_store *base, char *err, size_t len)
{
	return exec((struct sq *)base, "DELETE FROM knob_journal", "clear the knob journal", err,
		    len);
}

static int sq_begin(struct ct_store *base, char *err, size_t len)
{
	struct sq *s = (struct sq *)base;
	int rc;

	if (s->txn) {
		s->txn++;
		return 0;
	}
	rc = exec(s, "BEGIN IMMEDIATE", "begin a transaction", err, len);
	if (!rc)
		s->txn = 1;
	return rc;
}

static int sq_commit(struct ct_store *base, char *err, size_t len)
{
	struct sq *s = (struct sq *)base;
	int rc;

	if (!s->txn)
		return ct_err(err, len, -EINVAL, "no transaction to commit");
	if (--s->txn)
		return 0;
	rc = exec(s, "COMMIT", "commit a transaction", err, len);
	if (rc)
		rollback(s);
	return rc;
}

static void sq_rollback(struct ct_store *base)
{
	struct sq *s = (struct sq *)base;

	s->txn = 0;
	rollback(s);
}

/* SQLite takes every target that is not a URI of another backend. */
static bool sq_accepts(const char *target)
{
	return !strstr(target, "://");
}

const struct ct_store_ops ct_store_sqlite = {
	.name = "sqlite",
	.accepts = sq_accepts,
	.open = sq_open,
	.close = sq_close,
	.begin = sq_begin,
	.commit = sq_commit,
	.rollback = sq_rollback,
	.config_put = sq_config_put,
	.config_get = sq_config_get,
	.session_put = sq_session_put,
	.session_end = sq_session_end,
	.session_find = sq_session_find,
	.sessions = sq_sessions,
	.run_put = sq_run_put,
	.runs = sq_runs,
	.run_series = sq_run_series,
	.run_hists = sq_run_hists,
	.latest_session_with = sq_latest_session_with,
	.knob_rows = sq_knob_rows,
	.knob_rows_clear = sq_knob_rows_clear,
	.calibration_put = sq_calibration_put,
	.calibration_get = sq_calibration_get,
};
