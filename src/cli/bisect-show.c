/*
 * What `contend bisect` prints: a step's line as it ends, the status (the
 * range, every step with its answer and interval, the likeliest commits
 * left), the log in git's bisect log form, and the answer as git gives it.
 */
#include "bisect.h"
#include "cli.h"
#include "contend/report.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SUBJECT_LEN 256

static void subject(const struct ct_bisector *c, const char *sha, char *buf, size_t len)
{
	char err[CT_ERRLEN];

	if (ct_git_subject(c->b.repo, sha, buf, len, err, sizeof(err)))
		snprintf(buf, len, "(its subject cannot be read)");
}

/* "+9.8% [+7.1%, +12.4%]", or "no interval". */
static void effect_text(const struct ct_bisect_step *p, char *buf, size_t len)
{
	if (!p->have_effect) {
		snprintf(buf, len, "no interval");
		return;
	}
	snprintf(buf, len, "%+.1f%% [%+.1f%%, %+.1f%%]", p->effect * 100, p->effect_low * 100,
		 p->effect_high * 100);
}

void bisect_print_step(const struct ct_bisector *c, const struct ct_bisect_step *p, FILE *f)
{
	char e[96], l[16], b[16];
	double prob = 0;
	size_t best;

	bisect_label(p->sha, l, sizeof(l));
	bisect_label(p->base, b, sizeof(b));
	effect_text(p, e, sizeof(e));
	fprintf(f, "contend: bisect: step %u, %s %s against %s: %s, %s (%u runs a side)%s%s\n",
		p->seq, bisect_role(p->role), l, b, bisect_answer(p->answer), e, p->runs,
		p->why[0] ? ": " : "", p->why);
	if (c->search && isfinite(c->delta) && p->role != CT_ROLE_ACROSS) {
		best = ct_bisect_best(c->search, &prob);
		bisect_label(c->range.sha[best], l, sizeof(l));
		fprintf(f, "contend: bisect: the likeliest first bad commit is %s (%.3f)\n", l,
			prob);
	}
}

void bisect_print_culprit(const struct ct_bisector *c, FILE *f)
{
	const struct ct_bisect_step *across = ct_bisector_last(c, CT_ROLE_ACROSS, true);
	const struct ct_bisect_step *reg = ct_bisector_last(c, CT_ROLE_REGRESSION, true);
	char subj[SUBJECT_LEN], e[96], pl[16];
	unsigned runs = 0, steps = 0;

	subject(c, c->b.culprit, subj, sizeof(subj));
	fprintf(f, "%s is the first bad commit\n    %s\n", c->b.culprit, subj);
	if (across) {
		bisect_label(across->base, pl, sizeof(pl));
		effect_text(across, e, sizeof(e));
		fprintf(f, "    across it: %s against its parent %s (%u runs a side)%s%s\n", e, pl,
			across->runs, across->why[0] ? "; " : "", across->why);
	}
	if (reg) {
		effect_text(reg, e, sizeof(e));
		fprintf(f, "    good..bad: %s (%u runs a side)\n", e, reg->runs);
	}
	for (size_t i = 0; i < c->nsteps; i++)
		if (c->steps[i].answer) {
			runs += 2 * c->steps[i].runs;
			steps++;
		}
	if (c->search) {
		long i = ct_git_range_find(&c->range, c->b.culprit);

		fprintf(f, "    %u steps, %u runs judged; its probability %.3f\n", steps, runs,
			i >= 0 ? ct_bisect_prob(c->search, (size_t)i) : NAN);
	}
}

static void when(int64_t ns, char *buf, size_t len)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	if (!ns || !localtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M", &tm))
		snprintf(buf, len, "-");
}

/* The commits of the range by probability, highest first. */
static int by_prob(const void *a, const void *b, void *ctx)
{
	const struct ct_bisect *s = ctx;
	double pa = ct_bisect_prob(s, *(const size_t *)a),
	       pb = ct_bisect_prob(s, *(const size_t *)b);

	return pa < pb ? 1 : pa > pb ? -1 : 0;
}

