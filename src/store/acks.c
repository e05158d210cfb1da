/*
 * History's acknowledged change points (schema 14): a row per change that
 * was seen (contend history ack), so a nightly gate fails once for a
 * change, not every night after it. Columns as data (rows.c).
 */
#include "internal.h"
#include "contend/util.h"

#include <stdlib.h>

#define ACK(name, type, m) COL(name, type, struct ct_history_ack, m)
#define ACK_TEXT(name, m)  TEXT(name, struct ct_history_ack, m)

static const struct col ack_cols[] = {
	ACK_TEXT("session_uuid", session_uuid),
	ACK_TEXT("workload", workload),
	ACK_TEXT("load", load),
	ACK_TEXT("machine", machine),
	ACK_TEXT("note", note),
	ACK("acked_at", COL_I64, acked_at),
};

int ct_store_ack_put(struct ct_store *pub, struct ct_history_ack *a, char *err, size_t len)
{
	return ct_store_put_row((struct store *)pub, "history_acks", ack_cols,
				CT_ARRAY_SIZE(ack_cols), a, &a->id, "store an acknowledgement", err,
				len);
}

static int read_ack(struct store *s, struct db_stmt *st, void *row, char *err, size_t len)
{
	struct ct_history_ack *a = row;

	(void)err;
	(void)len;
	a->id = DB(s)->col_i64(st, 0);
	return ct_store_read_cols(s, st, 1, ack_cols, CT_ARRAY_SIZE(ack_cols), a);
}

int ct_store_acks(struct ct_store *pub, const char *workload, struct ct_history_ack **out,
		  size_t *n, char *err, size_t len)
{
	struct store *s = (struct store *)pub;
	char *sql = ct_store_select_sql("history_acks", ack_cols, CT_ARRAY_SIZE(ack_cols),
					"workload = ?1", "");
	struct db_stmt *st;
	int rc = ct_store_prepare(s, sql, &st, err, len);

	free(sql);
	*out = NULL;
	*n = 0;
	if (rc)
		return rc;
	ct_store_bind_str(s, st, 1, workload);
	rc = ct_store_read_rows(s, st, "read the acknowledged changes", sizeof(**out), read_ack,
				(void **)out, n, err, len);
	DB(s)->finalize(st);
	return rc;
}
