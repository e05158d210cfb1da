/*
 * CLOCK buffer pool; see pool.h.
 */
#include "pool.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int ct_pool_init(struct ct_pool *p, uint64_t nframes, size_t page, char *err, size_t len)
{
	memset(p, 0, sizeof(*p));
	if (nframes < 2)
		return ct_err(err, len, -EINVAL, "buffer pool of %llu frames is too small",
			      (unsigned long long)nframes);
	p->nframes = nframes;
	p->page = page;
	for (p->nbuckets = 1; p->nbuckets < nframes; p->nbuckets <<= 1)
		;
	p->frames = calloc(nframes, sizeof(*p->frames));
	p->head = malloc(p->nbuckets * sizeof(*p->head));
	if (!p->frames || !p->head || posix_memalign(&p->mem, 4096, nframes * page)) {
		p->mem = NULL;
		ct_pool_destroy(p);
		return ct_err(err, len, -ENOMEM, "cannot allocate a buffer pool of %llu pages",
			      (unsigned long long)nframes);
	}
	memset(p->head, 0xff, p->nbuckets * sizeof(*p->head));
	for (uint64_t i = 0; i < nframes; i++) {
		p->frames[i].page = -1;
		p->frames[i].next = -1;
		p->frames[i].buf = (char *)p->mem + i * page;
	}
	/* DB writers start above 10% dirty; clients stall above 50%, as a
	 * database's background writer and checkpoint keep dirty buffers low */
	p->low_water = nframes / 10;
	p->high_water = nframes / 2;
	if (p->high_water <= p->low_water)
		p->high_water = p->low_water + 1;
	pthread_mutex_init(&p->mu, NULL);
	pthread_cond_init(&p->changed, NULL);
	pthread_cond_init(&p->work, NULL);
	return 0;
}

void ct_pool_destroy(struct ct_pool *p)
{
	if (p->frames && p->head) {
		pthread_mutex_destroy(&p->mu);
		pthread_cond_destroy(&p->changed);
		pthread_cond_destroy(&p->work);
	}
	free(p->frames);
	free(p->head);
	free(p->mem);
	memset(p, 0, sizeof(*p));
}

static uint64_t bucket(const struct ct_pool *p, int64_t page)
{
	uint64_t h = (uint64_t)page * 0x9e3779b97f4a7c15ULL;

	return (h >> 32) & (p->nbuckets - 1);
}

static struct ct_frame *lookup(struct ct_pool *p, int64_t page)
{
	for (int32_t i = p->head[bucket(p, page)]; i >= 0; i = p->frames[i].next)
		if (p->frames[i].page == page)
			return &p->frames[i];
	return NULL;
}

static void unhash(struct ct_pool *p, struct ct_frame *f)
{
	int32_t *link = &p->head[bucket(p, f->page)];
	int32_t idx = (int32_t)(f - p->frames);

	while (*link >= 0 && *link != idx)
		link = &p->frames[*link].next;
	if (*link == idx)
		*link = f->next;
	f->next = -1;
}

static void rehash(struct ct_pool *p, struct ct_frame *f, int64_t page)
{
	int32_t *head = &p->head[bucket(p, page)];

	f->page = page;
	f->next = *head;
	*head = (int32_t)(f - p->frames);
}

/* The CLOCK sweep: a referenced frame gets a second chance, pinned and
 * loading frames are skipped, a dirty one is remembered in case no clean
 * frame turns up within two turns of the hand. */
static struct ct_frame *victim(struct ct_pool *p, bool *dirty)
{
	struct ct_frame *fallback = NULL;

	if (p->nused < p->nframes) {
		*dirty = false;
		return &p->frames[p->nused++];
	}
	for (uint64_t n = 0; n < 2 * p->nframes; n++) {
		struct ct_frame *f = &p->frames[p->hand];

		p->hand = (p->hand + 1) % p->nframes;
		if (f->pin || f->state != CT_FRAME_VALID || f->writing)
			continue;
		if (f->ref) {
			f->ref = false;
			continue;
		}
		if (f->dirty) {
			if (!fallback)
				fallback = f;
			continue;
		}
		*dirty = false;
		return f;
	}
	*dirty = fallback != NULL;
	return fallback;
}