void bisect_print_status(const struct ct_bisector *c, FILE *f)
{
	char subj[SUBJECT_LEN], l[16], e[96], t[32];
	size_t *order, shown = 0;
	double rest = 0;

	when(c->b.started_at, t, sizeof(t));
	fprintf(f, "bisection of %s: %s (started %s, %s)\n", c->b.repo,
		c->b.status == CT_BISECTION_NONE ? "none - it ended without a first bad commit"
						 : ct_enum_name(ct_bisection_status_names,
								CT_BISECTION_NSTATUS, c->b.status),
		t,
		c->b.mode == CT_BISECTION_STEP ? "one step per boot"
					       : "contend builds and measures");
	subject(c, c->b.good, subj, sizeof(subj));
	bisect_label(c->b.good, l, sizeof(l));
	fprintf(f, "good  %s  %s\n", l, subj);
	subject(c, c->b.bad, subj, sizeof(subj));
	bisect_label(c->b.bad, l, sizeof(l));
	fprintf(f, "bad   %s  %s\n", l, subj);
	fprintf(f, "range %zu commit%s\n\n", c->range.n, c->range.n == 1 ? "" : "s");
	if (c->nsteps)
		fprintf(f, "%-4s  %-10s  %-12s  %-6s  %-30s  %s\n", "step", "role", "commit",
			"answer", "effect [95% interval]", "runs a side");
	for (size_t i = 0; i < c->nsteps; i++) {
		const struct ct_bisect_step *p = &c->steps[i];

		bisect_label(p->sha, l, sizeof(l));
		effect_text(p, e, sizeof(e));
		fprintf(f, "%-4u  %-10s  %-12s  %-6s  %-30s  %u%s%s\n", p->seq,
			bisect_role(p->role), l, p->answer ? bisect_answer(p->answer) : "...",
			p->answer ? e : "being measured", p->runs, p->why[0] ? "  " : "", p->why);
	}
	if (c->b.status == CT_BISECTION_FOUND) {
		fputc('\n', f);
		bisect_print_culprit(c, f);
		return;
	}
	if (c->b.note[0])
		fprintf(f, "\n%s\n", c->b.note);
	if (!c->search || !isfinite(c->delta))
		return;
	order = malloc(c->range.n * sizeof(*order));
	if (!order)
		return;
	for (size_t i = 0; i < c->range.n; i++)
		order[i] = i;
	qsort_r(order, c->range.n, sizeof(*order), by_prob, c->search);
	fprintf(f, "\nthe likeliest first bad commits:\n");
	for (size_t i = 0; i < c->range.n; i++) {
		double p = ct_bisect_prob(c->search, order[i]);

		if (shown < 10 && p >= 0.01) {
			bisect_label(c->range.sha[order[i]], l, sizeof(l));
			subject(c, c->range.sha[order[i]], subj, sizeof(subj));
			fprintf(f, "  %.3f  %s  %s\n", p, l, subj);
			shown++;
		} else {
			rest += p;
		}
	}
	if (shown < c->range.n)
		fprintf(f, "  %.3f  the other %zu commits\n", rest, c->range.n - shown);
	free(order);
}

void bisect_print_log(const struct ct_bisector *c, FILE *f)
{
	char subj[SUBJECT_LEN], e[96];

	fprintf(f, "git bisect start\n");
	subject(c, c->b.bad, subj, sizeof(subj));
	fprintf(f, "# bad: [%s] %s\ngit bisect bad %s\n", c->b.bad, subj, c->b.bad);
	subject(c, c->b.good, subj, sizeof(subj));
	fprintf(f, "# good: [%s] %s\ngit bisect good %s\n", c->b.good, subj, c->b.good);
	for (size_t i = 0; i < c->nsteps; i++) {
		const struct ct_bisect_step *p = &c->steps[i];

		if (!p->answer)
			continue;
		effect_text(p, e, sizeof(e));
		subject(c, p->sha, subj, sizeof(subj));
		if (p->role != CT_ROLE_CANDIDATE) {
			fprintf(f, "# contend: %s %.12s against %.12s: %s, %s (%u runs a side)\n",
				bisect_role(p->role), p->sha, p->base, bisect_answer(p->answer), e,
				p->runs);
			continue;
		}
		fprintf(f, "# %s: [%s] %s\n# contend: %s (%u runs a side)%s%s\ngit bisect %s %s\n",
			bisect_answer(p->answer), p->sha, subj, e, p->runs, p->why[0] ? ": " : "",
			p->why, bisect_answer(p->answer), p->sha);
	}
	if (c->b.status == CT_BISECTION_FOUND) {
		subject(c, c->b.culprit, subj, sizeof(subj));
		fprintf(f, "# first bad commit: [%s] %s\n", c->b.culprit, subj);
	} else if (c->b.note[0]) {
		fprintf(f, "# contend: %s: %s\n",
			ct_enum_name(ct_bisection_status_names, CT_BISECTION_NSTATUS, c->b.status),
			c->b.note);
	}
}

