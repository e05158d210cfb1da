/*
 * The steps of `contend bisect` that build and measure: each candidate is
 * checked out in a work tree of contend's own (never the user's), built
 * untimed by --build, and measured in one session interleaved with its
 * base (the good end, or the culprit's parent) - runs in A/B/B/A blocks,
 * each config's commands run in its own work tree - 5, 10, 20, 40 runs a
 * side until the three-outcome rule answers (docs/statistics.md,
 * "Bisection"). Every step is stored as it starts and as it ends, so a
 * bisection killed at any point resumes with nothing measured twice: the
 * runs of an interrupted sitting pair with the next sitting's.
 */
#include "bisect.h"
#include "cli.h"
#include "contend/proc.h"
#include "contend/signals.h"
#include "contend/util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void bisect_label(const char *sha, char *buf, size_t len)
{
	snprintf(buf, len, "%.12s", sha);
}

void bisect_effect(const struct ct_stats_comparison *cmp, struct ct_bisect_step *p)
{
	const struct ct_stats_shift *s = &cmp->shift;

	p->have_effect = cmp->decided_by != CT_TEST_NONE && cmp->ratio_scale &&
			 isfinite(s->estimate) && isfinite(s->low) && isfinite(s->high);
	p->effect = p->have_effect ? expm1(s->estimate) : 0;
	p->effect_low = p->have_effect ? expm1(s->low) : 0;
	p->effect_high = p->have_effect ? expm1(s->high) : 0;
}

/* The value a run is judged by, as run and compare judge it. */
static bool value_of(const struct bisect *c, const struct ct_run *r, double *v)
{
	const struct ct_workload_ops *w = ct_workload_find(c->a->s.opts.workload);

	return run_value(r, w && (w->flags & CT_WL_SCORED), v);
}

/* Adds the ok runs of one sitting under load: base's in session g, sha's
 * in the other session of g's group, paired by block. */
static int add_sitting(struct bisect *c, int64_t g, const struct ct_session_rec *recs, size_t nrecs,
		       double *pb, double *po, size_t *n, size_t cap, char *err, size_t len)
{
	struct ct_run_filter f = { .load = c->a->s.opts.loads[0], .ok_only = true };
	struct ct_run *rb = NULL, *ro = NULL;
	size_t nb = 0, no = 0;
	int64_t other = 0;
	int rc;

	for (size_t i = 0; i < nrecs; i++)
		if (recs[i].group_id == g && recs[i].id != g)
			other = recs[i].id;
	if (!other)
		return 0; /* killed before its second session was stored */
	f.session_id = g;
	rc = ct_store_runs(c->st, &f, &rb, &nb, err, len);
	f.session_id = other;
	if (!rc)
		rc = ct_store_runs(c->st, &f, &ro, &no, err, len);
	for (size_t i = 0; !rc && i < nb; i++)
		for (size_t j = 0; j < no && *n < cap; j++)
			if (ro[j].block == rb[i].block && value_of(c, &rb[i], &pb[*n]) &&
			    value_of(c, &ro[j], &po[*n])) {
				(*n)++;
				break;
			}
	free(rb);
	free(ro);
	return rc;
}

int bisect_compare(struct bisect *c, unsigned seq, const char *base, const char *sha,
		   struct ct_stats_comparison *cmp, size_t *np, char *err, size_t len)
{
	struct ct_session_rec *recs = NULL;
	size_t nrecs = 0, n = 0, cap = 0;
	double *pb, *po;
	int rc;

	for (size_t i = 0; i < c->nsteps; i++)
		if (c->steps[i].seq == seq && c->steps[i].session_id)
			cap += 4 * (size_t)c->a->bisect_max + 8;
	memset(cmp, 0, sizeof(*cmp));
	*np = 0;
	if (!cap) {
		ct_stats_compare(NULL, 0, NULL, 0, NULL, NULL, 0, 95, cmp);
		return 0;
	}
	pb = calloc(cap, sizeof(*pb));
	po = calloc(cap, sizeof(*po));
	rc = pb && po ? ct_store_sessions(c->st, 0, &recs, &nrecs, err, len)
		      : ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < c->nsteps; i++) {
		const struct ct_bisect_step *p = &c->steps[i];

		if (p->seq == seq && p->session_id && !strcmp(p->base, base) &&
		    !strcmp(p->sha, sha))
			rc = add_sitting(c, p->session_id, recs, nrecs, pb, po, &n, cap, err, len);
	}
	if (!rc) {
		ct_stats_compare(pb, n, po, n, pb, po, n, 95, cmp);
		*np = n;
	}
	free(recs);
	free(pb);
	free(po);
	return rc;
}

