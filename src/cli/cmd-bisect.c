/*
 * `contend bisect`: finds the commit that made a workload slower, with a
 * search that survives noisy answers (docs/statistics.md, "Bisection").
 *
 *   start    checks the range and the options, stores the bisection, and
 *            drives it to its end (--step: one step per boot instead)
 *   resume   goes on with the bisection of the repository after a crash
 *   step     measures the running system as the candidate (kernels)
 *   judge    one verdict for `git bisect run`: exit 0, 1 or 125
 *   status   the range left, each step, the likeliest commits
 *   log      the steps as git's bisect log
 *   report   the bisection as one HTML page: each step along the range
 *   reset    removes contend's work trees; the bisection ends
 *
 * One bisection per repository is in progress at a time; its state is in
 * the results store, so any of these can follow a crash or a reboot.
 */
#include "bisect.h"
#include "cli.h"
#include "opts.h"
#include "contend/load.h"
#include "contend/report.h"
#include "contend/signals.h"
#include "contend/util.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define BISECT_SYNOPSIS                                                                         \
	"contend bisect start --good REV --bad REV [--build CMD] [options] [-- command...]\n"   \
	"       contend bisect resume|status|log|reset [--repo DIR] [--db PATH]\n"              \
	"       contend bisect report [--repo DIR] [--db PATH] [-o FILE]\n"                     \
	"       contend bisect step [--repo DIR] [--db PATH]\n"                                 \
	"       contend bisect judge --good-label L --bad-label L [--build CMD] [options] [-- " \
	"command...]"
#define BISECT_INTRO                                                                          \
	"Finds the first commit of good..bad that made the workload slower (or faster):\n"    \
	"each candidate is built in a work tree of contend's own and measured interleaved\n"  \
	"with good, 5, 10, 20, 40 runs a side until the answer is bad, good or none (then\n"  \
	"skipped); a probabilistic search outvotes a wrong answer. Every step is stored:\n"   \
	"resume goes on after a crash. Exit 0 when the first bad commit is named, 5 when\n"   \
	"the bisection ends without one (good and bad do not differ, or skipped commits\n"    \
	"hide it). judge exits 0 good, 1 bad, 125 cannot tell, 255 on an error (git bisect\n" \
	"run stops there)."

/* The options of status, log, reset, resume and step. */
struct info_args {
	const char *repo, *db, *output;
	bool why;
};
static const struct cli_opt info_opts[] = {
	{ .type = CLI_OPT_STRING,
	  .short_name = 'o',
	  .long_name = "output",
	  .off = offsetof(struct info_args, output),
	  .argh = "FILE",
	  .help = "write the page to FILE (whole or not at all; default:\nstandard output)",
	  .only = "bisect report" },
	{ .type = CLI_OPT_FLAG,
	  .long_name = "why",
	  .off = offsetof(struct info_args, why),
	  .help = "and why the culprit differs from its parent: the\ncounters of the runs that "
		  "measured it against its\nparent (contend why's rule)",
	  .only = "bisect status" },
	CLI_STRING(0, "repo", struct info_args, repo, "DIR",
		   "the git repository (default: the one of the current\ndirectory)"),
	CLI_DB(struct info_args, db),
	CLI_END,
};

/* The top directory of the repository holding dir (NULL: here). */
static int find_repo(const char *dir, char *top, size_t len)
{
	char err[CT_ERRLEN], real[PATH_MAX];
	int rc = ct_git_toplevel(dir ? dir : ".", top, len, err, sizeof(err));

	if (rc == -ENOENT || rc == -ENOTDIR)
		return cli_usage_error("bisect", "%s is in no git repository", dir ? dir : ".");
	if (rc)
		return cli_fail(rc, err);
	if (realpath(top, real))
		snprintf(top, len, "%s", real);
	return 0;
}

