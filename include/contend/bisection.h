/*
 * The driver of a bisection (contend bisect; docs/statistics.md,
 * "Bisection"): one state machine over the stored steps that says what to
 * measure next or that the bisection is over and why, used by both of its
 * loops - the interleaved one (contend checks each candidate out in a work
 * tree of its own, builds it and measures it beside its base in one
 * session) and the kernel's one step per boot (each boot measures the
 * running system as the commit the state names). Every step is stored as
 * it starts and as it ends, so a bisection resumes after a crash, a
 * SIGKILL or a reboot with nothing measured twice. The library measures,
 * judges and stores; what it does is told through an event hook, and the
 * CLI prints.
 *
 * Ownership: the bisector owns its steps, range and search
 * (ct_bisector_release()); the store, the session and the strings it is
 * given stay the caller's.
 */
#ifndef CONTEND_BISECTION_H
#define CONTEND_BISECTION_H

#include "contend/common.h"
#include "contend/git.h"
#include "contend/session.h"
#include "contend/stats.h"
#include "contend/store.h"

#include <limits.h>

/* The ladder of runs a side a step takes until its answer, and the
 * probability the likeliest commit must reach (chosen by
 * tests/sim/bisect-sim.c). */
#define CT_BISECT_FIRST_RUNS 5
/* the regression's size is read by every step after it: from 10 runs a
 * side, where 5 let one fluke make it wild (a +55% [+12%, +63%] for a
 * +15% change, seen under ASan) and every bad commit then looked good */
#define CT_BISECT_REGRESSION_RUNS 10
#define CT_BISECT_EPS		  0.1
#define CT_BISECT_DONE_PROB	  0.99

/* What the driver tells its caller as it goes. */
enum ct_bisect_event {
	CT_BISECT_EV_BUILD,	  /* a work tree is built: text is the commit's label */
	CT_BISECT_EV_MEASURE,	  /* a step's sitting begins (text: "resumed" or NULL) */
	CT_BISECT_EV_SESSION,	  /* a session of the step is about to run */
	CT_BISECT_EV_SESSION_END, /* ... and has run */
	CT_BISECT_EV_STEP,	  /* a step was answered */
};
struct ct_bisector;
struct ct_why;
typedef void (*ct_bisect_event_fn)(void *ctx, enum ct_bisect_event ev, const struct ct_bisector *c,
				   const struct ct_bisect_step *p, const char *text);

struct ct_bisector {
	/* given: the store, the session the measuring options were parsed
	 * into (each measurement runs it again), the build command (NULL:
	 * none), the runs a side a step may take, the confidence of every
	 * verdict, the state directory (<git common dir>/contend-bisect:
	 * work trees, build logs) and the event hook */
	struct ct_store *st;
	struct ct_session *s;
	const char *build;
	unsigned max_runs;
	double confidence;
	char dir[PATH_MAX];
	ct_bisect_event_fn event;
	void *ctx;
	/* read from the store by ct_bisector_load() */
	struct ct_bisection b;
	struct ct_bisect_step *steps;
	size_t nsteps;
	struct ct_git_range range;
	struct ct_bisect *search;
	double delta; /* the regression: bad against good, a log ratio; NaN unknown */
	/* a measurement under way (the session's block hook) */
	struct ct_bisect_step *cur;
	size_t rung, pairs_before;
};

/* What to do next: measure a step, or end. */
struct ct_bisect_plan {
	bool end;
	/* end: how the bisection ended, and why */
	enum ct_bisection_status status;
	long culprit; /* index into the range; -1 none */
	char note[256];
	/* measure: the step's role, its number, its base and the commit to
	 * measure (the one to boot, in step mode); resume: the newest step,
	 * unanswered, is measured again with what it has */
	enum ct_bisect_role role;
	unsigned seq;
	char base[CT_BISECT_SHA], sha[CT_BISECT_SHA];
	bool resume;
};

