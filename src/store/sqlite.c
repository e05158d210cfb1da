/*
 * The SQLite driver of the results store (docs/store.md): one file,
 * WAL mode, a schema version in PRAGMA user_version moved forward by an
 * append-only list of migrations, and a cursor for query.c's statements.
 * The only file that includes sqlite3.h; every value reaches SQL through a
 * bound parameter.
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
	/* 11: the passwords that stored command lines held hidden
	 * (migrate_11) */
	NULL,
	/* 12: the host's reference a session takes at its start, between
	 * rounds and at its end (CPU speed, memory and disk bandwidth), so
	 * compare can say how far the host drifted between two configs'
	 * sessions; a figure that could not be measured is NULL */
	"CREATE TABLE refs ("
	" id INTEGER PRIMARY KEY,"
	" session_id INTEGER NOT NULL REFERENCES sessions (id),"
	" seq INTEGER NOT NULL,"
	" taken_at INTEGER NOT NULL,"
	" phase TEXT NOT NULL,"
	" cpu_speed REAL,"
	" mem_gbps REAL,"
	" disk_mbps REAL,"
	" UNIQUE (session_id, seq));",
	/* 13: bisections (contend bisect): the range and how it measures,
	 * then each step in turn - a candidate's measurement against its
	 * base, the session group that holds its runs, and its answer - so
	 * a bisection resumes from the store and the search replays */
	"CREATE TABLE bisections ("
	" id INTEGER PRIMARY KEY,"
	" repo TEXT NOT NULL,"
	" good TEXT NOT NULL,"
	" bad TEXT NOT NULL,"
	" mode TEXT NOT NULL,"
	" argv TEXT NOT NULL,"
	" status TEXT NOT NULL,"
	" culprit TEXT NOT NULL DEFAULT '',"
	" note TEXT NOT NULL DEFAULT '',"
	" started_at INTEGER NOT NULL,"
	" ended_at INTEGER);"
	"CREATE INDEX bisections_by_repo ON bisections (repo);"
	"CREATE TABLE bisect_steps ("
	" id INTEGER PRIMARY KEY,"
	" bisection_id INTEGER NOT NULL REFERENCES bisections (id),"
	" seq INTEGER NOT NULL,"
	" role TEXT NOT NULL,"
	" sha TEXT NOT NULL,"
	" base TEXT NOT NULL,"
	" session_id INTEGER REFERENCES sessions (id),"
	" answer TEXT NOT NULL DEFAULT '',"
	" why TEXT NOT NULL DEFAULT '',"
	" runs INTEGER NOT NULL DEFAULT 0,"
	" have_effect INTEGER NOT NULL DEFAULT 0,"
	" effect REAL NOT NULL DEFAULT 0,"
	" effect_low REAL NOT NULL DEFAULT 0,"
	" effect_high REAL NOT NULL DEFAULT 0,"
	" created_at INTEGER NOT NULL,"
	" ended_at INTEGER);"
	"CREATE INDEX bisect_steps_by_bisection ON bisect_steps (bisection_id);",
	/* 14: history (contend history): the commit a session measured
	 * (run --commit) and the change points that were seen */
	"ALTER TABLE sessions ADD COLUMN commit_sha TEXT NOT NULL DEFAULT '';"
	"ALTER TABLE sessions ADD COLUMN commit_time INTEGER;"
	"CREATE TABLE history_acks ("
	" id INTEGER PRIMARY KEY,"
	" session_uuid TEXT NOT NULL,"
	" workload TEXT NOT NULL,"
	" load TEXT NOT NULL,"
	" machine TEXT NOT NULL,"
	" note TEXT NOT NULL DEFAULT '',"
	" acked_at INTEGER NOT NULL);"
	"CREATE INDEX history_acks_by_workload ON history_acks (workload);",
	/* 15: the suite files jobs ran from (run -f), by their sessions' tag */
	"CREATE TABLE suites ("
	" id INTEGER PRIMARY KEY,"
	" tag TEXT NOT NULL UNIQUE,"
	" text TEXT NOT NULL,"
	" stored_at INTEGER NOT NULL);",
	/* 16: a run's counters (contend why): what its foreground's tasks
	 * did with their time, what its cgroup and the machine did */
	"ALTER TABLE runs ADD COLUMN counters TEXT NOT NULL DEFAULT '';",
};

#define SCHEMA_VERSION ((int)CT_ARRAY_SIZE(migrations))
_Static_assert(CT_ARRAY_SIZE(migrations) == CT_STORE_SCHEMA, "SQLite's migrations");

