/*
 * The store's entity operations, written once over a driver's cursor
 * (internal.h): configs, sessions, runs, references, calibrations and the transactions
 * around them. Every SQL text is here, with ?N placeholders, and every
 * value reaches it as a bound parameter; the columns come from cols.c.
 */
#include "internal.h"
#include "contend/util.h"

#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const sql_text[Q__COUNT] = {
	[Q_CONFIG_FIND] = "SELECT id FROM configs WHERE label = ?1 AND fingerprint = ?2",
	[Q_SESSION_GROUP] = "UPDATE sessions SET group_id = id WHERE id = ?1",
	[Q_SESSION_END] = "UPDATE sessions SET status = ?1, ended_at = ?2 WHERE id = ?3"
			  " RETURNING id",
	[Q_SESSION_FIND] = "SELECT id FROM sessions WHERE uuid = ?1",
	[Q_SESSION_COUNTS] = "SELECT count(*), coalesce(sum(CASE WHEN status <> 'ok' THEN 1"
			     " ELSE 0 END), 0) FROM runs WHERE session_id = ?1",
	[Q_RUN_SERIES] = "SELECT series FROM runs WHERE id = ?1",
	[Q_RUN_HISTS] = "SELECT hists FROM runs WHERE id = ?1",
	[Q_RUN_COUNTERS] = "SELECT counters FROM runs WHERE id = ?1",
	[Q_LATEST] = "SELECT max(r.session_id) FROM runs r JOIN configs c ON c.id = r.config_id"
		     " WHERE c.label = ?1 AND r.workload = ?2 AND r.load = ?3"
		     " AND (CAST(?4 AS TEXT) IS NULL OR r.workload_params = ?4)"
		     " AND r.status = 'ok'",
	[Q_CALIB_PUT] = "INSERT INTO calibrations (config_id, workload, workload_params, load,"
			" session_id, created_at, higher_better, runs)"
			" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) RETURNING id",
	/* workload_params comes back too, for a search with any */
	[Q_CALIB_GET] = "SELECT k.id, k.config_id, k.session_id, k.created_at, k.higher_better,"
			" k.runs, k.workload_params FROM calibrations k"
			" JOIN configs c ON c.id = k.config_id WHERE c.label = ?1"
			" AND k.workload = ?2 AND (CAST(?3 AS TEXT) IS NULL OR"
			" k.workload_params = ?3) AND k.load = ?4 ORDER BY k.id DESC LIMIT 1",
	[Q_REF_PUT] = "INSERT INTO refs (session_id, seq, taken_at, phase, cpu_speed, mem_gbps,"
		      " disk_mbps) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	[Q_REFS] = "SELECT seq, taken_at, phase, cpu_speed, mem_gbps, disk_mbps FROM refs"
		   " WHERE session_id = ?1 ORDER BY seq",
};

/* ?first, ?first+1, ... n of them, malloc'd */
static char *placeholders(size_t n, size_t first)
{
	char *buf = malloc(n * 8 + 1), *p = buf;

	if (!buf)
		return NULL;
	*p = '\0';
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "%s?%zu", i ? ", " : "", first + i);
	return buf;
}