/* The steps of c->b read again, the range and the search rebuilt from
 * them (answers replayed in order), delta from the regression's step. */
int ct_bisector_load(struct ct_bisector *c, char *err, size_t len) CT_WUR;
void ct_bisector_release(struct ct_bisector *c);

/* The state machine: what to measure next, or the end with its note -
 * the regression first (good and bad must differ), then the candidates
 * the search names against good, within a budget of steps, and once a
 * commit holds CT_BISECT_DONE_PROB, the culprit against its parent. In
 * step mode a side of a step is one boot: the plan names the commit to
 * boot (the regression's and the culprit's sides take turns). -ENOMEM,
 * or a git error. */
int ct_bisector_next(struct ct_bisector *c, struct ct_bisect_plan *p, char *err, size_t len) CT_WUR;

/* The likeliest first bad commit once it holds CT_BISECT_DONE_PROB: its
 * index into the range, else -1. */
long ct_bisector_found(const struct ct_bisector *c);
/* The newest step of role (answered: only one with an answer); NULL
 * none. */
const struct ct_bisect_step *ct_bisector_last(const struct ct_bisector *c, enum ct_bisect_role role,
					      bool answered);

/* The interleaved loop: measures plan p - its base and commit checked
 * out and built in contend's work trees, measured in one session of the
 * two, interleaved in blocks, 5, 10, 20, 40 runs a side until the answer
 * - and stores its answer. -EINTR when interrupted (the step is kept,
 * resume goes on); a base that does not build is -ENOEXEC with why in
 * err; another error -errno. */
int ct_bisector_measure(struct ct_bisector *c, const struct ct_bisect_plan *p, char *err,
			size_t len) CT_WUR;

/* The per-boot loop: one session of the running system as plan p's
 * commit, stored as a row of its step, then the step judged against its
 * base's sessions (the answer stays empty when more runs can still give
 * one: boot it again). 'runs' is what the session took. */
int ct_bisector_boot(struct ct_bisector *c, const struct ct_bisect_plan *p, char *err,
		     size_t len) CT_WUR;

/* The runs a step of plan p's commit takes in its next boot: the ladder
 * from the runs its sittings have, within max_runs. */
unsigned ct_bisector_boot_runs(const struct ct_bisector *c, const struct ct_bisect_plan *p);

/* Feeds step p's answer to the search (or its size to the regression). */
int ct_bisector_apply(struct ct_bisector *c, const struct ct_bisect_step *p) CT_WUR;

/* Stores the end of plan p (its status, culprit and note). */
int ct_bisector_end(struct ct_bisector *c, const struct ct_bisect_plan *p, char *err,
		    size_t len) CT_WUR;

/* The verdict of the stored sessions other against base under load, as
 * compare judges sessions: the sessions deciding with two or more a side,
 * the machine's spread with one (git bisect run's judge, and each boot's
 * step); *runs the ok runs of other. */
int ct_bisect_sessions_verdict(struct ct_store *st, const char *workload, const char *load,
			       const int64_t *base, size_t nb, const int64_t *other, size_t no,
			       double confidence, struct ct_stats_comparison *c, size_t *runs,
			       char *err, size_t len) CT_WUR;

/* Why the culprit differs from its parent: the counters of the runs of
 * the newest answered across step - its sittings' sessions, or its boots'
 * - judged as contend why judges two configs (w zeroed by the caller), the
 * runs' load into load. -ENOENT with err when no across step answered. */
int ct_bisector_why(struct ct_bisector *c, struct ct_why *w, char *load, size_t loadlen, char *err,
		    size_t len) CT_WUR;

/* The answer a step's comparison gives: the regression's (bad when good
 * and bad differ at the confidence) or a candidate's (ct_bisect_judge()
 * against delta); none while more runs may give one, else same or skip,
 * with why. */
void ct_bisector_answer(const struct ct_bisector *c, struct ct_bisect_step *p,
			const struct ct_stats_comparison *cmp, unsigned runs, bool more);

#endif
