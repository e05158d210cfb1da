/*
 * What a bisection's step measures and how it is judged. The interleaved
 * loop checks the base and the candidate out in work trees of contend's
 * own (never the user's), builds them untimed and measures them in one
 * session, A/B/B/A blocks, each config's commands run in its own tree,
 * 5, 10, 20, 40 runs a side until the answer; the runs of a sitting a
 * crash cut short pair with the next sitting's. The per-boot loop
 * measures the running system in one session a boot and judges the
 * step's sessions against its base's, as compare judges sessions.
 */
#include "internal.h"
#include "contend/proc.h"
#include "contend/report.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void emit(const struct ct_bisector *c, enum ct_bisect_event ev,
		 const struct ct_bisect_step *p, const char *text)
{
	if (c->event)
		c->event(c->ctx, ev, c, p, text);
}

/* The runs of session id under load, added to sd with key_base. */
static int add_session(struct ct_store *st, int64_t id, const char *load, struct ct_report_side *sd,
		       int64_t key_base, char *params, size_t plen, char *err, size_t len)
{
	struct ct_run_filter f = { .session_id = id, .load = load, .ok_only = true };
	struct ct_run *runs = NULL;
	size_t n = 0;
	int rc = ct_store_runs(st, &f, &runs, &n, err, len);

	if (!rc && ct_report_side_add(sd, runs, n, key_base))
		rc = ct_err(err, len, -ENOMEM, "out of memory");
	if (!rc && n && params)
		snprintf(params, plen, "%s", runs[0].workload_params);
	free(runs);
	return rc;
}

/* The comparison of sha against base over the sittings of step seq:
 * each sitting a session group of base's session and sha's, their runs
 * paired by block within it; npairs is the runs a side judged. */
static int sittings_verdict(struct ct_bisector *c, unsigned seq, const char *base, const char *sha,
			    struct ct_stats_comparison *cmp, unsigned *runs, char *err, size_t len)
{
	const struct ct_stats_rule rule = { .confidence = c->confidence, .one_sitting = true };
	const char *load = c->s->opts.loads[0];
	struct ct_report_side sb = { 0 }, so = { 0 };
	int rc = 0;

	for (size_t i = 0; !rc && i < c->nsteps; i++) {
		const struct ct_bisect_step *p = &c->steps[i];
		struct ct_session_filter f = { .group_id = p->session_id };
		struct ct_session_rec *recs = NULL;
		size_t n = 0;
		int64_t key = (int64_t)(i + 1) << 32;

		if (p->seq != seq || !p->session_id || strcmp(p->base, base) || strcmp(p->sha, sha))
			continue;
		rc = ct_store_sessions(c->st, &f, &recs, &n, err, len);
		/* a sitting killed before its second session was stored has
		 * nothing to pair */
		for (size_t k = 0; !rc && n == 2 && k < n; k++)
			rc = add_session(c->st, recs[k].id, load,
					 recs[k].id == p->session_id ? &sb : &so, key, NULL, 0, err,
					 len);
		free(recs);
	}
	/* the sittings' runs pair by block: one sitting, whatever its sessions */
	sb.s.session = so.s.session = NULL;
	if (!rc && ct_stats_verdict(&sb.s, &so.s, &rule, cmp))
		rc = ct_err(err, len, -ENOMEM, "out of memory");
	*runs = (unsigned)cmp->npairs;
	ct_report_side_release(&sb);
	ct_report_side_release(&so);
	return rc;
}

