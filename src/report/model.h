/*
 * What the files that build the report model from the store share, and
 * nothing else sees: the build's context and each step's entry. model.c
 * runs the steps in order; fetch.c reads the store, judge.c computes the
 * statistics, configs.c the facts in which the configs differ.
 */
#ifndef CONTEND_REPORT_MODEL_H
#define CONTEND_REPORT_MODEL_H

#include "contend/report.h"

/* What building one model reads more than once: the store, the query,
 * the stored sessions (their status and group). */
struct rp_ctx {
	struct ct_store *st;
	const struct ct_report_query *q;
	struct ct_session_rec *recs;
	size_t nrecs;
};

/* The judged figure of run r (NULL: Time) as printers name it, and its
 * kind. */
enum ct_report_figure_kind rp_figure_of(const struct ct_run *r, const char **name,
					const char **unit, const char **key);
/* ct_report_outcome()'s word, for a model of plain numbers or runs. */
const char *rp_outcome_word(const struct ct_stats_comparison *v, bool numbers, bool higher_better);

/* fetch.c: the store's runs, in the model's cells */

/* A session that was interrupted: pooled only when asked. */
bool rp_unfinished(const struct rp_ctx *x, int64_t id);
/* Whether session a is newer than b (ct_store_session_newer()). */
bool rp_newer(const struct rp_ctx *x, int64_t a, int64_t b);
/* Ratio's reference (the no-load mean Time of rep->ref_label) and, when
 * the query scores, the score reference's no-load tps. */
int rp_references(struct ct_report *rep, const struct rp_ctx *x, char *err, size_t len) CT_WUR;
/* The cells of every block (each config's runs under each load, described
 * by rp_describe_values()), Ratio, scores, and the baseline of each. */
int rp_build_blocks(struct ct_report *rep, const struct rp_ctx *x, char *err, size_t len) CT_WUR;
/* A figure of the runs' own (a command's, an imported job's), once it is
 * named: each cell's Ratio against ref_label's no-load mean of it
 * (ref_value), and its scores against the score reference's (the query's
 * score_label, else the first config stored with these parameters). */
int rp_figure_refs(struct ct_report *rep, const struct rp_ctx *x, char *err, size_t len) CT_WUR;
/* Frees what a cell holds and zeroes it. */
void rp_cell_release(struct ct_report_cell *c);

/* judge.c: the statistics of the model */

/* A cell's summary, outliers with their evidence, and its mean without
 * them, from c->values (and c->ok for stored runs); -ENOMEM. */
int rp_describe_values(struct ct_report_cell *c, double confidence) CT_WUR;
/* The mean of every metric over the cell's ok runs that have it. */
void rp_metric_means(struct ct_report_cell *c);
/* Every compared cell of every block against its baseline, then Holm
 * across the loads (and figures) of each config. */
int rp_compare_all(struct ct_report *rep, const struct rp_ctx *x, char *err, size_t len) CT_WUR;

/* configs.c: the configs shown and their differences */

/* The facts of each config shown and the sessions and runs shown of it. */
int rp_load_configs(struct ct_report *rep, const struct rp_ctx *x, char *err, size_t len) CT_WUR;
/* The facts in which the configs shown differ; -ENOMEM. */
int rp_config_diffs(struct ct_report *rep) CT_WUR;
/* The heading of the configs' column (ct_report.row_heading), once the
 * configs and their differences are known. */
const char *rp_row_heading(const struct ct_report *rep);

#endif
