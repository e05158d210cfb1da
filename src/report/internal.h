/*
 * What the report layer's printers share and nothing above sees.
 */
#ifndef CONTEND_REPORT_INTERNAL_H
#define CONTEND_REPORT_INTERNAL_H

#include "contend/report.h"

#include <stdio.h>

/* Seconds as contest printed them (two decimals), more for short runs. */
const char *rp_fmt_time(double s, char *buf, size_t len);
/* why.c: a counter's value in its unit, short ("3.10 s", "12.5 ms",
 * "12.0 MiB", "5.2e+04"), signed when sign; and a why's row by name. */
const char *rp_why_value(const struct ct_counter_info *ci, double v, bool sign, char *buf,
			 size_t len);
const struct ct_why_row *rp_why_row(const struct ct_why *w, const char *name);
/* A why row's figures as the printers show them. */
struct rp_why_text {
	char base[48], other[48], shift[48], low[48], high[48];
};
void rp_why_text(const struct ct_why_row *r, struct rp_why_text *t);
/* The rows a why's tables list, from *k on (start at 0): the time
 * budget's parts (task lifetimes aside) when budget, else the ranked
 * counters outside it, largest first; NULL after the last. */
const struct ct_why_row *rp_why_next(const struct ct_why *w, bool budget, size_t *k);
/* One why's tables below its heading (bn, on: the sides' names), as
 * Markdown and as HTML. */
void rp_why_md(FILE *f, const struct ct_why *w, const char *bn, const char *on, double confidence);
void rp_why_html(FILE *f, const struct ct_why *w, double confidence);
/* The heading of the configs' column, "Config" where the model has none. */
static inline const char *rp_heading(const struct ct_report *rep)
{
	return rep->row_heading ? rep->row_heading : "Config";
}
/* "session " for one, "3 sessions, the latest " for more: before an id */
const char *rp_sessions_of(size_t n, char *buf, size_t len);
/* The judged figure as a column head: "Time s", "tps", "p99 us", "IOPS". */
const char *rp_figure_head(const struct ct_report *rep, char *buf, size_t len);
/* What a figure of the runs' own (CT_FIGURE_OTHER) is divided by for its
 * Ratio ("iops / 21295.9 IOPS, the no-load mean of 'a' (session 3)"), or
 * why there is none; and the score's formula up to the reference's label
 * ("1000 x tps / 3559.23, the no-load mean tps"), for oltp too. */
const char *rp_ratio_note(const struct ct_report *rep, char *buf, size_t len);
const char *rp_score_formula(const struct ct_report *rep, char *buf, size_t len);
/* A cell's score as the tables show it: of its mean, so that the
 * reference scores 1000 whichever way the figure is better; NaN when
 * there is no reference. */
double rp_cell_score(const struct ct_report *rep, const struct ct_report_cell *c);
/* History (history-text.c): a change's effect with its interval, and its
 * word ("worse", "better", "no change"). */
struct ct_history_change;
void rp_history_effect(FILE *f, const struct ct_history_change *c);
const char *rp_history_word(const struct ct_history_change *c);
/* A ratio as a signed percentage change: 1.106 -> "+10.6%". */
void rp_pct(FILE *f, double r);
/* The effect with its interval, the interval opened by open: " [" for
 * text ("+10.6% [-4.4%, +26.3%]"), " | [" for a Markdown cell. */
void rp_effect(FILE *f, const struct ct_stats_comparison *v, const char *open);
/* The mean of metric name over cell c's ok runs, NaN when none has it. */
double rp_metric(const struct ct_report_cell *c, const char *name);
/* "  wakeup probe: p50 ..." under a row whose runs had the probe. */
void rp_probe_line(FILE *f, const struct ct_report_cell *c);
/* The latency workload's tasks, from the parameters ("tasks=audio,video
 * ..."); 0 for another workload. */
size_t rp_tasks_of(const struct ct_report *rep, char names[][16], size_t max);
/* For each cell with ok runs, each latency task of the report and then
 * the wakeup probe (when the cell's runs had it): row(ctx, load, label,
 * name, {mean, p50, p99, max in us, CPU%, Met%}), NaN where the runs have
 * no such figure. */
typedef void (*rp_latency_row_fn)(void *ctx, const char *load, const char *label, const char *task,
				  const double v[6]);
void rp_latency_rows(const struct ct_report *rep, rp_latency_row_fn row, void *ctx);
/* "  LABEL run N failed: reason" for each run of c that is not ok. */
void rp_failed_runs(FILE *f, const struct ct_report_cell *c);
/* The index of run r among cell c's values, -1 when it has none (not ok),
 * and the flag of value v, NULL when it was not flagged. */
