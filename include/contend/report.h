/*
 * The report model: what one printout says, built once - from the store
 * (contest's blocks: one per load, a cell per config) or from plain
 * numbers (`contend stats`) - with every figure a printer shows already
 * computed: means, Ratio, scores, summaries, outliers and the evidence of
 * each flagged run, and every config against the baseline (effect and
 * interval, p-values, the test that decided, Holm, the outcome). Printers
 * (text, oltp, numbers; JSON, CSV, Markdown and HTML later) only format
 * it: no printer queries the store or computes a statistic.
 *
 * Ownership: ct_report_build() and ct_report_from_numbers() allocate
 * everything in the model; ct_report_release() frees it.
 */
#ifndef CONTEND_REPORT_H
#define CONTEND_REPORT_H

#include "contend/common.h"
#include "contend/reference.h"
#include "contend/run.h"
#include "contend/stats.h"
#include "contend/store.h"
#include "contend/sysinfo.h"

#include <stdio.h>

struct ct_why;

#define CT_REPORT_MAX_ROWS  16
#define CT_REPORT_MAX_EXTRA 10

/* A value flagged as an outlier (modified z-score), with the interference
 * its run recorded, as shares of its wall time. A likely fluke is an
 * outlier that shows foreign CPU above 10% or steal above 2%; PSI is
 * context only (a -j8 compile on two CPUs makes pressure of its own). */
struct ct_report_flag {
	size_t value;		  /* index into the cell's values */
	const struct ct_run *run; /* NULL for plain numbers */
	double foreign_pct, steal_pct;
	double psi_pct;		  /* the highest PSI "some" share */
	const char *psi_resource; /* "cpu", "io" or "memory" */
	/* the state it started from (-1: not recorded) and the load's rate
	 * during it against the cell's median, in Loads per second (NaN when
	 * the load counts no work) */
	int64_t start_dirty_bytes, start_writeback_bytes;
	double load_rate, load_rate_median;
	double cpu_speed_rel; /* its start CPU speed / the cell's median; NaN */
	bool likely_fluke;
	/* an imported run (hyperfine's, fio's): no monitors ran, so there is
	 * no evidence either way and printers say so instead */
	bool unmonitored;
};

/* One config under one load (or one dataset of plain numbers). */
struct ct_report_cell {
	char label[128];
	int64_t session_id; /* its newest session; 0 when none was found */
	/* the sessions its runs come from, newest first, and how many of them
	 * were interrupted (used only when asked) */
	int64_t *sessions;
	size_t nsessions, nunfinished;
	/* every run of those sessions and load, ok or not, by id; a scored
	 * workload's runs carry their per-second series (owned by the model) */
	struct ct_run *runs;
	size_t nruns;
	double *values;		  /* the figure of each ok run (Time in s, tps) or the numbers */
	const struct ct_run **ok; /* the run of each value; NULL for numbers */
	size_t n;
	struct ct_run_group g; /* means over the ok runs: Time, CPU%, Loads, LCPU% */
	double ratio;	       /* g.time_s / the reference's no-load Time; NaN */
	double *scores;	       /* oltp, a figure: per value, against the score reference; NULL */
	/* the mean of each metric over the ok runs that have it (oltp: tps,
	 * latency percentiles, IOPS...) */
	struct ct_metric metric_means[CT_RUN_MAX_METRICS];
	unsigned nmetric_means;
	bool have_summary; /* n >= 2 */
	struct ct_stats_summary sum;
	bool *outlier; /* per value; NULL when n < 3 */
	struct ct_report_flag *flags;
	size_t nflags;
	double mean_unflagged; /* NaN when nothing is flagged */
	/* against the block's baseline; compared is false for the baseline
	 * itself and for a config of the baseline's label */
	bool compared;
	bool paired; /* its runs pair with the baseline's by block */
	enum ct_stats_scope scope;
	/* one session a side: the machine's spread of sessions at the gap
	 * between its sessions and the baseline's (df 0: unknown), and the
	 * command that would measure one that covers it ("" when this one
	 * does): calibrate with the baseline's workload, parameters and load */
	struct ct_stats_between between;
	char calibrate_hint[1024];
	struct ct_stats_comparison cmp;
	/* the report's extra figures (latency: each task's deadlines met,
	 * the p99 of its other tasks) against the baseline, in
	 * rep->extra order */
	struct ct_stats_comparison extra_cmp[CT_REPORT_MAX_EXTRA];
	/* why it differs from the baseline (ct_report_why()): NULL until
	 * asked, and for the baseline */
	struct ct_why *why;
};

