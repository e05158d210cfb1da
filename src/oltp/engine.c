/*
 * The OLTP engine; see include/contend/oltp.h and docs/usage.md, "The OLTP
 * workload".
 *
 * Threads: clients (the transactions; one at a time is the log writer,
 * see commit()), DB writers (dirty pages back to the data file) and the
 * caller's thread,
 * which paces the ramp-up and the measurement. Statistics are per thread
 * and merged at the end, so nothing but the pool, the log queue and one
 * commit counter is shared. A thread starts counting at the first event
 * after the measurement began (ramp-up figures are dropped without
 * stopping anything) and ignores events after it ended.
 */
#include "contend/oltp.h"
#include "contend/util.h"
#include "pool.h"

#ifdef CT_HAVE_URING
#include <liburing.h>
#endif

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DATA_NAME  "oltp.data"
#define LOG_NAME   "oltp.log"
#define FILL_CHUNK (1u << 20)
#define MIN_DATA   (1ull << 20)

/* ---- parameters ---- */

static uint64_t round_down(uint64_t v, uint64_t to)
{
	return v - v % to;
}

/* Whether the filesystem of dir takes O_DIRECT, asked before its free
 * space so the real reason is what the user reads. */
static int probe_direct(const char *dir, char *err, size_t len)
{
	char path[4096 + 32];
	int fd;

	snprintf(path, sizeof(path), "%s/.oltp-direct-probe", dir);
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_DIRECT, 0600);
	if (fd < 0 && errno == EINVAL)
		return ct_err(err, len, -EINVAL,
			      "oltp: the filesystem of '%s' refuses O_DIRECT; use --buffered "
			      "(or --dir on a disk)",
			      dir);
	if (fd < 0)
		return ct_err(err, len, -errno, "oltp: cannot create files in '%s': %s", dir,
			      strerror(errno));
	close(fd);
	unlink(path);
	return 0;
}

int ct_oltp_resolve(const struct ct_oltp_opts *o, const char *dir, unsigned ncpus, bool quick,
		    bool as_load, struct ct_oltp_params *p, char *err, size_t len)
{
	uint64_t avail, need;
	char a[32], b[32];
	int rc;

	memset(p, 0, sizeof(*p));
	if (snprintf(p->dir, sizeof(p->dir), "%s", dir) >= (int)sizeof(p->dir))
		return ct_err(err, len, -ENAMETOOLONG, "oltp: directory '%s' is too long", dir);
	if (!ncpus)
		ncpus = 1;
	rc = ct_fs_free(dir, &avail);
	if (rc)
		return ct_err(err, len, rc, "oltp: cannot check free space in '%s': %s", dir,
			      strerror(-rc));
	if (!o->buffered) {
		rc = probe_direct(dir, err, len);
		if (rc)
			return rc;
	}

	p->log_size = o->log_size ? o->log_size : (quick || as_load ? 16ull : 64ull) << 20;
	p->log_size = round_down(p->log_size, CT_OLTP_MAX_LOG_IO);
	if (p->log_size < CT_OLTP_MAX_LOG_IO)
		return ct_err(err, len, -EINVAL, "oltp: --log-size must be at least 256KiB");
	if (o->data_size) {
		p->data_size = round_down(o->data_size, CT_OLTP_PAGE);
		if (p->data_size < MIN_DATA)
			return ct_err(err, len, -EINVAL, "oltp: --data-size must be at least 1MiB");
		need = p->data_size + p->log_size;
		if (need > avail)
			return ct_err(err, len, -ENOSPC,
				      "oltp: not enough free space in '%s' for the data files: "
				      "need %s, have %s",
				      dir, ct_fmt_size(need, a, sizeof(a)),
				      ct_fmt_size(avail, b, sizeof(b)));
	} else {
		/* a few GiB, scaled down so the files never take more than a
		 * quarter of the free space */
		p->data_size = (quick ? 512ull : 4096ull) << 20;
		if (as_load)
			p->data_size /= 4;
		if (p->data_size + p->log_size > avail / 4)
			p->data_size =
				round_down(avail / 4 > p->log_size ? avail / 4 - p->log_size : 0,
					   CT_OLTP_PAGE);
		if (p->data_size < 16 * MIN_DATA)
			return ct_err(err, len, -ENOSPC,
				      "oltp: not enough free space in '%s' for the data files "
				      "(%s free)",
				      dir, ct_fmt_size(avail, a, sizeof(a)));
	}
	p->npages = p->data_size / CT_OLTP_PAGE;

	p->buffered = o->buffered;
	if (p->buffered) {
		if (o->pool_set && o->pool_size)
			return ct_err(err, len, -EINVAL,
				      "oltp: --buffered has no own pool (the page cache is the "
				      "pool); give --mem-limit instead of --pool-size");
		p->pool_size = 0;
		p->mem_limit = o->mem_limit ? o->mem_limit : p->data_size / 32 + (16ull << 20);
	} else {
		if (o->mem_limit)
			return ct_err(err, len, -EINVAL, "oltp: --mem-limit needs --buffered");
		p->pool_size = o->pool_set ? o->pool_size : p->data_size / 32;
		p->pool_size = round_down(p->pool_size, CT_OLTP_PAGE);
		if (p->pool_size > p->data_size)
			return ct_err(err, len, -EINVAL,
				      "oltp: the pool (%s) is larger than the data (%s)",
				      ct_fmt_size(p->pool_size, a, sizeof(a)),
				      ct_fmt_size(p->data_size, b, sizeof(b)));
	}
	p->nframes = p->pool_size / CT_OLTP_PAGE;

	p->clients = o->clients ? o->clients : (as_load ? ncpus : 4 * ncpus);
	p->reads = o->reads_set ? o->reads : 10;
	p->writes = o->writes_set ? o->writes : 2;
	if (!p->reads)
		return ct_err(err, len, -EINVAL, "oltp: --reads must be at least 1");
	if (p->writes > p->reads)
		return ct_err(err, len, -EINVAL,
			      "oltp: --writes (%u) cannot exceed --reads (%u): a transaction "
			      "dirties pages it read",
			      p->writes, p->reads);
	p->db_writers = o->db_writers_set ? o->db_writers : 2;
	if (p->nframes && p->nframes < 2ull * (p->clients + p->db_writers))
		return ct_err(err, len, -EINVAL,
			      "oltp: a pool of %llu pages is too small for %u clients (at least "
			      "%u pages)",
			      (unsigned long long)p->nframes, p->clients,
			      2 * (p->clients + p->db_writers));
	if (o->zipf < 0 || o->zipf >= 1)
		return ct_err(err, len, -EINVAL,
			      "oltp: --zipf must be in [0, 1) (0 = uniform, 0.99 = YCSB's skew)");
	p->zipf = o->zipf;
	p->rate = o->rate;
	if (p->rate < 0 || !isfinite(p->rate))
		return ct_err(err, len, -EINVAL, "oltp: bad --rate");
	p->duration_ns =
		as_load ? 0 : (o->duration_ns ? o->duration_ns : (quick ? 30 : 60) * 1000000000LL);
	p->ramp_max_ns = o->ramp_set ? o->ramp_max_ns : (quick ? 20 : 60) * 1000000000LL;
	p->seed = o->seed_set ? o->seed : 42;
	p->engine = o->engine;
#ifndef CT_HAVE_URING
	if (p->engine == CT_OLTP_IO_URING)
		return ct_err(err, len, -ENOTSUP,
			      "oltp: --engine io_uring: this contend was built without liburing");
#endif
	/* io_uring reads a transaction's pages at once, so a client pins all
	 * of them together */
	if (p->engine == CT_OLTP_IO_URING && p->nframes &&
	    p->nframes < 2ull * (p->clients * p->reads + p->db_writers))
		return ct_err(err, len, -EINVAL,
			      "oltp: a pool of %llu pages is too small for %u clients reading %u "
			      "pages at once (at least %u pages)",
			      (unsigned long long)p->nframes, p->clients, p->reads,
			      2 * (p->clients * p->reads + p->db_writers));
	p->align = 4096;
	p->record = CT_OLTP_RECORD;
	return 0;
}