int ct_bisect_sessions_verdict(struct ct_store *st, const char *workload, const char *load,
			       const int64_t *base, size_t nb, const int64_t *other, size_t no,
			       double confidence, struct ct_stats_comparison *c, size_t *runs,
			       char *err, size_t len)
{
	struct ct_stats_between bw = { .var = NAN };
	struct ct_stats_rule rule = { .confidence = confidence, .between = &bw };
	struct ct_report_side sb = { 0 }, so = { 0 };
	struct ct_session_rec *recs = NULL;
	size_t nrecs = 0;
	char params[sizeof(((struct ct_run *)0)->workload_params)] = "";
	int rc = 0;

	for (size_t i = 0; !rc && i < nb; i++)
		rc = add_session(st, base[i], load, &sb, -1, params, sizeof(params), err, len);
	for (size_t i = 0; !rc && i < no; i++)
		rc = add_session(st, other[i], load, &so, -1, NULL, 0, err, len);
	/* one session a side: the machine's spread of sessions, from the
	 * sessions of the machine base's newest ran on, of base's workload
	 * parameters (a commit's label is one config whatever was run under
	 * it: two bisections of one repository with other commands are no
	 * spread of the machine) */
	if (!rc && nb && ct_stats_scope_of(&sb.s, &so.s, &rule) == CT_SCOPE_ACROSS) {
		const struct ct_session_rec *r;

		rc = ct_store_sessions(st, NULL, &recs, &nrecs, err, len);
		r = rc ? NULL : ct_store_session_of(recs, nrecs, base[nb - 1]);
		if (r)
			rc = ct_report_spread(st, recs, nrecs, workload, params, load,
					      r->owner.machine, base, nb, other, no, &bw, err, len);
	}
	if (!rc && ct_stats_verdict(&sb.s, &so.s, &rule, c))
		rc = ct_err(err, len, -ENOMEM, "out of memory");
	*runs = so.s.n;
	free(recs);
	ct_report_side_release(&sb);
	ct_report_side_release(&so);
	return rc;
}

/* The sessions of sha a step of seq is judged by: its rows in seq, and
 * for a commit the regression measured, the regression's. *out
 * malloc'd. */
static int sessions_of(const struct ct_bisector *c, unsigned seq, const char *sha, int64_t **out,
		       size_t *n)
{
	*n = 0;
	*out = malloc((c->nsteps ? c->nsteps : 1) * sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; i < c->nsteps; i++)
		if (c->steps[i].session_id && !strcmp(c->steps[i].sha, sha) &&
		    (c->steps[i].seq == seq || c->steps[i].role == CT_ROLE_REGRESSION))
			(*out)[(*n)++] = c->steps[i].session_id;
	return 0;
}

/* The per-boot step of p judged: base's sessions against the other
 * commit's (the regression's bad end, the culprit, the candidate). */
static int boot_verdict(struct ct_bisector *c, struct ct_bisect_step *row,
			const struct ct_bisect_plan *p, const char *other, char *err, size_t len)
{
	int64_t *sb = NULL, *so = NULL;
	size_t nb = 0, no = 0, runs = 0;
	struct ct_stats_comparison cmp;
	unsigned rb = bisect_runs_in(c, p->seq, p->base), ro = bisect_runs_in(c, p->seq, other);
	bool more;
	int rc = sessions_of(c, p->seq, p->base, &sb, &nb);

	if (!rc)
		rc = sessions_of(c, p->seq, other, &so, &no);
	if (rc) {
		rc = ct_err(err, len, rc, "out of memory");
		goto out;
	}
	rc = ct_bisect_sessions_verdict(c->st, c->s->opts.workload, c->s->opts.loads[0], sb, nb, so,
					no, c->confidence, &cmp, &runs, err, len);
	if (rc)
		goto out;
	/* a candidate's base (good) is not measured again: only its own
	 * side takes more runs */
	more = p->role == CT_ROLE_CANDIDATE
		       ? ro < bisect_max(c, p->role)
		       : rb < bisect_max(c, p->role) || ro < bisect_max(c, p->role);
	if (!nb || !no)
		more = true;
	/* the row keeps its boot's runs (what the next boot's ladder counts) */
	rb = row->runs;
	ct_bisector_answer(c, row, &cmp, (unsigned)runs, more);
	row->runs = rb;
out:
	free(sb);
	free(so);
	return rc;
}

/* A new row of the bisection's steps, stored; c->cur points at it. */
static int step_begin(struct ct_bisector *c, const struct ct_bisect_plan *p, const char *sha,
		      char *err, size_t len)
{
	struct ct_bisect_step *grown = realloc(c->steps, (c->nsteps + 1) * sizeof(*grown)), *q;

	if (!grown)
		return ct_err(err, len, -ENOMEM, "out of memory");
	c->steps = grown;
	q = &c->steps[c->nsteps];
	memset(q, 0, sizeof(*q));
	q->bisection_id = c->b.id;
	q->seq = p->seq;
	q->role = p->role;
	snprintf(q->base, sizeof(q->base), "%s", p->base);
	snprintf(q->sha, sizeof(q->sha), "%s", sha);
	q->created_at = ct_wall_ns();
	c->nsteps++;
	c->cur = q;
	return ct_store_bisect_step_put(c->st, q, err, len);
}