struct sq {
	struct db base; /* first */
	sqlite3 *db;
};

struct db_stmt {
	struct sq *s;
	sqlite3_stmt *st;
	int bind_rc; /* the first bind that failed, reported by step */
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
	if (s->base.store->readonly && (rc & 0xff) == SQLITE_READONLY)
		return ct_err(err, len, -EROFS, "cannot %s in results store '%s': %s", what,
			      s->base.name, ct_store_sqlite.readonly_why);
	return ct_err(err, len, map_rc(s->db, rc), "cannot %s in results store '%s': %s", what,
		      s->base.name, sqlite3_errmsg(s->db));
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
		return ct_err(err, len, e, "cannot open results store '%s': %s", s->base.name,
			      strerror(-e));
	return ct_err(err, len, e, "cannot open results store '%s': %s", s->base.name,
		      s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
}

/* The directory of path made (mkdir), or checked to be there. */
static int make_parent(const char *path, bool mkdir, char *err, size_t len)
{
	const char *slash = strrchr(path, '/');
	struct stat sb;
	char *dir;
	int rc = 0;

	if (!slash || slash == path)
		return 0;
	dir = strndup(path, (size_t)(slash - path));
	if (!dir)
		return ct_err(err, len, -ENOMEM, "out of memory");
	if (mkdir)
		rc = ct_mkdir_p(dir, 0755);
	else if (stat(dir, &sb))
		rc = -errno;
	else if (!S_ISDIR(sb.st_mode))
		rc = -ENOTDIR;
	if (!mkdir && (rc == -ENOENT || rc == -ENOTDIR)) /* a typo in the path: -ENOTDIR */
		rc = ct_err(err, len, -ENOTDIR,
			    "cannot make results store '%s': '%s' is no directory (make it first)",
			    path, dir);
	else if (rc)
		ct_err(err, len, rc, "cannot open results store '%s': %s", path, strerror(-rc));
	free(dir);
	return rc;
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
	/* the error is said before COMMIT, which would leave SQLite's message
	 * for no error ("not an error") in its place */
	if ((rc & 0xff) == SQLITE_NOTADB)
		rc = ct_err(err, len, -EINVAL, "'%s' is not a contend results store: %s",
			    s->base.name, sqlite3_errstr(rc));
	else if (rc != SQLITE_OK)
		rc = open_err(s, rc, err, len);
	if (sqlite3_get_autocommit(s->db) == 0)
		sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL);
	if (rc)
		return rc;

	if (appid != 0 && appid != CT_STORE_APP_ID)
		return ct_err(err, len, -EINVAL,
			      "'%s' is not a contend results store (application id %" PRId64 ")",
			      s->base.name, appid);
	if (*version > SCHEMA_VERSION)
		return ct_store_newer_err(&s->base, *version, err, len);
	if (appid == 0 && (ntables || *version))
		return ct_err(err, len, -EINVAL,
			      "'%s' is not a contend results store (a database of another program)",
			      s->base.name);
	return 0;
}

/* 6: the schedule, metrics and series of earlier versions as columns and
 * JSON (migrate.c), each interleaved run's block its seq */
static int migrate_6(struct sq *s, char *err, size_t len)
{
	int rc = ct_store_migrate_6(&s->base, err, len);

	if (!rc)
		rc = exec(s,
			  "UPDATE runs SET block = seq WHERE session_id IN"
			  " (SELECT id FROM sessions WHERE run_order = 'interleaved');"
			  "ALTER TABLE sessions DROP COLUMN schedule;",
			  "migrate the schema", err, len);
	return rc;
}

/* 11: the passwords that command lines held, hidden (migrate.c) */
static int migrate_11(struct sq *s, char *err, size_t len)
{
	return ct_store_migrate_11(&s->base, err, len);
}

/* What SQL alone cannot do, run after migrations[i] in its transaction. */
static int (*const migration_fns[])(struct sq *s, char *err, size_t len) = {
	[5] = migrate_6,
	[10] = migrate_11,
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
		if (migrations[v])
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
		return ct_store_newer_err(&s->base, v, err, len);
	return 0;
fail:
	rollback(s);
	return rc;
}

