/*
 * The OLTP engine (docs/usage.md, "The OLTP workload"): a database's I/O
 * without a database. Client threads run transactions in a closed loop (or
 * at a Poisson rate) against 8 KiB pages of a data file opened O_DIRECT,
 * through an engine-owned CLOCK buffer pool that is small next to the data;
 * a transaction that dirtied pages appends a commit record and waits for
 * the group commit (one O_DSYNC write at a time, led by a committing
 * client). DB writer threads write dirty pages back. After a ramp-up until
 * the pool is warm and tps steady, it measures.
 *
 * The same engine is the `oltp` workload (timed, scored in tps) and the
 * `oltp` load (a background competitor counting transactions).
 */
#ifndef CONTEND_OLTP_H
#define CONTEND_OLTP_H

#include "contend/common.h"
#include "contend/hist.h"
#include "contend/option.h"

#include <stdatomic.h>

#define CT_OLTP_PAGE	   8192u
#define CT_OLTP_MAX_SERIES 3600 /* 1-second tps samples kept */
#define CT_OLTP_MAX_LOG_IO (256u << 10)
#define CT_OLTP_RECORD	   512u /* commit record, before alignment */
#define CT_OLTP_MAX_READS  1000 /* --reads at most */
#define CT_OLTP_STEADY_PCT 2.0	/* ramp-up: 5 s windows within this */
#define CT_OLTP_STEADY_WIN 5	/* seconds per ramp-up window */

enum ct_oltp_engine { CT_OLTP_PSYNC = 0, CT_OLTP_IO_URING = 1 };

/* What the user set; 0 (or false) means "derive from the machine". */
struct ct_oltp_opts {
	uint64_t data_size;
	uint64_t pool_size;
	bool pool_set; /* pool_size was given (0 disables the pool) */
	uint64_t log_size;
	unsigned clients;
	unsigned reads, writes;
	bool reads_set, writes_set;
	double zipf; /* 0: uniform */
	unsigned db_writers;
	bool db_writers_set;
	int64_t duration_ns;
	int64_t ramp_max_ns;
	bool ramp_set;
	double rate; /* open loop, transactions/s in total; 0: closed loop */
	uint64_t seed;
	bool seed_set;
	bool buffered;
	uint64_t mem_limit; /* --buffered: the cgroup's memory limit */
	enum ct_oltp_engine engine;
};

/* The options of the oltp workload and load (one table: both take them). */
extern const struct ct_option ct_oltp_options[];

/* The resolved parameters of one engine instance. */
struct ct_oltp_params {
	char dir[4096];
	uint64_t data_size, pool_size, log_size, mem_limit;
	uint64_t npages, nframes;
	unsigned clients, reads, writes, db_writers;
	double zipf, rate;
	int64_t duration_ns, ramp_max_ns; /* duration 0: run until killed */
	uint64_t seed;
	bool buffered;
	enum ct_oltp_engine engine;
	unsigned align;	 /* O_DIRECT alignment of the data and log files */
	unsigned record; /* commit record size (aligned) */
};

enum { CT_OLTP_READ, CT_OLTP_DBWRITE, CT_OLTP_LOGWRITE, CT_OLTP_NCLASS };

struct ct_oltp_class {
	uint64_t ios, bytes;
	double iops, mbps;
	uint64_t p50, p90, p99, p999, max; /* ns */
};

/* Plain data, so it can live in shared memory between a forked engine and
 * contend. */
struct ct_oltp_result {
	bool done;
	char error[CT_ERRLEN];
	uint64_t txns;
	int64_t measured_ns, ramp_ns;
	bool ramp_steady;
	double tps;
	uint64_t lat_min, lat_p50, lat_p90, lat_p99, lat_p999, lat_max; /* ns */
	double lat_mean;
	struct ct_oltp_class cls[CT_OLTP_NCLASS];
	double hit_ratio;	/* NaN without a pool */
	double group_mean;	/* commit records per log write */
	uint64_t stall_ns;	/* clients waiting for the DB writers */
	uint64_t client_writes; /* dirty victims written by clients themselves */
	int64_t user_us, sys_us;
	unsigned nseries;
	double series[CT_OLTP_MAX_SERIES];
};

/* Fills p from the options and the machine (cpus, free space of dir, quick
 * profile), checking them: -EINVAL for a bad combination (pool larger than
 * the data, writes above reads...), -ENOSPC when dir cannot hold the files. */
int ct_oltp_resolve(const struct ct_oltp_opts *o, const char *dir, unsigned ncpus, bool quick,
		    bool as_load, struct ct_oltp_params *p, char *err, size_t len) CT_WUR;

/* "data=512MiB pool=16MiB clients=8 ..." : every parameter that changes
 * the result, so equal strings mean comparable engines (the fingerprint). */
void ct_oltp_describe(const struct ct_oltp_params *p, char *buf, size_t len);

/* Writes the data file with incompressible pages and pre-writes the log,
 * checking O_DIRECT is accepted (-EINVAL, suggesting --buffered). */
int ct_oltp_create(struct ct_oltp_params *p, char *err, size_t len) CT_WUR;

/* Runs the engine: ramp-up, then measure for p->duration_ns, filling res.
 * With duration 0 it runs until the process is killed, adding each commit
 * to *commits (the load). Threads are joined before it returns. */
int ct_oltp_run(const struct ct_oltp_params *p, struct ct_oltp_result *res,
		_Atomic uint64_t *commits, char *err, size_t len) CT_WUR;

/* Drops the data file from the page cache (--buffered: before each run, so
 * every run starts cold and its cache is charged to its own cgroup). */
void ct_oltp_uncache(const struct ct_oltp_params *p);

/* The first n pages client would read (for tests: a seed fixes them). */
void ct_oltp_page_seq(const struct ct_oltp_params *p, unsigned client, uint64_t *out, size_t n);

/* Removes the files ct_oltp_create made. */
void ct_oltp_remove(const struct ct_oltp_params *p);

/* Score of tps against a reference mean: 1000 x tps / ref; NaN when ref <= 0. */
double ct_oltp_score(double tps, double ref_tps);

#endif