/* <git common dir>/contend-bisect, made. */
static int state_dir(const char *repo, char *dir, size_t len)
{
	char *argv[] = { "git", "rev-parse", "--path-format=absolute", "--git-common-dir", NULL };
	char err[CT_ERRLEN], *out = NULL;
	int rc = ct_cmd_capture(argv, repo, &out, err, sizeof(err));

	if (rc || !out) {
		free(out);
		cli_error("bisect: cannot find the git directory of %s: %s", repo, err);
		return CT_EXIT_ENV;
	}
	out[strcspn(out, "\n")] = '\0';
	snprintf(dir, len, "%s/contend-bisect", out);
	free(out);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		cli_error("bisect: cannot make %s: %s", dir, strerror(errno));
		return CT_EXIT_ENV;
	}
	return 0;
}

/* The bisection of repo; running: one in progress, else exit 2. */
static int get_bisection(struct ct_store *st, const char *repo, bool running,
			 struct ct_bisection *b)
{
	char err[CT_ERRLEN];
	int rc = ct_store_bisection_get(st, repo, b, err, sizeof(err));

	if (rc == -ENOENT || (!rc && running && b->status != CT_BISECTION_RUNNING)) {
		cli_error("bisect: no bisection of %s is in progress (contend bisect start)", repo);
		return CT_EXIT_USAGE;
	}
	return rc ? cli_fail(rc, err) : 0;
}

int bisect_parse(struct run_args *a, int argc, char **argv)
{
	struct cli_parsed p;
	int ex;

	memset(a, 0, sizeof(*a));
	a->cmd = "bisect";
	a->s.env.oltp = &a->oltp;
	a->format = CLI_FORMAT_AUTO;
	a->cmd_in_tree = true;
	ex = cli_parse_in_order("bisect", BISECT_SYNOPSIS, BISECT_INTRO, run_opts_table(), a, argc,
				argv, &p);
	if (!ex)
		ex = run_check(a, &p, argc, argv);
	a->s.opts.runs = a->bisect_max; /* a step's most; each session sets its own */
	if (!ex && a->s.opts.nloads != 1)
		ex = cli_usage_error("bisect",
				     "a bisection judges one load: give -l once (%zu given)",
				     a->s.opts.nloads);
	return ex;
}

int bisect_open(struct run_args *a, struct ct_store **st, struct ct_journal *j)
{
	char err[CT_ERRLEN];
	int rc, ex;

	rc = ct_env_from_machine(&a->s.env, err, sizeof(err));
	if (!rc)
		rc = ct_session_check(&a->s, err, sizeof(err));
	if (rc)
		return cli_cmd_fail("bisect", rc, err);
	ex = cli_open_store(a->db, st);
	if (!ex && (ex = run_open_journal(a, *st, j))) {
		ct_store_close(*st);
		*st = NULL;
	}
	return ex;
}

void bisect_label(const char *sha, char *buf, size_t len)
{
	snprintf(buf, len, "%.12s", sha);
}

const char *bisect_role(enum ct_bisect_role r)
{
	return ct_enum_name(ct_bisect_role_names, CT_ROLE_NROLES, r);
}

const char *bisect_answer(enum ct_bisect_answer a)
{
	return ct_enum_name(ct_bisect_answer_names, CT_ANSWER_NANSWERS, a);
}

void bisect_setup(struct bisect *x, struct ct_store *st)
{
	struct ct_bisector *c = &x->c;

	c->st = st;
	c->s = &x->a->s;
	c->build = x->a->build;
	c->max_runs = x->a->bisect_max;
	c->confidence = x->a->confidence;
	c->event = bisect_event;
	c->ctx = x;
}

