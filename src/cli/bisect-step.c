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
#include "contend/report.h"
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

/* The sessions a step of seq is judged by, for the report's pool: good's
 * (of the regression) and seq's own. */
static size_t step_sessions(const struct bisect *c, unsigned seq, int64_t *ids, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nsteps && n < cap; i++)
		if (c->steps[i].session_id &&
		    (c->steps[i].seq == seq || !strcmp(c->steps[i].sha, c->b.good)))
			ids[n++] = c->steps[i].session_id;
	return n;
}

/* sha's stored sessions against base's, as compare judges them. */
static int compare_sessions(struct ct_store *st, const char *workload, const char *load,
			    const char *base_label, const char *label, const int64_t *ids, size_t n,
			    struct ct_stats_comparison *cmp, size_t *runs, char *err, size_t len)
{
	struct ct_report_source src[2] = { { .label = base_label }, { .label = label } };
	const char *loads[1] = { load };
	struct ct_report_query q = { .workload = workload,
				     .src = src,
				     .nsrc = 2,
				     .loads = loads,
				     .nloads = 1,
				     .base_label = base_label,
				     .confidence = 95,
				     .pool = CT_POOL_LISTED,
				     .pool_ids = ids,
				     .npool_ids = n };
	struct ct_report rep;
	int rc = ct_report_build(&rep, st, &q, err, len);

	memset(cmp, 0, sizeof(*cmp));
	*runs = 0;
	if (rc == -ENOENT)
		return 0; /* a side has no runs yet */
	if (rc)
		return rc;
	if (rep.nblocks && rep.blocks[0].ncells == 2) {
		*cmp = rep.blocks[0].cells[1].cmp;
		*runs = rep.blocks[0].cells[1].n;
	}
	ct_report_release(&rep);
	return 0;
}

/* The ok runs of sha's sittings in step seq, and how many sittings. */
static unsigned runs_of(const struct bisect *c, unsigned seq, const char *sha, size_t *sittings)
{
	unsigned n = 0;

	*sittings = 0;
	for (size_t i = 0; i < c->nsteps; i++)
		if (c->steps[i].seq == seq && !strcmp(c->steps[i].sha, sha) &&
		    c->steps[i].session_id) {
			n += c->steps[i].runs;
			(*sittings)++;
		}
	return n;
}

/* What the next boot measures: its role and commit; NULL sha when the
 * bisection is over (then status and note say how). */
static const char *step_next(struct bisect *c, const char **role, unsigned *seq, char *note,
			     size_t nlen)
{
	const struct ct_bisect_step *last = c->nsteps ? &c->steps[c->nsteps - 1] : NULL;
	size_t gs, bs, next;
	long found;

	note[0] = '\0';
	*seq = last ? last->seq + 1 : 0;
	if (!last || (!strcmp(last->role, "regression") && !last->answer[0])) {
		*role = "regression";
		*seq = 0;
		runs_of(c, 0, c->b.good, &gs);
		runs_of(c, 0, c->b.bad, &bs);
		return gs <= bs ? c->b.good : c->b.bad;
	}
	if (!strcmp(last->role, "regression") && !strcmp(last->answer, "same")) {
		snprintf(note, nlen, "%s", last->why);
		return NULL;
	}
	if (!strcmp(last->role, "candidate") && !last->answer[0]) {
		*role = "candidate";
		*seq = last->seq;
		return last->sha; /* not yet: booted again */
	}
	found = bisect_found(c);
	if (found >= 0)
		return NULL;
	if (ct_bisect_next(c->search, &next)) {
		snprintf(note, nlen, "only commits that were skipped could tell the rest apart");
		return NULL;
	}
	*role = "candidate";
	return c->range.sha[next];
}

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
static int check_identity(const struct bisect *c, const char *sha)
{
	char *argv[] = { "/bin/sh", "-c", (char *)(c->a->id_cmd ? c->a->id_cmd : "uname -r"),
			 NULL };
	char err[CT_ERRLEN] = "", *out = NULL, q[160], l[16];
	int rc = ct_cmd_capture(argv, NULL, &out, err, sizeof(err));

	bisect_label(sha, l, sizeof(l));
	if (rc) {
		free(out);
		cli_error("bisect: --id %s failed (exit %d): %s",
			  c->a->id_cmd ? c->a->id_cmd : "uname -r", rc, err);
		return CT_EXIT_ENV;
	}
	out[strcspn(out, "\n")] = '\0';
	if (!shows(out, sha)) {
		cli_error("bisect: the running system is not %s ('%s' says %s): boot it, or name "
			  "what runs with --id",
			  l, c->a->id_cmd ? c->a->id_cmd : "uname -r", ct_quote(out, q, sizeof(q)));
		free(out);
		return CT_EXIT_USAGE;
	}
	free(out);
	return 0;
}

