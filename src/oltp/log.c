/*
 * The OLTP engine's log writer: commit records staged in one of two
 * buffers while the other is written, each write one O_DSYNC pwrite to
 * the circular log file, by whichever client leads the group of the
 * moment (group commit; no writer thread).
 */
#include "engine.h"
#include "contend/util.h"

#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

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

		eng_fail(e, rc, "oltp: log write at %llu failed: %s",
			 (unsigned long long)e->log_off, strerror(-rc));
		return rc;
	}
	e->log_off += bytes;
	s = eng_rec_io(t, CT_OLTP_LOGWRITE, t0, bytes);
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
int eng_commit(struct thr *t)
{
	struct eng *e = t->e;
	uint64_t lsn;
	int rc = 0;

	pthread_mutex_lock(&e->lmu);
	while (e->nstaged == e->maxstaged && !eng_stopping(e))
		pthread_cond_wait(&e->lroom, &e->lmu);
	if (eng_stopping(e)) {
		pthread_mutex_unlock(&e->lmu);
		return -EINTR;
	}
	lsn = ++e->next_lsn;
	memcpy(e->lbuf[e->lcur] + (size_t)e->nstaged * e->p->record, &lsn, sizeof(lsn));
	e->nstaged++;
	while (e->durable_lsn < lsn && !eng_stopping(e)) {
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