void bisect_event(void *ctx, enum ct_bisect_event ev, const struct ct_bisector *c,
		  const struct ct_bisect_step *p, const char *text)
{
	struct bisect *x = ctx;
	struct run_args *a = x->a;
	char lb[16], ls[16];

	switch (ev) {
	case CT_BISECT_EV_BUILD:
		fprintf(stderr, "contend: bisect: building %s in %s\n", text, c->dir);
		break;
	case CT_BISECT_EV_MEASURE:
		bisect_label(p->base, lb, sizeof(lb));
		bisect_label(p->sha, ls, sizeof(ls));
		fprintf(stderr, "contend: bisect: %s %s against %s%s\n", bisect_role(p->role), ls,
			lb, text ? " (its runs so far counted in)" : "");
		break;
	case CT_BISECT_EV_SESSION:
		cli_progress_init(&x->prog, a->quiet ? CLI_PROGRESS_NONE
						     : (enum cli_progress_mode)a->progress);
		a->s.on_event = cli_progress_event;
		a->s.ctx = &x->prog;
		break;
	case CT_BISECT_EV_SESSION_END:
		cli_progress_done(&x->prog);
		break;
	case CT_BISECT_EV_STEP:
		bisect_print_step(c, p, stderr);
		break;
	}
}

int bisect_finish(struct bisect *x, const struct ct_bisect_plan *p)
{
	char err[CT_ERRLEN];
	int rc = ct_bisector_end(&x->c, p, err, sizeof(err));

	if (rc)
		return cli_fail(rc, err);
	if (p->status == CT_BISECTION_FOUND) {
		bisect_print_culprit(&x->c, stdout);
		return 0;
	}
	cli_error("bisect: no first bad commit: %s", p->note);
	bisect_hint(&x->c, x->a->bisect_max, stderr);
	return CT_EXIT_NO_ANSWER;
}

void bisect_hint(const struct ct_bisector *c, unsigned max_runs, FILE *f)
{
	const struct ct_bisect_step *reg = ct_bisector_last(c, CT_ROLE_REGRESSION, true);
	size_t unanswered = 0;

	for (size_t i = 0; i < c->nsteps; i++)
		unanswered += c->steps[i].answer == CT_ANSWER_SKIP &&
			      !strncmp(c->steps[i].why, "no answer", 9);
	if (reg && reg->answer == CT_ANSWER_SAME)
		fprintf(f,
			"contend: bisect: hint: the range's ends measured alike after %u runs a "
			"side "
			"(twice --max-runs); if the change is smaller than their spread, more runs "
			"(--max-runs %u) or a quieter machine may tell them apart\n",
			reg->runs, 2 * max_runs);
	else if (unanswered)
		fprintf(f,
			"contend: bisect: hint: %zu step%s gave no answer after %u runs a side; "
			"more "
			"runs (--max-runs %u) or a quieter machine would answer them\n",
			unanswered, unanswered == 1 ? "" : "s", max_runs, 2 * max_runs);
}

/* The interleaved loop: each step the state machine names, measured, to
 * the end. */
static int bisect_drive(struct bisect *x)
{
	struct ct_bisect_plan p;
	char err[CT_ERRLEN] = "";
	int rc;

	for (;;) {
		rc = ct_bisector_next(&x->c, &p, err, sizeof(err));
		if (rc)
			return cli_fail(rc, err);
		if (p.end)
			return bisect_finish(x, &p);
		rc = ct_bisector_measure(&x->c, &p, err, sizeof(err));
		if (rc == -EINTR) {
			cli_error("bisect: %s; the step is kept: 'contend bisect resume' goes on",
				  err);
			return CT_EXIT_INTERRUPTED;
		}
		if (rc == -ENOEXEC) {
			cli_error("bisect: %s", err);
			return CT_EXIT_ENV;
		}
		if (rc)
			return cli_fail(rc, err);
		if (ct_signals_pending())
			return CT_EXIT_INTERRUPTED;
	}
}

/* The measuring options as shell words: what resume and step parse again. */
static void join_words(char *buf, size_t len, int argc, char **argv)
{
	size_t off = 0;

	buf[0] = '\0';
	for (int i = 0; i < argc; i++)
		if (!ct_append_word(buf, len, &off, argv[i]))
			break;
}

/* Checks what start is given against the repository: one line, exit 2,
 * and nothing made, for each mistake. */
