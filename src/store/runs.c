/*
 * The store's runs and calibrations over the cursor of query.c: a run
 * stored with its metrics, series and histograms as JSON, runs read back
 * by any combination of filters (a statement cached for each), the host's
 * references a session took, and the calibrations that --target-effect
 * plans from; the knob journal of SQLite's older stores.
 */
#include "internal.h"
#include "contend/util.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Binds the metrics, series, hists and counters of r after its n
 * columns. */
static int bind_json(struct store *s, struct db_stmt *st, int n, const struct ct_run *r, char *err,
		     size_t len)
{
	char metrics[CT_STORE_METRICS_MAX], counters[CT_MAX_COUNTERS * (CT_COUNTER_NAME + 28) + 4];
	char *series = NULL, *hists = NULL;

	if (ct_store_metrics_encode(r, metrics, sizeof(metrics)))
		return ct_err(err, len, -EINVAL, "run has metrics that cannot be stored");
	if (ct_counters_encode(r->counters, counters, sizeof(counters)))
		return ct_err(err, len, -EINVAL, "run has counters that cannot be stored");
	if ((r->series && r->nseries &&
	     !(series = ct_store_series_encode(r->series, r->nseries))) ||
	    (r->nhists && !(hists = ct_store_hists_encode(r)))) {
		free(series);
		return ct_err(err, len, -ENOMEM, "out of memory");
	}
	ct_store_bind_str(s, st, n + 1, metrics);
	ct_store_bind_str(s, st, n + 2, series ? series : "[]");
	ct_store_bind_str(s, st, n + 3, hists ? hists : "");
	ct_store_bind_str(s, st, n + 4, counters);
	free(series);
	free(hists);
	return 0;
}

int ct_store_run_put(struct ct_store *pub, struct ct_run *r, char *err, size_t len)
{
	struct store *s = (struct store *)pub;
	struct db_stmt *st;
	int rc;

	if (!strcmp(ct_run_status_name(r->status), "unknown"))
		return ct_err(err, len, -EINVAL, "run has unknown status %d", (int)r->status);
	rc = ct_store_stmt(s, Q_RUN_PUT, &st, err, len);
	if (!rc)
		rc = ct_store_write_begin(s, "store run", err, len);
	if (rc)
		return rc;
	ct_store_bind_cols(s, st, 1, ct_store_run_cols, ct_store_nrun_cols, r);
	rc = bind_json(s, st, (int)ct_store_nrun_cols, r, err, len);
	if (rc)
		DB(s)->reset(st);
	else
		rc = ct_store_one_id(s, st, "store run", &r->id, err, len);
	rc = ct_store_write_end(s, rc, "store run", err, len);
	if (rc)
		r->id = 0;
	return rc;
}

/* Run filters, one bit each; a statement is cached per combination. */
enum {
	RF_SESSION = 1 << 0,
	RF_LABEL = 1 << 1,
	RF_WORKLOAD = 1 << 2,
	RF_LOAD = 1 << 3,
	RF_WPARAMS = 1 << 4,
	RF_OK = 1 << 5,
	RF_VALUES = 1 << 6, /* not a filter: the columns of ct_store_run_values() */
};
_Static_assert(RF_VALUES * 2 <= CT_STORE_RUN_FILTERS, "run filters");

static const char *const run_filters[] = { "r.session_id = ?",	    "c.label = ?",
					   "r.workload = ?",	    "r.load = ?",
					   "r.workload_params = ?", "r.status = 'ok'" };

