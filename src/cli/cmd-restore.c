/*
 * `contend restore`: puts back every knob a contend changed and did not
 * restore (it was killed, or the machine went down), from the machine's
 * knob journal, one line per knob. Also the journal's opening for `run`,
 * which first moves into it any knob rows an older results store kept.
 */
#include "cli.h"
#include "opts.h"
#include "contend/journal.h"
#include "contend/store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct restore_args {
	const char *db;
	bool force;
};

static const struct cli_opt restore_opts[] = {
	CLI_STRING(0, "db", struct restore_args, db, "PATH",
		   "also take over the knob journal a results store of an\nearlier contend kept"),
	CLI_FLAG(0, "force", struct restore_args, force,
		 "also restore knobs a running contend holds"),
	CLI_END,
};

int cli_open_journal(struct ct_journal *j, struct ct_store *st, char *err, size_t len)
{
	struct ct_store_knob_row *rows = NULL;
	struct ct_journal_entry *es = NULL;
	size_t n = 0;
	int rc;

	rc = ct_journal_init(j, NULL, err, len);
	if (rc || !st)
		return rc;
	rc = ct_store_knob_rows(st, &rows, &n, err, len);
	if (rc || !n)
		goto out;
	es = calloc(n, sizeof(*es));
	if (!es) {
		rc = ct_err(err, len, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		snprintf(es[i].path, sizeof(es[i].path), "%s", rows[i].path);
		snprintf(es[i].knob, sizeof(es[i].knob), "%s", rows[i].knob);
		snprintf(es[i].original, sizeof(es[i].original), "%s", rows[i].original);
		snprintf(es[i].owner.boot, sizeof(es[i].owner.boot), "%s", rows[i].boot_id);
		es[i].owner.pid = rows[i].session_pid;
		es[i].created_at = rows[i].created_at;
	}
	/* in the machine's journal first, then gone from the store */
	rc = ct_journal_put(j, es, n, err, len);
	if (!rc)
		rc = ct_store_knob_rows_clear(st, err, len);
out:
	free(es);
	free(rows);
	return rc;
}

static void report(const struct ct_knob_restored *r, unsigned *bad)
{
	const struct ct_journal_entry *e = &r->entry;

	if (ct_journal_is_cgroup(e) && r->how != CT_RESTORE_FAILED) {
		const char *what = e->knob + strlen(CT_JOURNAL_CGROUP);

		if (r->how == CT_RESTORE_HELD) /* its session's, even with --force */
			printf("left %s (cgroup %s): its contend (pid %d) is running\n", what,
			       e->path, e->owner.pid);
		else if (r->how == CT_RESTORE_DONE)
			printf("stopped %s (cgroup %s): %s left by contend pid %d\n", what, e->path,
			       r->before, e->owner.pid);
		else
			printf("cleared %s (cgroup %s): gone %s\n", what, e->path,
			       r->how == CT_RESTORE_GONE ? "already" : "with an earlier boot");
		return;
	}
	switch (r->how) {
	case CT_RESTORE_DONE:
		printf("restored %s (%s): %s -> %s\n", e->knob, e->path,
		       *r->before ? r->before : "?", e->original);
		break;
	case CT_RESTORE_EARLIER_BOOT:
		printf("cleared %s (%s): changed in an earlier boot, left at its boot value"
		       " %s (was %s before that change)\n",
		       e->knob, e->path, *r->before ? r->before : "?", e->original);
		break;
	case CT_RESTORE_GONE:
		printf("cleared %s (%s): no longer exists\n", e->knob, e->path);
		break;
	case CT_RESTORE_HELD:
		cli_error("not restored %s (%s): %s; --force restores it anyway", e->knob, e->path,
			  r->err);
		(*bad)++;
		break;
	case CT_RESTORE_FAILED:
		cli_error("%s (kept in the journal)", r->err);
		(*bad)++;
		break;
	}
}

int cmd_restore(int argc, char **argv)
{
	static const char intro[] =
		"Writes back the original value of every knob in this machine's journal\n"
		"and reads it back, and stops the processes a killed contend left\n"
		"running (a pgbench server). Entries from an earlier boot are cleared\n"
		"without writing: the reboot already reset them.";
	char synopsis[256];
	struct restore_args a = { 0 };
	struct ct_knob_restored *rs = NULL;
	struct ct_store *st = NULL;
	struct ct_journal j;
	struct cli_parsed p;
	char err[CT_ERRLEN] = "";
	unsigned bad = 0;
	size_t n = 0;
	int rc;

	snprintf(synopsis, sizeof(synopsis),
		 "contend restore [--force] [--db PATH]\n\nthe journal: %s/knobs "
		 "($CONTEND_JOURNAL_DIR "
		 "to move it)",
		 ct_journal_default_dir());
	rc = cli_parse("restore", synopsis, intro, restore_opts, &a, argc, argv, &p);
	if (rc)
		return rc == 1 ? 0 : rc;
	if (p.rest < argc)
		return cli_usage_error("restore", "unexpected argument '%s'", argv[p.rest]);
	if (a.db) {
		rc = cli_open_store(a.db, &st);
		if (rc)
			return rc;
	}
	rc = cli_open_journal(&j, st, err, sizeof(err));
	ct_store_close(st);
	if (!rc)
		rc = ct_journal_restore_all(&j, a.force, &rs, &n, err, sizeof(err));
	if (rc)
		return cli_fail(rc, err);
	if (!n)
		printf("nothing to restore\n");
	for (size_t i = 0; i < n; i++)
		report(&rs[i], &bad);
	free(rs);
	return bad ? CT_EXIT_ENV : CT_EXIT_OK;
}