long rp_value_of(const struct ct_report_cell *c, const struct ct_run *r);
const struct ct_report_flag *rp_flag_of(const struct ct_report_cell *c, long v);
/* The system facts as sysinfo prints them, fs the filesystem's cell;
 * bufs hold the numbers. Returns the number of rows (at most 12). */
size_t rp_sysinfo_rows(const struct ct_sysinfo *si, const char *dir, const char *fs,
		       const char *rows[12][2], char bufs[3][32]);
/* What a verdict of c says of sessions, into buf ("" when nothing): run
 * alone as --within-session asked, the machine's spread unknown, or the
 * spread that decided. */
const char *rp_scope_note(const struct ct_report *rep, const struct ct_report_block *b,
			  const struct ct_report_cell *c, char *buf, size_t len);

/* across.c: the sittings (ct_stats_sitting) of the values of runs already
 * read - those of one workload and its parameters, under load (NULL: the
 * values are one load's) - of the complete sessions of machine. *out
 * malloc'd; -ENOMEM. */
int rp_sittings(const struct ct_run_value *vals, size_t n, const struct ct_session_rec *recs,
		size_t nrecs, const char *load, const char *machine, struct ct_stats_sitting **out,
		size_t *nout) CT_WUR;
/* The calibration that would give a spread of sessions covering a
 * comparison gap_ns apart (across a reboot when reboot) under load: the
 * command of rec (the baseline's newest session) as calibrate, its
 * workload, parameters and command kept, -l load, --sessions 4 and
 * --every a third of the gap (two sessions in each of two boots across
 * a reboot). */
void rp_calibrate_hint(const struct ct_session_rec *rec, const char *load, int64_t gap_ns,
		       bool reboot, char *buf, size_t len);
/* The gap between the sessions a[] and b[] (the largest between any two
 * of them) and whether a reboot lies between any two. */
void rp_gap_of(const struct ct_session_rec *recs, size_t nrecs, const int64_t *a, size_t na,
	       const int64_t *b, size_t nb, int64_t *gap_ns, bool *reboot);

/* A figure of the host's reference (CT_REF_CPU...) and a drift in %, as
 * printed: "19.42", "+8.1%", "-" when missing. */
const char *rp_ref_fig(double v, int fig, char *buf, size_t len);
const char *rp_drift_pct(double v, char *buf, size_t len);
/* html.c and html-plots.c: the page and its inline SVG plots. s written
 * with &, <, >, " and ' escaped. */
void rp_html_esc(FILE *f, const char *s);
/* The step of an axis over span with about want ticks: 1, 2 or 5 times a
 * power of ten, so the ticks fall on round values. */
double rp_tick_step(double span, int want);
/* The page's head, its style and its heading: title ("contend report"),
 * then what it is of (the workload, a repository). */
void rp_html_page_start(FILE *f, const char *title, const char *what);
/* Every run of one load as a dot, a row per config, with each mean and
 * its interval. */
void rp_html_dotplot(FILE *f, const struct ct_report *rep, const struct ct_report_block *b);
/* Each compared config's effect per load with its interval (a note when
 * no comparison decided, nothing when none was made). */
void rp_html_forest(FILE *f, const struct ct_report *rep);
/* oltp: tps each second of every run, and the latency percentiles of
 * each config on a log axis (nothing when the runs have none). */
void rp_html_tps_series(FILE *f, const struct ct_report_block *b);
void rp_html_latency(FILE *f, const struct ct_report_block *b);
/* Which config and load ran when, with the host's references; false
 * (nothing written) when no run was found. */
bool rp_html_timeline(FILE *f, const struct ct_report *rep);

/* drift.c: the host's drift of a model built from the store (its configs
 * and every comparison made), and its release. */
int rp_drift_build(struct ct_report *rep, struct ct_store *st, char *err, size_t len) CT_WUR;
void rp_drift_release(struct ct_report *rep);

/* fleet-print.c: the fleet printers' shared words (contend/fleet.h): a
 * row's figure ("-" when NaN); a cell's verdict ("+6.4% [+2.0%, +10.9%]
 * worse (U)*", "baseline") and the baseline in words, in buf (cut to len);
 * the notes under the table, a line each, malloc'd (NULL when none). */
struct ct_fleet;
struct ct_fleet_row;
struct ct_fleet_cell;
const char *rp_fleet_value(const struct ct_fleet *fl, double v, char *buf, size_t len);
const char *rp_fleet_verdict_str(const struct ct_fleet *fl, const struct ct_fleet_row *w,
				 const struct ct_fleet_cell *c, char *buf, size_t len);
const char *rp_fleet_baseline_str(const struct ct_fleet *fl, char *buf, size_t len);
char *rp_fleet_notes_str(const struct ct_fleet *fl);

#endif