static int runs_stmt(struct store *s, unsigned mask, struct db_stmt **out, char *err, size_t len)
{
	char *cols, *sql = NULL, where[256] = "";
	size_t off = 0;
	int rc, k = 0;

	if (s->runs_st[mask]) {
		*out = s->runs_st[mask];
		return 0;
	}
	/* the parameters numbered in order, as PostgreSQL needs each used */
	for (size_t i = 0; i < CT_ARRAY_SIZE(run_filters); i++)
		if (mask & (1u << i) & ~RF_VALUES)
			off += (size_t)snprintf(where + off, sizeof(where) - off, "%s%s",
						off ? " AND " : " WHERE ", run_filters[i]);
	for (char *q = where; (q = strchr(q, '?')); q++) {
		memmove(q + 2, q + 1, strlen(q + 1) + 1);
		q[1] = (char)('1' + k++);
	}
	cols = mask & RF_VALUES
		       ? strdup("r.session_id, r.config_id, r.load, r.wall_ns, r.block")
		       : ct_store_join_cols(ct_store_run_cols, ct_store_nrun_cols, "r.", ", ");
	if (cols && asprintf(&sql,
			     "SELECT r.id, c.label, r.metrics, %s FROM runs r"
			     " JOIN configs c ON c.id = r.config_id%s ORDER BY r.id",
			     cols, where) < 0)
		sql = NULL;
	rc = ct_store_prepare(s, sql, &s->runs_st[mask], err, len);
	free(cols);
	free(sql);
	*out = s->runs_st[mask];
	return rc;
}

static int read_run(struct store *s, struct db_stmt *st, void *row, char *err, size_t len)
{
	struct ct_run *r = row;
	int bad;

	r->id = DB(s)->col_i64(st, 0);
	ct_store_text(s, st, 1, r->label, sizeof(r->label));
	bad = ct_store_read_cols(s, st, 3, ct_store_run_cols, ct_store_nrun_cols, r);
	if (bad)
		return ct_err(err, len, -EPROTO,
			      "run %" PRId64 " in results store '%s' has unknown status '%s'",
			      r->id, s->db->name, DB(s)->col_text(st, bad - 1));
	if (ct_store_metrics_decode(DB(s)->col_text(st, 2), r))
		return ct_err(err, len, -EPROTO,
			      "run %" PRId64 " in results store '%s' has damaged metrics", r->id,
			      s->db->name);
	return 0;
}

/* The statement of filter f (with extra bits), its values bound. */
static int filtered(struct store *s, const struct ct_run_filter *f, unsigned extra,
		    struct db_stmt **out, char *err, size_t len)
{
	const char *texts[4] = { f->label, f->workload, f->load, f->workload_params };
	unsigned mask = extra | (f->session_id ? RF_SESSION : 0) | (f->ok_only ? RF_OK : 0);
	struct db_stmt *st;
	int rc, k = 1;

	for (int i = 0; i < 4; i++)
		mask |= texts[i] ? RF_LABEL << i : 0;
	rc = runs_stmt(s, mask, &st, err, len);
	if (rc)
		return rc;
	if (f->session_id)
		DB(s)->bind_i64(st, k++, f->session_id);
	for (int i = 0; i < 4; i++)
		if (texts[i])
			ct_store_bind_str(s, st, k++, texts[i]);
	*out = st;
	return 0;
}

/* A value row: the judged figure of its run (its metrics decoded into a
 * scratch run, as ct_run_value() reads them). */
static int read_value(struct store *s, struct db_stmt *st, void *row, char *err, size_t len)
{
	struct ct_run_value *v = row;
	static __thread struct ct_run scratch;

	v->run_id = DB(s)->col_i64(st, 0);
	v->session_id = DB(s)->col_i64(st, 3);
	v->config_id = DB(s)->col_i64(st, 4);
	ct_store_text(s, st, 5, v->load, sizeof(v->load));
	scratch.nmetrics = 0;
	scratch.wall_ns = DB(s)->col_i64(st, 6);
	v->block = (unsigned)DB(s)->col_i64(st, 7);
	if (ct_store_metrics_decode(DB(s)->col_text(st, 2), &scratch))
		return ct_err(err, len, -EPROTO,
			      "run %" PRId64 " in results store '%s' has damaged metrics",
			      v->run_id, s->db->name);
	v->value = ct_run_value(&scratch);
	return 0;
}

int ct_store_run_values(struct ct_store *pub, const struct ct_run_filter *f,
			struct ct_run_value **out, size_t *n, char *err, size_t len)
{
	static const struct ct_run_filter all;
	struct store *s = (struct store *)pub;
	struct db_stmt *st;
	int rc;

