/*
 * Rows of a table described by its columns (cols.c's struct col): the
 * INSERT of a new row, the UPDATE of the columns a row learns at its end
 * and the SELECT of rows, their SQL built from the table - for the tables
 * whose rows are one struct each (bisections, their steps, history's
 * acknowledgements).
 */
#include "internal.h"
#include "contend/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "INSERT INTO table (cols) VALUES (?1, ...) RETURNING id", malloc'd. */
static char *insert_sql(const char *table, const struct col *cols, size_t n)
{
	char *names = ct_store_join_cols(cols, n, "", ", "), *sql = NULL;
	char vals[16 * 8] = "";
	size_t off = 0;

	for (size_t i = 0; i < n && off < sizeof(vals); i++)
		off += (size_t)snprintf(vals + off, sizeof(vals) - off, "%s?%zu", i ? ", " : "",
					i + 1);
	if (names &&
	    asprintf(&sql, "INSERT INTO %s (%s) VALUES (%s) RETURNING id", table, names, vals) < 0)
		sql = NULL;
	free(names);
	return sql;
}

/* "UPDATE table SET col = ?1, ... WHERE id = ?N RETURNING id" for the
 * columns from first on, malloc'd. */
static char *update_sql(const char *table, const struct col *cols, size_t first, size_t n)
{
	char set[1024] = "", *sql = NULL;
	size_t off = 0;

	for (size_t i = first; i < n && off < sizeof(set); i++)
		off += (size_t)snprintf(set + off, sizeof(set) - off, "%s%s = ?%zu",
					i > first ? ", " : "", cols[i].name, i - first + 1);
	if (asprintf(&sql, "UPDATE %s SET %s WHERE id = ?%zu RETURNING id", table, set,
		     n - first + 1) < 0)
		sql = NULL;
	return sql;
}

/* Inserts base's row, its id in *id. */
int ct_store_put_row(struct store *s, const char *table, const struct col *cols, size_t n,
		     const void *base, int64_t *id, const char *what, char *err, size_t len)
{
	char *sql = insert_sql(table, cols, n);
	struct db_stmt *st;
	int rc = ct_store_prepare(s, sql, &st, err, len);

	free(sql);
	if (rc)
		return rc;
	rc = ct_store_write_begin(s, what, err, len);
	if (!rc) {
		ct_store_bind_cols(s, st, 1, cols, n, base);
		rc = ct_store_one_id(s, st, what, id, err, len);
		rc = ct_store_write_end(s, rc, what, err, len);
	}
	DB(s)->finalize(st);
	return rc;
}

/* Writes the columns from first on of the row id; -ENOENT when none is. */
int ct_store_end_row(struct store *s, const char *table, const struct col *cols, size_t first,
		     size_t n, const void *base, int64_t id, const char *what, char *err,
		     size_t len)
{
	char *sql = update_sql(table, cols, first, n);
	struct db_stmt *st;
	int64_t got = 0;
	int rc = ct_store_prepare(s, sql, &st, err, len);

	free(sql);
	if (rc)
		return rc;
	rc = ct_store_write_begin(s, what, err, len);
	if (!rc) {
		ct_store_bind_cols(s, st, 1, cols + first, n - first, base);
		DB(s)->bind_i64(st, (int)(n - first + 1), id);
		rc = ct_store_one_id(s, st, what, &got, err, len);
		if (!rc && got != id)
			rc = ct_err(err, len, -ENOENT,
				    "cannot %s in results store '%s': no row %lld", what,
				    s->db->name, (long long)id);
		rc = ct_store_write_end(s, rc, what, err, len);
	}
	DB(s)->finalize(st);
	return rc;
}

/* "SELECT id, cols FROM table WHERE where ORDER BY id order", malloc'd. */
char *ct_store_select_sql(const char *table, const struct col *cols, size_t n, const char *where,
			  const char *order)
{
	char *names = ct_store_join_cols(cols, n, "", ", "), *sql = NULL;

	if (names && asprintf(&sql, "SELECT id, %s FROM %s WHERE %s ORDER BY id %s", names, table,
			      where, order) < 0)
		sql = NULL;
	free(names);
	return sql;
}
