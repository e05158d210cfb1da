/*
 * `contend profiles --session ID` (suite.c's profiles command): the suite
 * file a session's job ran from, as the store kept it.
 */
#include "cli.h"
#include "contend/store.h"
#include "contend/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

/* `contend profiles --session ID`: the suite file a session's job came
 * from, as the store kept it when the job ran. */
int cli_stored_suite(const char *session, const char *db)
{
	struct ct_run_filter f = { 0 };
	struct ct_store *st = NULL;
	struct ct_run *runs = NULL;
	char err[CT_ERRLEN], tag[256], *end, *text = NULL;
	size_t n = 0;
	int rc, ex;

	f.session_id = strtoll(session, &end, 10);
	if (*end || f.session_id <= 0)
		return cli_usage_error("profiles", "--session takes a session's id, not '%s'",
				       session);
	ex = cli_open_store(db, &st);
	if (ex)
		return ex;
	rc = ct_store_runs(st, &f, &runs, &n, err, sizeof(err));
	if (!rc && !(n && ct_store_suite_tag(runs[0].workload_params, tag, sizeof(tag)))) {
		ex = cli_usage_error("profiles", "session %s %s", session,
				     n ? "ran no suite's job (run -f)"
				       : "has no runs in the store");
	} else if (!rc) {
		rc = ct_store_suite_get(st, tag, &text, err, sizeof(err));
		if (rc == -ENOENT)
			ex = cli_usage_error("profiles",
					     "session %s ran job %s, whose file the store does not "
					     "hold (stored before schema 15)",
					     session, tag);
		else if (!rc)
			printf("# %s, session %s\n%s", tag, session, text);
	}
	if (rc && rc != -ENOENT)
		ex = cli_fail(rc, err);
	free(text);
	free(runs);
	ct_store_close(st);
	return ex;
}