	*out = NULL;
	*n = 0;
	rc = filtered(s, f ? f : &all, RF_VALUES, &st, err, len);
	if (rc)
		return rc;
	return ct_store_read_rows(s, st, "read runs' values", sizeof(**out), read_value,
				  (void **)out, n, err, len);
}

int ct_store_runs(struct ct_store *pub, const struct ct_run_filter *f, struct ct_run **out,
		  size_t *n, char *err, size_t len)
{
	static const struct ct_run_filter all;
	struct store *s = (struct store *)pub;
	struct db_stmt *st;
	int rc;

	*out = NULL;
	*n = 0;
	rc = filtered(s, f ? f : &all, 0, &st, err, len);
	if (rc)
		return rc;
	return ct_store_read_rows(s, st, "read runs", sizeof(**out), read_run, (void **)out, n, err,
				  len);
}

/* The text of a one-column statement of run run_id, malloc'd. */
static int run_text(struct store *s, int id, int64_t run_id, const char *what, char **out,
		    char *err, size_t len)
{
	struct db_stmt *st;
	int rc = ct_store_stmt(s, id, &st, err, len);

	*out = NULL;
	if (rc)
		return rc;
	DB(s)->bind_i64(st, 1, run_id);
	rc = ct_store_step_one(s, st, what, err, len);
	if (!rc)
		return ct_err(err, len, -ENOENT, "no run %" PRId64, run_id);
	if (rc < 0)
		return rc;
	*out = strdup(DB(s)->col_text(st, 0));
	DB(s)->reset(st);
	return *out ? 0 : ct_err(err, len, -ENOMEM, "out of memory");
}

int ct_store_run_series(struct ct_store *pub, int64_t run_id, double **out, size_t *n, char *err,
			size_t len)
{
	struct store *s = (struct store *)pub;
	char *text;
	int rc;

	*out = NULL;
	*n = 0;
	rc = run_text(s, Q_RUN_SERIES, run_id, "read a run's series", &text, err, len);
	if (!rc && (rc = ct_store_series_decode(text, out, n)))
		rc = ct_err(err, len, rc,
			    "run %" PRId64 " in results store '%s' has a damaged series", run_id,
			    s->db->name);
	free(text);
	return rc;
}

int ct_store_run_counters(struct ct_store *pub, int64_t run_id, struct ct_counters *out, char *err,
			  size_t len)
{
	struct store *s = (struct store *)pub;
	char *text;
	int rc;

	out->n = 0;
	rc = run_text(s, Q_RUN_COUNTERS, run_id, "read a run's counters", &text, err, len);
	if (!rc && ct_counters_decode(text, out))
		rc = ct_err(err, len, -EINVAL,
			    "run %" PRId64 " in results store '%s' has damaged counters", run_id,
			    s->db->name);
	free(text);
	return rc;
}

int ct_store_run_hists_text(struct ct_store *pub, int64_t run_id, char **out, char *err, size_t len)
{
	return run_text((struct store *)pub, Q_RUN_HISTS, run_id, "read a run's histograms", out,
			err, len);
}

int ct_store_latest_session_with(struct ct_store *pub, const char *label, const char *workload,
				 const char *load, const char *workload_params, int64_t *session_id,
				 char *err, size_t len)
{
	struct store *s = (struct store *)pub;
	struct db_stmt *st;
	int rc;

	*session_id = 0;
	if (!label || !workload || !load)
		return ct_err(err, len, -EINVAL,
			      "reference session needs a label, workload and load");
	rc = ct_store_stmt(s, Q_LATEST, &st, err, len);
	if (rc)
		return rc;
	ct_store_bind_str(s, st, 1, label);
	ct_store_bind_str(s, st, 2, workload);
	ct_store_bind_str(s, st, 3, load);
	ct_store_bind_str(s, st, 4, workload_params);
	/* max() of no runs is NULL, read as 0 */
	return ct_store_one_id(s, st, "find reference session", session_id, err, len);
}

