/*
 * What the files of the OLTP engine share and nothing outside src/oltp/
 * sees: the running engine's state (engine.c runs it), the helpers its
 * parts call back, and each part's entry - the data and log files
 * (files.c), the pages clients pick (zipf.c), the log writer (log.c) and
 * io_uring's reads (uring.c). The parameters are resolved in params.c.
 */
#ifndef CONTEND_OLTP_ENGINE_H
#define CONTEND_OLTP_ENGINE_H

#include "contend/oltp.h"
#include "pool.h"

#ifdef CT_HAVE_URING
#include <liburing.h>
#endif

#include <pthread.h>
#include <stdatomic.h>

#define ENG_DATA_NAME "oltp.data"
#define ENG_LOG_NAME  "oltp.log"

/* zipf.c: which page a client reads next - uniform, or zipf-ranked (Gray
 * et al., "Quickly generating billion-record synthetic databases", as
 * YCSB uses it) and scattered over the file. */
struct eng_zipf {
	uint64_t npages;
	double theta; /* 0: uniform */
	double zetan, alpha, eta, zeta2;
	uint64_t scramble;
};

void eng_zipf_init(struct eng_zipf *z, uint64_t npages, double theta);
uint64_t eng_zipf_pick(const struct eng_zipf *z, uint64_t *rng);
/* A uniform double in [0, 1), and the seed of client idx's generator. */
double eng_unit_rand(uint64_t *st);
uint64_t eng_client_seed(uint64_t seed, unsigned idx);

/* A thread's statistics, merged when the run ends. */
struct tstats {
	bool measuring;
	uint64_t txns, hits, misses, stall_ns, client_writes, groups, grouped;
	struct ct_hist lat;
	struct {
		uint64_t ios, bytes;
		struct ct_hist lat;
	} cls[CT_OLTP_NCLASS];
};

struct eng;

/* A thread of the engine: a client or a DB writer. */
struct thr {
	struct eng *e;
	unsigned idx;
	pthread_t tid;
	bool started;
	uint64_t rng;
	void *buf; /* reads pages (io_uring) or one (psync) */
	struct tstats st;
#ifdef CT_HAVE_URING
	struct io_uring ring;
	bool have_ring;
#endif
};

struct eng {
	const struct ct_oltp_params *p;
	int data_fd, log_fd;
	bool have_pool;
	struct ct_pool pool;
	/* the log: clients stage records in one buffer while the writer
	 * writes the other */
	pthread_mutex_t lmu;
	pthread_cond_t lcommit, lroom; /* durable (or a write ended), room to stage */
	bool writing;		       /* a client is writing the log */
	char *lbuf[2];
	unsigned lcur, nstaged, maxstaged;
	uint64_t next_lsn, durable_lsn, log_off;
	struct eng_zipf zipf;
	_Atomic int stop;
	_Atomic int64_t measure_start, measure_end;
	_Atomic uint64_t commits;
	_Atomic uint64_t *ext;
	pthread_mutex_t emu;
	int erc;
	char error[CT_ERRLEN];
	struct thr *thr;
	unsigned nthr;
};

/* files.c: the path of file name in the engine's directory, and the file
 * opened with O_DIRECT unless buffered (the fd, or -errno with err set). */
void eng_path(const struct ct_oltp_params *p, const char *name, char *buf, size_t len);
int eng_open(const struct ct_oltp_params *p, const char *path, int flags, char *err, size_t len);

/* engine.c: what a part calls back. eng_fail() records the first error,
 * stops every thread and wakes them; eng_rec() gives the thread's
 * statistics when an event at now falls in the measurement (else NULL),
 * eng_rec_io() counts an I/O that started at t0 and ended now into them. */
void eng_fail(struct eng *e, int rc, const char *fmt, ...) CT_PRINTF(3, 4);
bool eng_stopping(struct eng *e);
struct tstats *eng_rec(struct thr *t, int64_t now);
struct tstats *eng_rec_io(struct thr *t, int cls, int64_t t0, uint64_t bytes);
/* One page written at its place in the data file (by_client: by a client,
 * not a DB writer), and a page's contents changed as a write changes them. */
int eng_write_page(struct thr *t, void *buf, uint64_t page, bool by_client);
void eng_modify(void *buf, uint64_t *rng);

/* log.c: the client's commit record made durable by group commit; 0, or
 * -EINTR when the engine stopped first, or the log write's error. */
int eng_commit(struct thr *t);

#ifdef CT_HAVE_URING
/* uring.c: one transaction's reads through the client's ring. */
int eng_uring_txn(struct thr *t, uint64_t *rng);
#endif

#endif
