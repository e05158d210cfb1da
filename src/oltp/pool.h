/*
 * The engine's buffer pool: a fixed set of 8 KiB frames with CLOCK
 * replacement, WimMark's "restrictive memory". One mutex guards the
 * metadata; page I/O is done by the callers outside it. A frame being read
 * is LOADING and other readers of that page wait for it. Clean frames are
 * evicted first; when the hand finds only dirty ones the caller gets one to
 * write itself (a client doing the DB writers' job, as a backend does when
 * the background writer lags).
 */
#ifndef CONTEND_OLTP_POOL_H
#define CONTEND_OLTP_POOL_H

#include "contend/common.h"

#include <pthread.h>

enum ct_frame_state { CT_FRAME_FREE, CT_FRAME_LOADING, CT_FRAME_VALID };

struct ct_frame {
	int64_t page; /* -1 when free */
	unsigned pin;
	bool ref, dirty, writing;
	enum ct_frame_state state;
	int32_t next; /* hash chain */
	void *buf;
};

struct ct_pool {
	pthread_mutex_t mu;
	pthread_cond_t changed; /* a frame loaded, unpinned or written */
	pthread_cond_t work;	/* dirty frames above the low-water mark */
	struct ct_frame *frames;
	int32_t *head;
	uint64_t nframes, nbuckets, nused, ndirty;
	uint64_t hand, whand;
	uint64_t low_water, high_water;
	bool stopping;
	void *mem;
	size_t page;
};

enum { CT_POOL_STOPPED = -1, CT_POOL_HIT, CT_POOL_MISS, CT_POOL_WRITE_VICTIM };

int ct_pool_init(struct ct_pool *p, uint64_t nframes, size_t page, char *err, size_t len) CT_WUR;
void ct_pool_destroy(struct ct_pool *p);

/*
 * Pins page into a frame. CT_POOL_HIT: *f holds it. CT_POOL_MISS: *f is
 * claimed for it (LOADING); read the page into (*f)->buf, then call
 * ct_pool_loaded() (or ct_pool_abort() on error). CT_POOL_WRITE_VICTIM: no
 * clean frame was free; *f is a dirty frame of another page (*victim),
 * pinned and marked clean - write it, call ct_pool_written(), and ask again.
 * CT_POOL_STOPPED: every frame was pinned and the pool is stopping.
 */
int ct_pool_get(struct ct_pool *p, int64_t page, struct ct_frame **f, int64_t *victim);
void ct_pool_loaded(struct ct_pool *p, struct ct_frame *f);
void ct_pool_abort(struct ct_pool *p, struct ct_frame *f);
/* Drops a pin; dirty marks the page modified. */
void ct_pool_unpin(struct ct_pool *p, struct ct_frame *f, bool dirty);
/* Blocks while dirty frames are above the high-water mark (clients before
 * a write); returns at once when stopping. */
void ct_pool_wait_clean(struct ct_pool *p);
/* DB writers: waits for a dirty frame while dirty frames are above the
 * low-water mark, pins it and marks it clean; NULL when stopping. */
struct ct_frame *ct_pool_take_dirty(struct ct_pool *p);
void ct_pool_written(struct ct_pool *p, struct ct_frame *f);
/* Wakes every waiter for shutdown. */
void ct_pool_stop(struct ct_pool *p);
bool ct_pool_full(struct ct_pool *p);

#endif