/*
 * contend why: a compared config's counters against the baseline's
 * (docs/statistics.md, "Why"). Every counter both sides stored in at
 * least CT_WHY_MIN_RUNS runs is tested: the Hodges-Lehmann shift of its
 * per-run value with its interval, Welch's test, Holm-adjusted across
 * all of them; it ranks when the adjusted p is under the level and the
 * shift clears the counter's floor and 1% of the larger median. Ranked
 * counters go by the size of the shift over the pooled robust spread.
 */
#define CT_WHY_MIN_RUNS	  3
#define CT_WHY_REL_FLOOR  0.01
#define CT_WHY_FOLLOW_RHO 0.7
#define CT_WHY_SHOWN	  10

struct ct_why_row {
	const struct ct_counter_info *info;
	size_t nbase, n;	    /* runs of each side that have it */
	double base_median, median; /* per run */
	double shift, low, high;    /* this minus the baseline; its interval */
	double effect;		    /* shift / pooled MAD spread; +-inf when neither varies */
	double p, p_adj;	    /* Welch's; Holm-adjusted; 1 when untested */
	bool tested, ranked;
	/* within each config, how its run-to-run variation follows the judged
	 * figure's: the rank correlation of both configs' runs, each ranked
	 * within its config (descriptive, untested); NaN when unknown */
	double rho;
	bool follows;
};

/* One counter's per-run values on each side, and the judged figure of
 * the same runs (for the rank correlation; NULL: none). */
struct ct_why_input {
	const struct ct_counter_info *info;
	const double *base, *other;
	size_t nbase, n;
	const double *base_fig, *other_fig;
};

struct ct_why {
	/* the baseline: the block's ("" here), or the same config under this
	 * load (contend why LABEL -l LOAD: against its no-load runs) */
	char base_load[32];
	size_t nbase, n;	 /* runs with counters, a side */
	bool budget;		 /* both sides have the time budget (delay accounting) */
	size_t ntested;		 /* the Holm family */
	struct ct_why_row *rows; /* catalogue order, those either side has */
	size_t nrows;
	size_t *ranked; /* indexes into rows, largest |effect| first */
	size_t nranked;
	char none[160]; /* why nothing could be tested, "" when something was */
};

/* A figure judged beside the main one: a metric of the runs. */
struct ct_report_extra {
	char metric[CT_METRIC_NAME]; /* "audio_met_pct" */
	char unit[CT_FIGURE_UNIT];   /* a command's figure's ("" for none) */
	bool higher_better;
	/* a command's other figure (--figure): Holm-adjusted among the
	 * secondary figures alone, never in the main figure's family, so it
	 * neither weakens the verdict nor decides a gate */
	bool secondary;
};

struct ct_report_block {
	char load[32];	       /* "" for plain numbers */
	const char *work_unit; /* what Loads counts, from the query; NULL */
	struct ct_report_cell *cells;
	size_t ncells;
	/* the baseline of the comparisons: one of the cells (base_cell) or
	 * a config shown in no row (the oltp score reference) */
	long base_cell; /* -1: base below */
	struct ct_report_cell base;
	/* the sittings of the machine's sessions under this load, read when
	 * a config is compared across sessions with one session a side: each
	 * such cell's spread comes from them (owned by the model) */
	struct ct_stats_sitting *sittings;
	size_t nsittings;
};

/* A config shown, with the system facts stored with it. */
struct ct_report_config {
	char label[128];
	int64_t config_id; /* 0: no runs found, facts unknown */
	struct ct_sysinfo si;
	/* the machine its session ran on: "host (machine-id)", "" unknown */
	char machine[128];
	/* the sessions and ok runs shown of it, over every load, and how many
	 * of those sessions were interrupted */
	size_t nsessions, nruns, nunfinished;
};

/* A system fact that differs between the configs shown: its name and its
 * value in each (configs[] order; "" where unknown). */
struct ct_report_diff {
	char name[64];
	char values[CT_REPORT_MAX_ROWS][256];
};

/*
 * The host's drift (docs/statistics.md, "The host's drift"): the references
 * the sessions shown took (include/contend/reference.h), and how far they
 * moved between a config's sessions and the baseline's.
 */
/* The reference over some sessions: how many of them took one, how many
 * references they took, and per figure the median of the sessions'
 * medians (NaN: none measured it). */