/* The subjects of the range in one git call: commit i's into subjects[i]. */
static void range_subjects(const struct ct_bisector *c, struct ct_report_bisect_commit *commits)
{
	char range[2 * CT_GIT_SHA_LEN + 4], err[CT_ERRLEN], *out = NULL;
	char *argv[] = { "git", "log", "--format=%H %s", range, NULL };

	snprintf(range, sizeof(range), "%s..%s", c->b.good, c->b.bad);
	if (ct_cmd_capture(argv, c->b.repo, &out, err, sizeof(err)) || !out) {
		free(out);
		return;
	}
	for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
		long i;

		if (strlen(line) <= CT_GIT_SHA_LEN || line[CT_GIT_SHA_LEN] != ' ')
			continue;
		line[CT_GIT_SHA_LEN] = '\0';
		i = ct_git_range_find(&c->range, line);
		if (i >= 0)
			snprintf(commits[i].subject, sizeof(commits[i].subject), "%s",
				 line + CT_GIT_SHA_LEN + 1);
	}
	free(out);
}

/* The confidence the bisection's stored options give (--confidence PCT,
 * else 95): the level of its steps' intervals. */
static double stored_confidence(const char *argv)
{
	char **w = NULL;
	double conf = 95;
	int n = ct_split_words(argv, &w);

	for (int i = 0; i < n; i++) {
		const char *v = !strcmp(w[i], "--confidence") && i + 1 < n ? w[i + 1]
				: !strncmp(w[i], "--confidence=", 13)	   ? w[i] + 13
									   : NULL;
		char *end;
		double x = v ? strtod(v, &end) : 0;

		if (v && end != v && !*end && x > 0 && x < 100)
			conf = x;
	}
	free(w);
	return conf;
}

int bisect_print_html(const struct ct_bisector *c, FILE *f)
{
	const struct ct_bisect_step *reg = ct_bisector_last(c, CT_ROLE_REGRESSION, true);
	struct ct_report_bisect b = { .repo = c->b.repo,
				      .status = c->b.status,
				      .note = c->b.note,
				      .ncommits = c->range.n,
				      .nsteps = c->nsteps,
				      .culprit = ct_git_range_find(&c->range, c->b.culprit) };
	struct ct_report_bisect_commit *commits = calloc(c->range.n + 1, sizeof(*commits));
	struct ct_report_bisect_step *steps = calloc(c->nsteps + 1, sizeof(*steps));
	int rc = -ENOMEM;

	if (commits && steps) {
		bisect_label(c->b.good, b.good, sizeof(b.good));
		bisect_label(c->b.bad, b.bad, sizeof(b.bad));
		b.confidence = stored_confidence(c->b.argv);
		b.have_regression = reg && reg->have_effect;
		b.regression = b.have_regression ? reg->effect : 0;
		for (size_t i = 0; i < c->range.n; i++) {
			bisect_label(c->range.sha[i], commits[i].label, sizeof(commits[i].label));
			commits[i].prob = c->search && isfinite(c->delta)
						  ? ct_bisect_prob(c->search, i)
						  : NAN;
		}
		range_subjects(c, commits);
		for (size_t i = 0; i < c->nsteps; i++) {
			const struct ct_bisect_step *p = &c->steps[i];
			struct ct_report_bisect_step *s = &steps[i];

			s->commit = ct_git_range_find(&c->range, p->sha);
			s->seq = p->seq;
			s->role = p->role;
			s->answer = p->answer;
			bisect_label(p->sha, s->label, sizeof(s->label));
			bisect_label(p->base, s->base, sizeof(s->base));
			s->runs = p->runs;
			s->have_effect = p->have_effect;
			s->effect = p->effect;
			s->low = p->effect_low;
			s->high = p->effect_high;
			snprintf(s->why, sizeof(s->why), "%s", p->why);
		}
		b.commits = commits;
		b.steps = steps;
		rc = ct_report_print_bisect_html(f, &b);
	}
	free(commits);
	free(steps);
	return rc;
}

int bisect_print_why(struct ct_bisector *c, FILE *f)
{
	const struct ct_bisect_step *across = ct_bisector_last(c, CT_ROLE_ACROSS, true);
	struct ct_why *w = calloc(1, sizeof(*w));
	char err[CT_ERRLEN], load[32], l[16], b[16];
	int rc;

	if (!w)
		return cli_fail(-ENOMEM, "out of memory");
	rc = ct_bisector_why(c, w, load, sizeof(load), err, sizeof(err));
	if (!rc) {
		bisect_label(across->sha, l, sizeof(l));
		bisect_label(across->base, b, sizeof(b));
		fputc('\n', f);
		ct_why_print(f, w, l, b, load, c->confidence > 0 ? c->confidence : 95, false);
	}
	ct_why_free(w);
	if (rc == -ENOENT)
		return cli_cmd_fail("bisect", -EINVAL, err);
	return rc ? cli_fail(rc, err) : 0;
}