static int check_range(struct run_args *a, char *top, size_t tlen, char *good, char *bad)
{
	char err[CT_ERRLEN], q[96];
	int rc, ex;

	if (!a->good || !a->bad)
		return cli_usage_error("bisect", "start needs --good REV and --bad REV");
	ex = find_repo(a->repo, top, tlen);
	if (ex)
		return ex;
	rc = ct_git_resolve(top, a->good, good, err, sizeof(err));
	if (!rc)
		rc = ct_git_resolve(top, a->bad, bad, err, sizeof(err));
	if (rc == -ENOENT)
		return cli_usage_error("bisect", "%s", err);
	if (rc)
		return cli_fail(rc, err);
	if (!strcmp(good, bad))
		return cli_usage_error("bisect", "--good and --bad are the same commit");
	rc = ct_git_is_ancestor(top, good, bad, err, sizeof(err));
	if (rc < 0)
		return cli_fail(rc, err);
	if (!rc)
		return cli_usage_error("bisect", "--good %s is not an ancestor of --bad %s",
				       ct_quote(a->good, q, sizeof(q)), a->bad);
	if (a->build) {
		char **words = NULL;
		int n = ct_split_words(a->build, &words);
		bool ok = n <= 0 || (strchr(words[0], '/') && words[0][0] != '/') ||
			  strchr(a->build, '$') || run_runnable(words[0]);

		if (n > 0 && !ok)
			ct_quote(words[0], q, sizeof(q));
		free(words);
		if (!ok)
			return cli_usage_error("bisect",
					       "--build: cannot run %s: command not found", q);
	}
	return 0;
}

static void print_start(const struct bisect *x)
{
	const struct ct_bisector *c = &x->c;
	char g[16], b[16];

	bisect_label(c->b.good, g, sizeof(g));
	bisect_label(c->b.bad, b, sizeof(b));
	fprintf(stderr, "contend: bisect: %zu commit%s in %s..%s, under load %s\n", c->range.n,
		c->range.n == 1 ? "" : "s", g, b, x->a->s.opts.loads[0]);
}

/* start --dry-run: every check start makes, the range counted, the plan
 * said; nothing made or stored. */
static int start_dry(struct run_args *a, const char *top, const char *good, const char *bad)
{
	struct ct_git_range range = { 0 };
	struct ct_bisection old;
	struct ct_store *st = NULL;
	char err[CT_ERRLEN], g[16], b[16], store[PATH_MAX];
	const char *target;
	int rc;

	rc = ct_env_from_machine(&a->s.env, err, sizeof(err));
	if (!rc)
		rc = ct_session_check(&a->s, err, sizeof(err));
	if (rc)
		return cli_cmd_fail("bisect", rc, err);
	/* a bisection already in progress is refused as start refuses it */
	target = a->db;
	if (!target && !ct_store_default_path(store, sizeof(store)))
		target = store;
	if (target && !ct_store_open(&st, target, 0, err, sizeof(err))) {
		rc = ct_store_bisection_get(st, top, &old, err, sizeof(err));
		ct_store_close(st);
		if (!rc && old.status == CT_BISECTION_RUNNING)
			return cli_usage_error("bisect",
					       "a bisection of %s is in progress: contend bisect "
					       "status, resume or reset",
					       top);
	}
	rc = ct_git_range(top, good, bad, &range, err, sizeof(err));
	if (rc)
		return cli_fail(rc, err);
	bisect_label(good, g, sizeof(g));
	bisect_label(bad, b, sizeof(b));
	printf("bisect: %zu commit%s in %s..%s of %s\n", range.n, range.n == 1 ? "" : "s", g, b,
	       top);
	printf("each step: workload %s under load %s, %s; 5, 10, 20... up to %u runs a side, "
	       "judged at %g%%\n",
	       a->s.opts.workload, a->s.opts.loads[0],
	       a->step ? "one session a boot (contend bisect step)"
		       : "interleaved with its base in work trees of contend's own",
	       a->bisect_max, a->confidence);
	if (a->build)
		printf("build: %s (untimed; a failed build skips the commit)\n", a->build);
	printf("dry run: nothing measured or stored\n");
	ct_git_range_free(&range);
	return 0;
}