struct ct_report_ref {
	size_t nsessions, nrefs;
	double median[CT_REF_NFIGS];
};

/* A session shown, its references in seq order and their medians. */
struct ct_report_session_ref {
	int64_t session_id;
	char label[128];
	struct ct_ref *refs;
	size_t nrefs;
	struct ct_report_ref ref;
};

/* A load whose significant effect the drift could account for: the
 * largest drift is at least half of it. */
struct ct_report_drift_warning {
	char load[32];
	double effect_pct; /* the effect of the verdict, in % */
};

/* A config against the baseline. */
struct ct_report_drift {
	char label[128];
	bool compared;		  /* false for the baseline and its label */
	struct ct_report_ref ref; /* over the config's sessions shown */
	double pct[CT_REF_NFIGS]; /* its median / the baseline's - 1, in %; NaN */
	int largest;		  /* the figure of the largest |pct|, -1 when none */
	struct ct_report_drift_warning *warnings;
	size_t nwarnings;
};

enum ct_report_kind {
	CT_REPORT_RUNS,	   /* stored runs */
	CT_REPORT_NUMBERS, /* `contend stats` */
};

/* The kind of the judged figure, which decides what a printer lays out:
 * contest's table of Time with Ratio, WimMark's scores of tps, the latency
 * workload's p99 (a table of Time too, and its tasks), or a figure of the
 * runs' own (an imported fio job's IOPS, bandwidth or clat). */
enum ct_report_figure_kind {
	CT_FIGURE_TIME,	   /* Time in s; plain numbers too */
	CT_FIGURE_TPS,	   /* tps (oltp) */
	CT_FIGURE_LATENCY, /* p99 in us (latency) */
	CT_FIGURE_OTHER,   /* IOPS, BW, clat p50, clat p99 */
};

struct ct_report {
	enum ct_report_kind kind;
	/* the query's within_session: configs of other sessions judged by
	 * their runs alone */
	bool within_session;
	char workload[32];
	char params[256];
	double confidence;
	bool higher_better; /* tps: more is better (oltp); Time: less */
	/* the judged figure as printers name it: "Time" in "s" (JSON
	 * "time_s"), "tps", or the latency workload's "p99" in "us"; its
	 * kind, set where the model is built, is what printers test */
	const char *figure, *unit, *figure_key;
	enum ct_report_figure_kind figure_kind;
	/* figures judged beside it, each with its own Holm family member */
	struct ct_report_extra extra[CT_REPORT_MAX_EXTRA];
	unsigned nextra;
	char base_label[128];
	/* Ratio = Time / the no-load mean Time of ref_label */
	char ref_label[128];
	double ref_time_s; /* NaN when no no-load runs were found */
	/* a figure of the runs' own (CT_FIGURE_OTHER): Ratio = its mean /
	 * ref_label's no-load mean of it; NaN else or when none */
	double ref_value;
	int64_t ref_session_id; /* the newest of ref_nsessions */
	size_t ref_nsessions;
	/* oltp: Score = 1000 x tps / score_tps, the no-load mean tps of
	 * score_label; NaN when it has none with these parameters. A figure
	 * of the runs' own is scored too, score_tps then the no-load mean of
	 * that figure: 1000 x value / it, or it / value when lower is better */
	bool scored;
	char score_label[128];
	bool score_default; /* the first config stored with these parameters */
	double score_tps;
	int64_t score_session_id;
	size_t score_nsessions;
	bool paired;   /* the comparisons paired runs by block */
	bool compared; /* some cell was compared: there are verdicts */
	struct ct_report_block *blocks;
	size_t nblocks;
	/* stored runs: the configs of the query in order, and the facts in
	 * which they differ (kernel, cmdline, scheduler, sysctls...) */
	struct ct_report_config *configs;
	size_t nconfigs;
	struct ct_report_diff *diffs;
	size_t ndiffs;
	/* the heading of the configs' column: the seeds' "Kernel" when the
	 * configs differ by kernel (or each is labelled by its own), else
	 * "Config" (try+sysctl.vm.dirty_ratio=10 is no kernel) */
	const char *row_heading;
	/* the host's drift (stored runs): the baseline's reference over its
	 * sessions shown, each config's against it (configs[] order), every
	 * session shown with its references, and whether any took one */
	struct ct_report_ref base_ref;
	struct ct_report_drift *drift;
	struct ct_report_session_ref *session_refs;
	size_t nsession_refs;
	bool have_refs;
};