void ct_oltp_describe(const struct ct_oltp_params *p, char *buf, size_t len)
{
	char d[32], pl[32], lg[32], ml[32];

	ct_fmt_size(p->data_size, d, sizeof(d));
	ct_fmt_size(p->pool_size, pl, sizeof(pl));
	ct_fmt_size(p->log_size, lg, sizeof(lg));
	ct_fmt_size(p->mem_limit, ml, sizeof(ml));
	snprintf(buf, len,
		 "data=%s %s=%s log=%s clients=%u reads=%u writes=%u zipf=%g db_writers=%u "
		 "duration=%gs rate=%g seed=%llu engine=%s",
		 d, p->buffered ? "buffered mem_limit" : "pool", p->buffered ? ml : pl, lg,
		 p->clients, p->reads, p->writes, p->zipf, p->db_writers,
		 (double)p->duration_ns / 1e9, p->rate, (unsigned long long)p->seed,
		 p->engine == CT_OLTP_IO_URING ? "io_uring" : "psync");
}

double ct_oltp_score(double tps, double ref_tps)
{
	if (!(ref_tps > 0) || !isfinite(tps))
		return NAN;
	return 1000.0 * tps / ref_tps;
}

/* ---- files ---- */

static void path_of(const struct ct_oltp_params *p, const char *name, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", p->dir, name);
}

static int open_direct(const struct ct_oltp_params *p, const char *path, int flags, char *err,
		       size_t len)
{
	int fd = open(path, flags | O_CLOEXEC | (p->buffered ? 0 : O_DIRECT), 0600);

	if (fd < 0 && errno == EINVAL && !p->buffered)
		return ct_err(err, len, -EINVAL,
			      "oltp: the filesystem of '%s' refuses O_DIRECT; use --buffered "
			      "(or --dir on a disk)",
			      p->dir);
	if (fd < 0)
		return ct_err(err, len, -errno, "oltp: cannot open '%s': %s", path,
			      strerror(errno));
	return fd;
}

/* The offset and size alignment O_DIRECT needs here (commit records are
 * padded to it); buffers are always 4 KiB aligned. */
static unsigned dio_align(int fd)
{
#ifdef STATX_DIOALIGN
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) && stx.stx_dio_offset_align)
		return stx.stx_dio_offset_align > 512 ? stx.stx_dio_offset_align : 512;
#else
	(void)fd;
#endif
	return 4096;
}

static int fill_file(int fd, const char *path, uint64_t size, uint64_t seed, bool pages, char *err,
		     size_t len)
{
	void *buf;
	uint64_t st = seed | 1, off;
	int rc = 0;

	if (posix_memalign(&buf, 4096, FILL_CHUNK))
		return ct_err(err, len, -ENOMEM, "out of memory");
	for (off = 0; off < size; off += FILL_CHUNK) {
		size_t n = size - off < FILL_CHUNK ? (size_t)(size - off) : FILL_CHUNK;
		ssize_t w;

		ct_fill_random(buf, n, &st);
		if (pages)
			for (size_t pg = 0; pg < n; pg += CT_OLTP_PAGE) {
				uint64_t no = (off + pg) / CT_OLTP_PAGE;

				memcpy((char *)buf + pg, &no, sizeof(no));
			}
		w = pwrite(fd, buf, n, (off_t)off);
		if (w != (ssize_t)n) {
			rc = w < 0 ? -errno : -EIO;
			ct_err(err, len, rc, "oltp: cannot write '%s': %s", path, strerror(-rc));
			break;
		}
	}
	if (!rc && fsync(fd)) {
		rc = -errno;
		ct_err(err, len, rc, "oltp: cannot sync '%s': %s", path, strerror(-rc));
	}
	/* buffered: what was just written must not stay cached (and charged to
	 * contend's cgroup), or the engine's memory limit would never bite */
	if (!rc)
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	free(buf);
	return rc;
}