/* The statements whose columns come from cols.c. */
static char *build_sql(int id)
{
	const struct col *cols = ct_store_config_cols;
	size_t n = ct_store_nconfig_cols;
	char *names, *vals = NULL, *sql = NULL;
	int rc = 0;

	if (id == Q_SESSION_PUT)
		cols = ct_store_session_cols, n = ct_store_nsession_cols;
	else if (id == Q_RUN_PUT)
		cols = ct_store_run_cols, n = ct_store_nrun_cols;
	names = ct_store_join_cols(cols, n, "", ", ");
	if (!names)
		return NULL;
	switch (id) {
	case Q_CONFIG_PUT:
		vals = placeholders(n, 4);
		rc = vals ? asprintf(&sql,
				     "INSERT INTO configs (label, sysctls, created_at, %s)"
				     " VALUES (?1, ?2, ?3, %s) ON CONFLICT (label, fingerprint)"
				     " DO NOTHING",
				     names, vals)
			  : -1;
		break;
	case Q_CONFIG_GET:
		rc = asprintf(&sql, "SELECT label, sysctls, %s FROM configs WHERE id = ?1", names);
		break;
	case Q_SESSION_PUT:
		vals = placeholders(n, 1);
		rc = vals ? asprintf(&sql, "INSERT INTO sessions (%s) VALUES (%s) RETURNING id",
				     names, vals)
			  : -1;
		break;
	case Q_RUN_PUT:
		/* the metrics, series, hists and counters as JSON, after the
		 * columns */
		vals = placeholders(n + 4, 1);
		rc = vals ? asprintf(&sql,
				     "INSERT INTO runs (%s, metrics, series, hists, counters) "
				     "VALUES (%s)"
				     " RETURNING id",
				     names, vals)
			  : -1;
		break;
	default:
		sql = strdup(sql_text[id]);
		break;
	}
	free(names);
	free(vals);
	return rc < 0 ? NULL : sql;
}

int ct_store_prepare(struct store *s, const char *sql, struct db_stmt **out, char *err, size_t len)
{
	if (!sql)
		return ct_err(err, len, -ENOMEM, "out of memory");
	return DB(s)->prepare(s->db, sql, out, err, len);
}

/* The cached statement id, prepared on its first use. */
int ct_store_stmt(struct store *s, int id, struct db_stmt **out, char *err, size_t len)
{
	if (!s->st[id]) {
		char *sql = build_sql(id);
		int rc = ct_store_prepare(s, sql, &s->st[id], err, len);

		free(sql);
		if (rc)
			return rc;
	}
	*out = s->st[id];
	return 0;
}

/* Binds base's members as ?first, ?first+1, ... */
void ct_store_bind_cols(struct store *s, struct db_stmt *st, int first, const struct col *cols,
			size_t n, const void *base)
{
	for (size_t i = 0; i < n; i++) {
		const char *p = (const char *)base + cols[i].off;
		int idx = first + (int)i;

		switch (cols[i].type) {
		case COL_I64:
			DB(s)->bind_i64(st, idx, *(const int64_t *)p);
			break;
		case COL_ID:
			if (*(const int64_t *)p)
				DB(s)->bind_i64(st, idx, *(const int64_t *)p);
			else
				DB(s)->bind_text(st, idx, NULL, 0);
			break;
		case COL_U64: /* values past INT64_MAX wrap and wrap back on read */
			DB(s)->bind_i64(st, idx, (int64_t) * (const uint64_t *)p);
			break;
		case COL_INT:
			DB(s)->bind_i64(st, idx, *(const int *)p);
			break;
		case COL_UINT:
			DB(s)->bind_i64(st, idx, *(const unsigned *)p);
			break;
		case COL_BOOL:
			DB(s)->bind_i64(st, idx, *(const bool *)p);
			break;
		case COL_DOUBLE:
			DB(s)->bind_double(st, idx, *(const double *)p);
			break;
		case COL_TEXT:
			DB(s)->bind_text(st, idx, p, cols[i].size);
			break;
		case COL_ENUM: {
			const char *name =
				ct_enum_name(cols[i].names, cols[i].size, *(const unsigned *)p);

			DB(s)->bind_text(st, idx, name, strlen(name) + 1);
			break;
		}
		}
	}
}

void ct_store_bind_str(struct store *s, struct db_stmt *st, int i, const char *t)
{
	DB(s)->bind_text(st, i, t, t ? strlen(t) + 1 : 0);
}

void ct_store_text(struct store *s, struct db_stmt *st, int i, char *buf, size_t size)
{
	const char *t = DB(s)->col_text(st, i);
	size_t n = strnlen(t, size - 1);

	/* a reader of a million rows copies a text of each: no printf */
	memcpy(buf, t, n);
	buf[n] = '\0';
}