/* Which stored sessions of a config give its runs, when the query names
 * none: every finished session that ran the workload's parameters (the
 * default), the latest such session with runs of the load, or those
 * listed. */
enum ct_report_pool {
	CT_POOL_ALL,
	CT_POOL_LATEST,
	CT_POOL_LISTED,
};

/* A config to show: its label and the session to take its runs from
 * (0 = its sessions as the query's pool says). */
struct ct_report_source {
	const char *label;
	int64_t session_id;
};

struct ct_report_query {
	const char *workload;
	const char *params; /* only runs with these workload parameters (NULL: any) */
	const struct ct_report_source *src;
	size_t nsrc;
	const char *const *loads;
	const char *const *work_units; /* per load, or NULL */
	size_t nloads;
	/* the baseline of the comparisons: NULL is src[0] */
	const char *base_label;
	/* whose no-load mean is Ratio's denominator: NULL is the baseline */
	const char *ref_label;
	/* oltp: score against the no-load tps of score_label, or (NULL) of
	 * the first config stored with these parameters */
	bool score;
	const char *score_label;
	double confidence;
	enum ct_report_pool pool;
	const int64_t *pool_ids; /* CT_POOL_LISTED */
	size_t npool_ids;
	/* sessions that were interrupted are pooled too */
	bool include_unfinished;
	/* judge configs of other sessions by their runs alone, as if the
	 * sessions did not move (--within-session) */
	bool within_session;
};

/* Builds the model of q from the store. Configs of one interleaved
 * session pair their runs by block. */
int ct_report_build(struct ct_report *rep, struct ct_store *st, const struct ct_report_query *q,
		    char *err, size_t len) CT_WUR;

/* The model of `contend stats`: one block, a cell per dataset, each
 * compared with the first; paired: the datasets pair value by value. */
int ct_report_from_numbers(struct ct_report *rep, const char *const *names,
			   const double *const *values, const size_t *counts, size_t n,
			   double confidence, bool paired, char *err, size_t len) CT_WUR;

void ct_report_release(struct ct_report *rep);
/* contend why, compare --why: each compared cell's ct_why against its
 * block's baseline, from the counters stored with their ok runs. */
int ct_report_why(struct ct_report *rep, struct ct_store *st, char *err, size_t len) CT_WUR;
/* The same, each config under each load against itself under base_load
 * (contest's question: where the time went under a load, against none);
 * -ENOENT when no block is base_load's. */
int ct_report_why_loads(struct ct_report *rep, struct ct_store *st, const char *base_load,
			char *err, size_t len) CT_WUR;
/* The rule itself, over values held: w's rows (one per input, in order),
 * the Holm family, the ranked order. w->rows and w->ranked are malloc'd
 * (released with the model, or by the caller). */
/* A side to explain: runs by id (0: a run that stored nothing) and the
 * judged figure of each. */
struct ct_why_side {
	const int64_t *ids;
	const double *figs;
	size_t n;
};
/* Why other differs from base: their stored counters judged (into w,
 * zeroed by the caller; ct_why_free() releases it). */
int ct_why_runs(struct ct_store *st, const struct ct_why_side *base,
		const struct ct_why_side *other, double confidence, struct ct_why *w, char *err,
		size_t len) CT_WUR;
void ct_why_free(struct ct_why *w);
/* One why's text: label's against base's under load. */
void ct_why_print(FILE *f, const struct ct_why *w, const char *label, const char *base,
		  const char *load, double confidence, bool all);
int ct_why_judge(struct ct_why *w, const struct ct_why_input *in, size_t n,
		 double confidence) CT_WUR;
/* Its text: per compared config and load, the time budget, the line that
 * says where the time went, the counters that ranked (every tested one
 * when all) and those that follow the figure. */
void ct_report_print_why(FILE *f, const struct ct_report *rep, bool all);

/* The machine's spread of sessions of workload (params) under load by
 * the gap between them (ct_stats_spread_classes(): out holds nedges + 1,
 * the last the pairs across a reboot), and *all from every pair (its
 * within and runs, to tell a class's between-session part). */
int ct_report_spread_classes(struct ct_store *st, const struct ct_session_rec *recs, size_t nrecs,
			     const char *workload, const char *params, const char *load,
			     const char *machine, const int64_t *edges, size_t nedges,
			     struct ct_stats_spread_class *out, struct ct_stats_between *all,
			     char *err, size_t len) CT_WUR;

