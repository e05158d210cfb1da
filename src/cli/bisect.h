/*
 * What the files of `contend bisect` share (docs/usage.md, "Finding the
 * commit"): the bisection being driven, read back from the store, with the
 * commits of its range and the search over them; cmd-bisect.c holds the
 * subcommands, bisect-run.c the steps that build and measure, bisect-show.c
 * what status and log print.
 */
#ifndef CONTEND_CLI_BISECT_H
#define CONTEND_CLI_BISECT_H

#include "run.h"
#include "contend/git.h"
#include "contend/stats.h"

#include <limits.h>

/* The ladder of runs a side a step takes until its answer, and the
 * probability the likeliest commit must reach (docs/statistics.md,
 * "Bisection", chosen by tests/sim/bisect-sim.c). */
#define BISECT_FIRST_RUNS 5
/* the regression's size is read by every step after it: from 10 runs a
 * side, where 5 let one fluke make it wild (a +55% [+12%, +63%] for a
 * +15% change, seen under ASan) and every bad commit then looked good */
#define BISECT_REGRESSION_RUNS 10
#define BISECT_EPS	       0.1
#define BISECT_DONE_PROB       0.99

struct bisect {
	struct run_args *a; /* the measuring options, parsed (start's, or read back) */
	struct ct_store *st;
	struct ct_bisection b;
	struct ct_bisect_step *steps;
	size_t nsteps;
	struct ct_git_range range;
	struct ct_bisect *search;
	double delta;	    /* the regression: bad against good, log ratio; NaN unknown */
	char dir[PATH_MAX]; /* <git common dir>/contend-bisect: work trees, logs */
	/* what a measurement under way knows (bisect-run.c's block hook) */
	struct ct_bisect_step *cur;
	size_t rung, pairs_before;
	/* the stored options parsed again, which the session points into */
	char **words, **wargv;
};

/* The measuring options of start, judge, or (argv[0] the subcommand) the
 * stored ones read again, parsed and checked into a; one load. 0, or the
 * exit code after one line (cmd-bisect.c). */
int bisect_parse(struct run_args *a, int argc, char **argv);
/* The machine, the store and the knob journal, as run opens them. */
int bisect_open(struct run_args *a, struct ct_store **st, struct ct_journal *j);
/* One session of n configs of directories (labels; a NULL directory is
 * here) of runs runs each, its progress in prog; hook, when given, after
 * each block. Its rc (-EINTR when interrupted). */
int bisect_session(struct run_args *a, struct ct_store *st, const char *const *labels,
		   const char *const *dirs, size_t n, unsigned runs,
		   int (*hook)(void *, struct ct_session *, const char *, unsigned, bool *, char *,
			       size_t),
		   void *ctx, struct cli_progress *prog, char *err, size_t len);
/* A new row of the bisection's steps, stored; c->cur points at it. */
int bisect_step_begin(struct bisect *c, unsigned seq, const char *role, const char *base,
		      const char *sha, char *err, size_t len);
/* The newest row of role (answered: only one with an answer); NULL none. */
const struct ct_bisect_step *bisect_last(const struct bisect *c, const char *role, bool answered);

/* The 12-digit label of a commit's configs. */
void bisect_label(const char *sha, char *buf, size_t len);
/* The steps of b read again, the range and the search rebuilt from them
 * (answers replayed in order), delta from the regression's step. */
int bisect_load(struct bisect *c, char *err, size_t len);
void bisect_release(struct bisect *c);
/* The likeliest first bad commit once it holds BISECT_DONE_PROB: its
 * index, else -1. */
long bisect_found(const struct bisect *c);

/* The whole bisection from where its stored steps leave it: the
 * regression, the search, the culprit's effect; builds in its work
 * trees. The exit code. */
int bisect_drive(struct bisect *c);
/* The comparison of sha against base over the sittings of step seq (their
 * runs paired by block); npairs in *np. */
int bisect_compare(struct bisect *c, unsigned seq, const char *base, const char *sha,
		   struct ct_stats_comparison *cmp, size_t *np, char *err, size_t len);
/* What a step's comparison means: the effect and its interval as the row
 * keeps them (ratio - 1). */
void bisect_effect(const struct ct_stats_comparison *cmp, struct ct_bisect_step *p);

/* Runs /bin/sh -c cmd in dir (NULL: here), its output appended to log
 * (NULL: ours), CONTEND_BISECT_NEXT=next in its environment when given:
 * its exit code, or -errno. */
int bisect_sh(const char *cmd, const char *dir, const char *log, const char *next);

/* bisect-step.c: one boot's step (first: start, which only names the
 * first commit to boot), and judge for git bisect run. The exit code. */
int bisect_step_cmd(struct bisect *c, bool first);
int bisect_judge_cmd(int argc, char **argv);

/* status and log (bisect-show.c). */
/* A step's line as it ends: its role, commit, answer and effect. */
void bisect_print_step(struct bisect *c, const struct ct_bisect_step *p, FILE *f);
void bisect_print_status(struct bisect *c, FILE *f);
void bisect_print_log(struct bisect *c, FILE *f);
/* The bisection as one HTML page (contend bisect report): 0 or -EIO. */
int bisect_print_html(struct bisect *c, FILE *f);
/* "<sha> is the first bad commit", its subject and the effect across it. */
void bisect_print_culprit(struct bisect *c, FILE *f);

#endif