/* Reads columns first, first+1, ... into base's members. 0, or 1 + the
 * column of a stored value that cannot be a member (a word no enum value
 * has). */
int ct_store_read_cols(struct store *s, struct db_stmt *st, int first, const struct col *cols,
		       size_t n, void *base)
{
	for (size_t i = 0; i < n; i++) {
		char *p = (char *)base + cols[i].off;
		int idx = first + (int)i;

		switch (cols[i].type) {
		case COL_I64:
		case COL_ID:
			*(int64_t *)p = DB(s)->col_i64(st, idx);
			break;
		case COL_U64:
			*(uint64_t *)p = (uint64_t)DB(s)->col_i64(st, idx);
			break;
		case COL_INT:
			*(int *)p = (int)DB(s)->col_i64(st, idx);
			break;
		case COL_UINT:
			*(unsigned *)p = (unsigned)DB(s)->col_i64(st, idx);
			break;
		case COL_BOOL:
			*(bool *)p = DB(s)->col_i64(st, idx) != 0;
			break;
		case COL_DOUBLE:
			*(double *)p = DB(s)->col_double(st, idx);
			break;
		case COL_TEXT:
			ct_store_text(s, st, idx, p, cols[i].size);
			break;
		case COL_ENUM:
			if (ct_enum_parse(cols[i].names, cols[i].size, DB(s)->col_text(st, idx),
					  (unsigned *)p))
				return idx + 1;
			break;
		}
	}
	return 0;
}

/* Runs a statement that gives at most one row: 1 with it (read it, then
 * reset), 0 without (reset already), -errno (reset already). */
int ct_store_step_one(struct store *s, struct db_stmt *st, const char *what, char *err, size_t len)
{
	int rc = DB(s)->step(st, what, err, len);

	if (rc != 1)
		DB(s)->reset(st);
	return rc;
}

/* A write of its own transaction, or part of the caller's (ct_store_begin). */
int ct_store_write_begin(struct store *s, const char *what, char *err, size_t len)
{
	if (s->pub.readonly)
		return ct_err(err, len, -EROFS, "cannot %s in results store '%s': %s", what,
			      s->db->name, DB(s)->readonly_why);
	return s->txn ? 0 : DB(s)->begin(s->db, what, err, len);
}

int ct_store_write_end(struct store *s, int rc, const char *what, char *err, size_t len)
{
	if (s->txn)
		return rc;
	if (!rc)
		return DB(s)->commit(s->db, what, err, len);
	DB(s)->rollback(s->db);
	return rc;
}

int ct_store_begin(struct ct_store *pub, char *err, size_t len)
{
	struct store *s = (struct store *)pub;
	int rc;

	if (s->txn) {
		s->txn++;
		return 0;
	}
	rc = ct_store_write_begin(s, "begin a transaction", err, len);
	if (!rc)
		s->txn = 1;
	return rc;
}

int ct_store_commit(struct ct_store *pub, char *err, size_t len)
{
	struct store *s = (struct store *)pub;

	if (!s->txn)
		return ct_err(err, len, -EINVAL, "no transaction to commit");
	if (--s->txn)
		return 0;
	return DB(s)->commit(s->db, "commit a transaction", err, len);
}

void ct_store_rollback(struct ct_store *pub)
{
	struct store *s = (struct store *)pub;

	s->txn = 0;
	DB(s)->rollback(s->db);
}

/* The id of the one row st gives (0 without one) after binding. */
int ct_store_one_id(struct store *s, struct db_stmt *st, const char *what, int64_t *id, char *err,
		    size_t len)
{
	int rc = ct_store_step_one(s, st, what, err, len);

	*id = 0;
	if (rc == 1) {
		*id = DB(s)->col_i64(st, 0);
		DB(s)->reset(st);
		rc = 0;
	}
	return rc;
}

