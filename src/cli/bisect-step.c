/*
 * The two ways of `contend bisect` that measure what runs instead of what
 * it builds. `step` is the kernel's loop: a kernel is measured only once
 * booted, so each boot measures the running system as the commit the
 * state names (uname -r, or --id, must show its sha), records it, and
 * names the next commit to build and boot (--next-cmd runs a hook with
 * it). Its steps are sessions of other boots, so each is judged against
 * good's sessions as compare judges sessions (docs/statistics.md, "Two
 * levels"); a step without an answer is booted again. `judge` is the
 * simple path for `git bisect run`: the working tree's build measured and
 * judged against two stored labels, exit 0, 1 or 125 - one verdict per
 * step and no re-test, which is why start is the better way.
 */
#include "bisect.h"
#include "cli.h"
#include "contend/load.h"
#include "contend/util.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* git bisect run: anything from 128 on stops the bisection */
#define JUDGE_GOOD  0
#define JUDGE_BAD   1
#define JUDGE_SKIP  125
#define JUDGE_ABORT 255

/* Whether the id text shows sha: a run of 7 hex digits or more that
 * begins it (uname -r of a kernel built from git: 6.1.0-00042-gabcdef123456). */
static bool shows(const char *text, const char *sha)
{
	for (const char *p = text; *p;) {
		size_t n = 0;

		while (isxdigit((unsigned char)p[n]))
			n++;
		if (n >= 7 && n <= CT_GIT_SHA_LEN && !strncasecmp(p, sha, n))
			return true;
		p += n ? n : 1;
	}
	return false;
}

/* The running system is the commit expected: --id's output (uname -r). */
static int check_identity(const struct bisect *x, const char *sha)
{
	const char *id = x->a->id_cmd ? x->a->id_cmd : "uname -r";
	char *argv[] = { "/bin/sh", "-c", (char *)id, NULL };
	char err[CT_ERRLEN] = "", *out = NULL, q[160], l[16];
	int rc = ct_cmd_capture(argv, NULL, &out, err, sizeof(err));

	bisect_label(sha, l, sizeof(l));
	if (rc) {
		free(out);
		cli_error("bisect: --id %s failed (exit %d): %s", id, rc, err);
		return CT_EXIT_ENV;
	}
	out[strcspn(out, "\n")] = '\0';
	if (!shows(out, sha)) {
		cli_error("bisect: the running system is not %s ('%s' says %s): boot it, or name "
			  "what runs with --id",
			  l, id, ct_quote(out, q, sizeof(q)));
		free(out);
		return CT_EXIT_USAGE;
	}
	free(out);
	return 0;
}

/* The next commit said, and --next-cmd run with it. */
static int announce(struct bisect *x, const char *sha)
{
	char subj[256], err[CT_ERRLEN], cmd[4096 + 64];
	int rc;

	if (ct_git_subject(x->c.b.repo, sha, subj, sizeof(subj), err, sizeof(err)))
		subj[0] = '\0';
	printf("next: build and boot %s %s, then run 'contend bisect step'\n", sha, subj);
	fflush(stdout);
	if (!x->a->next_cmd)
		return 0;
	snprintf(cmd, sizeof(cmd), "%s %s", x->a->next_cmd, sha);
	rc = ct_sh_run(cmd, NULL, NULL, "CONTEND_BISECT_NEXT", sha);
	if (rc) {
		cli_error("bisect: --next-cmd exited with %d", rc);
		return CT_EXIT_ENV;
	}
	return 0;
}

int bisect_step_cmd(struct bisect *x, bool first)
{
	struct ct_bisector *c = &x->c;
	struct ct_bisect_plan p;
	char err[CT_ERRLEN] = "";
	int ex, rc;

	rc = ct_bisector_next(c, &p, err, sizeof(err));
	if (rc)
		return cli_fail(rc, err);
	if (p.end)
		return bisect_finish(x, &p);
	if (first) /* start: what runs now is not known to be anything */
		return announce(x, p.sha);
	ex = check_identity(x, p.sha);
	if (ex)
		return ex;
	rc = ct_bisector_boot(c, &p, err, sizeof(err));
	if (rc == -EINTR) {
		cli_error("bisect: %s; run 'contend bisect step' again", err);
		return CT_EXIT_INTERRUPTED;
	}
	if (rc)
		return cli_fail(rc, err);
	if (!c->steps[c->nsteps - 1].answer) /* answered ones were said as they ended */
		bisect_print_step(c, &c->steps[c->nsteps - 1], stderr);
	rc = ct_bisector_next(c, &p, err, sizeof(err));
	if (rc)
		return cli_fail(rc, err);
	return p.end ? bisect_finish(x, &p) : announce(x, p.sha);
}

/* The complete sessions of label, appended to *ids (grown). */
static int label_sessions(struct ct_store *st, const char *label, int64_t **ids, size_t *n,
			  char *err, size_t len)
{
	const struct ct_session_filter f = { .label = label,
					     .status = CT_SESSION_ONLY(CT_SESSION_COMPLETE) };
	struct ct_session_rec *recs = NULL;
	size_t nrecs = 0;
	int64_t *grown;
	int rc = ct_store_sessions(st, &f, &recs, &nrecs, err, len);

	if (!rc && !nrecs)
		rc = ct_err(err, len, -ENOENT, "no stored session is labelled '%s'", label);
	grown = rc ? NULL : realloc(*ids, (*n + nrecs) * sizeof(**ids));
	if (!rc && !grown)
		rc = ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < nrecs; i++)
		grown[(*n)++] = recs[i].id;
	if (grown)
		*ids = grown;
	free(recs);
	return rc;
}