/* One session of n configs of directories (labels; a NULL directory is
 * here) of runs runs each; hook, when given, after each block. */
static int run_session(struct ct_bisector *c, const char *const *labels, const char *const *dirs,
		       size_t n, unsigned runs,
		       int (*hook)(void *, struct ct_session *, const char *, unsigned, bool *,
				   char *, size_t),
		       char *err, size_t len)
{
	struct ct_session *s = c->s;
	int rc;

	ct_session_reset(s);
	s->opts.ndirs = n;
	s->opts.dir_labels = labels;
	s->opts.dirs = dirs;
	s->opts.runs = runs;
	s->opts.block_done = hook;
	s->opts.block_ctx = c;
	s->opts.order_seed = (uint64_t)ct_wall_ns() ^ (uint64_t)getpid();
	emit(c, CT_BISECT_EV_SESSION, c->cur, NULL);
	rc = ct_session_run(s, c->st, err, len);
	emit(c, CT_BISECT_EV_SESSION_END, c->cur, NULL);
	return rc;
}

/* The session's hook after each block: the step's session group linked
 * to its row once stored, then at each rung of the ladder the runs so far
 * are judged, and an answer stops the runs. */
static int block_hook(void *ctx, struct ct_session *s, const char *load, unsigned blocks,
		      bool *stop, char *err, size_t len)
{
	struct ct_bisector *c = ctx;
	struct ct_bisect_step probe;
	struct ct_stats_comparison cmp;
	unsigned runs;
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
	rc = sittings_verdict(c, c->cur->seq, c->cur->base, c->cur->sha, &cmp, &runs, err, len);
	if (rc)
		return rc;
	probe = *c->cur;
	ct_bisector_answer(c, &probe, &cmp, runs, true);
	*stop = probe.answer != CT_ANSWER_NONE;
	while (c->rung <= c->pairs_before + blocks)
		c->rung *= 2;
	return 0;
}

/* The work tree which ("base" or "candidate") checked out at sha and
 * built: 0; 1 when the build failed (why says so); -errno. A tree whose
 * marker names sha is built already. */
