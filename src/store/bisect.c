/*
 * Bisections and their steps (schema 13): what `contend bisect` keeps so
 * that a bisection resumes after a crash, a SIGKILL or a reboot with
 * nothing measured twice. Columns as data, as cols.c's: the INSERT, the
 * UPDATE of what a step or a bisection learns at its end, and the SELECT
 * are built from one table per struct (rows.c).
 */
#include "internal.h"
#include "contend/util.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const ct_bisection_mode_names[CT_BISECTION_NMODES] = {
	[CT_BISECTION_RUN] = "run",
	[CT_BISECTION_STEP] = "step",
};
const char *const ct_bisection_status_names[CT_BISECTION_NSTATUS] = {
	[CT_BISECTION_RUNNING] = "running",
	[CT_BISECTION_FOUND] = "found",
	[CT_BISECTION_NONE] = "none",
	[CT_BISECTION_RESET] = "reset",
};
const char *const ct_bisect_role_names[CT_ROLE_NROLES] = {
	[CT_ROLE_REGRESSION] = "regression",
	[CT_ROLE_CANDIDATE] = "candidate",
	[CT_ROLE_ACROSS] = "across",
};
const char *const ct_bisect_answer_names[CT_ANSWER_NANSWERS] = {
	[CT_ANSWER_NONE] = "",	   [CT_ANSWER_GOOD] = "good", [CT_ANSWER_BAD] = "bad",
	[CT_ANSWER_SKIP] = "skip", [CT_ANSWER_SAME] = "same",
};

#define BI(name, type, m) COL(name, type, struct ct_bisection, m)
#define BI_TEXT(name, m)  TEXT(name, struct ct_bisection, m)
#define ST(name, type, m) COL(name, type, struct ct_bisect_step, m)
#define ST_TEXT(name, m)  TEXT(name, struct ct_bisect_step, m)

/* What a bisection is given when it starts, then what its end writes. */
static const struct col bisection_cols[] = {
	BI_TEXT("repo", repo),
	BI_TEXT("good", good),
	BI_TEXT("bad", bad),
	ENUM("mode", struct ct_bisection, mode, ct_bisection_mode_names, CT_BISECTION_NMODES),
	BI_TEXT("argv", argv),
	BI("started_at", COL_I64, started_at),
	/* written again at its end */
	ENUM("status", struct ct_bisection, status, ct_bisection_status_names,
	     CT_BISECTION_NSTATUS),
	BI_TEXT("culprit", culprit),
	BI_TEXT("note", note),
	BI("ended_at", COL_ID, ended_at),
};
#define BISECTION_END 6 /* the first column its end writes */

static const struct col step_cols[] = {
	ST("bisection_id", COL_I64, bisection_id),
	ST("seq", COL_UINT, seq),
	ENUM("role", struct ct_bisect_step, role, ct_bisect_role_names, CT_ROLE_NROLES),
	ST_TEXT("sha", sha),
	ST_TEXT("base", base),
	ST("created_at", COL_I64, created_at),
	/* written again at its end */
	ST("session_id", COL_ID, session_id),
	ENUM("answer", struct ct_bisect_step, answer, ct_bisect_answer_names, CT_ANSWER_NANSWERS),
	ST_TEXT("why", why),
	ST("runs", COL_UINT, runs),
	ST("have_effect", COL_BOOL, have_effect),
	ST("effect", COL_DOUBLE, effect),
	ST("effect_low", COL_DOUBLE, effect_low),
	ST("effect_high", COL_DOUBLE, effect_high),
	ST("ended_at", COL_ID, ended_at),
};
#define STEP_END 6

int ct_store_bisection_put(struct ct_store *pub, struct ct_bisection *b, char *err, size_t len)
{
	return ct_store_put_row((struct store *)pub, "bisections", bisection_cols,
				CT_ARRAY_SIZE(bisection_cols), b, &b->id, "store a bisection", err,
				len);
}

int ct_store_bisection_end(struct ct_store *pub, const struct ct_bisection *b, char *err,
			   size_t len)
{
	return ct_store_end_row((struct store *)pub, "bisections", bisection_cols, BISECTION_END,
				CT_ARRAY_SIZE(bisection_cols), b, b->id, "end a bisection", err,
				len);
}

int ct_store_bisect_step_put(struct ct_store *pub, struct ct_bisect_step *p, char *err, size_t len)
{
	return ct_store_put_row((struct store *)pub, "bisect_steps", step_cols,
				CT_ARRAY_SIZE(step_cols), p, &p->id, "store a bisection's step",
				err, len);
}

int ct_store_bisect_step_end(struct ct_store *pub, const struct ct_bisect_step *p, char *err,
			     size_t len)
{
	return ct_store_end_row((struct store *)pub, "bisect_steps", step_cols, STEP_END,
				CT_ARRAY_SIZE(step_cols), p, p->id, "end a bisection's step", err,
				len);
}

int ct_store_bisection_get(struct ct_store *pub, const char *repo, struct ct_bisection *b,
			   char *err, size_t len)
{
	struct store *s = (struct store *)pub;
	char *sql = ct_store_select_sql("bisections", bisection_cols, CT_ARRAY_SIZE(bisection_cols),
					"repo = ?1", "DESC LIMIT 1");
	struct db_stmt *st;
	int rc = ct_store_prepare(s, sql, &st, err, len);

	free(sql);
	if (rc)
		return rc;
	ct_store_bind_str(s, st, 1, repo);
	rc = ct_store_step_one(s, st, "read a bisection", err, len);
	if (rc == 1) {
		memset(b, 0, sizeof(*b));
		b->id = DB(s)->col_i64(st, 0);
		rc = ct_store_read_cols(s, st, 1, bisection_cols, CT_ARRAY_SIZE(bisection_cols), b);
		DB(s)->reset(st);
		if (rc > 0)
			rc = ct_err(err, len, -EINVAL,
				    "bisection %" PRId64
				    " in results store '%s' has a mode or status "
				    "this contend does not know",
				    b->id, s->db->name);
	} else if (!rc) {
		rc = -ENOENT;
	}
	DB(s)->finalize(st);
	return rc;
}

static int read_step(struct store *s, struct db_stmt *st, void *row, char *err, size_t len)
{
	struct ct_bisect_step *p = row;

	(void)err;
	(void)len;
	p->id = DB(s)->col_i64(st, 0);
	return ct_store_read_cols(s, st, 1, step_cols, CT_ARRAY_SIZE(step_cols), p);
}

int ct_store_bisect_steps(struct ct_store *pub, int64_t bisection_id, struct ct_bisect_step **out,
			  size_t *n, char *err, size_t len)
{
	struct store *s = (struct store *)pub;
	char *sql = ct_store_select_sql("bisect_steps", step_cols, CT_ARRAY_SIZE(step_cols),
					"bisection_id = ?1", "");
	struct db_stmt *st;
	int rc = ct_store_prepare(s, sql, &st, err, len);

	free(sql);
	*out = NULL;
	*n = 0;
	if (rc)
		return rc;
	DB(s)->bind_i64(st, 1, bisection_id);
	rc = ct_store_read_rows(s, st, "read a bisection's steps", sizeof(**out), read_step,
				(void **)out, n, err, len);
	DB(s)->finalize(st);
	return rc;
}