static int cmd_start(int argc, char **argv)
{
	static struct run_args a;
	struct bisect x = { .a = &a, .c = { .delta = NAN } };
	struct ct_bisector *c = &x.c;
	char top[PATH_MAX], good[CT_GIT_SHA_LEN + 1], bad[CT_GIT_SHA_LEN + 1], err[CT_ERRLEN];
	struct ct_bisection old;
	struct ct_store *st;
	struct ct_journal j;
	int ex, rc;

	ex = bisect_parse(&a, argc, argv);
	if (!ex)
		ex = check_range(&a, top, sizeof(top), good, bad);
	if (!ex && (a.id_cmd || a.next_cmd) && !a.step)
		ex = cli_usage_error("bisect", "--id and --next-cmd go with --step");
	if (ex)
		return ex == 1 ? 0 : ex;
	if (a.dry_run) {
		ex = start_dry(&a, top, good, bad);
		free(a.kconfigs);
		ct_load_forget_cmds();
		return ex;
	}
	ex = bisect_open(&a, &st, &j);
	if (ex)
		return ex;
	bisect_setup(&x, st);
	rc = ct_store_bisection_get(st, top, &old, err, sizeof(err));
	if (!rc && old.status == CT_BISECTION_RUNNING) {
		ct_store_close(st);
		return cli_usage_error("bisect",
				       "a bisection of %s is in progress: contend bisect status, "
				       "resume or reset",
				       top);
	}
	if (rc && rc != -ENOENT) {
		ct_store_close(st);
		return cli_fail(rc, err);
	}
	ex = state_dir(top, c->dir, sizeof(c->dir));
	if (ex) {
		ct_store_close(st);
		return ex;
	}
	if (strlen(top) >= sizeof(c->b.repo)) {
		ct_store_close(st);
		return cli_usage_error("bisect", "the repository's path is over %zu bytes",
				       sizeof(c->b.repo) - 1);
	}
	snprintf(c->b.repo, sizeof(c->b.repo), "%.1023s", top);
	snprintf(c->b.good, sizeof(c->b.good), "%s", good);
	snprintf(c->b.bad, sizeof(c->b.bad), "%s", bad);
	c->b.mode = a.step ? CT_BISECTION_STEP : CT_BISECTION_RUN;
	c->b.status = CT_BISECTION_RUNNING;
	join_words(c->b.argv, sizeof(c->b.argv), argc - 1, argv + 1);
	c->b.started_at = ct_wall_ns();
	rc = ct_store_bisection_put(st, &c->b, err, sizeof(err));
	if (!rc)
		rc = ct_bisector_load(c, err, sizeof(err));
	if (rc) {
		ex = cli_fail(rc, err);
	} else {
		print_start(&x);
		ex = a.step ? bisect_step_cmd(&x, true) : bisect_drive(&x);
	}
	ct_bisector_release(c);
	ct_store_close(st);
	free(a.kconfigs);
	ct_load_forget_cmds();
	return ex;
}

/* The options of an info subcommand, the repository and its bisection
 * (running: one in progress); the store opened into c->st. */
static int open_info(int argc, char **argv, bool running, bool writes, struct ct_bisector *c,
		     struct info_args *ia)
{
	struct cli_parsed p;
	char top[PATH_MAX];
	int ex;

	char cmd[32];

	memset(ia, 0, sizeof(*ia));
	/* each subcommand's --help lists its own options */
	snprintf(cmd, sizeof(cmd), "bisect %s", argv[0]);
	ex = cli_parse(cmd, BISECT_SYNOPSIS, BISECT_INTRO, info_opts, ia, argc, argv, &p);
	if (ex == 1)
		return ex;
	if (!ex && p.rest < argc)
		ex = cli_usage_error(cmd, "unexpected argument '%s'", argv[p.rest]);
	if (!ex)
		ex = find_repo(ia->repo, top, sizeof(top));
	if (!ex)
		ex = writes ? cli_open_store(ia->db, &c->st) : cli_read_store(ia->db, &c->st);
	if (ex)
		return ex;
	ex = get_bisection(c->st, top, running, &c->b);
	if (!ex)
		ex = state_dir(top, c->dir, sizeof(c->dir));
	if (ex) {
		ct_store_close(c->st);
		c->st = NULL;
	}
	return ex;
}