/* The next commit said, and --next-cmd run with it. */
static int announce(struct bisect *c, const char *sha)
{
	char subj[256], err[CT_ERRLEN], cmd[4096 + 64];
	int rc;

	if (ct_git_subject(c->b.repo, sha, subj, sizeof(subj), err, sizeof(err)))
		subj[0] = '\0';
	printf("next: build and boot %s %s, then run 'contend bisect step'\n", sha, subj);
	fflush(stdout);
	if (!c->a->next_cmd)
		return 0;
	snprintf(cmd, sizeof(cmd), "%s %s", c->a->next_cmd, sha);
	rc = bisect_sh(cmd, NULL, NULL, sha);
	if (rc) {
		cli_error("bisect: --next-cmd exited with %d", rc);
		return CT_EXIT_ENV;
	}
	return 0;
}

/* One boot's session of sha, stored with its step row. 0 or the exit code. */
static int measure_boot(struct bisect *c, unsigned seq, const char *role, const char *sha,
			unsigned runs)
{
	struct run_args *a = c->a;
	char l[16], err[CT_ERRLEN] = "";
	const char *labels[1] = { l }, *dirs[1] = { NULL };
	struct cli_progress prog;
	struct ct_bisect_step *p;
	int rc = bisect_step_begin(c, seq, role, c->b.good, sha, err, sizeof(err));

	if (rc)
		return cli_fail(rc, err);
	p = c->cur;
	bisect_label(sha, l, sizeof(l));
	rc = bisect_session(a, c->st, labels, dirs, 1, runs, NULL, NULL, &prog, err, sizeof(err));
	p->runs = prog.nruns - prog.nfailed;
	if (a->s.cfg[0].rec.id) {
		p->session_id = a->s.cfg[0].rec.id;
		if (ct_store_bisect_step_end(c->st, p, err, sizeof(err)) && !rc)
			rc = -EIO;
	}
	if (rc == -EINTR) {
		cli_error("bisect: %s; run 'contend bisect step' again", err);
		return CT_EXIT_INTERRUPTED;
	}
	return rc ? cli_fail(rc, err) : 0;
}

