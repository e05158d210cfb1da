/*
 * A config's stored results over time (contend history,
 * docs/statistics.md "Change points over time"): the matching sessions in
 * the order they ran (or by the commit each measured), one series per load
 * and machine, a point per session, and the change points found in each -
 * where the level moved, by how much with its interval, and the system
 * facts that differ across it. Built once from the store; printers only
 * format it.
 *
 * Ownership: ct_history_build() allocates everything in the model;
 * ct_history_release() frees it.
 */
#ifndef CONTEND_HISTORY_H
#define CONTEND_HISTORY_H

#include "contend/common.h"
#include "contend/reference.h"
#include "contend/store.h"

#include <stdio.h>

/* Each side of a change point holds this many sessions or more, and
 * Student's t between the sides must give a p below CT_HISTORY_ALPHA, the
 * Mann-Whitney test below ten times it, so a lone spiking session cannot
 * make one (CT_CP_EDM_BOTH; tests/sim/history-sim.c chose them). */
#define CT_HISTORY_MIN_SIDE 3
#define CT_HISTORY_ALPHA    0.001
/* A change's effect is judged on at most this many sessions a side, the
 * nearest to it (Otava's window). */
#define CT_HISTORY_WINDOW 30
/* An acknowledgement covers a change found within this many sessions of
 * the session it names (a change's place can move by a session as
 * sessions are added; the study's tolerance). */
#define CT_HISTORY_ACK_TOL 2
/* history --why: the runs of this many sessions a side of a change, the
 * nearest to it, explain it (fewer when a side has fewer). */
#define CT_HISTORY_WHY_SESSIONS 3

struct ct_why;

struct ct_history_query {
	const char *workload;	  /* NULL: the newest matching session's */
	const char *const *loads; /* NULL/0: every load the sessions ran */
	size_t nloads;
	const char *label_glob; /* fnmatch(3) pattern of labels; NULL: any */
	const char *machine;	/* NULL: a series per machine; "all": pooled; else
					* a machine id (a prefix of 4+ digits) or host name */
	int64_t since;		/* unix ns; 0: any */
	bool by_commit;		/* order by the commit measured (run --commit) */
	double confidence;	/* of the points' and changes' intervals */
	bool why;		/* explain each change by the runs' counters */
};

/* A session of a series. */
struct ct_history_point {
	int64_t session_id;
	char uuid[37];
	char label[128];
	char commit[41];		 /* "" when none was given */
	int64_t started_at, commit_time; /* unix ns */
	int64_t config_id;
	char machine[128];	  /* as reports show it */
	size_t n;		  /* ok runs */
	double median, low, high; /* of its runs, with the median's interval */
};

/* A system fact that differs across a change: its value in the session
 * before and in the session after it. */
struct ct_history_fact {
	char name[64];
	char before[256], after[256];
};

struct ct_history_change {
	size_t at;		  /* the first point after it */
	size_t nbefore, nafter;	  /* the sessions each side judged */
	double p;		  /* the detector's test that kept it */
	bool have_effect;	  /* the sessions' t gave an interval */
	double effect, low, high; /* median after / before - 1 with its interval */
	bool worse;		  /* the figure moved the way that is worse */
	bool acked;		  /* contend history ack named it */
	struct ct_history_fact *facts;
	size_t nfacts;
	/* --why: the counters of the runs of the sessions [at - k, at) and
	 * [at, at + k), k = CT_HISTORY_WHY_SESSIONS or fewer; NULL without */
	struct ct_why *why;
	int64_t why_from[2], why_to[2]; /* the sessions each side: first, last */
	/* the host's references (CPU speed, memory and disk bandwidth) of the
	 * judged sessions: the median after over the median before - 1, in %,
	 * NaN where a side took none; the largest in size (-1: none), and
	 * whether it is at least half the change's effect: the host moved as
	 * much as the figure did */
	double host_pct[CT_REF_NFIGS];
	int host_largest;
	bool host_moved;
};

/* A series is one load, machine and set of workload parameters: a
 * command's arguments are part of what it measures, so sessions of other
 * parameters make a series of their own. */
struct ct_history_series {
	char load[32];
	char params[256];    /* the runs' workload parameters */
	char machine_id[64]; /* "" when pooled */
	char machine[128];   /* as reports show it; "all" when pooled */
	struct ct_history_point *points;
	size_t npoints;
	struct ct_history_change *changes;
	size_t nchanges;
};

/* Where the parameters of one load's sessions on one machine changed (a
 * series ends there and another begins). */
struct ct_history_param_change {
	char load[32];
	char machine[128];
	int64_t session_id; /* the first session of the new parameters */
	int64_t started_at;
	char before[256], after[256];
};

struct ct_history {
	char workload[32];
	const char *figure, *unit; /* "Time" in "s", "tps", ... */
	bool higher_better;
	bool by_commit;
	double confidence;
	size_t nsessions; /* matched */
	struct ct_history_series *series;
	size_t nseries;
	bool mixed_params; /* the series hold more than one set of parameters */
	struct ct_history_param_change *param_changes;
	size_t nparam_changes;
};

/*
 * Builds the history of q. -ENOENT when no complete session matches (or
 * the machine named ran none), -EDOM when one does (a history needs two),
 * -EINVAL for a query it cannot answer; each with one line in err.
 */
int ct_history_build(struct ct_history *h, struct ct_store *st, const struct ct_history_query *q,
		     char *err, size_t len) CT_WUR;
void ct_history_release(struct ct_history *h);

/* The newest change of s past the newest acknowledged one; NULL when
 * there is none. */
const struct ct_history_change *ct_history_newest(const struct ct_history_series *s);

/* A time as the history shows it: "2026-12-05 10:00", local; "-" for 0. */
const char *ct_history_date(int64_t ns, char *buf, size_t len);

/* Printers: a table per series with its change points; JSON ("schema":
 * "contend/1", "command": "history"), CSV (a row per point), Markdown, one
 * self-contained HTML page plotting each series. 0 or -errno. */
int ct_history_print_text(FILE *f, const struct ct_history *h);
int ct_history_print_json(FILE *f, const struct ct_history *h);
int ct_history_print_csv(FILE *f, const struct ct_history *h);
int ct_history_print_md(FILE *f, const struct ct_history *h);
int ct_history_print_html(FILE *f, const struct ct_history *h);

#endif