static int tree_ready(struct ct_bisector *c, const char *which, const char *sha, char *why,
		      size_t wlen, char *err, size_t len)
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
	if (c->build) {
		snprintf(lb, sizeof(lb), "%.12s", sha);
		snprintf(log, sizeof(log), "%s/build-%s.log", c->dir, lb);
		unlink(log);
		emit(c, CT_BISECT_EV_BUILD, NULL, lb);
		rc = ct_sh_run(c->build, path, log, NULL, NULL);
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

/* The row of c->cur ended with its answer, stored. */
static int step_end(struct ct_bisector *c, char *err, size_t len)
{
	int rc;

	c->cur->ended_at = ct_wall_ns();
	rc = ct_store_bisect_step_end(c->st, c->cur, err, len);
	if (!rc)
		rc = ct_bisector_apply(c, c->cur) ? ct_err(err, len, -ENOMEM, "out of memory") : 0;
	if (!rc)
		emit(c, CT_BISECT_EV_STEP, c->cur, NULL);
	return rc;
}

int ct_bisector_measure(struct ct_bisector *c, const struct ct_bisect_plan *p, char *err,
			size_t len)
{
	char lb[16], ls[16], dbase[PATH_MAX + 16], dcand[PATH_MAX + 16], why[512] = "";
	const char *labels[2] = { lb, ls }, *dirs[2] = { dbase, dcand };
	struct ct_stats_comparison cmp;
	unsigned np = 0;
	int rc;

	snprintf(lb, sizeof(lb), "%.12s", p->base);
	snprintf(ls, sizeof(ls), "%.12s", p->sha);
	snprintf(dbase, sizeof(dbase), "%s/base", c->dir);
	snprintf(dcand, sizeof(dcand), "%s/candidate", c->dir);
	rc = tree_ready(c, "base", p->base, why, sizeof(why), err, len);
	if (rc == 1) { /* nothing can be measured against it: the end */
		struct ct_bisect_plan end = { .end = true,
					      .status = CT_BISECTION_NONE,
					      .culprit = -1 };

		snprintf(end.note, sizeof(end.note), "the base %s does not build: %.200s", lb, why);
		rc = ct_bisector_end(c, &end, err, len);
		return rc ? rc : ct_err(err, len, -ENOEXEC, "%s does not build: %s", lb, why);
	}
	if (!rc)
		rc = tree_ready(c, "candidate", p->sha, why, sizeof(why), err, len);
	if (rc < 0)
		return rc;
	/* a step a crash cut short goes on in a sitting of its own: a new row
	 * of its seq once the last one holds a session, whose runs the new
	 * sitting's pair with */
	if (p->resume && !c->steps[c->nsteps - 1].session_id)
		c->cur = &c->steps[c->nsteps - 1];
	else if ((rc = step_begin(c, p, p->sha, err, len)))
		return rc;
	if (why[0]) { /* the candidate does not build: git's exit 125 */
		c->cur->answer = CT_ANSWER_SKIP;
		snprintf(c->cur->why, sizeof(c->cur->why), "%s", why);
		return step_end(c, err, len);
	}
	rc = sittings_verdict(c, p->seq, p->base, p->sha, &cmp, &np, err, len);
	if (rc)
		return rc;
	c->pairs_before = np;
	c->rung = p->role == CT_ROLE_REGRESSION ? CT_BISECT_REGRESSION_RUNS : CT_BISECT_FIRST_RUNS;
	while (c->rung <= np)
		c->rung *= 2;
	if (np < bisect_max(c, p->role)) {
		emit(c, CT_BISECT_EV_MEASURE, c->cur, np ? "resumed" : NULL);
		rc = run_session(c, labels, dirs, 2, bisect_max(c, p->role) - np, block_hook, err,
				 len);
		if (!rc && !c->cur->session_id && c->s->cfg[0].rec.id) {
			c->cur->session_id = c->s->cfg[0].rec.id;
			rc = ct_store_bisect_step_end(c->st, c->cur, err, len);
		}
		if (!rc)
			rc = sittings_verdict(c, p->seq, p->base, p->sha, &cmp, &np, err, len);
		if (rc)
			return rc;
	}
	ct_bisector_answer(c, c->cur, &cmp, np, false);
	return step_end(c, err, len);
}

unsigned ct_bisector_boot_runs(const struct ct_bisector *c, const struct ct_bisect_plan *p)
{
	unsigned have = bisect_runs_in(c, p->seq, p->sha), max = bisect_max(c, p->role);
	unsigned runs = have < CT_BISECT_FIRST_RUNS ? CT_BISECT_FIRST_RUNS : have;

	if (have + runs > max)
		runs = max > have ? max - have : 1;
	return runs;
}

int ct_bisector_boot(struct ct_bisector *c, const struct ct_bisect_plan *p, char *err, size_t len)
{
	char l[16];
	const char *labels[1] = { l }, *dirs[1] = { NULL };
	const char *other = p->role == CT_ROLE_REGRESSION ? c->b.bad : p->sha;
	struct ct_bisect_step *row;
	unsigned runs = ct_bisector_boot_runs(c, p);
	int rc = step_begin(c, p, p->sha, err, len), rc2;

	if (rc)
		return rc;
	row = c->cur;
	if (p->role == CT_ROLE_ACROSS && !strcmp(p->sha, p->base))
		other = NULL; /* the parent booted: the culprit is the other side */
	snprintf(l, sizeof(l), "%.12s", p->sha);
	rc = run_session(c, labels, dirs, 1, runs, NULL, err, len);
	if (c->s->cfg[0].rec.id) {
		struct ct_report_side sd = { 0 };

		row->session_id = c->s->cfg[0].rec.id;
		rc2 = add_session(c->st, row->session_id, c->s->opts.loads[0], &sd, -1, NULL, 0,
				  err, len);
		row->runs = (unsigned)sd.s.n;
		ct_report_side_release(&sd);
		if (!rc2)
			rc2 = ct_store_bisect_step_end(c->st, row, err, len);
		if (!rc)
			rc = rc2;
	}
	if (rc)
		return rc;
	if (!other) {
		long f = ct_bisector_found(c);

		other = f >= 0 ? c->range.sha[f] : p->sha;
	}
	rc = boot_verdict(c, row, p, other, err, len);
	if (!rc && row->answer)
		rc = step_end(c, err, len);
	else if (!rc)
		rc = ct_store_bisect_step_end(c->st, row, err, len);
	return rc;
}

/* The ok runs of session id appended to ids and figs (grown in *cap). */
static int why_add(struct ct_store *st, int64_t id, int64_t **ids, double **figs, size_t *n,
		   size_t *cap, char *load, size_t loadlen, char *err, size_t len)
{
	struct ct_run_filter f = { .session_id = id, .ok_only = true };
	struct ct_run *runs = NULL;
	size_t nr = 0;
	int rc = ct_store_runs(st, &f, &runs, &nr, err, len);

	if (!rc && *n + nr > *cap) {
		size_t want = (*n + nr) * 2;
		int64_t *gi = realloc(*ids, want * sizeof(*gi));
		double *gf = gi ? realloc(*figs, want * sizeof(*gf)) : NULL;

		if (gi)
			*ids = gi;
		if (gf)
			*figs = gf;
		if (!gi || !gf)
			rc = ct_err(err, len, -ENOMEM, "out of memory");
		else
			*cap = want;
	}
	for (size_t i = 0; !rc && i < nr; i++) {
		(*ids)[*n] = runs[i].id;
		(*figs)[(*n)++] = ct_run_value(&runs[i]);
		snprintf(load, loadlen, "%s", runs[i].load);
	}
	free(runs);
	return rc;
}

int ct_bisector_why(struct ct_bisector *c, struct ct_why *w, char *load, size_t loadlen, char *err,
		    size_t len)
{
	const struct ct_bisect_step *across = ct_bisector_last(c, CT_ROLE_ACROSS, true);
	int64_t *ids[2] = { NULL, NULL }; /* the parent's, the culprit's */
	double *figs[2] = { NULL, NULL };
	size_t n[2] = { 0, 0 }, cap[2] = { 0, 0 };
	int rc = 0;

	*load = '\0';
	if (!across)
		return ct_err(err, len, -ENOENT,
			      "no step measured the culprit against its parent yet");
	for (size_t i = 0; !rc && i < c->nsteps; i++) {
		const struct ct_bisect_step *p = &c->steps[i];
		struct ct_session_filter f = { .group_id = p->session_id };
		struct ct_session_rec *recs = NULL;
		size_t nrecs = 0;

		if (p->role != CT_ROLE_ACROSS || p->seq != across->seq || !p->session_id)
			continue;
		if (c->b.mode == CT_BISECTION_STEP) {
			/* a boot of one side: the parent's when it booted the base */
			int k = !strcmp(p->sha, p->base) ? 0 : 1;

			rc = why_add(c->st, p->session_id, &ids[k], &figs[k], &n[k], &cap[k], load,
				     loadlen, err, len);
			continue;
		}
		/* a sitting: the base's session and the commit's, one group */
		rc = ct_store_sessions(c->st, &f, &recs, &nrecs, err, len);
		for (size_t k = 0; !rc && nrecs == 2 && k < nrecs; k++) {
			int side = recs[k].id == p->session_id ? 0 : 1;

			rc = why_add(c->st, recs[k].id, &ids[side], &figs[side], &n[side],
				     &cap[side], load, loadlen, err, len);
		}
		free(recs);
	}
	if (!rc) {
		struct ct_why_side a = { ids[0], figs[0], n[0] }, b = { ids[1], figs[1], n[1] };

		rc = ct_why_runs(c->st, &a, &b, c->confidence > 0 ? c->confidence : 95, w, err,
				 len);
	}
	for (int k = 0; k < 2; k++) {
		free(ids[k]);
		free(figs[k]);
	}
	return rc;
}