int ct_pool_get(struct ct_pool *p, int64_t page, struct ct_frame **out, int64_t *victim_page)
{
	struct ct_frame *f;
	bool dirty;

	pthread_mutex_lock(&p->mu);
	for (;;) {
		f = lookup(p, page);
		if (f && f->state == CT_FRAME_LOADING) {
			pthread_cond_wait(&p->changed, &p->mu);
			continue;
		}
		if (f) {
			f->pin++;
			f->ref = true;
			pthread_mutex_unlock(&p->mu);
			*out = f;
			return CT_POOL_HIT;
		}
		f = victim(p, &dirty);
		if (f)
			break;
		/* every frame pinned or in flight: wait for one */
		if (p->stopping) {
			pthread_mutex_unlock(&p->mu);
			return CT_POOL_STOPPED;
		}
		pthread_cond_wait(&p->changed, &p->mu);
	}
	if (dirty) {
		f->pin++;
		f->dirty = false;
		f->writing = true;
		p->ndirty--;
		*victim_page = f->page;
		pthread_mutex_unlock(&p->mu);
		*out = f;
		return CT_POOL_WRITE_VICTIM;
	}
	if (f->page >= 0)
		unhash(p, f);
	rehash(p, f, page);
	f->state = CT_FRAME_LOADING;
	f->pin = 1;
	f->ref = true;
	pthread_mutex_unlock(&p->mu);
	*out = f;
	return CT_POOL_MISS;
}

void ct_pool_loaded(struct ct_pool *p, struct ct_frame *f)
{
	pthread_mutex_lock(&p->mu);
	f->state = CT_FRAME_VALID;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->mu);
}

void ct_pool_abort(struct ct_pool *p, struct ct_frame *f)
{
	pthread_mutex_lock(&p->mu);
	unhash(p, f);
	f->page = -1;
	f->pin = 0;
	f->ref = false;
	/* a free frame in the middle of the used ones is found by the sweep
	 * only once VALID; make it reusable as a clean, unreferenced page */
	f->state = CT_FRAME_VALID;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->mu);
}

void ct_pool_unpin(struct ct_pool *p, struct ct_frame *f, bool dirty)
{
	pthread_mutex_lock(&p->mu);
	if (dirty && !f->dirty) {
		f->dirty = true;
		if (++p->ndirty > p->low_water)
			pthread_cond_signal(&p->work);
	}
	f->ref = true;
	if (--f->pin == 0)
		pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->mu);
}

void ct_pool_wait_clean(struct ct_pool *p)
{
	pthread_mutex_lock(&p->mu);
	while (p->ndirty > p->high_water && !p->stopping)
		pthread_cond_wait(&p->changed, &p->mu);
	pthread_mutex_unlock(&p->mu);
}

struct ct_frame *ct_pool_take_dirty(struct ct_pool *p)
{
	struct ct_frame *f = NULL;

	pthread_mutex_lock(&p->mu);
	while (!p->stopping) {
		if (p->ndirty > p->low_water) {
			for (uint64_t n = 0; n < p->nframes; n++) {
				struct ct_frame *c = &p->frames[p->whand];

				p->whand = (p->whand + 1) % p->nframes;
				if (c->dirty && !c->writing && c->state == CT_FRAME_VALID) {
					f = c;
					break;
				}
			}
			if (f)
				break;
		}
		pthread_cond_wait(&p->work, &p->mu);
	}
	if (f) {
		f->pin++;
		f->dirty = false;
		f->writing = true;
		p->ndirty--;
	}
	pthread_mutex_unlock(&p->mu);
	return f;
}

void ct_pool_written(struct ct_pool *p, struct ct_frame *f)
{
	pthread_mutex_lock(&p->mu);
	f->writing = false;
	f->pin--;
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->mu);
}

void ct_pool_stop(struct ct_pool *p)
{
	pthread_mutex_lock(&p->mu);
	p->stopping = true;
	pthread_cond_broadcast(&p->changed);
	pthread_cond_broadcast(&p->work);
	pthread_mutex_unlock(&p->mu);
}

bool ct_pool_full(struct ct_pool *p)
{
	bool full;

	pthread_mutex_lock(&p->mu);
	full = p->nused == p->nframes;
	pthread_mutex_unlock(&p->mu);
	return full;
}
