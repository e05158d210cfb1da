/*
 * The suite files jobs ran from (schema 15): a row per job as it ran, by
 * the tag its sessions' parameters carry ("hackbench.ini/process-pipe#
 * 23a7548a": the file, the job and a hash of the job as run), with the
 * text of the file and of every file it includes. A tag is stored once:
 * the same tag is the same job.
 */
#include "internal.h"
#include "contend/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ct_store_suite_put(struct ct_store *pub, const char *tag, const char *text, char *err,
		       size_t len)
{
	struct store *s = (struct store *)pub;
	struct db_stmt *st;
	int rc = ct_store_write_begin(s, "store a suite", err, len);

	if (rc)
		return rc;
	rc = ct_store_prepare(s,
			      "INSERT INTO suites (tag, text, stored_at) VALUES (?1, ?2, ?3) "
			      "ON CONFLICT (tag) DO NOTHING",
			      &st, err, len);
	if (!rc) {
		ct_store_bind_str(s, st, 1, tag);
		ct_store_bind_str(s, st, 2, text);
		DB(s)->bind_i64(st, 3, ct_wall_ns());
		rc = DB(s)->step(st, "store a suite", err, len);
		rc = rc > 0 ? 0 : rc;
		DB(s)->finalize(st);
	}
	return ct_store_write_end(s, rc, "store a suite", err, len);
}

int ct_store_suite_get(struct ct_store *pub, const char *tag, char **text, char *err, size_t len)
{
	struct store *s = (struct store *)pub;
	struct db_stmt *st;
	int rc = ct_store_prepare(s, "SELECT text FROM suites WHERE tag = ?1", &st, err, len);

	*text = NULL;
	if (rc)
		return rc;
	ct_store_bind_str(s, st, 1, tag);
	rc = DB(s)->step(st, "read a suite", err, len);
	if (rc == 1) {
		const char *t = DB(s)->col_text(st, 0);

		*text = strdup(t ? t : "");
		rc = *text ? 0 : ct_err(err, len, -ENOMEM, "out of memory");
	} else if (!rc) {
		rc = ct_err(err, len, -ENOENT, "no suite '%s' in results store '%s'", tag,
			    s->db->name);
	}
	DB(s)->finalize(st);
	return rc;
}

bool ct_store_suite_tag(const char *params, char *tag, size_t size)
{
	const char *at = params;
	size_t n;

	if (size)
		tag[0] = '\0';
	while (at && (at = strstr(at, "suite=")) && at != params && at[-1] != ' ')
		at += 6;
	if (!at || !size)
		return false;
	n = strcspn(at + 6, " ");
	snprintf(tag, size, "%.*s", (int)(n < size ? n : size - 1), at + 6);
	return n > 0;
}