int ct_store_ref_put(struct ct_store *pub, const struct ct_ref *r, char *err, size_t len)
{
	struct store *s = (struct store *)pub;
	const char *phase = ct_ref_phase_name(r->phase);
	struct db_stmt *st;
	int rc = ct_store_stmt(s, Q_REF_PUT, &st, err, len);

	if (!rc)
		rc = ct_store_write_begin(s, "store a reference", err, len);
	if (rc)
		return rc;
	DB(s)->bind_i64(st, 1, r->session_id);
	DB(s)->bind_i64(st, 2, r->seq);
	DB(s)->bind_i64(st, 3, r->taken_at);
	ct_store_bind_str(s, st, 4, phase);
	for (int i = 0; i < CT_REF_NFIGS; i++)
		if (r->fig[i] > 0 && isfinite(r->fig[i]))
			DB(s)->bind_double(st, 5 + i, r->fig[i]);
		else
			DB(s)->bind_text(st, 5 + i, NULL, 0); /* missing */
	rc = DB(s)->step(st, "store a reference", err, len);
	DB(s)->reset(st);
	return ct_store_write_end(s, rc < 0 ? rc : 0, "store a reference", err, len);
}

/* A stored figure is positive; NULL (missing) reads as 0. */
static int read_ref(struct store *s, struct db_stmt *st, void *row, char *err, size_t len)
{
	struct ct_ref *r = row;

	r->seq = (unsigned)DB(s)->col_i64(st, 0);
	r->taken_at = DB(s)->col_i64(st, 1);
	if (ct_ref_phase_parse(DB(s)->col_text(st, 2), &r->phase))
		return ct_err(err, len, -EPROTO,
			      "a reference in results store '%s' has unknown phase '%s'",
			      s->db->name, DB(s)->col_text(st, 2));
	for (int i = 0; i < CT_REF_NFIGS; i++) {
		r->fig[i] = DB(s)->col_double(st, 3 + i);
		if (!(r->fig[i] > 0))
			r->fig[i] = NAN;
	}
	return 0;
}

int ct_store_refs(struct ct_store *pub, int64_t session_id, struct ct_ref **out, size_t *n,
		  char *err, size_t len)
{
	struct store *s = (struct store *)pub;
	struct db_stmt *st;
	int rc = ct_store_stmt(s, Q_REFS, &st, err, len);

	*out = NULL;
	*n = 0;
	if (rc)
		return rc;
	DB(s)->bind_i64(st, 1, session_id);
	rc = ct_store_read_rows(s, st, "read a session's references", sizeof(**out), read_ref,
				(void **)out, n, err, len);
	for (size_t i = 0; !rc && i < *n; i++)
		(*out)[i].session_id = session_id;
	return rc;
}

int ct_store_calibration_put(struct ct_store *pub, struct ct_calibration *c, char *err, size_t len)
{
	struct store *s = (struct store *)pub;
	char *runs = ct_store_series_encode(c->values, c->n);
	struct db_stmt *st;
	int rc;

	if (!runs)
		return ct_err(err, len, -ENOMEM, "out of memory");
	rc = ct_store_stmt(s, Q_CALIB_PUT, &st, err, len);
	if (!rc)
		rc = ct_store_write_begin(s, "store a calibration", err, len);
	if (!rc) {
		DB(s)->bind_i64(st, 1, c->config_id);
		ct_store_bind_str(s, st, 2, c->workload);
		ct_store_bind_str(s, st, 3, c->workload_params);
		ct_store_bind_str(s, st, 4, c->load);
		DB(s)->bind_i64(st, 5, c->session_id);
		DB(s)->bind_i64(st, 6, c->created_at);
		DB(s)->bind_i64(st, 7, c->higher_better);
		ct_store_bind_str(s, st, 8, runs);
		rc = ct_store_one_id(s, st, "store a calibration", &c->id, err, len);
		rc = ct_store_write_end(s, rc, "store a calibration", err, len);
	}
	free(runs);
	return rc;
}

