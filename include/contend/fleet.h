/*
 * A fleet's results in one table (contend fleet summary): the latest
 * complete session of each machine and label that ran a workload, each
 * with its figure per load and its verdict against a baseline session -
 * one machine's (--baseline-machine), or per machine its own session of a
 * baseline label (--baseline) - judged as compare judges two sessions
 * (docs/fleet.md, "The fleet's summary"). Built once from the store;
 * printers only format it.
 *
 * Ownership: ct_fleet_build() allocates everything in the model;
 * ct_fleet_release() frees it.
 */
#ifndef CONTEND_FLEET_H
#define CONTEND_FLEET_H

#include "contend/common.h"
#include "contend/report.h"
#include "contend/stats.h"
#include "contend/store.h"

#include <stdio.h>

#define CT_FLEET_MAX_LOADS 32

struct ct_fleet_query {
	const char *workload;	  /* NULL: the baseline's newest session's */
	const char *const *loads; /* NULL/0: the loads the baselines ran */
	size_t nloads;
	/* the baseline: the newest session of this machine (a host name or
	 * 4+ digits of its machine id), of base_label when given too; with
	 * base_label alone, each machine's own session of that label (a
	 * machine without one: the fleet's newest of it); neither: the first
	 * row's session */
	const char *base_machine;
	const char *base_label;
	const char *label_glob; /* fnmatch(3) pattern of labels; NULL: any */
	double confidence;
	bool within_session; /* as compare --within-session */
	bool why;	     /* explain each row a load made worse */
};

/* A row under one load: its runs, the mean of the judged figure, and its
 * comparison with its baseline's (compared false for a baseline and
 * where one of the two did not run the load). */
struct ct_fleet_cell {
	size_t n;    /* ok runs */
	double mean; /* NaN when n is 0 */
	bool compared, paired;
	enum ct_stats_scope scope;
	struct ct_stats_comparison cmp;
	char verdict[64]; /* ct_report_verdict()'s word */
	/* --why, a cell judged worse: its runs' counters against its
	 * baseline's (NULL otherwise) */
	struct ct_why *why;
};

/* The latest complete session of one machine and label. */
struct ct_fleet_row {
	int64_t session_id;
	char uuid[37];
	char label[128];
	char host[65], machine_id[40];
	char machine[128]; /* as reports show it */
	int64_t started_at;
	size_t nruns;	    /* ok runs of the workload */
	size_t nsessions;   /* complete sessions of this machine and label */
	unsigned ran;	    /* bit l: it ran the fleet's load l */
	long base;	    /* the row it is judged against; -1: it is a baseline */
	bool other_machine; /* its baseline ran on another machine */
	struct ct_fleet_cell cells[CT_FLEET_MAX_LOADS]; /* per load */
};

enum ct_fleet_mode {
	CT_FLEET_BASE_FIRST,   /* neither given: the first row */
	CT_FLEET_BASE_MACHINE, /* one baseline: a machine's newest (of a label) */
	CT_FLEET_BASE_LABEL,   /* per machine: its session of a label */
};

struct ct_fleet {
	char workload[32];
	char params[256];
	const char *figure, *unit; /* "Time" in "s", "tps", ... */
	enum ct_report_figure_kind figure_kind;
	bool higher_better;
	double confidence;
	bool within_session;
	enum ct_fleet_mode mode;
	char base_machine[128], base_label[128]; /* as asked; "" */
	char loads[CT_FLEET_MAX_LOADS][32];
	size_t nloads;
	struct ct_fleet_row *rows; /* by machine, then label */
	size_t nrows;
	size_t nmachines;
	/* complete sessions of the workload left out: another parameter set
	 * than the baseline's */
	size_t nother_params;
};

/*
 * Builds the summary of q. -ENOENT when no complete session matches (or
 * the baseline machine or label has none), -EINVAL for a query it cannot
 * answer; each with one line in err.
 */
int ct_fleet_build(struct ct_fleet *fl, struct ct_store *st, const struct ct_fleet_query *q,
		   char *err, size_t len) CT_WUR;
void ct_fleet_release(struct ct_fleet *fl);

/* Printers: the table (text, Markdown), a row per machine, label and load
 * (CSV), JSON ("schema": "contend/1", "command": "fleet summary"), one
 * self-contained HTML page. 0 or -errno. */
int ct_fleet_print_text(FILE *f, const struct ct_fleet *fl);
int ct_fleet_print_md(FILE *f, const struct ct_fleet *fl);
int ct_fleet_print_csv(FILE *f, const struct ct_fleet *fl);
int ct_fleet_print_json(FILE *f, const struct ct_fleet *fl);
int ct_fleet_print_html(FILE *f, const struct ct_fleet *fl);

#endif
