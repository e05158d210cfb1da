/*
 * The OLTP engine's parameters: the options as given resolved against the
 * machine (free space, CPUs, whether the filesystem takes O_DIRECT) and
 * checked, with the user's words for what is wrong, before anything is
 * created; how they are described in a run's parameters, and the score.
 * Apart from the engine because nothing here runs: it decides.
 */
#include "contend/oltp.h"
#include "contend/util.h"

#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MIN_DATA (1ull << 20)

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

static const struct ct_option_choice engines[] = {
	{ "psync", CT_OLTP_PSYNC },
#ifdef CT_HAVE_URING
	{ "io_uring", CT_OLTP_IO_URING },
#define ENGINE_HELP "psync (default) or io_uring"
#else
#define ENGINE_HELP "psync (io_uring was not built in)"
#endif
	{ NULL, 0 },
};
/* a choice stores an int: the enum it writes to is one */
_Static_assert(sizeof(enum ct_oltp_engine) == sizeof(int), "--engine stores an int");

#define OPT	 CT_OLTP_OPTION
#define GIVEN(m) .given_off = offsetof(struct ct_oltp_opts, m)

const struct ct_option ct_oltp_options[] = {
	OPT(CT_OPTION_SIZE, "data-size", data_size, "SIZE",
	    "data file (default 4GiB, quick 512MiB, load 1/4; at\nmost a quarter of the free "
	    "space; %R)",
	    1048576, INFINITY, 0),
	{ .type = CT_OPTION_SIZE,
	  .name = "pool-size",
	  .in = CT_OPTION_IN_OLTP,
	  .off = offsetof(struct ct_oltp_opts, pool_size),
	  .argh = "SIZE",
	  .help = "engine buffer pool (default data/32; 0 = none)",
	  .max = INFINITY,
	  GIVEN(pool_set) },
	OPT(CT_OPTION_SIZE, "log-size", log_size, "SIZE",
	    "circular log file (default 64MiB, quick 16MiB; %R)", 262144, INFINITY, 0),
	OPT(CT_OPTION_UINT, "clients", clients, "N",
	    "client threads (default 4 x CPUs; load: CPUs; %R)", 1, 4096, 0),
	{ .type = CT_OPTION_UINT,
	  .name = "reads",
	  .in = CT_OPTION_IN_OLTP,
	  .off = offsetof(struct ct_oltp_opts, reads),
	  .argh = "N",
	  .help = "pages read per transaction (default 10; %R)",
	  .min = 1,
	  .max = CT_OLTP_MAX_READS,
	  GIVEN(reads_set) },
	{ .type = CT_OPTION_UINT,
	  .name = "writes",
	  .in = CT_OPTION_IN_OLTP,
	  .off = offsetof(struct ct_oltp_opts, writes),
	  .argh = "N",
	  .help = "of those, pages dirtied (default 2; %R)",
	  .max = CT_OLTP_MAX_READS,
	  GIVEN(writes_set) },
	OPT(CT_OPTION_DOUBLE, "zipf", zipf, "THETA", "skewed page choice, %R (default 0: uniform)",
	    0, 1, CT_OPTION_MAX_OPEN),
	{ .type = CT_OPTION_UINT,
	  .name = "db-writers",
	  .in = CT_OPTION_IN_OLTP,
	  .off = offsetof(struct ct_oltp_opts, db_writers),
	  .argh = "N",
	  .help = "threads writing dirty pages back (default 2; %R)",
	  .max = 256,
	  GIVEN(db_writers_set) },
	OPT(CT_OPTION_DURATION, "duration", duration_ns, "D",
	    "measured time per run (default 60s, quick 30s; %R)", 0, INFINITY, CT_OPTION_MIN_OPEN),
	{ .type = CT_OPTION_DURATION,
	  .name = "ramp-max",
	  .in = CT_OPTION_IN_OLTP,
	  .off = offsetof(struct ct_oltp_opts, ramp_max_ns),
	  .argh = "D",
	  .help = "ramp-up limit (default 60s, quick 20s; 0 = none)",
	  .max = INFINITY,
	  GIVEN(ramp_set) },
	{ .type = CT_OPTION_DOUBLE,
	  .name = "rate",
	  .in = CT_OPTION_IN_OLTP,
	  .off = offsetof(struct ct_oltp_opts, rate),
	  .argh = "TPS",
	  .help = "open loop with Poisson arrivals (default closed loop;\n%R)",
	  .doc = "Latency is then counted from each transaction's scheduled start.",
	  .max = INFINITY,
	  .flags = CT_OPTION_MIN_OPEN },
	{ .type = CT_OPTION_U64,
	  .name = "seed",
	  .in = CT_OPTION_IN_OLTP,
	  .off = offsetof(struct ct_oltp_opts, seed),
	  .argh = "N",
	  .help = "page sequence seed (default 42)",
	  .max = INFINITY,
	  GIVEN(seed_set) },
	OPT(CT_OPTION_FLAG, "buffered", buffered, NULL,
	    "page cache instead of O_DIRECT and an own pool, in a\nmemory-limited cgroup (root)", 0,
	    0, 0),
	OPT(CT_OPTION_SIZE, "mem-limit", mem_limit, "SIZE",
	    "--buffered: the cgroup's limit (default data/32 + 16MiB;\n%R)", 1048576, INFINITY, 0),
	{ .type = CT_OPTION_CHOICE,
	  .name = "engine",
	  .in = CT_OPTION_IN_OLTP,
	  .off = offsetof(struct ct_oltp_opts, engine),
	  .argh = "E",
	  .help = ENGINE_HELP,
	  .doc = "With io_uring a transaction's reads are submitted together.",
	  .choices = engines,
	  .def = "psync" },
	CT_OPTION_DONE,
};
