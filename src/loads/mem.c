/*
 * contest's mem_load, made safe: keeps a large amount of anonymous memory
 * and touches every page of it over and over. With swap it touches 110% of
 * RAM and makes the machine page; with none it squeezes the page cache down
 * to a reserve, re-reading MemAvailable every chunk and giving chunks back
 * below it, so the OOM killer is never needed (and picks this load if it is:
 * CT_LOAD_OOM_FIRST). Under a memory cgroup's limit (a container, a CI
 * runner) the limit is the RAM and its room the MemAvailable.
 */
#include "internal.h"
#include "loads.h"
#include "contend/proc.h"
#include "contend/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (64ull << 20)
#define GIB   (1ull << 30)

struct mem_plan {
	uint64_t target;  /* bytes to keep touched */
	uint64_t reserve; /* MemAvailable (+ SwapFree) never pushed below this */
	bool swap;
	bool limited; /* contend runs under a memory cgroup's limit: lim */
	struct ct_memcg_limit lim;
};

/* MemAvailable (plus SwapFree when swap counts) in bytes, and never more
 * than the room left under the limit of the memory cgroup contend runs in
 * (a container's, a CI runner's): the machine's free memory is not ours
 * to take there, and the cgroup's OOM killer would end the load. */
static int mem_avail(const struct mem_plan *plan, uint64_t *out)
{
	bool with_swap = plan->swap;
	uint64_t room;
	char buf[8192], *p;
	unsigned long long kb;
	uint64_t v = 0;
	ssize_t n = ct_read_file("/proc/meminfo", buf, sizeof(buf));

	if (n < 0)
		return (int)n;
	p = strstr(buf, "MemAvailable:");
	if (!p || sscanf(p, "MemAvailable: %llu", &kb) != 1)
		return -ENOENT;
	v = kb * 1024;
	if (with_swap) {
		p = strstr(buf, "SwapFree:");
		if (p && sscanf(p, "SwapFree: %llu", &kb) == 1)
			v += kb * 1024;
	}
	if (plan->limited && !ct_memcg_room(&plan->lim, &room) && room < v)
		v = room;
	*out = v;
	return 0;
}

static int mem_prepare(struct ct_load *l, char *err, size_t len)
{
	const struct ct_env *env = l->env;
	uint64_t ram = env->ram_bytes, page = (uint64_t)sysconf(_SC_PAGESIZE), avail, cap;
	struct mem_plan *p;
	char a[32], b[32];
	bool capped = false;

	if (!ram)
		ram = (uint64_t)sysconf(_SC_PHYS_PAGES) * page;
	p = calloc(1, sizeof(*p));
	if (!p)
		return ct_err(err, len, -ENOMEM, "mem: out of memory");
	p->limited = !ct_memcg_own_limit(&p->lim) && p->lim.limit < ram;
	/* under a limit the load never pushes into swap: whether the cgroup
	 * may swap, and how much, is the cgroup's (memory.swap.max) */
	p->swap = env->swap_bytes > 0 && !p->limited;
	if (p->limited) {
		/* the cgroup is the machine: its limit is the RAM, and the
		 * reserve left for the foreground is a share of it */
		ram = p->lim.limit;
		p->reserve = ram / 4 < GIB ? ram / 4 : GIB;
		if (p->reserve < ram / 10)
			p->reserve = ram / 10;
	} else {
		p->reserve = ram / 10 > GIB ? ram / 10 : GIB;
	}
	if (mem_avail(p, &avail))
		avail = env->mem_available;
	cap = avail > p->reserve ? avail - p->reserve : 0;
	if (p->swap) {
		p->target = ram + ram / 10;
		if (env->quick)
			p->target /= 4;
		if (env->mem_size)
			p->target = env->mem_size;
	} else {
		if (avail <= p->reserve + CHUNK) {
			ct_err(err, len, -ENOMEM,
			       "mem: only %s available, too close to the %s reserve",
			       ct_fmt_size(avail, a, sizeof(a)),
			       ct_fmt_size(p->reserve, b, sizeof(b)));
			free(p);
			return -ENOMEM;
		}
		p->target = env->quick ? cap / 4 : cap;
		if (env->mem_size)
			p->target = env->mem_size;
		/* without swap, anything over what is available is the OOM killer's */
		if (p->target > cap) {
			p->target = cap;
			capped = true;
		}
	}
	p->target -= p->target % page;
	if (p->target < page) {
		free(p);
		return ct_err(err, len, -EINVAL, "mem: size %s is too small",
			      ct_fmt_size(env->mem_size, a, sizeof(a)));
	}
	l->priv = p;
	l->size = p->target;
	l->ready_work = p->target; /* the foreground starts under full pressure */
	l->nworkers = 1;
	ct_load_param(l, "target=%s", ct_load_size_str(p->target, a, sizeof(a)));
	ct_load_param(l, "reserve=%s", ct_load_size_str(p->reserve, b, sizeof(b)));
	ct_load_param(l, "swap=%s", p->swap ? "yes" : "no");
	if (p->limited)
		ct_load_param(l, "memcg=%s", ct_load_size_str(p->lim.limit, a, sizeof(a)));
	if (capped)
		ct_load_param(l, "capped=yes");
	return 0;
}

