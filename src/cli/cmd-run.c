/*
 * `contend run`: the suite from the command line (its options a table,
 * checked before anything runs), the session, then the report printed from
 * what was stored - so the table a user sees right after a run is exactly
 * what `compare` will read later. The flow is calibrate's too
 * (cmd-calibrate.c): run_main() with what each command adds.
 */
#include "cli.h"
#include "opts.h"
#include "run.h"
#include "contend/knob.h"
#include "contend/load.h"
#include "contend/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int run_open_journal(struct run_args *a, struct ct_store *st, struct ct_journal *j)
{
	char err[CT_ERRLEN], note[CT_ERRLEN];
	int rc = cli_open_journal(j, st, err, sizeof(err));

	if (!rc)
		rc = ct_journal_check(j, note, sizeof(note), err, sizeof(err));
	if (!rc && *note)
		fprintf(stderr, "contend: %s\n", note);
	if (rc) {
		cli_error("%s", err);
		return CT_EXIT_ENV;
	}
	a->s.opts.journal = j;
	a->s.env.journal = j;
	return 0;
}

/* The store and the machine's knob journal: knobs a contend left
 * changed (with any store) come first. */
static int open_stores(struct run_args *a, struct ct_store **st, struct ct_journal *j)
{
	int ex = cli_open_store(a->db, st);

	if (ex)
		return ex;
	ex = run_check_baseline(a, *st);
	if (!ex)
		ex = run_open_journal(a, *st, j);
	if (ex) {
		ct_store_close(*st);
		*st = NULL;
	}
	return ex;
}

static int finish(struct run_args *a, int rc, const char *err, const struct cli_progress *prog)
{
	const struct ct_session *s = &a->s;

	if (rc == -EINTR) {
		char ids[256] = "";
		size_t off = 0, n = 0;

		/* every config's session of a --vary run was marked */
		for (size_t k = 0; k < s->ncfg && off < sizeof(ids); k++)
			if (s->cfg[k].rec.id && ++n)
				off += (size_t)snprintf(ids + off, sizeof(ids) - off, "%s%lld",
							off ? ", " : "",
							(long long)s->cfg[k].rec.id);
		if (!n && s->rec.id && ++n)
			snprintf(ids, sizeof(ids), "%lld", (long long)s->rec.id);
		if (n)
			cli_error("%s; session%s %s marked interrupted", err, n == 1 ? "" : "s",
				  ids);
		else
			cli_error("%s before the first run; nothing stored", err);
		return CT_EXIT_INTERRUPTED;
	}
	if (rc)
		return cli_fail(rc, err);
	if (prog->nfailed) {
		cli_error("%u of %u runs failed%s", prog->nfailed, prog->nruns,
			  a->ignore_failures || prog->nfailed == prog->nruns
				  ? ""
				  : " (--ignore-failures to exit 0 all the same)");
		if (prog->nfailed == prog->nruns || !a->ignore_failures)
			return CT_EXIT_ENV;
	}
	return 0;
}

/* --aa-pairs K: K sessions, each an A/A pair in its own interleaved order;
 * the first session's report in full when K is 1, a line a pair else. */
static int run_pairs(struct run_args *a, struct ct_store *st, struct cli_progress *prog, int *ex,
		     char *err, size_t len)
{
	unsigned k = a->aa_pairs ? a->aa_pairs : 1;
	uint64_t seed = a->s.opts.order_seed;
	struct aa_tally t = { 0 };
	int rc = 0;

	*ex = 0;
	for (unsigned i = 0; i < k && !rc && !*ex; i++) {
		if (i)
			ct_session_reset(&a->s);
		a->s.opts.order_seed = seed + i;
		rc = ct_session_run(&a->s, st, err, len);
		cli_progress_done(prog);
		if (a->s.rec.id && (!rc || rc == -EINTR) && k == 1)
			*ex = run_print(a, st);
		if (!rc)
			*ex = aa_pair(a, st, &t);
	}
	if (!rc && !*ex)
		*ex = aa_summary(a, &t);
	return rc;
}

/* One session, its report printed; what --aa's pairs and calibrate's add
 * run after. */
int run_session(struct run_args *a, struct ct_store *st, struct cli_progress *prog, int *ex,
		char *err, size_t len)
{
	int rc = ct_session_run(&a->s, st, err, len);

	cli_progress_done(prog);
	*ex = 0;
	if (a->s.rec.id && (!rc || rc == -EINTR))
		*ex = run_print(a, st);
	return rc;
}

/* run's sessions: an A/A check's pairs, or the one session. */
static int run_sessions(struct run_args *a, struct ct_store *st, struct cli_progress *prog, int *ex,
			char *err, size_t len)
{
	if (a->aa)
		return run_pairs(a, st, prog, ex, err, len);
	return run_session(a, st, prog, ex, err, len);
}

/* What the parser does not set: the table's defaults are its own. */
static void defaults(struct run_args *a, const char *cmd)
{
	memset(a, 0, sizeof(*a));
	a->cmd = cmd;
	a->s.env.oltp = &a->oltp;
	a->format = CLI_FORMAT_AUTO;
}

/* The text of the suite file the jobs run_main runs next come from (and
 * of the files it includes), or NULL: stored by their tag. */