/* The stored measuring options parsed again into a (resume, step). */
static int reparse(struct bisect *x, struct run_args *a, const char *sub)
{
	char **words = NULL, **argv;
	int n = ct_split_words(x->c.b.argv, &words), ex;

	if (n < 0) {
		cli_error("bisect: the stored options of bisection %lld cannot be read",
			  (long long)x->c.b.id);
		return CT_EXIT_ENV;
	}
	argv = calloc((size_t)n + 2, sizeof(*argv));
	if (!argv) {
		free(words);
		return cli_fail(-ENOMEM, "out of memory");
	}
	argv[0] = (char *)sub;
	for (int i = 0; i < n; i++)
		argv[i + 1] = words[i];
	ex = bisect_parse(a, n + 1, argv);
	/* the words stay until the bisection is released: the session
	 * points into them */
	x->words = words;
	x->wargv = argv;
	x->a = a;
	return ex;
}

/* resume and step: the bisection in progress with its options. */
static int cmd_continue(int argc, char **argv, bool step)
{
	static struct run_args a;
	struct bisect x = { .a = &a, .c = { .delta = NAN } };
	struct info_args ia;
	struct ct_journal j;
	struct ct_store *st;
	char err[CT_ERRLEN];
	int ex, rc;

	ex = open_info(argc, argv, true, true, &x.c, &ia);
	if (ex)
		return ex == 1 ? 0 : ex; /* 1: --help */
	ct_store_close(x.c.st);
	x.c.st = NULL;
	if ((x.c.b.mode == CT_BISECTION_STEP) != step) {
		cli_error("bisect: the bisection of %s runs %s: use 'contend bisect %s'",
			  x.c.b.repo, step ? "its own steps" : "one step per boot",
			  step ? "resume" : "step");
		return CT_EXIT_USAGE;
	}
	ex = reparse(&x, &a, argv[0]);
	if (!ex) {
		a.db = ia.db ? ia.db : a.db;
		ex = bisect_open(&a, &st, &j);
	}
	if (!ex) {
		bisect_setup(&x, st);
		rc = ct_bisector_load(&x.c, err, sizeof(err));
		if (rc)
			ex = cli_fail(rc, err);
		else
			ex = step ? bisect_step_cmd(&x, false) : bisect_drive(&x);
		ct_store_close(st);
	}
	ct_bisector_release(&x.c);
	free(x.words);
	free(x.wargv);
	free(a.kconfigs);
	ct_load_forget_cmds();
	return ex;
}

enum show { SHOW_STATUS, SHOW_LOG, SHOW_REPORT };

static int cmd_show(int argc, char **argv, enum show what)
{
	struct ct_bisector c = { .delta = NAN };
	struct info_args ia;
	char err[CT_ERRLEN];
	int ex, rc;

	ex = open_info(argc, argv, false, false, &c, &ia);
	if (ex)
		return ex == 1 ? 0 : ex; /* 1: --help */
	rc = ct_bisector_load(&c, err, sizeof(err));
	if (rc) {
		ex = cli_fail(rc, err);
	} else if (what == SHOW_REPORT) {
		const char *dot = ia.output ? strrchr(ia.output, '.') : NULL;
		struct cli_out o;

		/* one HTML page: an extension that names another format is a
		 * mistake, not a page under another name */
		if (dot && strchr(dot, '/'))
			dot = NULL;
		if (dot && strcmp(dot, ".html") && strcmp(dot, ".htm")) {
			ct_bisector_release(&c);
			ct_store_close(c.st);
			return cli_usage_error(
				"bisect", "report writes one HTML page: -o FILE.html, not '%s'",
				ia.output);
		}
		ex = cli_out_setup(&o, "bisect", CT_FORMAT_HTML, ia.output, true);
		if (!ex)
			ex = cli_out_open(&o, "bisect");
		if (!ex) {
			rc = bisect_print_html(&c, o.f);
			ex = cli_out_close(&o, "bisect", !rc);
			if (!ex && rc)
				ex = cli_fail(rc, "cannot write the page");
		}
	} else if (what == SHOW_LOG) {
		bisect_print_log(&c, stdout);
	} else {
		bisect_print_status(&c, stdout);
		if (ia.why)
			ex = bisect_print_why(&c, stdout);
	}
	ct_bisector_release(&c);
	ct_store_close(c.st);
	return ex;
}

