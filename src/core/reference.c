/*
 * The host's reference (include/contend/reference.h): three figures of the
 * machine itself, each the fastest of a few short passes so that a
 * preemption in one does not count - the CPU's speed (ct_cpu_speed()),
 * memcpy over a buffer larger than the last-level cache, and a small file
 * written and synced in the work directory. A session stores them beside
 * its runs; compare says how far they moved between two configs' sessions.
 */
#include "contend/reference.h"
#include "contend/monitor.h"
#include "contend/proc.h"
#include "contend/util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define CPU_NS	    50000000LL /* as each run's own CPU probe */
#define PASSES	    5
#define PASS_BUDGET 300000000LL	 /* a probe's passes stop after this long */
#define MEM_MIN	    (32u << 20)	 /* the copy's buffer: at least this, */
#define MEM_MAX	    (256u << 20) /* at most this, and 4 times the cache, */
#define MEM_SHARE   16		 /* and a 16th of the memory contend lives in */
#define MEM_FLOOR   (4u << 20)	 /* however small that is, this much */
#define DISK_BYTES  (4u << 20)
#define DISK_CHUNK  (1u << 20)

const char *const ct_ref_fig_keys[CT_REF_NFIGS] = { "cpu_speed", "mem_gbps", "disk_mbps" };
const char *const ct_ref_fig_names[CT_REF_NFIGS] = { "cpu", "mem", "disk" };
const char *const ct_ref_fig_units[CT_REF_NFIGS] = { "steps/us", "GB/s", "MB/s" };

static const char *const phases[] = {
	[CT_REF_START] = "start", [CT_REF_ROUND] = "round", [CT_REF_END] = "end"
};

const char *ct_ref_phase_name(enum ct_ref_phase p)
{
	return (size_t)p < CT_ARRAY_SIZE(phases) ? phases[p] : "?";
}

int ct_ref_phase_parse(const char *name, enum ct_ref_phase *out)
{
	for (size_t i = 0; i < CT_ARRAY_SIZE(phases); i++)
		if (!strcmp(name, phases[i])) {
			*out = (enum ct_ref_phase)i;
			return 0;
		}
	return -EINVAL;
}

/* The largest cache of CPU 0 in bytes (sysfs "32768K", "8M"); 0 unknown. */
static size_t llc_bytes(void)
{
	size_t best = 0;

	for (int i = 0; i < 8; i++) {
		char path[128], buf[32], *end;
		unsigned long long v;

		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
		if (ct_read_file(path, buf, sizeof(buf)) < 0)
			continue;
		v = strtoull(buf, &end, 10);
		v *= *end == 'K' ? 1024ULL : *end == 'M' ? 1ULL << 20 : 1;
		if (v > best && v <= SIZE_MAX)
			best = (size_t)v;
	}
	return best;
}

/* Seconds of the fastest of up to PASSES passes of pass(ctx), stopping
 * early once PASS_BUDGET is spent; NaN when a pass failed. */
static double fastest(int (*pass)(void *ctx), void *ctx)
{
	int64_t start = ct_now_ns(), best = INT64_MAX;

	for (int i = 0; i < PASSES && (i == 0 || ct_now_ns() - start < PASS_BUDGET); i++) {
		int64_t t0 = ct_now_ns(), t;

		if (pass(ctx))
			return NAN;
		t = ct_now_ns() - t0;
		if (t < best)
			best = t;
	}
	return best > 0 ? (double)best / 1e9 : NAN;
}

struct mem_pass {
	char *src, *dst;
	size_t n;
};

static int copy_pass(void *ctx)
{
	struct mem_pass *m = ctx;

	memcpy(m->dst, m->src, m->n);
	/* the copy escapes, so the compiler must make it */
	__asm__ volatile("" : : "r"(m->dst) : "memory");
	return 0;
}

/* The memory this process lives in, which does not change between its
 * sessions: the RAM, or a memory cgroup's tighter limit (a container's, a
 * CI runner's). A machine that reports a cache of hundreds of MB (as some
 * hypervisors do) would otherwise have the copy take 512 MB of a 280 MB
 * cgroup, and the OOM killer take contend. 0 when unknown. */
static uint64_t mem_home(void)
{
	struct ct_memcg_limit lim;
	uint64_t ram = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE);

	if (!ct_memcg_own_limit(&lim) && lim.limit && (!ram || lim.limit < ram))
		return lim.limit;
	return ram;
}

double ct_ref_mem_gbps(void)
{
	size_t n = 4 * llc_bytes();
	uint64_t home = mem_home();
	struct mem_pass m;
	void *p;
	double s;

	n = n < MEM_MIN ? MEM_MIN : n > MEM_MAX ? MEM_MAX : n;
	/* both buffers, 2 n, within the share */
	if (home && 2 * (uint64_t)n > home / MEM_SHARE)
		n = home / MEM_SHARE / 2 > MEM_FLOOR ? (size_t)(home / MEM_SHARE / 2) : MEM_FLOOR;
	p = mmap(NULL, 2 * n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NAN;
	m = (struct mem_pass){ .src = p, .dst = (char *)p + n, .n = n };
	/* huge pages where the kernel has them: touching the buffer then
	 * takes a few faults, not thousands */
	(void)madvise(p, 2 * n, MADV_HUGEPAGE);
	/* every page touched first: the passes time copying, not faults */
	memset(p, 0x5a, 2 * n);
	s = fastest(copy_pass, &m);
	munmap(p, 2 * n);
	return (double)n / 1e9 / s;
}

struct disk_pass {
	int fd;
	const char *buf;
};

static int write_pass(void *ctx)
{
	struct disk_pass *d = ctx;

	for (size_t off = 0; off < DISK_BYTES; off += DISK_CHUNK)
		if (pwrite(d->fd, d->buf, DISK_CHUNK, (off_t)off) != (ssize_t)DISK_CHUNK)
			return -1;
	return fdatasync(d->fd) ? -1 : 0;
}

double ct_ref_disk_mbps(const char *dir)
{
	char path[PATH_MAX];
	struct disk_pass d = { .fd = -1 };
	double s = NAN;
	char *buf;

	if ((size_t)snprintf(path, sizeof(path), "%s/reference.XXXXXX", dir) >= sizeof(path))
		return NAN;
	buf = malloc(DISK_CHUNK);
	if (!buf)
		return NAN;
	memset(buf, 0xa5, DISK_CHUNK);
	d.buf = buf;
	d.fd = mkostemp(path, O_CLOEXEC);
	/* the first write allocates the file's blocks; the passes rewrite them */
	if (d.fd >= 0 && !write_pass(&d))
		s = fastest(write_pass, &d);
	if (d.fd >= 0) {
		close(d.fd);
		unlink(path);
	}
	free(buf);
	return (double)DISK_BYTES / 1e6 / s;
}

void ct_ref_take(struct ct_ref *r, const char *dir)
{
	r->taken_at = ct_wall_ns();
	r->fig[CT_REF_CPU] = ct_cpu_speed(CPU_NS);
	r->fig[CT_REF_MEM] = ct_ref_mem_gbps();
	r->fig[CT_REF_DISK] = ct_ref_disk_mbps(dir);
	for (int i = 0; i < CT_REF_NFIGS; i++)
		if (!(r->fig[i] > 0) || !isfinite(r->fig[i]))
			r->fig[i] = NAN;
}