/* A boot id as the number a sitting keeps (0: unknown). */
uint64_t ct_report_boot_key(const char *boot);

/* A gap between sessions as contend says it: "20 s", "45 min", "3 h",
 * "4 days". Returns buf. */
const char *ct_report_fmt_gap(int64_t ns, char *buf, size_t len);

/* The machine's spread of sessions of workload (params; "" any) under
 * load for a comparison of sessions a[] against b[] - as far apart as the
 * farthest two of them, across a reboot when any two lie in two boots:
 * the pairs of complete sessions of one config of machine (its machine
 * id) in recs at least that far apart (ct_stats_spread_at(),
 * src/report/across.c). With no sessions given (na 0), every pair (out's
 * max_gap_ns says how far apart they reach). out->df is 0 when no config of it has
 * two sessions; out->covers says whether its pairs cover the gap. */
int ct_report_spread(struct ct_store *st, const struct ct_session_rec *recs, size_t nrecs,
		     const char *workload, const char *params, const char *load,
		     const char *machine, const int64_t *a, size_t na, const int64_t *b, size_t nb,
		     struct ct_stats_between *out, char *err, size_t len) CT_WUR;

/*
 * Runs as one side of a verdict (ct_stats_verdict()), for whoever holds
 * runs and wants one verdict without a report: s is the side, its arrays
 * owned here. Zero-initialise, add runs, release.
 */
struct ct_report_side {
	struct ct_stats_side s;
	double *v;
	int64_t *session, *pair;
	size_t cap;
	bool paired;
};
/* Appends the ok runs among runs[0..n) whose judged figure
 * (ct_run_value()) is positive, with their sessions; their pair key is
 * key_base + their block (0 for a run of no block), or with key_base < 0
 * none. A caller pairing the runs of several sittings gives each its own
 * key_base (sitting << 32). -ENOMEM. */
int ct_report_side_add(struct ct_report_side *sd, const struct ct_run *runs, size_t n,
		       int64_t key_base) CT_WUR;
/* One value of a run read without the rest (struct ct_run_value): its
 * session and pair key (0: none); a value not positive is left out. */
int ct_report_side_value(struct ct_report_side *sd, double value, int64_t session,
			 int64_t key) CT_WUR;
void ct_report_side_release(struct ct_report_side *sd);

/* The machine a session ran on, as reports show it: "host (8 digits of
 * its machine id)", either alone when the other is unknown, or "". */
void ct_report_machine(const struct ct_owner *o, char *buf, size_t len);

/* The word of a comparison's outcome: "better"/"worse" when the report
 * knows which way is better (stored runs), "larger"/"smaller" for plain
 * numbers, or why there is no verdict. */
const char *ct_report_verdict(const struct ct_report *rep, const struct ct_report_cell *c);
/* The same for any comparison of the report (an extra figure's), whose
 * figure is better higher or lower. */
const char *ct_report_outcome(const struct ct_report *rep, const struct ct_stats_comparison *v,
			      bool higher_better);

/* The effect of a comparison with its interval, as the text shows it, and
 * the name of the test that decided ("U", "sign-flip"). */
void ct_report_print_effect(FILE *f, const struct ct_stats_comparison *v);
const char *ct_report_test_name(const struct ct_stats_comparison *v);

/* Printers (text). */

/* contest's layout: "io:" then "Kernel [runs] Time CPU% Loads LCPU% Ratio",
 * the Ratio line and what each load's Loads counts. */
void ct_report_print_table(FILE *f, const struct ct_report *rep);
/* Runs judged by a figure of their own that is not tps or a latency
 * workload's p99 (an imported fio job's IOPS): per load a row per config
 * with the figure's mean, median, min, max and CV. */
void ct_report_print_figures(FILE *f, const struct ct_report *rep);
/* Each compared config against the baseline, a line per load under a
 * heading; note (may be NULL) is said in the heading's parentheses. */
void ct_report_print_verdicts(FILE *f, const struct ct_report *rep, const char *note);
/* "Sessions: 'a' 3 (15 runs); 'b' ...", when a config's runs come from
 * other than one finished session. */
void ct_report_print_sessions(FILE *f, const struct ct_report *rep);
/* The flagged runs of every cell with their evidence, and the mean
 * without them. */
void ct_report_print_flagged(FILE *f, const struct ct_report *rep);
/* "configs differ in: kernel release (a: 6.1.0, b: 6.6.0); ..." - nothing
 * when they do not. */
