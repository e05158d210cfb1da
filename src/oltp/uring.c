/*
 * The OLTP engine's io_uring reads (--engine io_uring): a transaction's
 * pages read at once through the client's own ring instead of one pread
 * after another. Apart from the engine because it is built only with
 * liburing and pins pages in an order of its own.
 */
#include "engine.h"
#include "contend/util.h"

#ifdef CT_HAVE_URING
#include <errno.h>
#include <string.h>
#include <sys/types.h>

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
		eng_fail(e, rc, "oltp: io_uring submit failed: %s", strerror(-rc));
		return rc;
	}
	for (unsigned done = 0; done < n; done++) {
		struct io_uring_cqe *cqe;
		int res;

		rc = io_uring_wait_cqe(&t->ring, &cqe);
		if (rc) {
			eng_fail(e, rc, "oltp: io_uring wait failed: %s", strerror(-rc));
			return rc;
		}
		res = cqe->res;
		uint64_t i = cqe->user_data;

		io_uring_cqe_seen(&t->ring, cqe);
		if (res != CT_OLTP_PAGE) {
			rc = res < 0 ? res : -EIO;
			eng_fail(e, rc, "oltp: page read at %llu failed: %s",
				 (unsigned long long)(pages[i] * CT_OLTP_PAGE), strerror(-rc));
			/* reap the rest before the buffers go */
			while (++done < n && !io_uring_wait_cqe(&t->ring, &cqe))
				io_uring_cqe_seen(&t->ring, cqe);
			return rc;
		}
		eng_rec_io(t, CT_OLTP_READ, t0, CT_OLTP_PAGE);
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
int eng_uring_txn(struct thr *t, uint64_t *rng)
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
			pages[i] = eng_zipf_pick(&e->zipf, rng);
			bufs[i] = (char *)t->buf + (size_t)i * CT_OLTP_PAGE;
		}
		rc = uring_read(t, bufs, pages, p->reads);
		for (unsigned i = 0; !rc && i < p->writes; i++) {
			eng_modify(bufs[i], &t->rng);
			rc = eng_write_page(t, bufs[i], pages[i], true);
		}
		return rc;
	}
	/* the pages in ascending order, each once, dirty if any pick of it is */
	for (unsigned i = 0; i < p->reads; i++) {
		uint64_t pg = eng_zipf_pick(&e->zipf, rng);
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
			s = eng_rec(t, ct_now_ns());
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
			rc = eng_write_page(t, f[i]->buf, (uint64_t)victim, true);
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
			eng_modify(f[i]->buf, &t->rng);
		ct_pool_unpin(&e->pool, f[i], dirty[i] && !rc);
	}
	return rc;
}
#endif