/* Runs /bin/sh -c cmd in dir, its output appended to log (NULL: ours),
 * with CONTEND_BISECT_NEXT=next when given. Its exit code (128 + a
 * signal), or -errno. */
int bisect_sh(const char *cmd, const char *dir, const char *log, const char *next)
{
	pid_t pid = fork();
	int status = 0, rc, fd;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		if (dir && chdir(dir))
			_exit(126);
		fd = open("/dev/null", O_RDONLY);
		if (fd >= 0)
			dup2(fd, STDIN_FILENO);
		if (log) {
			fd = open(log, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
			if (fd < 0)
				_exit(126);
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		if (next)
			setenv("CONTEND_BISECT_NEXT", next, 1);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	rc = ct_proc_reap(pid, &status, NULL);
	if (rc)
		return rc;
	return ct_proc_exit_code(status);
}

/* The work tree which ("base" or "candidate") checked out at sha and
 * built: 0; 1 when the build failed (why says so); -errno. A tree whose
 * marker names sha is built already. */
static int tree_ready(struct bisect *c, const char *which, const char *sha, char *why, size_t wlen,
		      char *err, size_t len)
{
	char path[PATH_MAX + 16], mark[PATH_MAX + 32], log[PATH_MAX + 32], lb[16], got[64] = "";
	struct stat sb;
	FILE *f;
	int rc;

	snprintf(path, sizeof(path), "%s/%s", c->dir, which);
	snprintf(mark, sizeof(mark), "%s/%s.built", c->dir, which);
	f = fopen(mark, "r");
	if (f) {
		if (!fgets(got, sizeof(got), f))
			got[0] = '\0';
		fclose(f);
	}
	if (!strncmp(got, sha, CT_GIT_SHA_LEN) && !stat(path, &sb))
		return 0;
	unlink(mark);
	rc = ct_git_worktree_checkout(c->b.repo, path, sha, err, len);
	if (rc)
		return rc;
	if (c->a->build) {
		bisect_label(sha, lb, sizeof(lb));
		snprintf(log, sizeof(log), "%s/build-%s.log", c->dir, lb);
		unlink(log);
		fprintf(stderr, "contend: bisect: building %s in %s\n", lb, path);
		rc = bisect_sh(c->a->build, path, log, NULL);
		if (rc < 0)
			return ct_err(err, len, rc, "cannot run --build: %s", strerror(-rc));
		if (rc) {
			snprintf(why, wlen, "the build failed (exit %d; its log: %.400s)", rc, log);
			return 1;
		}
	}
	f = fopen(mark, "w");
	if (!f || fprintf(f, "%s\n", sha) < 0 || fclose(f))
		return ct_err(err, len, -EIO, "cannot write %s", mark);
	return 0;
}

/* The session's hook after each block: the step's session group linked to
 * its row once stored, then at each rung of the ladder the runs so far are
 * judged, and an answer stops the runs. */
static int block_hook(void *ctx, struct ct_session *s, const char *load, unsigned blocks,
		      bool *stop, char *err, size_t len)
{
	struct bisect *c = ctx;
	struct ct_stats_comparison cmp;
	size_t np;
	int rc;

	(void)load;
	if (!c->cur->session_id && s->cfg[0].rec.id) {
		c->cur->session_id = s->cfg[0].rec.id;
		rc = ct_store_bisect_step_end(c->st, c->cur, err, len);
		if (rc)
			return rc;
	}
	if (c->pairs_before + blocks < c->rung)
		return 0;
	rc = bisect_compare(c, c->cur->seq, c->cur->base, c->cur->sha, &cmp, &np, err, len);
	if (rc)
		return rc;
	if (!strcmp(c->cur->role, "regression"))
		*stop = cmp.decided_by != CT_TEST_NONE && cmp.p < 0.05;
	else
		*stop = ct_bisect_judge(&cmp, c->delta) != CT_BISECT_NOT_YET;
	while (c->rung <= c->pairs_before + blocks)
		c->rung *= 2;
	return 0;
}

int bisect_step_begin(struct bisect *c, unsigned seq, const char *role, const char *base,
		      const char *sha, char *err, size_t len)
{
	struct ct_bisect_step *grown = realloc(c->steps, (c->nsteps + 1) * sizeof(*grown)), *p;

	if (!grown)
		return ct_err(err, len, -ENOMEM, "out of memory");
	c->steps = grown;
	p = &c->steps[c->nsteps];
	memset(p, 0, sizeof(*p));
	p->bisection_id = c->b.id;
	p->seq = seq;
	snprintf(p->role, sizeof(p->role), "%s", role);
	snprintf(p->base, sizeof(p->base), "%s", base);
	snprintf(p->sha, sizeof(p->sha), "%s", sha);
	p->created_at = ct_wall_ns();
	c->nsteps++;
	c->cur = p;
	return ct_store_bisect_step_put(c->st, p, err, len);
}

int bisect_session(struct run_args *a, struct ct_store *st, const char *const *labels,
		   const char *const *dirs, size_t n, unsigned runs,
		   int (*hook)(void *, struct ct_session *, const char *, unsigned, bool *, char *,
			       size_t),
		   void *ctx, struct cli_progress *prog, char *err, size_t len)
{
	int rc;

	run_reset(&a->s);
	a->s.opts.ndirs = n;
	a->s.opts.dir_labels = labels;
	a->s.opts.dirs = dirs;
	a->s.opts.runs = runs;
	a->s.opts.block_done = hook;
	a->s.opts.block_ctx = ctx;
	a->s.opts.order_seed = (uint64_t)ct_wall_ns() ^ (uint64_t)getpid();
	cli_progress_init(prog, a->quiet ? CLI_PROGRESS_NONE : (enum cli_progress_mode)a->progress);
	a->s.on_event = cli_progress_event;
	a->s.ctx = prog;
	rc = ct_session_run(&a->s, st, err, len);
	cli_progress_done(prog);
	return rc;
}

/* The answer of a step from its comparison at the end of its runs. */
static void step_answer(struct bisect *c, struct ct_bisect_step *p,
			const struct ct_stats_comparison *cmp, size_t np)
{
	bool reg = !strcmp(p->role, "regression");

	p->runs = (unsigned)np;
	bisect_effect(cmp, p);
	if (reg) {
		bool differs = cmp->decided_by != CT_TEST_NONE && cmp->p < 0.05;

		snprintf(p->answer, sizeof(p->answer), "%s", differs ? "bad" : "same");
		if (!differs)
			snprintf(p->why, sizeof(p->why),
				 "good and bad do not differ after %zu runs a side", np);
		return;
	}
	switch (ct_bisect_judge(cmp, c->delta)) {
	case CT_BISECT_BAD:
		snprintf(p->answer, sizeof(p->answer), "bad");
		break;
	case CT_BISECT_GOOD:
		snprintf(p->answer, sizeof(p->answer), "good");
		if (!strcmp(p->role, "across"))
			snprintf(p->why, sizeof(p->why),
				 "against its parent it is not the regression's size");
		break;
	case CT_BISECT_NOT_YET:
		snprintf(p->answer, sizeof(p->answer), "skip");
		snprintf(p->why, sizeof(p->why), "no answer after %zu runs a side", np);
		break;
	}
}

/* One step measured: sha against base, the runs of earlier sittings of
 * seq counted in; its row ended with the answer. 0, or the exit code. */
static int measure(struct bisect *c, unsigned seq, const char *role, const char *base,
		   const char *sha, bool resumed)
{
	struct run_args *a = c->a;
	char lb[16], ls[16], dbase[PATH_MAX + 16], dcand[PATH_MAX + 16], why[512] = "";
	const char *labels[2] = { lb, ls }, *dirs[2] = { dbase, dcand };
	char err[CT_ERRLEN] = "";
	struct ct_stats_comparison cmp;
	struct cli_progress prog;
	size_t np = 0;
	int rc;

	bisect_label(base, lb, sizeof(lb));
	bisect_label(sha, ls, sizeof(ls));
	snprintf(dbase, sizeof(dbase), "%s/base", c->dir);
	snprintf(dcand, sizeof(dcand), "%s/candidate", c->dir);
	rc = tree_ready(c, "base", base, why, sizeof(why), err, sizeof(err));
	if (rc == 1) {
		cli_error("bisect: %s does not build: %s", lb, why);
		return CT_EXIT_ENV;
	}
	if (!rc)
		rc = tree_ready(c, "candidate", sha, why, sizeof(why), err, sizeof(err));
	if (rc < 0)
		return cli_fail(rc, err);
	if (!resumed && (rc = bisect_step_begin(c, seq, role, base, sha, err, sizeof(err))))
		return cli_fail(rc, err);
	if (why[0]) { /* the candidate does not build: git's exit 125 */
		snprintf(c->cur->answer, sizeof(c->cur->answer), "skip");
		snprintf(c->cur->why, sizeof(c->cur->why), "%s", why);
		c->cur->ended_at = ct_wall_ns();
		rc = ct_store_bisect_step_end(c->st, c->cur, err, sizeof(err));
		return rc ? cli_fail(rc, err) : 0;
	}
	rc = bisect_compare(c, seq, base, sha, &cmp, &np, err, sizeof(err));
	if (rc)
		return cli_fail(rc, err);
	c->pairs_before = np;
	c->rung = !strcmp(role, "regression") ? BISECT_REGRESSION_RUNS : BISECT_FIRST_RUNS;
	while (c->rung <= np)
		c->rung *= 2;
	if (np < a->bisect_max) {
		fprintf(stderr, "contend: bisect: %s %s against %s%s\n", role, ls, lb,
			np ? " (its runs so far counted in)" : "");
		rc = bisect_session(a, c->st, labels, dirs, 2, a->bisect_max - (unsigned)np,
				    block_hook, c, &prog, err, sizeof(err));
		if (rc == -EINTR) {
			cli_error("bisect: %s; the step is kept: 'contend bisect resume' goes on",
				  err);
			return CT_EXIT_INTERRUPTED;
		}
		if (rc)
			return cli_fail(rc, err);
		if (!c->cur->session_id && a->s.cfg[0].rec.id) {
			c->cur->session_id = a->s.cfg[0].rec.id;
			rc = ct_store_bisect_step_end(c->st, c->cur, err, sizeof(err));
			if (rc)
				return cli_fail(rc, err);
		}
		rc = bisect_compare(c, seq, base, sha, &cmp, &np, err, sizeof(err));
		if (rc)
			return cli_fail(rc, err);
	}
	step_answer(c, c->cur, &cmp, np);
	c->cur->ended_at = ct_wall_ns();
	rc = ct_store_bisect_step_end(c->st, c->cur, err, sizeof(err));
	return rc ? cli_fail(rc, err) : 0;
}

/* The bisection's end stored: found (culprit) or none, with a note. */
static int bisect_end(struct bisect *c, const char *status, const char *culprit, const char *note)
{
	char err[CT_ERRLEN];
	int rc;

	snprintf(c->b.status, sizeof(c->b.status), "%s", status);
	snprintf(c->b.culprit, sizeof(c->b.culprit), "%s", culprit ? culprit : "");
	snprintf(c->b.note, sizeof(c->b.note), "%s", note ? note : "");
	c->b.ended_at = ct_wall_ns();
	rc = ct_store_bisection_end(c->st, &c->b, err, sizeof(err));
	if (rc)
		return cli_fail(rc, err);
	if (!strcmp(status, "found")) {
		bisect_print_culprit(c, stdout);
		return 0;
	}
	cli_error("bisect: no first bad commit: %s", note);
	return CT_EXIT_NO_ANSWER;
}

const struct ct_bisect_step *bisect_last(const struct bisect *c, const char *role, bool answered)
{
	for (size_t i = c->nsteps; i-- > 0;)
		if (!strcmp(c->steps[i].role, role) && (!answered || c->steps[i].answer[0]))
			return &c->steps[i];
	return NULL;
}

/* How many rows of role there are. */
static size_t count_role(const struct bisect *c, const char *role)
{
	size_t n = 0;

	for (size_t i = 0; i < c->nsteps; i++)
		n += !strcmp(c->steps[i].role, role);
	return n;
}

static unsigned next_seq(const struct bisect *c)
{
	return c->nsteps ? c->steps[c->nsteps - 1].seq + 1 : 0;
}

/* Feeds the newest row's answer to the search (or the regression's size). */
static int apply(struct bisect *c, const struct ct_bisect_step *p)
{
	long i = ct_git_range_find(&c->range, p->sha);

	if (!strcmp(p->role, "regression")) {
		c->delta = !strcmp(p->answer, "bad") && p->have_effect ? log1p(p->effect) : NAN;
		return 0;
	}
	if (strcmp(p->role, "candidate") || i < 0)
		return 0;
	if (!strcmp(p->answer, "skip"))
		return ct_bisect_skip(c->search, (size_t)i);
	if (!strcmp(p->answer, "good") || !strcmp(p->answer, "bad"))
		return ct_bisect_answer(c->search, (size_t)i, !strcmp(p->answer, "bad"));
	return 0;
}

int bisect_drive(struct bisect *c)
{
	size_t n = c->range.n, budget = 20;
	char err[CT_ERRLEN];
	int ex;

	for (size_t k = n; k > 1; k >>= 1)
		budget += 4;
	for (;;) {
		const struct ct_bisect_step *last = c->nsteps ? &c->steps[c->nsteps - 1] : NULL;
		const struct ct_bisect_step *reg = bisect_last(c, "regression", false);
		const struct ct_bisect_step *across = bisect_last(c, "across", false);
		char parent[CT_GIT_SHA_LEN + 1], note[256];
		long found = bisect_found(c);
		size_t next, candidates = count_role(c, "candidate");
		int rc;

		if (last && !last->answer[0]) { /* a step a crash interrupted */
			char role[12], base[CT_BISECT_SHA], sha[CT_BISECT_SHA];

			snprintf(role, sizeof(role), "%s", last->role);
			snprintf(base, sizeof(base), "%s", last->base);
			snprintf(sha, sizeof(sha), "%s", last->sha);
			c->cur = &c->steps[c->nsteps - 1];
			ex = measure(c, last->seq, role, base, sha, true);
		} else if (!reg) {
			ex = measure(c, 0, "regression", c->b.good, c->b.bad, false);
		} else if (!strcmp(reg->answer, "same")) {
			return bisect_end(c, "none", NULL, reg->why);
		} else if (found >= 0 && across && across->answer[0]) {
			return bisect_end(c, "found", c->range.sha[found], across->why);
		} else if (found >= 0) {
			char rev[CT_GIT_SHA_LEN + 4];

			snprintf(rev, sizeof(rev), "%s^", c->range.sha[found]);
			rc = ct_git_resolve(c->b.repo, rev, parent, err, sizeof(err));
			if (rc)
				return cli_fail(rc, err);
			ex = measure(c, next_seq(c), "across", parent, c->range.sha[found], false);
		} else if (candidates >= budget) {
			snprintf(note, sizeof(note),
				 "%zu steps and no commit holds %.0f%% of the probability",
				 candidates, BISECT_DONE_PROB * 100);
			return bisect_end(c, "none", NULL, note);
		} else if ((rc = ct_bisect_next(c->search, &next)) == -ENOENT) {
			return bisect_end(
				c, "none", NULL,
				"only commits that were skipped could tell the rest apart");
		} else if (rc) {
			return cli_fail(rc, "out of memory");
		} else {
			ex = measure(c, next_seq(c), "candidate", c->b.good, c->range.sha[next],
				     false);
		}
		if (ex)
			return ex;
		if (ct_signals_pending())
			return CT_EXIT_INTERRUPTED;
		rc = apply(c, c->cur);
		if (rc)
			return cli_fail(rc, "out of memory");
		bisect_print_step(c, c->cur, stderr);
	}
}

long bisect_found(const struct bisect *c)
{
	double p = 0;
	size_t best;

	if (!c->search || !isfinite(c->delta))
		return -1;
	best = ct_bisect_best(c->search, &p);
	return p >= BISECT_DONE_PROB ? (long)best : -1;
}

int bisect_load(struct bisect *c, char *err, size_t len)
{
	int rc;

	free(c->steps);
	c->steps = NULL;
	ct_bisect_free(c->search);
	c->search = NULL;
	ct_git_range_free(&c->range);
	c->delta = NAN;
	rc = ct_store_bisect_steps(c->st, c->b.id, &c->steps, &c->nsteps, err, len);
	if (!rc)
		rc = ct_git_range(c->b.repo, c->b.good, c->b.bad, &c->range, err, len);
	if (!rc && ct_bisect_new(c->range.n, c->range.np, c->range.parents, BISECT_EPS, &c->search))
		rc = ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < c->nsteps; i++)
		if (c->steps[i].answer[0] && apply(c, &c->steps[i]))
			rc = ct_err(err, len, -ENOMEM, "out of memory");
	return rc;
}

void bisect_release(struct bisect *c)
{
	free(c->words);
	free(c->wargv);
	c->words = c->wargv = NULL;
	free(c->steps);
	c->steps = NULL;
	ct_bisect_free(c->search);
	c->search = NULL;
	ct_git_range_free(&c->range);
}