void ct_report_print_diff(FILE *f, const struct ct_report *rep);
/* WimMark's layout for oltp: the runs as scores, tps and latency, then
 * each config against the score reference. */
void ct_report_print_oltp(FILE *f, const struct ct_report *rep);
/* interbench's question for the latency workload: per load, a row per
 * config and task - latency mean, p99 and max, desired CPU and deadlines
 * met - then each config against the baseline on every judged figure. */
void ct_report_print_latency(FILE *f, const struct ct_report *rep);
/* ministat's: a dot plot, the summaries, outliers and comparisons. */
void ct_report_print_numbers(FILE *f, const struct ct_report *rep);
/* The host's reference of each config and its drift from the baseline's,
 * and a warning for each load whose effect the drift is at least half of;
 * nothing when no session shown took a reference. */
void ct_report_print_drift(FILE *f, const struct ct_report *rep);

/* The other formats (docs/usage.md, "Reports"). Each prints the whole report
 * model - or the stored sessions, or the system facts - and returns 0, or
 * -errno when it could not be written. */
enum ct_report_format {
	CT_FORMAT_TEXT,
	CT_FORMAT_JSON, /* versioned: "schema": "contend/1", docs/schema/contend-1.json */
	CT_FORMAT_CSV,	/* a row per run (session, fact, value), every stored column */
	CT_FORMAT_MD,	/* Markdown tables */
	CT_FORMAT_HTML, /* one self-contained page with inline SVG plots */
};
/* "text", "json", "csv", "md", "html", NULL-terminated, by enum value. */
extern const char *const ct_report_format_names[];

/*
 * A bisection as its page shows it (contend bisect report): the commits of
 * its range in order (parents first, bad last), each with the probability
 * the search gives it of being the first bad one, and the steps, each
 * placed at its commit. Filled by the caller from the store; the printer
 * only places it.
 */
struct ct_report_bisect_commit {
	char label[16];	   /* the sha's first 12 digits */
	char subject[256]; /* its subject line */
	double prob;	   /* NaN before the regression is known */
};
struct ct_report_bisect_step {
	long commit; /* index into commits; -1: outside the range (good) */
	unsigned seq;
	enum ct_bisect_role role;
	enum ct_bisect_answer answer;
	char label[16], base[16];
	unsigned runs; /* a side */
	bool have_effect;
	double effect, low, high; /* ratio - 1 against its base, and its interval */
	char why[256];
};
struct ct_report_bisect {
	const char *repo, *note;
	enum ct_bisection_status status;
	char good[16], bad[16];
	const struct ct_report_bisect_commit *commits;
	size_t ncommits;
	const struct ct_report_bisect_step *steps;
	size_t nsteps;
	long culprit;	      /* index into commits, -1 none */
	bool have_regression; /* good..bad measured: regression is its effect */
	double regression;
	double confidence; /* of the steps' intervals, percent */
};
int ct_report_print_bisect_html(FILE *f, const struct ct_report_bisect *b);

/* command: the contend command that printed it ("compare", "stats"...). */
int ct_report_print_json(FILE *f, const struct ct_report *rep, const char *command);
int ct_report_print_csv(FILE *f, const struct ct_report *rep);
int ct_report_print_md(FILE *f, const struct ct_report *rep);
/* One self-contained page: no network, inline SVG and CSS, readable
 * without JavaScript. */
int ct_report_print_html(FILE *f, const struct ct_report *rep, const char *command);
/* contend why --format csv: a row per counter of each cell that has a
 * why (ct_report_why()), its rank among those that ranked. */
int ct_report_why_csv(FILE *f, const struct ct_report *rep);
int ct_report_sessions_json(FILE *f, const struct ct_session_rec *recs, size_t n);
int ct_report_sessions_csv(FILE *f, const struct ct_session_rec *recs, size_t n);
int ct_report_sessions_md(FILE *f, const struct ct_session_rec *recs, size_t n);
void ct_report_sysinfo_text(FILE *f, const struct ct_sysinfo *si, const char *dir);
int ct_report_sysinfo_json(FILE *f, const struct ct_sysinfo *si, const char *dir);
int ct_report_sysinfo_csv(FILE *f, const struct ct_sysinfo *si, const char *dir);
int ct_report_sysinfo_md(FILE *f, const struct ct_sysinfo *si, const char *dir);

#endif