static int config_find(struct store *s, const char *label, const struct ct_sysinfo *si, int64_t *id,
		       char *err, size_t len)
{
	struct db_stmt *st;
	int rc = ct_store_stmt(s, Q_CONFIG_FIND, &st, err, len);

	*id = 0;
	if (rc)
		return rc;
	ct_store_bind_str(s, st, 1, label);
	DB(s)->bind_text(st, 2, si->fingerprint, sizeof(si->fingerprint));
	return ct_store_one_id(s, st, "look up config", id, err, len);
}

int ct_store_config_put(struct ct_store *pub, const char *label, const struct ct_sysinfo *si,
			int64_t *id, char *err, size_t len)
{
	struct store *s = (struct store *)pub;
	struct db_stmt *st;
	char *sysctls;
	int rc;

	*id = 0;
	if (!label || !*label)
		return ct_err(err, len, -EINVAL, "config label is empty");
	if (!si->fingerprint[0])
		return ct_err(err, len, -EINVAL, "config '%s' has no fingerprint", label);
	rc = config_find(s, label, si, id, err, len);
	if (rc || *id)
		return rc;
	rc = ct_store_stmt(s, Q_CONFIG_PUT, &st, err, len);
	if (rc)
		return rc;
	if (!(sysctls = ct_store_sysctl_text(si)))
		return ct_err(err, len, -ENOMEM, "out of memory");
	rc = ct_store_write_begin(s, "store config", err, len);
	if (!rc) {
		ct_store_bind_str(s, st, 1, label);
		ct_store_bind_str(s, st, 2, sysctls);
		DB(s)->bind_i64(st, 3, ct_wall_ns());
		ct_store_bind_cols(s, st, 4, ct_store_config_cols, ct_store_nconfig_cols, si);
		rc = DB(s)->step(st, "store config", err, len);
		DB(s)->reset(st);
		rc = ct_store_write_end(s, rc < 0 ? rc : 0, "store config", err, len);
	}
	free(sysctls);
	/* another contend may have inserted it first: read the id back */
	if (!rc)
		rc = config_find(s, label, si, id, err, len);
	if (!rc && !*id)
		rc = ct_err(err, len, -EIO, "config '%s' vanished from results store '%s'", label,
			    s->db->name);
	return rc;
}

int ct_store_config_get(struct ct_store *pub, int64_t id, char *label, size_t label_len,
			struct ct_sysinfo *si, char *err, size_t len)
{
	struct store *s = (struct store *)pub;
	struct db_stmt *st;
	int rc = ct_store_stmt(s, Q_CONFIG_GET, &st, err, len);

	memset(si, 0, sizeof(*si));
	if (rc)
		return rc;
	DB(s)->bind_i64(st, 1, id);
	rc = ct_store_step_one(s, st, "read config", err, len);
	if (!rc)
		return ct_err(err, len, -ENOENT, "no config %" PRId64 " in results store '%s'", id,
			      s->db->name);
	if (rc < 0)
		return rc;
	if (label && label_len)
		ct_store_text(s, st, 0, label, label_len);
	ct_store_sysctl_parse(DB(s)->col_text(st, 1), si);
	ct_store_read_cols(s, st, 2, ct_store_config_cols, ct_store_nconfig_cols, si);
	DB(s)->reset(st);
	return 0;
}

/* Inserts rec as it is; the first session of a group becomes the group. */
int ct_store_session_insert(struct ct_store *pub, struct ct_session_rec *rec, char *err, size_t len)
{
	struct store *s = (struct store *)pub;
	struct db_stmt *st, *grp;
	int rc = ct_store_stmt(s, Q_SESSION_PUT, &st, err, len);

	if (!rc)
		rc = ct_store_stmt(s, Q_SESSION_GROUP, &grp, err, len);
	if (!rc)
		rc = ct_store_write_begin(s, "store session", err, len);
	if (rc)
		return rc;
	ct_store_bind_cols(s, st, 1, ct_store_session_cols, ct_store_nsession_cols, rec);
	rc = ct_store_one_id(s, st, "store session", &rec->id, err, len);
	if (!rc && rec->order[0] && !rec->group_id) {
		DB(s)->bind_i64(grp, 1, rec->id);
		rc = DB(s)->step(grp, "store session", err, len);
		DB(s)->reset(grp);
		if (rc >= 0)
			rec->group_id = rec->id;
		rc = rc < 0 ? rc : 0;
	}
	rc = ct_store_write_end(s, rc, "store session", err, len);
	if (rc)
		rec->id = 0;
	return rc;
}

