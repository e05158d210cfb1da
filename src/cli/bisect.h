/*
 * What the files of `contend bisect` share (docs/usage.md, "Finding the
 * commit"): the bisection being driven - the library's bisector
 * (include/contend/bisection.h) with the options it measures with - and
 * what the CLI prints of it. cmd-bisect.c holds the subcommands and the
 * interleaved loop, bisect-step.c the kernel's loop and judge,
 * bisect-show.c what status, log and report print.
 */
#ifndef CONTEND_CLI_BISECT_H
#define CONTEND_CLI_BISECT_H

#include "run.h"
#include "contend/bisection.h"

struct bisect {
	struct run_args *a; /* the measuring options, parsed (start's, or read back) */
	struct ct_bisector c;
	struct cli_progress prog;
	/* the stored options parsed again, which the session points into */
	char **words, **wargv;
};

/* The measuring options of start, judge, or (argv[0] the subcommand) the
 * stored ones read again, parsed and checked into a; one load. 0, or the
 * exit code after one line (cmd-bisect.c). */
int bisect_parse(struct run_args *a, int argc, char **argv);
/* The machine, the store and the knob journal, as run opens them. */
int bisect_open(struct run_args *a, struct ct_store **st, struct ct_journal *j);
/* The bisector of x given its options (x->a) and store: its session, its
 * build, its budget of runs, its confidence, the CLI's event hook. */
void bisect_setup(struct bisect *x, struct ct_store *st);
/* What the library tells as it goes, printed (and the progress of its
 * sessions). */
void bisect_event(void *ctx, enum ct_bisect_event ev, const struct ct_bisector *c,
		  const struct ct_bisect_step *p, const char *text);
/* The end of plan p stored and said: the culprit on stdout (0), or why
 * there is none (CT_EXIT_NO_ANSWER). */
int bisect_finish(struct bisect *x, const struct ct_bisect_plan *p);

/* What would give an answer to a bisection that ended without one: more
 * runs a side, said with the option. */
void bisect_hint(const struct ct_bisector *c, unsigned max_runs, FILE *f);

/* The 12-digit label of a commit's configs. */
void bisect_label(const char *sha, char *buf, size_t len);
/* bisect status --why: the culprit's counters against its parent's; an
 * exit code. */
int bisect_print_why(struct ct_bisector *c, FILE *f);
const char *bisect_role(enum ct_bisect_role r);
const char *bisect_answer(enum ct_bisect_answer a);

/* bisect-step.c: one boot's step (first: start, which only names the
 * first commit to boot), and judge for git bisect run. The exit code. */
int bisect_step_cmd(struct bisect *x, bool first);
int bisect_judge_cmd(int argc, char **argv);

/* status and log (bisect-show.c). */
/* A step's line as it ends: its role, commit, answer and effect. */
void bisect_print_step(const struct ct_bisector *c, const struct ct_bisect_step *p, FILE *f);
void bisect_print_status(const struct ct_bisector *c, FILE *f);
void bisect_print_log(const struct ct_bisector *c, FILE *f);
/* The bisection as one HTML page (contend bisect report): 0 or -EIO. */
int bisect_print_html(const struct ct_bisector *c, FILE *f);
/* "<sha> is the first bad commit", its subject and the effect across it. */
void bisect_print_culprit(const struct ct_bisector *c, FILE *f);

#endif