static int cmd_reset(int argc, char **argv)
{
	struct ct_bisector c = { .delta = NAN };
	const char *trees[] = { "base", "candidate" };
	char err[CT_ERRLEN], path[PATH_MAX + 32];
	struct info_args ia;
	int ex, rc = 0;

	ex = open_info(argc, argv, false, true, &c, &ia);
	if (ex)
		return ex == 1 ? 0 : ex; /* 1: --help */
	for (size_t i = 0; !rc && i < CT_ARRAY_SIZE(trees); i++) {
		snprintf(path, sizeof(path), "%s/%s", c.dir, trees[i]);
		rc = ct_git_worktree_remove(c.b.repo, path, err, sizeof(err));
	}
	/* the build logs stay: a failed build's message names its log */
	for (size_t i = 0; !rc && i < CT_ARRAY_SIZE(trees); i++) {
		snprintf(path, sizeof(path), "%s/%s.built", c.dir, trees[i]);
		if (unlink(path) && errno != ENOENT)
			rc = ct_err(err, sizeof(err), -errno, "cannot remove %s: %s", path,
				    strerror(errno));
	}
	if (!rc && c.b.status == CT_BISECTION_RUNNING) {
		c.b.status = CT_BISECTION_RESET;
		snprintf(c.b.note, sizeof(c.b.note), "reset before its end");
		c.b.ended_at = ct_wall_ns();
		rc = ct_store_bisection_end(c.st, &c.b, err, sizeof(err));
	}
	ct_store_close(c.st);
	if (rc)
		return cli_fail(rc, err);
	printf("bisection of %s reset: its work trees are removed, its steps and build logs "
	       "(%s) stay\n",
	       c.b.repo, c.dir);
	return 0;
}

int cmd_bisect(int argc, char **argv)
{
	const char *sub = argc > 1 ? argv[1] : NULL;

	if (!sub || !strcmp(sub, "-h") || !strcmp(sub, "--help")) {
		cli_help(sub ? stdout : stderr, "bisect", BISECT_SYNOPSIS, BISECT_INTRO,
			 run_opts_table());
		return sub ? 0 : CT_EXIT_USAGE;
	}
	if (!strcmp(sub, "start"))
		return cmd_start(argc - 1, argv + 1);
	if (!strcmp(sub, "resume"))
		return cmd_continue(argc - 1, argv + 1, false);
	if (!strcmp(sub, "step"))
		return cmd_continue(argc - 1, argv + 1, true);
	if (!strcmp(sub, "status"))
		return cmd_show(argc - 1, argv + 1, SHOW_STATUS);
	if (!strcmp(sub, "log"))
		return cmd_show(argc - 1, argv + 1, SHOW_LOG);
	if (!strcmp(sub, "report"))
		return cmd_show(argc - 1, argv + 1, SHOW_REPORT);
	if (!strcmp(sub, "reset"))
		return cmd_reset(argc - 1, argv + 1);
	if (!strcmp(sub, "judge"))
		return bisect_judge_cmd(argc - 1, argv + 1);
	return cli_unknown_sub("bisect", sub);
}
