/*
 * The OLTP engine's run (include/contend/oltp.h; docs/usage.md, "The OLTP
 * workload"): its threads, a transaction's pages through the pool, the
 * ramp-up, the measurement and the statistics merged from the threads.
 * What it calls on is in files of its own (engine.h): the parameters, the
 * files, the page picker, the log writer and io_uring's reads.
 *
 * Threads: clients (the transactions; one at a time is the log writer,
 * see log.c), DB writers (dirty pages back to the data file) and the
 * caller's thread,
 * which paces the ramp-up and the measurement. Statistics are per thread
 * and merged at the end, so nothing but the pool, the log queue and one
 * commit counter is shared. A thread starts counting at the first event
 * after the measurement began (ramp-up figures are dropped without
 * stopping anything) and ignores events after it ended.
 */
#include "contend/oltp.h"
#include "engine.h"
#include "contend/util.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static void wake_all(struct eng *e)
{
	if (e->have_pool)
		ct_pool_stop(&e->pool);
	pthread_mutex_lock(&e->lmu);
	pthread_cond_broadcast(&e->lcommit);
	pthread_cond_broadcast(&e->lroom);
	pthread_mutex_unlock(&e->lmu);
}

void eng_fail(struct eng *e, int rc, const char *fmt, ...)
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

bool eng_stopping(struct eng *e)
{
	return atomic_load_explicit(&e->stop, memory_order_relaxed);
}

/* The thread's statistics if an event at now falls in the measurement. */
struct tstats *eng_rec(struct thr *t, int64_t now)
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
struct tstats *eng_rec_io(struct thr *t, int cls, int64_t t0, uint64_t bytes)
{
	int64_t now = ct_now_ns();
	struct tstats *s = eng_rec(t, now);

	if (s) {
		s->cls[cls].ios++;
		s->cls[cls].bytes += bytes;
		ct_hist_add(&s->cls[cls].lat, (uint64_t)(now - t0));
	}
	return s;
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

		eng_fail(e, rc, "oltp: page %s at %llu failed: %s", write ? "write" : "read",
			 (unsigned long long)off, strerror(-rc));
		return rc;
	}
	s = eng_rec_io(t, write ? CT_OLTP_DBWRITE : CT_OLTP_READ, t0, CT_OLTP_PAGE);
	if (s && by_client)
		s->client_writes++;
	return 0;
}

static int read_page(struct thr *t, void *buf, uint64_t page)
{
	return page_io(t, buf, page, false, false);
}

int eng_write_page(struct thr *t, void *buf, uint64_t page, bool by_client)
{
	return page_io(t, buf, page, true, by_client);
}

void eng_modify(void *buf, uint64_t *rng)
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
		eng_modify(t->buf, &t->rng);
		return eng_write_page(t, t->buf, page, true);
	}
	for (;;) {
		switch (ct_pool_get(&e->pool, (int64_t)page, &f, &victim)) {
		case CT_POOL_STOPPED:
			return -EINTR;
		case CT_POOL_HIT:
			s = eng_rec(t, ct_now_ns());
			if (s)
				s->hits++;
			break;
		case CT_POOL_MISS:
			s = eng_rec(t, ct_now_ns());
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
			rc = eng_write_page(t, f->buf, (uint64_t)victim, true);
			ct_pool_written(&e->pool, f);
			if (rc)
				return rc;
			continue;
		}
		break;
	}
	if (dirty)
		eng_modify(f->buf, &t->rng);
	ct_pool_unpin(&e->pool, f, dirty);
	return 0;
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
	uint64_t pages_rng = eng_client_seed(p->seed, t->idx);

	while (!eng_stopping(e)) {
		int64_t t0, t1;
		struct tstats *s;
		int rc = 0;

		if (per_client > 0) {
			/* open loop: Poisson arrivals; latency counts from the
			 * scheduled start, so a stall is not hidden by the
			 * arrivals it delayed (no coordinated omission) */
			next += (int64_t)(-log(1.0 - eng_unit_rand(&t->rng)) / per_client * 1e9);
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
			s = eng_rec(t, w1);
			if (s && w1 - w0 > 1000)
				s->stall_ns += (uint64_t)(w1 - w0);
		}
#ifdef CT_HAVE_URING
		if (t->have_ring)
			rc = eng_uring_txn(t, &pages_rng);
		else
#endif
			for (unsigned i = 0; i < p->reads && !rc; i++)
				rc = touch(t, eng_zipf_pick(&e->zipf, &pages_rng), i < p->writes);
		if (!rc && p->writes)
			rc = eng_commit(t);
		if (rc)
			break;
		t1 = ct_now_ns();
		atomic_fetch_add_explicit(&e->commits, 1, memory_order_relaxed);
		if (e->ext)
			atomic_fetch_add_explicit(e->ext, 1, memory_order_relaxed);
		s = eng_rec(t, t1);
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
			int rc = eng_write_page(t, f->buf, (uint64_t)f->page, false);

			ct_pool_written(&e->pool, f);
			if (rc)
				break;
		}
	} else if (e->p->buffered && t->idx == 0) {
		/* no pool to flush: the kernel holds the dirty pages; a
		 * checkpoint once a second makes them durable */
		int64_t next = ct_now_ns();

		while (!eng_stopping(e)) {
			next += 1000000000LL;
			while (!eng_stopping(e) && ct_now_ns() < next)
				usleep(20000);
			if (!eng_stopping(e) && fdatasync(e->data_fd)) {
				eng_fail(e, -errno, "oltp: cannot sync the data file: %s",
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
	while (!eng_stopping(e) && p->ramp_max_ns > 0) {
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
	while (!eng_stopping(e)) {
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
	eng_zipf_init(&e->zipf, p->npages, p->zipf);

	eng_path(p, ENG_DATA_NAME, path, sizeof(path));
	e->data_fd = eng_open(p, path, O_RDWR, err, len);
	if (e->data_fd < 0) {
		rc = e->data_fd;
		goto out;
	}
	eng_path(p, ENG_LOG_NAME, path, sizeof(path));
	e->log_fd = eng_open(p, path, O_WRONLY | O_DSYNC, err, len);
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
		t->rng = eng_client_seed(p->seed ^ 0xa5a5a5a5a5a5a5a5ULL, i);
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
		while (!eng_stopping(e))
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
