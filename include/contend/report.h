/*
 * The report model: runs from the store grouped into contest's blocks - one
 * per load, one row per config - with Ratio against the reference config's
 * no-load mean. Built once from the store; every output format is a printer
 * over it and measures nothing itself.
 */
#ifndef CONTEND_REPORT_H
#define CONTEND_REPORT_H

#include "contend/common.h"
#include "contend/run.h"
#include "contend/store.h"
#include <stdio.h>

#define CT_REPORT_MAX_ROWS 16

struct ct_report_row {
	char label[128];
	int64_t session_id;
	struct ct_run_group g;
	double ratio;	       /* NaN when there is no reference */
	struct ct_run *failed; /* the failed runs of this row (malloc'd) */
	size_t nfailed;
};

struct ct_report_block {
	char load[32];
	const char *work_unit; /* static, from the load's ops; NULL if unknown */
	struct ct_report_row rows[CT_REPORT_MAX_ROWS];
	size_t nrows;
};

struct ct_report {
	char workload[32];
	char ref_label[128];
	double ref_time_s;	/* NaN when no no-load runs were found */
	int64_t ref_session_id; /* the session those runs came from */
	struct ct_report_block *blocks;
	size_t nblocks;
};

/* A config to show: label and the session to take its runs from (0 = the
 * latest session of that label that has runs of the block's load). */
struct ct_report_source {
	const char *label;
	int64_t session_id;
};

/* ref_label: whose no-load mean is the Ratio's denominator (NULL: the first
 * source). workload_params: only runs with these params (NULL: any). */
int ct_report_build(struct ct_report *rep, struct ct_store *st, const char *workload,
		    const char *workload_params, const struct ct_report_source *src, size_t nsrc,
		    const char *const *loads, size_t nloads, const char *ref_label, char *err,
		    size_t len) CT_WUR;
void ct_report_release(struct ct_report *rep);

/* contest's layout: "io:" then "Kernel [runs] Time CPU% Loads LCPU% Ratio". */
void ct_report_print_text(FILE *f, const struct ct_report *rep);

/* The label of the first config stored with no-load oltp runs of these
 * engine parameters ("" when none): the default score reference. */
int ct_report_oltp_reference(struct ct_store *st, const char *params, char *label, size_t len,
			     char *err, size_t elen) CT_WUR;

/* WimMark's layout for the oltp workload: per load the runs of each source
 * as scores (1000 = the reference's no-load mean tps), tps and latency,
 * then each source against the reference (baseline, or NULL for the first
 * config stored with these engine parameters). paired: the sources are
 * the configs of one interleaved session, whose runs pair by block. */
int ct_report_print_oltp(FILE *f, struct ct_store *st, const char *params,
			 const struct ct_report_source *src, size_t nsrc, const char *const *loads,
			 size_t nloads, const char *baseline, bool paired, double confidence,
			 char *err, size_t len) CT_WUR;

#endif
