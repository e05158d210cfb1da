/*
 * The pgbench workload's reading of a run (src/workloads/pgbench.h).
 */
#include "pgbench.h"
#include "contend/oltp.h"
#include "contend/util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PG_MAX_LAT (1u << 24) /* transactions a run's reading keeps */

struct tx {
	double end; /* completion, s since the epoch */
	uint32_t lat_us;
};

static int by_end(const void *a, const void *b)
{
	double x = ((const struct tx *)a)->end, y = ((const struct tx *)b)->end;

	return (x > y) - (x < y);
}

static int by_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Every transaction of the run's logs ("client tx latency_us script
 * epoch_s epoch_us"), sorted by completion; failed ones left out. */
static struct tx *read_txlogs(const char *dir, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	struct tx *v = NULL;
	size_t cap = 0;

	*n = 0;
	while (d && (de = readdir(d))) {
		char path[PATH_MAX + 300], line[256];
		FILE *f;

		if (strncmp(de->d_name, "txlog.", 6))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		f = fopen(path, "re");
		while (f && fgets(line, sizeof(line), f) && *n < PG_MAX_LAT) {
			long long client, txn, lat, es, eus;
			int script;

			/* a failed transaction logs "failed" or "serialization"
			 * in place of its latency: not read as one */
			if (sscanf(line, "%lld %lld %lld %d %lld %lld", &client, &txn, &lat,
				   &script, &es, &eus) != 6 ||
			    lat < 0)
				continue;
			if (ct_grow((void **)&v, &cap, *n + 1, sizeof(*v), 65536))
				break;
			v[*n].end = (double)es + (double)eus / 1e6;
			v[*n].lat_us = lat > UINT32_MAX ? UINT32_MAX : (uint32_t)lat;
			(*n)++;
		}
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	if (*n)
		qsort(v, *n, sizeof(*v), by_end);
	return v;
}

/* The ramp-up as the oltp engine finds it: the first second after which
 * two consecutive windows of CT_OLTP_STEADY_WIN seconds differ by under
 * CT_OLTP_STEADY_PCT; at most a third of the run, else not steady. */
static unsigned ramp_up(const double *per_sec, unsigned n, bool *steady)
{
	const unsigned W = CT_OLTP_STEADY_WIN;

	*steady = false;
	for (unsigned s = 2 * W; s <= n && s - W <= n / 3; s++) {
		double w0 = 0, w1 = 0;

		for (unsigned i = 0; i < W; i++) {
			w0 += per_sec[s - 2 * W + i];
			w1 += per_sec[s - W + i];
		}
		if (w0 > 0 && fabs(w1 - w0) / w0 * 100 < CT_OLTP_STEADY_PCT) {
			*steady = true;
			return s - W;
		}
	}
	return n / 3;
}

static double pct(const uint32_t *v, size_t n, double q)
{
	size_t k = (size_t)ceil(q / 100 * (double)n); /* nearest rank */

	return n ? (double)v[k ? k - 1 : 0] : NAN;
}

void pgb_summary(const char *file, struct pgb_figures *f)
{
	FILE *fp = fopen(file, "re");
	char line[256];
	double v;

	f->tps_printed = f->txns_printed = f->failed = NAN;
	while (fp && fgets(line, sizeof(line), fp)) {
		if (sscanf(line, "tps = %lf", &v) == 1)
			f->tps_printed = v;
		else if (sscanf(line, "number of transactions actually processed: %lf", &v) == 1)
			f->txns_printed = v;
		else if (sscanf(line, "number of failed transactions: %lf", &v) == 1)
			f->failed = v;
	}
	if (fp)
		fclose(fp);
}

const char *pgb_figures(const char *dir, unsigned duration_s, struct ct_hist *hist,
			struct pgb_figures *f)
{
	struct tx *tx;
	uint32_t *lat;
	size_t n, first, m;
	double t0, sum = 0;

	f->series = NULL;
	f->nseries = 0;
	tx = read_txlogs(dir, &n);
	f->ntx = n;
	if (!n) {
		free(tx);
		return "no transaction completed";
	}
	/* per-second completions from the first transaction's start */
	t0 = tx[0].end - tx[0].lat_us / 1e6;
	for (size_t i = 1; i < n && i < 1024; i++)
		t0 = fmin(t0, tx[i].end - tx[i].lat_us / 1e6);
	f->series = calloc(duration_s, sizeof(*f->series));
	if (!f->series) {
		free(tx);
		return "out of memory";
	}
	for (size_t i = 0; i < n; i++) {
		double s = tx[i].end - t0;

		if (s >= 0 && s < duration_s)
			f->series[(unsigned)s] += 1;
	}
	f->nseries = duration_s;
	f->ramp_s = ramp_up(f->series, duration_s, &f->steady);
	/* the steady part: completions in [t0 + ramp, t0 + duration) */
	for (first = 0; first < n && tx[first].end < t0 + f->ramp_s; first++)
		;
	for (m = first; m < n && tx[m].end < t0 + duration_s; m++)
		;
	lat = m > first ? malloc((m - first) * sizeof(*lat)) : NULL;
	if (!lat) {
		free(tx);
		return m > first ? "out of memory" : "no transaction in the steady part";
	}
	ct_hist_reset(hist);
	for (size_t i = first; i < m; i++) {
		lat[i - first] = tx[i].lat_us;
		sum += tx[i].lat_us;
		ct_hist_add(hist, (uint64_t)tx[i].lat_us * 1000);
	}
	m -= first;
	qsort(lat, m, sizeof(*lat), by_u32);
	f->n = m;
	f->tps = (double)m / (double)(duration_s - f->ramp_s);
	f->mean_us = sum / (double)m;
	f->p50_us = pct(lat, m, 50);
	f->p95_us = pct(lat, m, 95);
	f->p99_us = pct(lat, m, 99);
	f->max_us = lat[m - 1];
	free(lat);
	free(tx);
	return NULL;
}

/* the one that says why, with the server's ERROR; the last says only that
 * the run was aborted */
void pgb_first_error(const char *file, char *buf, size_t len)
{
	FILE *f = fopen(file, "re");
	char line[512], *s;
	size_t k;

	snprintf(buf, len, "pgbench failed");
	while (f && fgets(line, sizeof(line), f)) {
		if (!(s = strstr(line, "error: ")))
			continue;
		s += strlen("error: ");
		s[strcspn(s, "\n")] = '\0';
		k = strlen(s) < len - 1 ? strlen(s) : len - 1;
		memcpy(buf, s, k);
		buf[k] = '\0';
		break;
	}
	if (f)
		fclose(f);
}

/* The server's log beside the session's report (-o FILE): FILE.server.log,
 * written whole (a temporary renamed) or not at all. */
void pgb_keep_log(const char *log, const char *report)
{
	char dst[PATH_MAX + 16], tmp[PATH_MAX + 32], buf[65536];
	int in, out = -1;
	ssize_t n = 0;

	if ((size_t)snprintf(dst, sizeof(dst), "%s.server.log", report) >= sizeof(dst) - 16)
		return;
	snprintf(tmp, sizeof(tmp), "%s.tmp", dst);
	in = open(log, O_RDONLY | O_CLOEXEC);
	if (in >= 0)
		out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (in >= 0 && out < 0)
		fprintf(stderr, "contend: pgbench: cannot keep the server's log as %s: %s\n", dst,
			strerror(errno));
	while (out >= 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			n = -1;
	if (out >= 0 && (close(out) || n < 0 || rename(tmp, dst))) {
		fprintf(stderr, "contend: pgbench: cannot keep the server's log as %s\n", dst);
		unlink(tmp);
	}
	if (in >= 0)
		close(in);
}
