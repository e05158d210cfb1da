/*
 * contest's process_load: a ring of 4 x ncpus processes passing 8 KiB
 * records to each other through pipes. Every worker puts a few records
 * into the ring, so most processes are runnable all the time: it keeps the
 * CPUs busy with scheduler, wakeup and pipe-copy work.
 */
#include "internal.h"
#include "loads.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define RECORD 8192
#define BATCH  64 /* records between updates of the shared counter */
#define INJECT 4  /* records each worker puts into the ring */

/* pipe i is read by worker i and written by worker i-1 (mod n) */
struct ring {
	unsigned n;
	int fds[]; /* 2n: [2i] read end, [2i+1] write end */
};

static int process_prepare(struct ct_load *l, char *err, size_t len)
{
	unsigned n = l->env->procs ? l->env->procs : 4 * (l->env->ncpus ? l->env->ncpus : 1);
	struct ring *r;

	r = malloc(sizeof(*r) + 2 * n * sizeof(int));
	if (!r)
		return ct_err(err, len, -ENOMEM, "process: out of memory");
	r->n = n;
	for (unsigned i = 0; i < 2 * n; i++)
		r->fds[i] = -1;
	l->priv = r;
	l->nworkers = n;
	l->size = n;
	snprintf(l->params, sizeof(l->params), "procs=%u", n);
	return 0;
}

/* In the leader: all pipes exist before any worker forks. */
static int process_leader_init(struct ct_load *l)
{
	struct ring *r = l->priv;
	struct rlimit rl;
	rlim_t need = 2 * (rlim_t)r->n + 64;

	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < need) {
		rl.rlim_cur = rl.rlim_max < need ? rl.rlim_max : need;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
	for (unsigned i = 0; i < r->n; i++)
		if (pipe2(&r->fds[2 * i], O_CLOEXEC))
			return ct_load_fail(l, "process: cannot create pipe %u of %u: %s", i + 1,
					    r->n, strerror(errno));
	return 0;
}

/*
 * Every record is worked on before it is passed on: CHURN_PASSES mixing
 * passes over its 8 KiB, about 50 us of CPU. Without it a ring member
 * runs for a microsecond and sleeps until the next record arrives, and a
 * modern scheduler lets a compile starve the whole ring (measured here:
 * 10% LCPU, Ratio 1.11 under kbuild). With it each member is runnable and
 * CPU-bound while it holds records - CPU-hungry processes, as contest's
 * process_load was meant to be - and still pays the wakeups of the ring.
 */
#define CHURN_PASSES 48

static void churn(unsigned char *rec)
{
	uint64_t w[RECORD / 8], h = 0x9e3779b97f4a7c15ULL;

	memcpy(w, rec, sizeof(w));
	for (unsigned p = 0; p < CHURN_PASSES; p++)
		for (size_t k = 0; k < CT_ARRAY_SIZE(w); k++) {
			h = (h ^ w[k]) * 0x100000001b3ULL;
			w[k] = h ^ (h >> 29);
		}
	memcpy(rec, w, sizeof(w));
}

static int process_work(struct ct_load *l, unsigned i)
{
	struct ring *r = l->priv;
	int in = r->fds[2 * i], out = r->fds[2 * ((i + 1) % r->n) + 1];
	unsigned char rec[RECORD];
	unsigned pending = 0, inject;
	ssize_t n;
	int cap;
	size_t got;

	for (unsigned j = 0; j < 2 * r->n; j++)
		if (r->fds[j] != in && r->fds[j] != out)
			close(r->fds[j]);
	memset(rec, (int)i, sizeof(rec));
	/* Several records per worker keep more of the ring runnable than one
	 * would (4 per worker: ~90% of two CPUs busy instead of ~60%, as a pipe
	 * write wakes its reader on the writer's CPU). Fewer than half a pipe's
	 * worth each, so the ring can never fill up and deadlock. */
	cap = fcntl(out, F_GETPIPE_SZ);
	inject = cap > 0 ? (unsigned)cap / RECORD / 2 : 1;
	inject = inject < 1 ? 1 : inject > INJECT ? INJECT : inject;
	for (n = 0; inject-- && !n;)
		n = ct_load_pwrite_full(out, rec, sizeof(rec), -1);
	while (!n) {
		for (got = 0; got < sizeof(rec); got += (size_t)n) {
			n = read(in, rec + got, sizeof(rec) - got);
			if (n < 0 && errno == EINTR) {
				n = 0;
				continue;
			}
			if (n <= 0)
				return ct_load_fail(l, "process: worker %u lost its ring: %s", i,
						    n ? strerror(errno) : "end of file");
		}
		churn(rec);
		n = ct_load_pwrite_full(out, rec, sizeof(rec), -1);
		if (++pending == BATCH) {
			ct_load_add(l, pending);
			pending = 0;
		}
	}
	return ct_load_fail(l, "process: worker %u cannot write to the ring: %s", i,
			    strerror((int)-n));
}

static void process_cleanup(struct ct_load *l)
{
	free(l->priv);
	l->priv = NULL;
}

static const struct ct_option process_options[] = {
	CT_ENV_OPTION(CT_OPTION_UINT, "procs", procs, "N",
		      "process load ring size (default 4 x CPUs; %R)", 1, 4096, 0),
	CT_OPTION_DONE,
};

const struct ct_load_ops ct_load_process = {
	.name = "process",
	.summary = "a ring of 4 x ncpus processes working on 8 KiB records passed through pipes",
	.flags = CT_LOAD_DEFAULT,
	.options = process_options,
	.work_unit = "records passed",
	.unit_scale = 1,
	.prepare = process_prepare,
	.leader_init = process_leader_init,
	.work = process_work,
	.cleanup = process_cleanup,
};