const char *const ct_session_status_names[CT_SESSION_NSTATUS] = {
	[CT_SESSION_RUNNING] = "running",
	[CT_SESSION_COMPLETE] = "complete",
	[CT_SESSION_INTERRUPTED] = "interrupted",
	[CT_SESSION_FAILED] = "failed",
};

const char *ct_session_status_name(enum ct_session_status s)
{
	return ct_enum_name(ct_session_status_names, CT_SESSION_NSTATUS, s);
}

int ct_store_session_end(struct ct_store *pub, int64_t id, enum ct_session_status status, char *err,
			 size_t len)
{
	struct store *s = (struct store *)pub;
	struct db_stmt *st;
	int64_t got;
	int rc;

	if (status == CT_SESSION_RUNNING || (unsigned)status >= CT_SESSION_NSTATUS)
		return ct_err(err, len, -EINVAL, "a session cannot end as status %d", (int)status);
	if (s->pub.readonly)
		return ct_store_write_begin(s, "end session", err, len);
	/* one statement of fixed values, outside a transaction: one that
	 * found the connection gone may be sent again */
	rc = ct_store_stmt(s, Q_SESSION_END, &st, err, len);
	if (rc)
		return rc;
	ct_store_bind_str(s, st, 1, ct_session_status_names[status]);
	DB(s)->bind_i64(st, 2, ct_wall_ns());
	DB(s)->bind_i64(st, 3, id);
	rc = ct_store_one_id(s, st, "end session", &got, err, len);
	if (!rc && !got)
		rc = ct_err(err, len, -ENOENT, "no session %" PRId64 " in results store '%s'", id,
			    s->db->name);
	return rc;
}

int ct_store_session_find(struct ct_store *pub, const char *uuid, int64_t *id, char *err,
			  size_t len)
{
	struct store *s = (struct store *)pub;
	struct db_stmt *st;
	int rc = ct_store_stmt(s, Q_SESSION_FIND, &st, err, len);

	*id = 0;
	if (rc)
		return rc;
	ct_store_bind_str(s, st, 1, uuid);
	return ct_store_one_id(s, st, "find a session", id, err, len);
}

/* Steps st to its end, each row into a new element of *out (elem bytes
 * each, zeroed) by read(); the count in *n. */
int ct_store_read_rows(struct store *s, struct db_stmt *st, const char *what, size_t elem,
		       int (*read)(struct store *s, struct db_stmt *st, void *row, char *err,
				   size_t len),
		       void **out, size_t *n, char *err, size_t len)
{
	char *rows = NULL, *grown;
	size_t cap = 0, cnt = 0;
	int rc;

	while ((rc = DB(s)->step(st, what, err, len)) == 1) {
		if (cnt == cap) {
			cap = cap ? cap * 2 : 16;
			if (!(grown = realloc(rows, cap * elem))) {
				rc = ct_err(err, len, -ENOMEM, "out of memory");
				break;
			}
			rows = grown;
		}
		memset(rows + cnt * elem, 0, elem);
		if ((rc = read(s, st, rows + cnt * elem, err, len)) > 0)
			rc = ct_err(
				err, len, -EINVAL,
				"cannot %s in results store '%s': a row's column %d holds a word "
				"this contend does not know",
				what, s->db->name, rc - 1);
		if (rc)
			break;
		cnt++;
	}
	DB(s)->reset(st);
	if (rc) {
		free(rows);
		return rc;
	}
	*out = rows;
	*n = cnt;
	return 0;
}