static const char *suite_text;

void run_suite_text(const char *text)
{
	suite_text = text;
}

/* -f FILE: the suite's jobs, each a run with the options given beside
 * -f (argv less -f FILE). */
static int run_file(struct run_args *a, const struct run_cmd *cmd, int argc, char **argv,
		    const struct cli_parsed *p)
{
	const char *path = a->suite_file;
	char **extra;
	int n = 0, ex;

	if (p->rest < argc)
		return cli_usage_error(a->cmd, "-f: a suite's jobs name their commands (command = "
					       "...), none goes after --");
	extra = calloc((size_t)argc + 1, sizeof(*extra));
	if (!extra)
		return cli_fail(-ENOMEM, "out of memory");
	for (int i = 1; i < p->rest; i++) {
		if (!strcmp(argv[i], "-f") || !strcmp(argv[i], "--file"))
			i++;
		else if (strncmp(argv[i], "--file=", 7) && strncmp(argv[i], "-f", 2) &&
			 strcmp(argv[i], "--"))
			extra[n++] = argv[i];
	}
	ex = run_suite(cmd, path, extra, n);
	free(extra);
	return ex;
}

int run_check_only(const struct run_cmd *cmd, int argc, char **argv)
{
	struct run_args *a = malloc(sizeof(*a));
	char err[CT_ERRLEN] = "";
	struct cli_parsed p;
	int ex, rc;

	if (!a)
		return cli_fail(-ENOMEM, "out of memory");
	defaults(a, cmd->name);
	a->calibrate = cmd->calibrate;
	ex = cli_parse_in_order(a->cmd, cmd->synopsis, cmd->intro, run_opts_table(), a, argc, argv,
				&p);
	if (!ex)
		ex = run_check(a, &p, argc, argv);
	if (!ex) {
		rc = ct_env_from_machine(&a->s.env, err, sizeof(err));
		if (!rc)
			rc = ct_session_check(&a->s, err, sizeof(err));
		ex = rc ? cli_cmd_fail(a->cmd, rc, err) : 0;
	}
	free(a->kconfigs);
	free(a);
	ct_load_forget_cmds();
	return ex == 1 ? 0 : ex;
}

/* run and calibrate: parse, check, open, run the session(s), report. */
static int run_flow(struct run_args *a, const struct run_cmd *cmd, int argc, char **argv)
{
	struct cli_progress prog;
	struct ct_store *st = NULL;
	struct ct_journal j;
	struct cli_parsed p;
	char err[CT_ERRLEN] = "";
	int rc, ex;

	ex = cli_parse_in_order(a->cmd, cmd->synopsis, cmd->intro, run_opts_table(), a, argc, argv,
				&p);
	if (!ex && a->man_options) {
		run_man_options(stdout);
		return 0;
	}
	if (!ex && a->suite_file)
		return run_file(a, cmd, argc, argv, &p);
	if (!ex)
		ex = run_check(a, &p, argc, argv);
	if (!ex && a->from && cmd->from)
		return cmd->from(a);
	if (!ex) {
		rc = ct_env_from_machine(&a->s.env, err, sizeof(err));
		if (!rc)
			rc = ct_session_check(&a->s, err, sizeof(err));
		ex = rc ? cli_cmd_fail(a->cmd, rc, err) : 0;
	}
	if (!ex && a->cal_show && cmd->show) {
		ex = cmd->show(a);
		free(a->kconfigs);
		return ex;
	}
	if (!ex && a->dry_run) {
		ex = run_dry(a);
		free(a->kconfigs);
		return ex;
	}
	if (!ex)
		ex = open_stores(a, &st, &j);
	a->st = st;
	/* a suite's job: the file's text, by the tag its sessions carry */
	if (!ex && suite_text && a->s.opts.wopts.suite &&
	    (rc = ct_store_suite_put(st, a->s.opts.wopts.suite, suite_text, err, sizeof(err))))
		ex = cli_fail(rc, err);
	if (!ex && a->target_effect) {
		ex = target_check(a, st);
		a->s.opts.plan = target_plan;
		a->s.opts.plan_ctx = a;
	}
	if (ex) {
		ct_store_close(st);
		free(a->kconfigs);
		return ex == 1 ? 0 : ex;
	}
	cli_progress_init(&prog,
			  a->quiet ? CLI_PROGRESS_NONE : (enum cli_progress_mode)a->progress);
	a->s.on_event = cli_progress_event;
	a->s.ctx = &prog;
	rc = cmd->sessions(a, st, &prog, &ex, err, sizeof(err));
	ct_store_close(st);
	free(a->kconfigs);
	rc = finish(a, rc, err, &prog);
	return rc ? rc : ex;
}

int run_main(const struct run_cmd *cmd, int argc, char **argv)
{
	static struct run_args a;
	int ex;

	defaults(&a, cmd->name);
	a.calibrate = cmd->calibrate;
	ex = run_flow(&a, cmd, argc, argv);
	ct_load_forget_cmds();
	return ex;
}

int cmd_run(int argc, char **argv)
{
	static const struct run_cmd run = {
		.name = "run",
		.synopsis = "contend run [options] [-- command...]",
		.sessions = run_sessions,
	};

	return run_main(&run, argc, argv);
}