int ct_store_calibration_get(struct ct_store *pub, const char *label, const char *workload,
			     const char *workload_params, const char *load,
			     struct ct_calibration *c, char *err, size_t len)
{
	struct store *s = (struct store *)pub;
	struct db_stmt *st;
	int rc;

	memset(c, 0, sizeof(*c));
	rc = ct_store_stmt(s, Q_CALIB_GET, &st, err, len);
	if (rc)
		return rc;
	ct_store_bind_str(s, st, 1, label);
	ct_store_bind_str(s, st, 2, workload);
	ct_store_bind_str(s, st, 3, workload_params);
	ct_store_bind_str(s, st, 4, load);
	rc = ct_store_step_one(s, st, "read a calibration", err, len);
	if (!rc)
		return -ENOENT; /* none: no message, the caller says what to do */
	if (rc < 0)
		return rc;
	c->id = DB(s)->col_i64(st, 0);
	c->config_id = DB(s)->col_i64(st, 1);
	c->session_id = DB(s)->col_i64(st, 2);
	c->created_at = DB(s)->col_i64(st, 3);
	c->higher_better = DB(s)->col_i64(st, 4) != 0;
	snprintf(c->label, sizeof(c->label), "%s", label);
	snprintf(c->workload, sizeof(c->workload), "%s", workload);
	ct_store_text(s, st, 6, c->workload_params, sizeof(c->workload_params));
	snprintf(c->load, sizeof(c->load), "%s", load);
	rc = ct_store_series_decode(DB(s)->col_text(st, 5), &c->values, &c->n);
	DB(s)->reset(st);
	if (rc)
		rc = ct_err(err, len, rc, "calibration %" PRId64 ": its runs are not a JSON array",
			    c->id);
	return rc;
}

static int read_knob_row(struct store *s, struct db_stmt *st, void *row, char *err, size_t len)
{
	struct ct_store_knob_row *r = row;

	(void)err;
	(void)len;
	ct_store_text(s, st, 0, r->path, sizeof(r->path));
	ct_store_text(s, st, 1, r->knob, sizeof(r->knob));
	ct_store_text(s, st, 2, r->original, sizeof(r->original));
	r->session_pid = (int)DB(s)->col_i64(st, 3);
	ct_store_text(s, st, 4, r->boot_id, sizeof(r->boot_id));
	r->created_at = DB(s)->col_i64(st, 5);
	return 0;
}

/* A statement of one use, prepared, stepped to its end by read_rows (or
 * once), finalized. */
static int once(struct store *s, const char *sql, const char *what, size_t elem,
		int (*read)(struct store *s, struct db_stmt *st, void *row, char *err, size_t len),
		void **out, size_t *n, char *err, size_t len)
{
	struct db_stmt *st;
	int rc = ct_store_prepare(s, sql, &st, err, len);

	if (rc)
		return rc;
	if (read)
		rc = ct_store_read_rows(s, st, what, elem, read, out, n, err, len);
	else
		rc = DB(s)->step(st, what, err, len);
	rc = rc < 0 ? rc : 0;
	DB(s)->finalize(st);
	return rc;
}

int ct_store_knob_rows(struct ct_store *pub, struct ct_store_knob_row **out, size_t *n, char *err,
		       size_t len)
{
	struct store *s = (struct store *)pub;

	*out = NULL;
	*n = 0;
	if (!DB(s)->knob_journal)
		return 0;
	return once(s,
		    "SELECT path, knob, original, session_pid, boot_id, created_at"
		    " FROM knob_journal ORDER BY id",
		    "read the knob journal", sizeof(**out), read_knob_row, (void **)out, n, err,
		    len);
}

int ct_store_knob_rows_clear(struct ct_store *pub, char *err, size_t len)
{
	struct store *s = (struct store *)pub;

	if (!DB(s)->knob_journal)
		return 0;
	return once(s, "DELETE FROM knob_journal", "clear the knob journal", 0, NULL, NULL, NULL,
		    err, len);
}