static int read_session(struct store *s, struct db_stmt *st, void *row, char *err, size_t len)
{
	struct ct_session_rec *rec = row;

	(void)err;
	(void)len;
	rec->id = DB(s)->col_i64(st, 0);
	ct_store_text(s, st, 1, rec->label, sizeof(rec->label));
	rec->nruns = (unsigned)DB(s)->col_i64(st, 2);
	rec->nfailed = (unsigned)DB(s)->col_i64(st, 3);
	return ct_store_read_cols(s, st, 4, ct_store_session_cols, ct_store_nsession_cols, rec);
}

/* The SELECT of the sessions f takes, as far as SQL decides (the values
 * bound in ct_store_sessions()'s order), with a LIMIT when asked.
 * malloc'd. */
static char *sessions_sql(const struct ct_session_filter *f, bool sql_limit)
{
	char *names = ct_store_join_cols(ct_store_session_cols, ct_store_nsession_cols, "s.", ", ");
	char *where = NULL, *sql = NULL;
	size_t wlen = 0;
	FILE *w = names ? open_memstream(&where, &wlen) : NULL;
	int k = 1;

	if (!w) {
		free(names);
		return NULL;
	}
	if (f->label)
		fprintf(w, " AND c.label = ?%d", k++);
	for (size_t i = 0; f->labels && i < f->nlabels; i++)
		fprintf(w, "%s?%d", i ? ", " : " AND c.label IN (", k++);
	if (f->labels && f->nlabels)
		fputs(")", w);
	if (f->workload)
		fprintf(w, " AND s.workload = ?%d", k++);
	if (f->params)
		fprintf(w,
			" AND EXISTS (SELECT 1 FROM runs p WHERE p.session_id = s.id"
			" AND p.workload_params = ?%d)",
			k++);
	if (f->since)
		fprintf(w, " AND s.started_at >= ?%d", k++);
	if (f->group_id)
		fprintf(w, " AND s.group_id = ?%d", k++);
	if (f->with_commit)
		fputs(" AND s.commit_sha <> ''", w);
	if (f->with_ok_runs)
		fputs(" AND EXISTS (SELECT 1 FROM runs o WHERE o.session_id = s.id AND o.status = "
		      "'ok')",
		      w);
	/* a step's session is the first of its group; the candidate's is in
	 * that group */
	if (f->no_bisect)
		fputs(" AND NOT EXISTS (SELECT 1 FROM bisect_steps b WHERE b.session_id = s.id"
		      " OR (s.group_id <> 0 AND b.session_id = s.group_id))",
		      w);
	for (unsigned i = 0, n = 0; f->status && i < CT_SESSION_NSTATUS; i++)
		if (f->status & CT_SESSION_ONLY(i))
			fprintf(w, "%s?%d", n++ ? ", " : " AND s.status IN (", k++);
	if (f->status)
		fputs(")", w);
	fputs(" ORDER BY s.id DESC", w);
	if (sql_limit)
		fprintf(w, " LIMIT ?%d", k++);
	if (fclose(w) || !where) {
		free(names);
		free(where);
		return NULL;
	}
	/* the id and label first; the counts, when asked, are counted
	 * afterwards for the sessions kept (count_runs()) */
	if (asprintf(&sql,
		     "SELECT s.id, c.label, 0, 0, %s FROM sessions s"
		     " LEFT JOIN configs c ON c.id = s.config_id WHERE 1 = 1%s",
		     names, where) < 0)
		sql = NULL;
	free(names);
	free(where);
	return sql;
}

/* What SQL cannot decide of f: the label's pattern, the machine. */
static bool session_takes(const struct ct_session_filter *f, const struct ct_session_rec *r)
{
	return (!f->label_glob || !fnmatch(f->label_glob, r->label, 0)) &&
	       (!f->machine || ct_owner_named(&r->owner, f->machine));
}