int ct_oltp_create(struct ct_oltp_params *p, char *err, size_t len)
{
	char path[4096 + 16];
	int fd, rc;

	path_of(p, DATA_NAME, path, sizeof(path));
	fd = open_direct(p, path, O_WRONLY | O_CREAT | O_TRUNC, err, len);
	if (fd < 0)
		return fd;
	p->align = dio_align(fd);
	rc = fill_file(fd, path, p->data_size, p->seed, true, err, len);
	close(fd);
	if (rc)
		goto fail;
	path_of(p, LOG_NAME, path, sizeof(path));
	fd = open_direct(p, path, O_WRONLY | O_CREAT | O_TRUNC, err, len);
	if (fd < 0) {
		rc = fd;
		goto fail;
	}
	rc = fill_file(fd, path, p->log_size, p->seed ^ 0x5bd1e995, false, err, len);
	close(fd);
	if (rc)
		goto fail;
	p->record = CT_OLTP_RECORD < p->align ? p->align : CT_OLTP_RECORD;
	return 0;
fail:
	ct_oltp_remove(p);
	return rc;
}

void ct_oltp_uncache(const struct ct_oltp_params *p)
{
	char path[4096 + 16];
	int fd;

	path_of(p, DATA_NAME, path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	(void)fdatasync(fd);
	(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
}

void ct_oltp_remove(const struct ct_oltp_params *p)
{
	char path[4096 + 16];

	path_of(p, DATA_NAME, path, sizeof(path));
	unlink(path);
	path_of(p, LOG_NAME, path, sizeof(path));
	unlink(path);
}

/* ---- the running engine ---- */

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
	/* zipf (Gray et al., "Quickly generating billion-record synthetic
	 * databases", as YCSB uses it) */
	double zetan, alpha, eta, zeta2;
	uint64_t scramble;
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

static void wake_all(struct eng *e)
{
	if (e->have_pool)
		ct_pool_stop(&e->pool);
	pthread_mutex_lock(&e->lmu);
	pthread_cond_broadcast(&e->lcommit);
	pthread_cond_broadcast(&e->lroom);
	pthread_mutex_unlock(&e->lmu);
}

static void fail(struct eng *e, int rc, const char *fmt, ...) CT_PRINTF(3, 4);
static void fail(struct eng *e, int rc, const char *fmt, ...)
{
	va_list ap;

	pthread_mutex_lock(&e->emu);
	if (!e->erc) {
		e->erc = rc;
		va_start(ap, fmt);
		vsnprintf(e->error, sizeof(e->error), fmt, ap);
		va_end(ap);
	}
	pthread_mutex_unlock(&e->emu);
	atomic_store(&e->stop, 1);
	wake_all(e);
}

static bool stopping(struct eng *e)
{
	return atomic_load_explicit(&e->stop, memory_order_relaxed);
}

/* The thread's statistics if an event at now falls in the measurement. */
static struct tstats *rec(struct thr *t, int64_t now)
{
	int64_t start = atomic_load_explicit(&t->e->measure_start, memory_order_acquire);
	int64_t end;

	if (!start || now < start)
		return NULL;
	end = atomic_load_explicit(&t->e->measure_end, memory_order_relaxed);
	if (now > end)
		return NULL;
	if (!t->st.measuring) {
		struct tstats *s = &t->st;

		s->txns = s->hits = s->misses = s->stall_ns = 0;
		s->client_writes = s->groups = s->grouped = 0;
		ct_hist_reset(&s->lat);
		for (int c = 0; c < CT_OLTP_NCLASS; c++) {
			s->cls[c].ios = s->cls[c].bytes = 0;
			ct_hist_reset(&s->cls[c].lat);
		}
		s->measuring = true;
	}
	return &t->st;
}

/* Counts an I/O that started at t0 and ended now; returns the statistics
 * it went into (NULL outside the measurement) for the caller's own counts. */
static struct tstats *rec_io(struct thr *t, int cls, int64_t t0, uint64_t bytes)
{
	int64_t now = ct_now_ns();
	struct tstats *s = rec(t, now);

	if (s) {
		s->cls[cls].ios++;
		s->cls[cls].bytes += bytes;
		ct_hist_add(&s->cls[cls].lat, (uint64_t)(now - t0));
	}
	return s;
}

static double unit_rand(uint64_t *st)
{
	return (double)(ct_rand64(st) >> 11) * 0x1.0p-53;
}

static uint64_t gcd64(uint64_t a, uint64_t b)
{
	while (b) {
		uint64_t t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static void zipf_init(struct eng *e)
{
	const struct ct_oltp_params *p = e->p;
	double n = (double)p->npages, th = p->zipf;

	e->scramble = 0x9e3779b97f4a7c15ULL % p->npages;
	if (!e->scramble)
		e->scramble = 1;
	while (gcd64(e->scramble, p->npages) != 1)
		e->scramble++;
	if (th <= 0)
		return;
	e->zetan = 0;
	for (uint64_t i = 1; i <= p->npages; i++)
		e->zetan += 1.0 / pow((double)i, th);
	e->zeta2 = 1.0 + pow(0.5, th);
	e->alpha = 1.0 / (1.0 - th);
	e->eta = (1.0 - pow(2.0 / n, 1.0 - th)) / (1.0 - e->zeta2 / e->zetan);
}

/* The next page a client reads: uniform, or zipf-ranked and scattered over
 * the file by a multiplicative permutation so hot pages are not adjacent. */
static uint64_t pick(struct eng *e, uint64_t *rng)
{
	const struct ct_oltp_params *p = e->p;
	uint64_t rank;
	double u, uz;

	if (p->zipf <= 0)
		return ct_rand64(rng) % p->npages;
	u = unit_rand(rng);
	uz = u * e->zetan;
	if (uz < 1.0)
		rank = 0;
	else if (uz < e->zeta2)
		rank = 1;
	else
		rank = (uint64_t)((double)p->npages * pow(e->eta * u - e->eta + 1.0, e->alpha));
	if (rank >= p->npages)
		rank = p->npages - 1;
	return (uint64_t)(((unsigned __int128)rank * e->scramble) % p->npages);
}

static uint64_t client_seed(uint64_t seed, unsigned idx)
{
	uint64_t s = seed ^ (0x9e3779b97f4a7c15ULL * (idx + 1));

	(void)ct_rand64(&s);
	return s ? s : 1;
}

void ct_oltp_page_seq(const struct ct_oltp_params *p, unsigned client, uint64_t *out, size_t n)
{
	struct eng *e = calloc(1, sizeof(*e));
	uint64_t rng = client_seed(p->seed, client);

	if (!e)
		return;
	e->p = p;
	zipf_init(e);
	for (size_t i = 0; i < n; i++)
		out[i] = pick(e, &rng);
	free(e);
}

/* One 8 KiB page read or written at its offset, counted in its class; a
 * write by a client (not a DB writer) is also counted as such. */
static int page_io(struct thr *t, void *buf, uint64_t page, bool write, bool by_client)
{
	struct eng *e = t->e;
	off_t off = (off_t)(page * CT_OLTP_PAGE);
	int64_t t0 = ct_now_ns();
	ssize_t n = write ? pwrite(e->data_fd, buf, CT_OLTP_PAGE, off)
			  : pread(e->data_fd, buf, CT_OLTP_PAGE, off);
	struct tstats *s;

	if (n != CT_OLTP_PAGE) {
		int rc = n < 0 ? -errno : -EIO;

		fail(e, rc, "oltp: page %s at %llu failed: %s", write ? "write" : "read",
		     (unsigned long long)off, strerror(-rc));
		return rc;
	}
	s = rec_io(t, write ? CT_OLTP_DBWRITE : CT_OLTP_READ, t0, CT_OLTP_PAGE);
	if (s && by_client)
		s->client_writes++;
	return 0;
}

static int read_page(struct thr *t, void *buf, uint64_t page)
{
	return page_io(t, buf, page, false, false);
}

static int write_page(struct thr *t, void *buf, uint64_t page, bool by_client)
{
	return page_io(t, buf, page, true, by_client);
}

static void modify(void *buf, uint64_t *rng)
{
	uint64_t v = ct_rand64(rng);

	memcpy((char *)buf + 8, &v, sizeof(v));
}

static int touch(struct thr *t, uint64_t page, bool dirty)
{
	struct eng *e = t->e;
	struct ct_frame *f;
	struct tstats *s;
	int64_t victim;
	int rc;

	if (!e->have_pool) {
		rc = read_page(t, t->buf, page);
		if (rc || !dirty)
			return rc;
		modify(t->buf, &t->rng);
		return write_page(t, t->buf, page, true);
	}
	for (;;) {
		switch (ct_pool_get(&e->pool, (int64_t)page, &f, &victim)) {
		case CT_POOL_STOPPED:
			return -EINTR;
		case CT_POOL_HIT:
			s = rec(t, ct_now_ns());
			if (s)
				s->hits++;
			break;
		case CT_POOL_MISS:
			s = rec(t, ct_now_ns());
			if (s)
				s->misses++;
			rc = read_page(t, f->buf, page);
			if (rc) {
				ct_pool_abort(&e->pool, f);
				return rc;
			}
			ct_pool_loaded(&e->pool, f);
			break;
		default: /* CT_POOL_WRITE_VICTIM */
			rc = write_page(t, f->buf, (uint64_t)victim, true);
			ct_pool_written(&e->pool, f);
			if (rc)
				return rc;
			continue;
		}
		break;
	}
	if (dirty)
		modify(f->buf, &t->rng);
	ct_pool_unpin(&e->pool, f, dirty);
	return 0;
}

#ifdef CT_HAVE_URING
/* Reads n pages at once through the client's ring; each read's latency
 * runs from the submission to its completion. */
static int uring_read(struct thr *t, void **bufs, const uint64_t *pages, unsigned n)
{
	struct eng *e = t->e;
	int64_t t0;
	int rc;

	for (unsigned i = 0; i < n; i++) {
		struct io_uring_sqe *sqe = io_uring_get_sqe(&t->ring);

		io_uring_prep_read(sqe, e->data_fd, bufs[i], CT_OLTP_PAGE,
				   (off_t)(pages[i] * CT_OLTP_PAGE));
		sqe->user_data = i;
	}
	t0 = ct_now_ns();
	rc = io_uring_submit(&t->ring);
	if (rc != (int)n) {
		rc = rc < 0 ? rc : -EIO;
		fail(e, rc, "oltp: io_uring submit failed: %s", strerror(-rc));
		return rc;
	}
	for (unsigned done = 0; done < n; done++) {
		struct io_uring_cqe *cqe;
		int res;

		rc = io_uring_wait_cqe(&t->ring, &cqe);
		if (rc) {
			fail(e, rc, "oltp: io_uring wait failed: %s", strerror(-rc));
			return rc;
		}
		res = cqe->res;
		uint64_t i = cqe->user_data;

		io_uring_cqe_seen(&t->ring, cqe);
		if (res != CT_OLTP_PAGE) {
			rc = res < 0 ? res : -EIO;
			fail(e, rc, "oltp: page read at %llu failed: %s",
			     (unsigned long long)(pages[i] * CT_OLTP_PAGE), strerror(-rc));
			/* reap the rest before the buffers go */
			while (++done < n && !io_uring_wait_cqe(&t->ring, &cqe))
				io_uring_cqe_seen(&t->ring, cqe);
			return rc;
		}
		rec_io(t, CT_OLTP_READ, t0, CT_OLTP_PAGE);
	}
	return 0;
}

/*
 * A transaction's reads with io_uring: pin every page (hits at once,
 * misses claimed), read the misses together, then dirty and unpin. A
 * client holds its claimed misses while it pins the rest, so pages are
 * taken in ascending order: a client waiting for a page another is loading
 * waits only for higher pages than it holds, and no cycle can form.
 */
static int uring_txn(struct thr *t, uint64_t *rng)
{
	struct eng *e = t->e;
	const struct ct_oltp_params *p = e->p;
	uint64_t pages[CT_OLTP_MAX_READS], miss_pages[CT_OLTP_MAX_READS];
	struct ct_frame *f[CT_OLTP_MAX_READS], *miss[CT_OLTP_MAX_READS];
	void *bufs[CT_OLTP_MAX_READS];
	bool dirty[CT_OLTP_MAX_READS];
	unsigned nmiss = 0, m = 0;
	struct tstats *s;
	int rc = 0;

	if (!e->have_pool) {
		for (unsigned i = 0; i < p->reads; i++) {
			pages[i] = pick(e, rng);
			bufs[i] = (char *)t->buf + (size_t)i * CT_OLTP_PAGE;
		}
		rc = uring_read(t, bufs, pages, p->reads);
		for (unsigned i = 0; !rc && i < p->writes; i++) {
			modify(bufs[i], &t->rng);
			rc = write_page(t, bufs[i], pages[i], true);
		}
		return rc;
	}
	/* the pages in ascending order, each once, dirty if any pick of it is */
	for (unsigned i = 0; i < p->reads; i++) {
		uint64_t pg = pick(e, rng);
		unsigned k = 0;

		while (k < m && pages[k] < pg)
			k++;
		if (k < m && pages[k] == pg) {
			dirty[k] |= i < p->writes;
			continue;
		}
		memmove(pages + k + 1, pages + k, (m - k) * sizeof(*pages));
		memmove(dirty + k + 1, dirty + k, (m - k) * sizeof(*dirty));
		pages[k] = pg;
		dirty[k] = i < p->writes;
		m++;
	}
	for (unsigned i = 0; i < m; i++) {
		int64_t victim;

		for (;;) {
			int r = ct_pool_get(&e->pool, (int64_t)pages[i], &f[i], &victim);

			if (r == CT_POOL_STOPPED) {
				rc = -EINTR;
				break;
			}
			s = rec(t, ct_now_ns());
			if (r == CT_POOL_HIT) {
				if (s)
					s->hits++;
				break;
			}
			if (r == CT_POOL_MISS) {
				if (s)
					s->misses++;
				miss[nmiss] = f[i];
				miss_pages[nmiss] = pages[i];
				bufs[nmiss++] = f[i]->buf;
				break;
			}
			rc = write_page(t, f[i]->buf, (uint64_t)victim, true);
			ct_pool_written(&e->pool, f[i]);
			if (rc)
				break;
		}
		if (rc) {
			/* our own misses are still LOADING: only we can change them */
			for (unsigned j = 0; j < i; j++)
				if (f[j]->state != CT_FRAME_LOADING)
					ct_pool_unpin(&e->pool, f[j], false);
			for (unsigned j = 0; j < nmiss; j++)
				ct_pool_abort(&e->pool, miss[j]);
			return rc;
		}
	}
	if (nmiss)
		rc = uring_read(t, bufs, miss_pages, nmiss);
	for (unsigned j = 0; j < nmiss; j++) {
		if (rc) {
			ct_pool_abort(&e->pool, miss[j]);
			for (unsigned i = 0; i < m; i++)
				if (f[i] == miss[j])
					f[i] = NULL;
		} else {
			ct_pool_loaded(&e->pool, miss[j]);
		}
	}
	for (unsigned i = 0; i < m; i++) {
		if (!f[i])
			continue;
		if (dirty[i] && !rc)
			modify(f[i]->buf, &t->rng);
		ct_pool_unpin(&e->pool, f[i], dirty[i] && !rc);
	}
	return rc;
}
#endif

/* Writes the staged buffer of n records (the caller is the log writer of
 * the moment) at the log's next offset, wrapping round. */
static int log_write(struct thr *t, const char *buf, unsigned n)
{
	struct eng *e = t->e;
	size_t bytes = (size_t)n * e->p->record;
	struct tstats *s;
	int64_t t0;
	ssize_t w;

	if (e->log_off + bytes > e->p->log_size)
		e->log_off = 0; /* circular: the file was pre-written, never grows */
	t0 = ct_now_ns();
	w = pwrite(e->log_fd, buf, bytes, (off_t)e->log_off);
	if (w != (ssize_t)bytes) {
		int rc = w < 0 ? -errno : -EIO;

		fail(e, rc, "oltp: log write at %llu failed: %s", (unsigned long long)e->log_off,
		     strerror(-rc));
		return rc;
	}
	e->log_off += bytes;
	s = rec_io(t, CT_OLTP_LOGWRITE, t0, bytes);
	if (s) {
		s->groups++;
		s->grouped += n;
	}
	return 0;
}

/*
 * Group commit, leader and followers: a client stages its commit record;
 * if no write is in flight it becomes the log writer of the moment and
 * writes every staged record in one O_DSYNC write, else it waits for the
 * write in flight, after which one of the waiters whose record is still
 * staged leads the next. So there is always one log writer, records that
 * arrive during a write are grouped into the next, and a lone committer
 * writes its own record with no thread hand-off at all (a dedicated writer
 * thread cost two per commit: 0.88 of fio's dsync IOPS, 1.23 x its CPU).
 */
static int commit(struct thr *t)
{
	struct eng *e = t->e;
	uint64_t lsn;
	int rc = 0;

	pthread_mutex_lock(&e->lmu);
	while (e->nstaged == e->maxstaged && !stopping(e))
		pthread_cond_wait(&e->lroom, &e->lmu);
	if (stopping(e)) {
		pthread_mutex_unlock(&e->lmu);
		return -EINTR;
	}
	lsn = ++e->next_lsn;
	memcpy(e->lbuf[e->lcur] + (size_t)e->nstaged * e->p->record, &lsn, sizeof(lsn));
	e->nstaged++;
	while (e->durable_lsn < lsn && !stopping(e)) {
		char *buf;
		unsigned n;
		uint64_t last;

		if (e->writing) {
			pthread_cond_wait(&e->lcommit, &e->lmu);
			continue;
		}
		/* lead: take the staged buffer, ours included */
		e->writing = true;
		buf = e->lbuf[e->lcur];
		n = e->nstaged;
		last = e->next_lsn;
		e->lcur ^= 1;
		e->nstaged = 0;
		pthread_mutex_unlock(&e->lmu);
		if (n == e->maxstaged)
			pthread_cond_broadcast(&e->lroom);
		rc = log_write(t, buf, n);
		pthread_mutex_lock(&e->lmu);
		e->writing = false;
		if (!rc)
			e->durable_lsn = last;
		if (e->nstaged || !rc) {
			/* the followers: done, or the next to lead */
			pthread_mutex_unlock(&e->lmu);
			pthread_cond_broadcast(&e->lcommit);
			pthread_mutex_lock(&e->lmu);
		}
		if (rc)
			break;
	}
	if (!rc && e->durable_lsn < lsn)
		rc = -EINTR;
	pthread_mutex_unlock(&e->lmu);
	return rc;
}

static void sleep_until(int64_t t)
{
	struct timespec ts = { .tv_sec = t / 1000000000, .tv_nsec = t % 1000000000 };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

static void *client_main(void *arg)
{
	struct thr *t = arg;
	struct eng *e = t->e;
	const struct ct_oltp_params *p = e->p;
	double per_client = p->rate / p->clients;
	int64_t next = ct_now_ns();
	/* the page sequence comes from its own generator, so a given seed
	 * issues the same pages whatever the timing did to the rest */
	uint64_t pages_rng = client_seed(p->seed, t->idx);

	while (!stopping(e)) {
		int64_t t0, t1;
		struct tstats *s;
		int rc = 0;

		if (per_client > 0) {
			/* open loop: Poisson arrivals; latency counts from the
			 * scheduled start, so a stall is not hidden by the
			 * arrivals it delayed (no coordinated omission) */
			next += (int64_t)(-log(1.0 - unit_rand(&t->rng)) / per_client * 1e9);
			if (next > ct_now_ns())
				sleep_until(next);
			t0 = next;
		} else {
			t0 = ct_now_ns();
		}
		if (p->writes && e->have_pool && p->db_writers) {
			int64_t w0 = ct_now_ns(), w1;

			ct_pool_wait_clean(&e->pool);
			w1 = ct_now_ns();
			s = rec(t, w1);
			if (s && w1 - w0 > 1000)
				s->stall_ns += (uint64_t)(w1 - w0);
		}
#ifdef CT_HAVE_URING
		if (t->have_ring)
			rc = uring_txn(t, &pages_rng);
		else
#endif
			for (unsigned i = 0; i < p->reads && !rc; i++)
				rc = touch(t, pick(e, &pages_rng), i < p->writes);
		if (!rc && p->writes)
			rc = commit(t);
		if (rc)
			break;
		t1 = ct_now_ns();
		atomic_fetch_add_explicit(&e->commits, 1, memory_order_relaxed);
		if (e->ext)
			atomic_fetch_add_explicit(e->ext, 1, memory_order_relaxed);
		s = rec(t, t1);
		if (s) {
			s->txns++;
			ct_hist_add(&s->lat, (uint64_t)(t1 - t0));
		}
	}
	return NULL;
}

static void *dbwriter_main(void *arg)
{
	struct thr *t = arg;
	struct eng *e = t->e;

	if (e->have_pool) {
		struct ct_frame *f;

		while ((f = ct_pool_take_dirty(&e->pool))) {
			int rc = write_page(t, f->buf, (uint64_t)f->page, false);

			ct_pool_written(&e->pool, f);
			if (rc)
				break;
		}
	} else if (e->p->buffered && t->idx == 0) {
		/* no pool to flush: the kernel holds the dirty pages; a
		 * checkpoint once a second makes them durable */
		int64_t next = ct_now_ns();

		while (!stopping(e)) {
			next += 1000000000LL;
			while (!stopping(e) && ct_now_ns() < next)
				usleep(20000);
			if (!stopping(e) && fdatasync(e->data_fd)) {
				fail(e, -errno, "oltp: cannot sync the data file: %s",
				     strerror(errno));
				break;
			}
		}
	}
	return NULL;
}

static int start(struct eng *e, struct thr *t, void *(*fn)(void *), char *err, size_t len)
{
	int rc = pthread_create(&t->tid, NULL, fn, t);

	if (rc)
		return ct_err(err, len, -rc, "oltp: cannot start a thread: %s", strerror(rc));
	t->started = true;
	return 0;
}

static void merge_class(struct ct_oltp_class *c, const struct ct_hist *h, uint64_t ios,
			uint64_t bytes, double secs)
{
	c->ios = ios;
	c->bytes = bytes;
	c->iops = secs > 0 ? (double)ios / secs : 0;
	c->mbps = secs > 0 ? (double)bytes / 1e6 / secs : 0;
	c->p50 = ct_hist_pct(h, 50);
	c->p90 = ct_hist_pct(h, 90);
	c->p99 = ct_hist_pct(h, 99);
	c->p999 = ct_hist_pct(h, 99.9);
	c->max = h->count ? h->max : 0;
}

static int collect(struct eng *e, struct ct_oltp_result *res, double secs)
{
	struct ct_hist *lat = malloc(sizeof(*lat)), *cls = malloc(CT_OLTP_NCLASS * sizeof(*cls));
	uint64_t ios[CT_OLTP_NCLASS] = { 0 }, bytes[CT_OLTP_NCLASS] = { 0 };
	uint64_t hits = 0, misses = 0, groups = 0, grouped = 0;

	if (!lat || !cls) {
		free(lat);
		free(cls);
		return -ENOMEM;
	}
	ct_hist_reset(lat);
	for (int c = 0; c < CT_OLTP_NCLASS; c++)
		ct_hist_reset(&cls[c]);
	for (unsigned i = 0; i < e->nthr; i++) {
		const struct tstats *s = &e->thr[i].st;

		if (!s->measuring)
			continue;
		res->txns += s->txns;
		hits += s->hits;
		misses += s->misses;
		groups += s->groups;
		grouped += s->grouped;
		res->stall_ns += s->stall_ns;
		res->client_writes += s->client_writes;
		ct_hist_merge(lat, &s->lat);
		for (int c = 0; c < CT_OLTP_NCLASS; c++) {
			ios[c] += s->cls[c].ios;
			bytes[c] += s->cls[c].bytes;
			ct_hist_merge(&cls[c], &s->cls[c].lat);
		}
	}
	res->tps = secs > 0 ? (double)res->txns / secs : 0;
	res->lat_min = lat->count ? lat->min : 0;
	res->lat_p50 = ct_hist_pct(lat, 50);
	res->lat_p90 = ct_hist_pct(lat, 90);
	res->lat_p99 = ct_hist_pct(lat, 99);
	res->lat_p999 = ct_hist_pct(lat, 99.9);
	res->lat_max = lat->count ? lat->max : 0;
	res->lat_mean = ct_hist_mean(lat);
	for (int c = 0; c < CT_OLTP_NCLASS; c++)
		merge_class(&res->cls[c], &cls[c], ios[c], bytes[c], secs);
	res->hit_ratio =
		e->have_pool && hits + misses ? (double)hits / (double)(hits + misses) : NAN;
	res->group_mean = groups ? (double)grouped / (double)groups : 0;
	free(lat);
	free(cls);
	return 0;
}

static int64_t cpu_us(const struct timeval *tv)
{
	return (int64_t)tv->tv_sec * 1000000 + tv->tv_usec;
}

/* Paces the ramp-up: until the pool is full and two consecutive 5-second
 * windows differ by under CT_OLTP_STEADY_PCT, at most ramp_max_ns. */
static void ramp_up(struct eng *e, struct ct_oltp_result *res, int64_t t_begin)
{
	const struct ct_oltp_params *p = e->p;
	uint64_t per_sec[2 * CT_OLTP_STEADY_WIN] = { 0 }, last = atomic_load(&e->commits);
	unsigned secs = 0;
	int64_t tick = t_begin;

	res->ramp_steady = false;
	while (!stopping(e) && p->ramp_max_ns > 0) {
		uint64_t c, w0 = 0, w1 = 0;

		tick += 1000000000LL;
		if (tick > t_begin + p->ramp_max_ns)
			tick = t_begin + p->ramp_max_ns;
		sleep_until(tick);
		c = atomic_load(&e->commits);
		memmove(per_sec, per_sec + 1, sizeof(per_sec) - sizeof(per_sec[0]));
		per_sec[2 * CT_OLTP_STEADY_WIN - 1] = c - last;
		last = c;
		secs++;
		if (tick - t_begin >= p->ramp_max_ns)
			break;
		if (secs < 2 * CT_OLTP_STEADY_WIN || (e->have_pool && !ct_pool_full(&e->pool)))
			continue;
		for (int i = 0; i < CT_OLTP_STEADY_WIN; i++) {
			w0 += per_sec[i];
			w1 += per_sec[CT_OLTP_STEADY_WIN + i];
		}
		if (w0 && fabs((double)w1 - (double)w0) / (double)w0 * 100 < CT_OLTP_STEADY_PCT) {
			res->ramp_steady = true;
			break;
		}
	}
	res->ramp_ns = ct_now_ns() - t_begin;
}

static void measure(struct eng *e, struct ct_oltp_result *res)
{
	int64_t start = ct_now_ns(), end = start + e->p->duration_ns, tick = start, prev = start;
	uint64_t last;

	atomic_store_explicit(&e->measure_end, end, memory_order_relaxed);
	atomic_store_explicit(&e->measure_start, start, memory_order_release);
	last = atomic_load(&e->commits);
	while (!stopping(e)) {
		int64_t now;
		uint64_t c;

		tick += 1000000000LL;
		sleep_until(tick < end ? tick : end);
		now = ct_now_ns();
		c = atomic_load(&e->commits);
		/* only whole seconds go into the series */
		if (tick <= end && res->nseries < CT_OLTP_MAX_SERIES)
			res->series[res->nseries++] =
				(double)(c - last) / ((double)(now - prev) / 1e9);
		last = c;
		prev = now;
		if (now >= end)
			break;
	}
	res->measured_ns = end - start;
}

int ct_oltp_run(const struct ct_oltp_params *p, struct ct_oltp_result *res,
		_Atomic uint64_t *commits, char *err, size_t len)
{
	struct eng *e = calloc(1, sizeof(*e));
	char path[4096 + 16];
	struct rusage r0, r1;
	int rc = 0;

	memset(res, 0, sizeof(*res));
	res->hit_ratio = NAN;
	if (!e)
		return ct_err(err, len, -ENOMEM, "out of memory");
	e->p = p;
	e->ext = commits;
	e->data_fd = e->log_fd = -1;
	pthread_mutex_init(&e->lmu, NULL);
	pthread_mutex_init(&e->emu, NULL);
	pthread_cond_init(&e->lcommit, NULL);
	pthread_cond_init(&e->lroom, NULL);
	zipf_init(e);

	path_of(p, DATA_NAME, path, sizeof(path));
	e->data_fd = open_direct(p, path, O_RDWR, err, len);
	if (e->data_fd < 0) {
		rc = e->data_fd;
		goto out;
	}
	path_of(p, LOG_NAME, path, sizeof(path));
	e->log_fd = open_direct(p, path, O_WRONLY | O_DSYNC, err, len);
	if (e->log_fd < 0) {
		rc = e->log_fd;
		goto out;
	}
	e->maxstaged = CT_OLTP_MAX_LOG_IO / p->record;
	for (int i = 0; i < 2; i++) {
		uint64_t st = p->seed + (uint64_t)i + 7;

		if (posix_memalign((void **)&e->lbuf[i], 4096, CT_OLTP_MAX_LOG_IO)) {
			rc = ct_err(err, len, -ENOMEM, "out of memory");
			goto out;
		}
		ct_fill_random(e->lbuf[i], CT_OLTP_MAX_LOG_IO, &st);
	}
	if (p->nframes) {
		rc = ct_pool_init(&e->pool, p->nframes, CT_OLTP_PAGE, err, len);
		if (rc)
			goto out;
		e->have_pool = true;
	}

	e->nthr = p->clients + p->db_writers;
	e->thr = calloc(e->nthr, sizeof(*e->thr));
	if (!e->thr) {
		rc = ct_err(err, len, -ENOMEM, "out of memory");
		goto out;
	}
	for (unsigned i = 0; i < e->nthr; i++) {
		struct thr *t = &e->thr[i];

		t->e = e;
		t->idx = i < p->clients ? i : i - p->clients;
		t->rng = client_seed(p->seed ^ 0xa5a5a5a5a5a5a5a5ULL, i);
		if (posix_memalign(&t->buf, 4096, (size_t)p->reads * CT_OLTP_PAGE)) {
			t->buf = NULL;
			rc = ct_err(err, len, -ENOMEM, "out of memory");
			goto out;
		}
#ifdef CT_HAVE_URING
		if (p->engine == CT_OLTP_IO_URING && i < p->clients) {
			rc = io_uring_queue_init(p->reads, &t->ring, 0);
			if (rc) {
				rc = ct_err(err, len, rc, "oltp: cannot set up io_uring: %s",
					    strerror(-rc));
				goto out;
			}
			t->have_ring = true;
		}
#endif
	}
	int64_t t_begin = ct_now_ns();

	for (unsigned i = 0; i < e->nthr && !rc; i++)
		rc = start(e, &e->thr[i], i < p->clients ? client_main : dbwriter_main, err, len);
	if (rc) {
		atomic_store(&e->stop, 1);
		wake_all(e);
		goto join;
	}
	if (!p->duration_ns) {
		/* the load: run until killed, or until a thread fails */
		while (!stopping(e))
			usleep(100000);
		goto join;
	}
	ramp_up(e, res, t_begin);
	getrusage(RUSAGE_SELF, &r0);
	measure(e, res);
	getrusage(RUSAGE_SELF, &r1);
	atomic_store(&e->stop, 1);
	wake_all(e);
join:
	for (unsigned i = 0; i < e->nthr; i++)
		if (e->thr[i].started)
			pthread_join(e->thr[i].tid, NULL);
	if (!rc && e->erc)
		rc = ct_err(err, len, e->erc, "%s", e->error);
	if (!rc && p->duration_ns) {
		res->user_us = cpu_us(&r1.ru_utime) - cpu_us(&r0.ru_utime);
		res->sys_us = cpu_us(&r1.ru_stime) - cpu_us(&r0.ru_stime);
		if (collect(e, res, (double)res->measured_ns / 1e9))
			rc = ct_err(err, len, -ENOMEM, "out of memory");
		res->done = rc == 0;
	}
out:
	if (rc)
		snprintf(res->error, sizeof(res->error), "%s", err);
	if (e->thr)
		for (unsigned i = 0; i < e->nthr; i++) {
			free(e->thr[i].buf);
#ifdef CT_HAVE_URING
			if (e->thr[i].have_ring)
				io_uring_queue_exit(&e->thr[i].ring);
#endif
		}
	free(e->thr);
	if (e->have_pool)
		ct_pool_destroy(&e->pool);
	free(e->lbuf[0]);
	free(e->lbuf[1]);
	if (e->data_fd >= 0)
		close(e->data_fd);
	if (e->log_fd >= 0)
		close(e->log_fd);
	pthread_mutex_destroy(&e->lmu);
	pthread_mutex_destroy(&e->emu);
	pthread_cond_destroy(&e->lcommit);
	pthread_cond_destroy(&e->lroom);
	free(e);
	return rc;
}