/* The boot's step judged: the row's answer ("" not yet: boot it again). */
static int judge_boot(struct bisect *c, struct ct_bisect_step *p)
{
	bool reg = !strcmp(p->role, "regression");
	const char *other = reg ? c->b.bad : p->sha;
	char gl[16], bl[16], err[CT_ERRLEN];
	struct ct_stats_comparison cmp;
	int64_t ids[1024];
	size_t n = step_sessions(c, p->seq, ids, CT_ARRAY_SIZE(ids)), judged, sg, so;
	unsigned rg = runs_of(c, p->seq, c->b.good, &sg), ro = runs_of(c, p->seq, other, &so);
	int rc;

	bisect_label(c->b.good, gl, sizeof(gl));
	bisect_label(other, bl, sizeof(bl));
	rc = compare_sessions(c->st, c->a->s.opts.workload, c->a->s.opts.loads[0], gl, bl, ids, n,
			      &cmp, &judged, err, sizeof(err));
	if (rc)
		return cli_fail(rc, err);
	bisect_effect(&cmp, p);
	if (reg) {
		if (sg && so && cmp.decided_by != CT_TEST_NONE && cmp.p < 0.05) {
			snprintf(p->answer, sizeof(p->answer), "bad");
		} else if (rg >= c->a->bisect_max && ro >= c->a->bisect_max) {
			snprintf(p->answer, sizeof(p->answer), "same");
			snprintf(p->why, sizeof(p->why),
				 "good and bad do not differ after %u and %u runs", rg, ro);
		}
	} else {
		enum ct_bisect_call call = ct_bisect_judge(&cmp, c->delta);

		if (call != CT_BISECT_NOT_YET) {
			snprintf(p->answer, sizeof(p->answer), "%s",
				 call == CT_BISECT_BAD ? "bad" : "good");
		} else if (ro >= c->a->bisect_max) {
			snprintf(p->answer, sizeof(p->answer), "skip");
			snprintf(p->why, sizeof(p->why), "no answer after %u runs", ro);
		}
	}
	p->ended_at = ct_wall_ns();
	rc = ct_store_bisect_step_end(c->st, p, err, sizeof(err));
	return rc ? cli_fail(rc, err) : 0;
}

/* The bisection's end in step mode; the exit code. */
static int step_end(struct bisect *c, const char *note)
{
	long found = bisect_found(c);
	char err[CT_ERRLEN];
	int rc;

	snprintf(c->b.status, sizeof(c->b.status), "%s", found >= 0 ? "found" : "none");
	snprintf(c->b.culprit, sizeof(c->b.culprit), "%s", found >= 0 ? c->range.sha[found] : "");
	snprintf(c->b.note, sizeof(c->b.note), "%s", note);
	c->b.ended_at = ct_wall_ns();
	rc = ct_store_bisection_end(c->st, &c->b, err, sizeof(err));
	if (rc)
		return cli_fail(rc, err);
	if (found < 0) {
		cli_error("bisect: no first bad commit: %s", note);
		return CT_EXIT_NO_ANSWER;
	}
	bisect_print_culprit(c, stdout);
	return 0;
}

int bisect_step_cmd(struct bisect *c, bool first)
{
	const char *role = NULL, *sha;
	char note[256], err[CT_ERRLEN], want[CT_BISECT_SHA];
	unsigned seq, have, runs;
	size_t sittings;
	int ex, rc;

	sha = step_next(c, &role, &seq, note, sizeof(note));
	if (!sha)
		return step_end(c, note);
	if (first) /* start: what runs now is not known to be anything */
		return announce(c, sha);
	snprintf(want, sizeof(want), "%s", sha);
	ex = check_identity(c, want);
	if (ex)
		return ex;
	have = runs_of(c, seq, want, &sittings);
	runs = have < BISECT_FIRST_RUNS ? BISECT_FIRST_RUNS : have;
	if (have + runs > c->a->bisect_max)
		runs = c->a->bisect_max > have ? c->a->bisect_max - have : 1;
	ex = measure_boot(c, seq, role, want, runs);
	if (!ex)
		ex = judge_boot(c, c->cur);
	if (ex)
		return ex;
	rc = bisect_load(c, err, sizeof(err));
	if (rc)
		return cli_fail(rc, err);
	bisect_print_step(c, &c->steps[c->nsteps - 1], stderr);
	sha = step_next(c, &role, &seq, note, sizeof(note));
	return sha ? announce(c, sha) : step_end(c, note);
}

/* The stored sessions of label (complete), appended to ids. */
static int label_sessions(struct ct_store *st, const char *label, int64_t *ids, size_t *n,
			  size_t cap, char *err, size_t len)
{
	struct ct_session_rec *recs = NULL;
	size_t nrecs = 0, had = *n;
	int rc = ct_store_sessions(st, 0, &recs, &nrecs, err, len);

	for (size_t i = 0; !rc && i < nrecs && *n < cap; i++)
		if (!strcmp(recs[i].label, label) && !strcmp(recs[i].status, "complete"))
			ids[(*n)++] = recs[i].id;
	free(recs);
	if (!rc && *n == had)
		rc = ct_err(err, len, -ENOENT, "no stored session is labelled '%s'", label);
	return rc;
}

