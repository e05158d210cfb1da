/*
 * What the migrations of a store do that SQL alone cannot, written once
 * over a driver's cursor: text of older schemas parsed and written again
 * (schema 6 on SQLite: a session's schedule as columns, metrics and series
 * as JSON; schema 11 on both backends: the passwords that command lines
 * held, hidden). Each runs inside its migration's transaction.
 */
#include "internal.h"
#include "contend/util.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WHAT "migrate the schema"

/* For each row of select, fix() binds the parameters of update from it
 * (0), skips it (1) or fails (-errno); update then runs. */
static int rewrite_rows(struct db *db, const char *select, const char *update,
			int (*fix)(struct db *db, struct db_stmt *row, struct db_stmt *upd,
				   char *err, size_t len),
			char *err, size_t len)
{
	struct db_stmt *rd = NULL, *wr = NULL;
	int rc = db->ops->prepare(db, select, &rd, err, len);

	if (!rc)
		rc = db->ops->prepare(db, update, &wr, err, len);
	while (!rc && (rc = db->ops->step(rd, WHAT, err, len)) == 1) {
		rc = fix(db, rd, wr, err, len);
		if (!rc)
			rc = db->ops->step(wr, WHAT, err, len);
		db->ops->reset(wr);
		rc = rc < 0 ? rc : 0;
	}
	if (rd)
		db->ops->finalize(rd);
	if (wr)
		db->ops->finalize(wr);
	return rc;
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

/* A session's schedule text as its three columns. */
static int fix_schedule(struct db *db, struct db_stmt *row, struct db_stmt *upd, char *err,
			size_t len)
{
	int64_t id = db->ops->col_i64(row, 0), group;
	char order[16];
	uint64_t seed;

	if (parse_schedule(db->ops->col_text(row, 1), id, order, &seed, &group))
		return ct_err(err, len, -EPROTO,
			      "session %" PRId64 " in results store '%s' has a damaged schedule",
			      id, db->name);
	db->ops->bind_text(upd, 1, order, sizeof(order));
	db->ops->bind_i64(upd, 2, (int64_t)seed);
	db->ops->bind_i64(upd, 3, group);
	db->ops->bind_i64(upd, 4, id);
	return 0;
}

/* Metrics as schema 3 wrote them, "name=value name=value"; "" is none.
 * -EPROTO for a word that is not name=number. */
static int metrics_parse_v3(const char *text, struct ct_run *r)
{
	r->nmetrics = 0;
	for (const char *p = text; *p;) {
		const char *end = strchrnul(p, ' '), *eq = memchr(p, '=', (size_t)(end - p));
		char name[CT_METRIC_NAME], *e;
		double v;

		if (end == p) {
			p++;
			continue;
		}
		if (!eq || (size_t)(eq - p) >= sizeof(name))
			return -EPROTO;
		snprintf(name, sizeof(name), "%.*s", (int)(eq - p), p);
		v = strtod(eq + 1, &e);
		if (e != end || ct_run_metric_set(r, name, v))
			return -EPROTO;
		p = *end ? end + 1 : end;
	}
	return 0;
}

/* A series as schema 3 wrote it, numbers separated by spaces. *out
 * malloc'd (NULL when empty). */
static int series_parse_v3(const char *text, double **out, size_t *n)
{
	size_t cap = strlen(text) / 2 + 1, cnt = 0;
	double *v = malloc(cap * sizeof(*v));

	*out = NULL;
	*n = 0;
	if (!v)
		return -ENOMEM;
	for (const char *p = text; *p && cnt < cap;) {
		char *end;

		while (*p == ' ')
			p++;
		if (!*p)
			break;
		v[cnt] = strtod(p, &end);
		if (end == p || !isfinite(v[cnt])) {
			free(v);
			return -EPROTO;
		}
		cnt++;
		p = end;
	}
	if (!cnt) {
		free(v);
		v = NULL;
	}
	*out = v;
	*n = cnt;
	return 0;
}

/* Metrics "name=value name=value" and series "v v v" of version 3 as JSON. */
static int fix_metrics(struct db *db, struct db_stmt *row, struct db_stmt *upd, char *err,
		       size_t len)
{
	int64_t id = db->ops->col_i64(row, 0);
	char json[CT_STORE_METRICS_MAX], *series = NULL;
	struct ct_run *r = calloc(1, sizeof(*r));
	double *v = NULL;
	size_t nv = 0;
	int rc = 0;

	if (!r || metrics_parse_v3(db->ops->col_text(row, 1), r) ||
	    ct_store_metrics_encode(r, json, sizeof(json)) ||
	    series_parse_v3(db->ops->col_text(row, 2), &v, &nv) ||
	    !(series = ct_store_series_encode(v, nv)))
		rc = ct_err(err, len, -EPROTO,
			    "run %" PRId64 " in results store '%s' has damaged metrics", id,
			    db->name);
	if (!rc) {
		db->ops->bind_text(upd, 1, json, sizeof(json));
		db->ops->bind_text(upd, 2, series, strlen(series) + 1);
		db->ops->bind_i64(upd, 3, id);
	}
	free(r);
	free(v);
	free(series);
	return rc;
}

int ct_store_migrate_6(struct db *db, char *err, size_t len)
{
	int rc = rewrite_rows(db, "SELECT id, schedule FROM sessions WHERE schedule <> ''",
			      "UPDATE sessions SET run_order = ?1, order_seed = ?2, group_id = ?3"
			      " WHERE id = ?4",
			      fix_schedule, err, len);

	if (!rc)
		rc = rewrite_rows(db, "SELECT id, metrics, series FROM runs",
				  "UPDATE runs SET metrics = ?1, series = ?2 WHERE id = ?3",
				  fix_metrics, err, len);
	return rc;
}

/* A stored command line without the passwords it held; 1 (skip) when it
 * held none. */
static int fix_secrets(struct db *db, struct db_stmt *row, struct db_stmt *upd, char *err,
		       size_t len)
{
	char hidden[4096];

	(void)err;
	(void)len;
	if (!ct_hide_secrets_cmdline(db->ops->col_text(row, 1), hidden, sizeof(hidden)))
		return 1;
	db->ops->bind_text(upd, 1, hidden, sizeof(hidden));
	db->ops->bind_i64(upd, 2, db->ops->col_i64(row, 0));
	return 0;
}

int ct_store_migrate_11(struct db *db, char *err, size_t len)
{
	static const char *const cols[][2] = { { "sessions", "argv" },
					       { "runs", "workload_params" },
					       { "runs", "load_params" },
					       { "calibrations", "workload_params" } };
	char sel[256], upd[128];
	int rc = 0;

	for (size_t i = 0; !rc && i < CT_ARRAY_SIZE(cols); i++) {
		const char *t = cols[i][0], *c = cols[i][1];

		snprintf(sel, sizeof(sel),
			 "SELECT id, %s FROM %s WHERE lower(%s) LIKE '%%password%%' OR"
			 " %s LIKE '%%://%%' ORDER BY id",
			 c, t, c, c);
		snprintf(upd, sizeof(upd), "UPDATE %s SET %s = ?1 WHERE id = ?2", t, c);
		rc = rewrite_rows(db, sel, upd, fix_secrets, err, len);
	}
	return rc;
}