/* The measurement and verdict of judge; JUDGE_* */
static int judge(struct bisect *x, struct ct_store *st, const char *top, const char *sha)
{
	struct run_args *a = x->a;
	const char *load = a->s.opts.loads[0];
	char l[16], err[CT_ERRLEN] = "";
	const char *labels[1] = { l }, *dirs[1] = { top };
	struct ct_stats_comparison reg, cmp;
	int64_t *good = NULL, *bad = NULL, *mine = NULL;
	size_t ng = 0, nb = 0, nm = 0, runs = 0;
	unsigned have = 0;
	int rc, ex = JUDGE_SKIP;

	bisect_label(sha, l, sizeof(l));
	rc = label_sessions(st, a->good_label, &good, &ng, err, sizeof(err));
	if (!rc)
		rc = label_sessions(st, a->bad_label, &bad, &nb, err, sizeof(err));
	if (!rc)
		rc = ct_bisect_sessions_verdict(st, a->s.opts.workload, load, good, ng, bad, nb,
						a->confidence, &reg, &runs, err, sizeof(err));
	if (rc) {
		cli_error("bisect: judge: %s", err);
		ex = JUDGE_ABORT;
		goto out;
	}
	if (!ct_stats_differs(&reg, a->confidence)) {
		cli_error("bisect: judge: '%s' and '%s' do not differ under %s: nothing to bisect",
			  a->good_label, a->bad_label, load);
		ex = JUDGE_ABORT;
		goto out;
	}
	x->c.delta = reg.shift.estimate;
	x->c.confidence = a->confidence;
	for (unsigned rung = CT_BISECT_FIRST_RUNS; have < a->bisect_max; rung *= 2) {
		struct ct_bisect_step probe = { .role = CT_ROLE_CANDIDATE };
		int64_t *grown = realloc(mine, (nm + 1) * sizeof(*mine));

		if (!grown) {
			cli_error("bisect: judge: out of memory");
			ex = JUDGE_ABORT;
			goto out;
		}
		mine = grown;
		ct_session_reset(&a->s);
		a->s.opts.ndirs = 1;
		a->s.opts.dir_labels = labels;
		a->s.opts.dirs = dirs;
		a->s.opts.runs = (rung < a->bisect_max ? rung : a->bisect_max) - have;
		a->s.opts.order_seed = (uint64_t)ct_wall_ns();
		bisect_event(x, CT_BISECT_EV_SESSION, &x->c, NULL, NULL);
		rc = ct_session_run(&a->s, st, err, sizeof(err));
		bisect_event(x, CT_BISECT_EV_SESSION_END, &x->c, NULL, NULL);
		if (!rc) {
			have += a->s.opts.runs;
			mine[nm++] = a->s.cfg[0].rec.id;
			rc = ct_bisect_sessions_verdict(st, a->s.opts.workload, load, good, ng,
							mine, nm, a->confidence, &cmp, &runs, err,
							sizeof(err));
		}
		if (rc) {
			cli_error("bisect: judge: %s", err);
			ex = JUDGE_ABORT;
			goto out;
		}
		ct_bisector_answer(&x->c, &probe, &cmp, (unsigned)runs, true);
		if (probe.answer == CT_ANSWER_BAD || probe.answer == CT_ANSWER_GOOD) {
			fprintf(stderr, "contend: bisect: judge: %s is %s (%+.1f%% against '%s')\n",
				l, bisect_answer(probe.answer), expm1(cmp.shift.estimate) * 100,
				a->good_label);
			ex = probe.answer == CT_ANSWER_BAD ? JUDGE_BAD : JUDGE_GOOD;
			goto out;
		}
	}
	fprintf(stderr, "contend: bisect: judge: %s: no answer after %u runs (skipped)\n", l, have);
out:
	free(good);
	free(bad);
	free(mine);
	return ex;
}

int bisect_judge_cmd(int argc, char **argv)
{
	static struct run_args a;
	struct bisect x = { .a = &a, .c = { .delta = NAN } };
	char top[PATH_MAX], sha[CT_GIT_SHA_LEN + 1], err[CT_ERRLEN];
	struct ct_store *st = NULL;
	struct ct_journal j;
	int ex, rc;

	ex = bisect_parse(&a, argc, argv);
	if (ex == 1)
		return 0;
	if (!ex && (!a.good_label || !a.bad_label))
		ex = cli_usage_error("bisect", "judge needs --good-label L and --bad-label L");
	if (!ex) {
		rc = ct_git_toplevel(a.repo ? a.repo : ".", top, sizeof(top), err, sizeof(err));
		if (!rc)
			rc = ct_git_resolve(top, "HEAD", sha, err, sizeof(err));
		if (rc) {
			cli_error("bisect: judge: %s", err);
			ex = JUDGE_ABORT;
		}
	}
	if (!ex && a.build) {
		rc = ct_sh_run(a.build, top, NULL, NULL, NULL);
		if (rc) {
			cli_error("bisect: judge: the build failed (exit %d): skipped", rc);
			ex = JUDGE_SKIP;
		}
	}
	if (!ex)
		ex = bisect_open(&a, &st, &j);
	if (!ex)
		ex = judge(&x, st, top, sha);
	else if (ex != JUDGE_SKIP)
		ex = JUDGE_ABORT; /* git bisect run would take 2 for "bad" */
	ct_store_close(st);
	free(a.kconfigs);
	ct_load_forget_cmds();
	return ex;
}