static void sq_close(struct db *base);

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
		if (ro_uri(s->base.name, immutable, uri, sizeof(uri)))
			return ct_err(err, len, -ENAMETOOLONG, "results store path is too long");
		rc = sqlite3_open_v2(uri, &s->db,
				     SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX,
				     NULL);
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
	s->base.store->readonly = true;
	if (*version < SCHEMA_VERSION)
		return ct_err(err, len, -EROFS,
			      "results store '%s' is read-only and at schema %" PRId64
			      ", older than this contend's %d: copy it somewhere writable to "
			      "read it",
			      s->base.name, *version, SCHEMA_VERSION);
	return exec(s, "PRAGMA foreign_keys = ON", "configure the connection", err, len);
}

static int sq_open(struct db **out, struct ct_store *store, const char *path, unsigned flags,
		   char *err, size_t len)
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
	if (!s || !(s->base.name = strdup(path))) {
		rc = ct_err(err, len, -ENOMEM, "out of memory");
		goto fail;
	}
	s->base.ops = &ct_store_sqlite;
	s->base.store = store;
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
		rc = make_parent(path, !(flags & CT_STORE_NO_MKDIR), err, len);
		if (rc)
			goto fail;
	}
	/* a connection is one thread's: no locking of its own around every
	 * call (a reader of a million rows makes millions) */
	rc = sqlite3_open_v2(path, &s->db, oflags | SQLITE_OPEN_NOMUTEX, NULL);
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

static void sq_close(struct db *base)
{
	/* the last connection checkpoints and removes the WAL file */
	if (base)
		sqlite3_close(((struct sq *)base)->db);
	ct_store_db_free(base);
}

static int sq_begin(struct db *base, const char *what, char *err, size_t len)
{
	return exec((struct sq *)base, "BEGIN IMMEDIATE", what, err, len);
}

static void sq_rollback(struct db *base)
{
	rollback((struct sq *)base);
}

static int sq_commit(struct db *base, const char *what, char *err, size_t len)
{
	int rc = exec((struct sq *)base, "COMMIT", what, err, len);

	if (rc)
		sq_rollback(base);
	return rc;
}

static int sq_prepare(struct db *base, const char *sql, struct db_stmt **out, char *err, size_t len)
{
	struct sq *s = (struct sq *)base;
	struct db_stmt *st = calloc(1, sizeof(*st));
	int rc;

	*out = NULL;
	if (!st)
		return ct_err(err, len, -ENOMEM, "out of memory");
	st->s = s;
	rc = prepare(s, sql, &st->st, err, len);
	if (rc) {
		free(st);
		return rc;
	}
	*out = st;
	return 0;
}

static void sq_finalize(struct db_stmt *st)
{
	sqlite3_finalize(st->st);
	free(st);
}

static void bound(struct db_stmt *st, int rc)
{
	if (rc != SQLITE_OK && !st->bind_rc)
		st->bind_rc = rc;
}

static void sq_bind_i64(struct db_stmt *st, int i, int64_t v)
{
	bound(st, sqlite3_bind_int64(st->st, i, v));
}

static void sq_bind_double(struct db_stmt *st, int i, double v)
{
	bound(st, sqlite3_bind_double(st->st, i, v));
}

static void sq_bind_text(struct db_stmt *st, int i, const char *t, size_t size)
{
	bound(st, t ? sqlite3_bind_text(st->st, i, t, (int)strnlen(t, size), SQLITE_TRANSIENT)
		    : sqlite3_bind_null(st->st, i));
}

static int sq_step(struct db_stmt *st, const char *what, char *err, size_t len)
{
	int rc = st->bind_rc ? st->bind_rc : sqlite3_step(st->st);

	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 : db_err(st->s, rc, what, err, len);
}

static void sq_reset(struct db_stmt *st)
{
	sqlite3_reset(st->st);
	sqlite3_clear_bindings(st->st);
	st->bind_rc = 0;
}

static int64_t sq_col_i64(struct db_stmt *st, int i)
{
	return sqlite3_column_int64(st->st, i);
}

static double sq_col_double(struct db_stmt *st, int i)
{
	return sqlite3_column_double(st->st, i);
}

static const char *sq_col_text(struct db_stmt *st, int i)
{
	const char *t = (const char *)sqlite3_column_text(st->st, i);

	return t ? t : "";
}

/* SQLite takes every target that is not a URI of another backend. */
static bool sq_accepts(const char *target)
{
	return !strstr(target, "://");
}

const struct db_ops ct_store_sqlite =
	CT_STORE_DRIVER(sq, .name = "sqlite",
			.readonly_why = "it was opened read-only (the file or its "
					"filesystem cannot be written)",
			.knob_journal = true);