/* Each session's runs and those not ok, counted. */
static int count_runs(struct store *s, struct ct_session_rec *recs, size_t n, char *err, size_t len)
{
	struct db_stmt *st;
	int rc = ct_store_stmt(s, Q_SESSION_COUNTS, &st, err, len);

	for (size_t i = 0; !rc && i < n; i++) {
		DB(s)->bind_i64(st, 1, recs[i].id);
		rc = ct_store_step_one(s, st, "count a session's runs", err, len);
		if (rc == 1) {
			recs[i].nruns = (unsigned)DB(s)->col_i64(st, 0);
			recs[i].nfailed = (unsigned)DB(s)->col_i64(st, 1);
			DB(s)->reset(st);
			rc = 0;
		}
	}
	return rc;
}

int ct_store_sessions(struct ct_store *pub, const struct ct_session_filter *f,
		      struct ct_session_rec **out, size_t *n, char *err, size_t len)
{
	static const struct ct_session_filter all;
	struct store *s = (struct store *)pub;
	bool in_c, sql_limit;
	struct db_stmt *st;
	char *sql;
	size_t kept = 0;
	int rc, k = 1;

	*out = NULL;
	*n = 0;
	if (!f)
		f = &all;
	in_c = f->label_glob || f->machine;
	sql_limit = f->limit && !in_c;
	sql = sessions_sql(f, sql_limit);
	if (!sql)
		return ct_err(err, len, -ENOMEM, "out of memory");
	rc = ct_store_prepare(s, sql, &st, err, len);
	free(sql);
	if (rc)
		return rc;
	if (f->label)
		ct_store_bind_str(s, st, k++, f->label);
	for (size_t i = 0; f->labels && i < f->nlabels; i++)
		ct_store_bind_str(s, st, k++, f->labels[i]);
	if (f->workload)
		ct_store_bind_str(s, st, k++, f->workload);
	if (f->params)
		ct_store_bind_str(s, st, k++, f->params);
	if (f->since)
		DB(s)->bind_i64(st, k++, f->since);
	if (f->group_id)
		DB(s)->bind_i64(st, k++, f->group_id);
	for (unsigned i = 0; f->status && i < CT_SESSION_NSTATUS; i++)
		if (f->status & CT_SESSION_ONLY(i))
			ct_store_bind_str(s, st, k++, ct_session_status_names[i]);
	if (sql_limit)
		DB(s)->bind_i64(st, k++, f->limit <= INT64_MAX ? (int64_t)f->limit : INT64_MAX);
	rc = ct_store_read_rows(s, st, "list sessions", sizeof(**out), read_session, (void **)out,
				n, err, len);
	DB(s)->finalize(st);
	if (!rc && in_c) {
		for (size_t i = 0; i < *n && (!f->limit || kept < f->limit); i++)
			if (session_takes(f, &(*out)[i]))
				(*out)[kept++] = (*out)[i];
		*n = kept;
	}
	if (!rc && f->counts)
		rc = count_runs(s, *out, *n, err, len);
	if (rc) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

bool ct_store_session_newer(const struct ct_session_rec *a, const struct ct_session_rec *b)
{
	return a->started_at != b->started_at ? a->started_at > b->started_at : a->id > b->id;
}

void ct_store_stmts_free(struct store *s)
{
	for (size_t i = 0; i < CT_ARRAY_SIZE(s->st); i++)
		if (s->st[i])
			DB(s)->finalize(s->st[i]);
	for (size_t i = 0; i < CT_ARRAY_SIZE(s->runs_st); i++)
		if (s->runs_st[i])
			DB(s)->finalize(s->runs_st[i]);
}

void ct_store_db_free(struct db *db)
{
	if (db)
		free(db->name);
	free(db);
}

int ct_store_newer_err(struct db *db, int64_t version, char *err, size_t len)
{
	return ct_err(err, len, -EINVAL,
		      "results store '%s' has schema version %" PRId64
		      ", this contend knows up to %d",
		      db->name, version, CT_STORE_SCHEMA);
}