/* volatile: the stores are the point, though nothing reads them back */
static void touch(volatile unsigned char *p, size_t len, size_t page, unsigned char v)
{
	for (size_t off = 0; off < len; off += page)
		p[off] = v;
}

static int mem_work(struct ct_load *l, unsigned i)
{
	const struct mem_plan *p = l->priv;
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t chunk = p->target < CHUNK ? (size_t)p->target : (size_t)CHUNK;
	size_t max = (size_t)(p->target / chunk), n = 0, next = 0;
	unsigned char **chunks, pass = 1;
	uint64_t avail;
	int rc;

	chunks = calloc(max, sizeof(*chunks));
	if (!chunks)
		return ct_load_fail(l, "mem: out of memory");
	for (;;) {
		rc = mem_avail(p, &avail);
		if (rc)
			return ct_load_fail(l, "mem: cannot read '/proc/meminfo': %s",
					    strerror(-rc));
		if (avail < p->reserve && n > 0) {
			/* someone else needs it more: give a chunk back */
			munmap(chunks[--n], chunk);
			continue;
		}
		if (n < max && avail >= p->reserve + 2 * (uint64_t)chunk) {
			void *c = mmap(NULL, chunk, PROT_READ | PROT_WRITE,
				       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

			if (c != MAP_FAILED) {
				chunks[n++] = c;
				touch(c, chunk, page, pass);
				ct_load_add(l, chunk);
				continue;
			}
		}
		if (!n) {
			struct timespec ts = { 0, 10 * 1000000L };

			nanosleep(&ts, NULL);
			continue;
		}
		if (next >= n) {
			next = 0;
			pass++; /* a new value each pass: no page stays all-same */
		}
		touch(chunks[next++], chunk, page, pass);
		ct_load_add(l, chunk);
	}
}

static void mem_cleanup(struct ct_load *l)
{
	free(l->priv);
	l->priv = NULL;
}

static const struct ct_option mem_options[] = {
	{ .type = CT_OPTION_SIZE,
	  .name = "mem-size",
	  .in = CT_OPTION_IN_ENV,
	  .off = offsetof(struct ct_env, mem_size),
	  .argh = "SIZE",
	  .help = "mem load size (default: from RAM and swap; %R)",
	  .doc = "Under a memory cgroup's limit (a container, a CI runner, a systemd unit's "
		 "MemoryMax) the limit takes the place of RAM and the least room left under any "
		 "limit above contend that of the available memory, the load never pushes into "
		 "swap, and a larger SIZE is capped, so the cgroup's OOM killer is never needed.",
	  .max = INFINITY,
	  .flags = CT_OPTION_MIN_OPEN },
	CT_OPTION_DONE,
};

const struct ct_load_ops ct_load_mem = {
	.name = "mem",
	.summary = "touches memory over and over: 110% of RAM with swap, else up to a reserve",
	.work_unit = "MB touched",
	.unit_scale = 1e6,
	.flags = CT_LOAD_OOM_FIRST | CT_LOAD_DEFAULT | CT_LOAD_PROFILED,
	.options = mem_options,
	.prepare = mem_prepare,
	.work = mem_work,
	.cleanup = mem_cleanup,
};
