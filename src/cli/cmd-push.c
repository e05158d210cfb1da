/*
 * `contend push [--from PATH] [--to TARGET]`: copies this machine's stored
 * sessions into another store - a fleet's PostgreSQL, for a machine that
 * measures offline and pushes later. Each session goes in one transaction
 * of the target with its configs, runs, metrics and series (the knob
 * journal is the machine's and stays); a session the target already holds
 * (the same UUID) is skipped, so a second push copies nothing. Oldest
 * first, so a --vary group's first session is there before its others.
 */
#include "cli.h"
#include "opts.h"
#include "contend/session.h"
#include "contend/store.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct push_args {
	const char *from, *to;
	bool quiet;
};

static const struct cli_opt push_opts[] = {
	CLI_STRING(0, "from", struct push_args, from, "PATH",
		   "the store to copy from (default $CONTEND_DB when it is\n"
		   "a file, else $XDG_DATA_HOME/contend/results.db)"),
	CLI_STRING(0, "to", struct push_args, to, "TARGET",
		   "the store to copy into: postgresql://... or a path\n(default $CONTEND_DB)"),
	CLI_FLAG('q', "quiet", struct push_args, quiet, "print nothing but errors"),
	CLI_END,
};

/* The target's id of source session id: pushed or found before it. */
static int64_t mapped(const int64_t (*map)[2], size_t n, int64_t id)
{
	for (size_t i = 0; i < n; i++)
		if (map[i][0] == id)
			return map[i][1];
	return 0;
}

static int push_all(struct ct_store *from, struct ct_store *to, const struct push_args *a)
{
	struct ct_session_rec *recs = NULL;
	int64_t(*map)[2] = NULL;
	unsigned pushed = 0, there = 0, running = 0, runs = 0, nruns;
	char err[CT_ERRLEN] = "";
	size_t n = 0, nmap = 0;
	int rc;

	rc = ct_store_sessions(from, NULL, &recs, &n, err, sizeof(err));
	if (!rc && n && !(map = calloc(n, sizeof(*map))))
		rc = ct_err(err, sizeof(err), -ENOMEM, "out of memory");
	if (!rc)
		(void)ct_session_show_orphans(recs, n);
	/* newest first from the store: walk it backwards */
	for (size_t k = n; k-- > 0 && !rc;) {
		const struct ct_session_rec *r = &recs[k];
		int64_t group = 0, to_id = 0;

		if (r->status == CT_SESSION_RUNNING) {
			running++;
			continue;
		}
		if (r->group_id && r->group_id != r->id) {
			group = mapped((const int64_t(*)[2])map, nmap, r->group_id);
			if (!group) {
				rc = ct_err(err, sizeof(err), -EPROTO,
					    "session %" PRId64 " belongs to group %" PRId64
					    ", which was not pushed",
					    r->id, r->group_id);
				break;
			}
		}
		rc = ct_store_copy_session(from, to, r, group, &to_id, &nruns, err, sizeof(err));
		if (rc < 0)
			break;
		if (rc == 1)
			there++;
		else
			pushed++, runs += nruns;
		rc = 0;
		map[nmap][0] = r->id;
		map[nmap++][1] = to_id;
	}
	free(map);
	free(recs);
	if (rc)
		return cli_fail(rc, err);
	if (!a->quiet) {
		printf("pushed %u session%s (%u runs); %u already there\n", pushed,
		       pushed == 1 ? "" : "s", runs, there);
		if (running)
			printf("left %u session%s still running\n", running,
			       running == 1 ? "" : "s");
	}
	return 0;
}

int cmd_push(int argc, char **argv)
{
	static const char intro[] =
		"Copies stored sessions into another store, each with its configs and runs\n"
		"in one transaction; sessions the target holds already are skipped, so\n"
		"pushing twice copies nothing. Sessions still running stay behind.";
	struct push_args a = { 0 };
	struct ct_store *from = NULL, *to = NULL;
	char src[4096], dst[4096];
	struct cli_parsed p;
	int rc;

	rc = cli_parse("push", "contend push [--from PATH] [--to TARGET] [-q]", intro, push_opts,
		       &a, argc, argv, &p);
	if (rc)
		return rc == 1 ? 0 : rc;
	if (p.rest < argc)
		return cli_usage_error("push", "unexpected argument '%s'", argv[p.rest]);
	/* from: --from, else where run stores when that is a file here, else
	 * this machine's default file */
	if (a.from)
		snprintf(src, sizeof(src), "%s", a.from);
	else if ((ct_store_default_path(src, sizeof(src)) ||
		  strcmp(ct_store_backend(src), "sqlite")) &&
		 ct_store_local_path(src, sizeof(src)))
		return cli_usage_error("push", "no store to push from: give --from PATH");
	if (a.to)
		snprintf(dst, sizeof(dst), "%s", a.to);
	else if (getenv("CONTEND_DB") && *getenv("CONTEND_DB"))
		snprintf(dst, sizeof(dst), "%s", getenv("CONTEND_DB"));
	else
		return cli_usage_error("push", "no store to push to: give --to TARGET or set "
					       "CONTEND_DB");
	if (!strcmp(src, dst))
		return cli_usage_error("push", "'%s' is both the source and the target", src);
	rc = cli_read_store(src, &from);
	if (!rc)
		rc = cli_open_store(dst, &to);
	if (!rc)
		rc = push_all(from, to, &a);
	ct_store_close(to);
	ct_store_close(from);
	return rc;
}