/* The measurement and verdict of judge; JUDGE_* */
static int judge(struct run_args *a, struct ct_store *st, const char *top, const char *sha)
{
	char l[16], err[CT_ERRLEN] = "";
	const char *labels[1] = { l }, *dirs[1] = { top };
	struct ct_stats_comparison reg, cmp;
	int64_t ids[1024];
	size_t n = 0, runs = 0;
	unsigned have = 0;
	int rc;

	bisect_label(sha, l, sizeof(l));
	rc = label_sessions(st, a->good_label, ids, &n, CT_ARRAY_SIZE(ids), err, sizeof(err));
	if (!rc)
		rc = label_sessions(st, a->bad_label, ids, &n, CT_ARRAY_SIZE(ids), err,
				    sizeof(err));
	if (!rc)
		rc = compare_sessions(st, a->s.opts.workload, a->s.opts.loads[0], a->good_label,
				      a->bad_label, ids, n, &reg, &runs, err, sizeof(err));
	if (rc) {
		cli_error("bisect: judge: %s", err);
		return JUDGE_ABORT;
	}
	if (reg.decided_by == CT_TEST_NONE || !(reg.p < 0.05)) {
		cli_error("bisect: judge: '%s' and '%s' do not differ under %s: nothing to bisect",
			  a->good_label, a->bad_label, a->s.opts.loads[0]);
		return JUDGE_ABORT;
	}
	for (unsigned rung = BISECT_FIRST_RUNS; have < a->bisect_max; rung *= 2) {
		struct cli_progress prog;
		enum ct_bisect_call call;

		rc = bisect_session(a, st, labels, dirs, 1,
				    (rung < a->bisect_max ? rung : a->bisect_max) - have, NULL,
				    NULL, &prog, err, sizeof(err));
		if (rc) {
			cli_error("bisect: judge: %s", err);
			return JUDGE_ABORT;
		}
		have += a->s.opts.runs;
		if (n < CT_ARRAY_SIZE(ids))
			ids[n++] = a->s.cfg[0].rec.id;
		rc = compare_sessions(st, a->s.opts.workload, a->s.opts.loads[0], a->good_label, l,
				      ids, n, &cmp, &runs, err, sizeof(err));
		if (rc) {
			cli_error("bisect: judge: %s", err);
			return JUDGE_ABORT;
		}
		call = ct_bisect_judge(&cmp, reg.shift.estimate);
		if (call != CT_BISECT_NOT_YET) {
			fprintf(stderr, "contend: bisect: judge: %s is %s (%+.1f%% against '%s')\n",
				l, call == CT_BISECT_BAD ? "bad" : "good",
				expm1(cmp.shift.estimate) * 100, a->good_label);
			return call == CT_BISECT_BAD ? JUDGE_BAD : JUDGE_GOOD;
		}
	}
	fprintf(stderr, "contend: bisect: judge: %s: no answer after %u runs (skipped)\n", l, have);
	return JUDGE_SKIP;
}

int bisect_judge_cmd(int argc, char **argv)
{
	static struct run_args a;
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
		rc = bisect_sh(a.build, top, NULL, NULL);
		if (rc) {
			cli_error("bisect: judge: the build failed (exit %d): skipped", rc);
			ex = JUDGE_SKIP;
		}
	}
	if (!ex)
		ex = bisect_open(&a, &st, &j);
	if (!ex)
		ex = judge(&a, st, top, sha);
	else if (ex != JUDGE_SKIP)
		ex = JUDGE_ABORT; /* git bisect run would take 2 for "bad" */
	ct_store_close(st);
	free(a.kconfigs);
	ct_load_forget_cmds();
	return ex;
}
