/*
 * The pgbench workload's reading of a run (src/workloads/pgbench-log.c):
 * pgbench's printed summary, and from its per-transaction log the
 * per-second completions, the ramp-up, tps over the steady part and the
 * latency percentiles of the same transactions; and the server's log kept.
 */
#ifndef CONTEND_WORKLOADS_PGBENCH_H
#define CONTEND_WORKLOADS_PGBENCH_H

#include "contend/hist.h"

#include <stdbool.h>
#include <stddef.h>

struct pgb_figures {
	/* pgbench's printed summary (NAN when it did not say) */
	double tps_printed, txns_printed, failed;
	/* its log: completions per second from the first transaction's
	 * start (malloc'd, the caller's), the ramp-up and the steady part */
	double *series;
	unsigned nseries, ramp_s;
	bool steady;   /* the ramp-up ended in two windows alike, else capped */
	size_t ntx, n; /* transactions logged; of them, in the steady part */
	double tps, mean_us, p50_us, p95_us, p99_us, max_us;
};

/* The summary pgbench printed to file. */
void pgb_summary(const char *file, struct pgb_figures *f);
/* The logs "txlog.*" in dir of a run of duration_s seconds: f's series and
 * steady figures, hist the steady part's latencies (ns). NULL, or what
 * went wrong (no transaction logged: f->ntx 0). */
const char *pgb_figures(const char *dir, unsigned duration_s, struct ct_hist *hist,
			struct pgb_figures *f);
/* pgbench's first error line in file (what the server said) in buf. */
void pgb_first_error(const char *file, char *buf, size_t len);
/* The server's log beside the session's report (-o FILE): FILE.server.log,
 * written whole (a temporary renamed) or not at all. */
void pgb_keep_log(const char *log, const char *report);

#endif
