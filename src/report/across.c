/*
 * The machine's spread of sessions (docs/statistics.md, "One session a
 * side" and "The spread at the comparison's gap"): when a config is
 * compared with the baseline across sessions and a side has one session,
 * the two cannot say how far sessions move on their own; every other
 * config this machine measured in two sessions or more, under the same
 * workload, parameters and load, can - and how far depends on how far
 * apart the sessions compared are, and whether a reboot lies between
 * them. Each session is summarized once (a sitting: its config, group,
 * start, boot and the mean of the logs of its runs; the newest 32 of each
 * config); the spread of a comparison comes from the pairs of sittings at
 * least as far apart.
 * contend calibrate --sessions K [--every D] stores such a config on
 * purpose.
 */
#include "internal.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Whether a run's session counts: finished whole, on the machine */
static const struct ct_session_rec *counts(const struct ct_session_rec *recs, size_t nrecs,
					   int64_t id, const char *machine)
{
	const struct ct_session_rec *r = ct_store_session_of(recs, nrecs, id);

	return r && r->status == CT_SESSION_COMPLETE && !strcmp(r->owner.machine, machine) ? r
											   : NULL;
}

uint64_t ct_report_boot_key(const char *boot)
{
	/* FNV-1a: a boot id as a number the stats layer can compare; 0 for
	 * an unknown one */
	uint64_t h = 1469598103934665603ULL;

	if (!boot || !*boot)
		return 0;
	for (const char *p = boot; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	return h ? h : 1;
}

static int by_session(const void *a, const void *b)
{
	const struct ct_run_value *x = *(const struct ct_run_value *const *)a,
				  *y = *(const struct ct_run_value *const *)b;

	if (x->session_id != y->session_id)
		return (x->session_id > y->session_id) - (x->session_id < y->session_id);
	if (x->config_id != y->config_id)
		return (x->config_id > y->config_id) - (x->config_id < y->config_id);
	return (x->run_id > y->run_id) - (x->run_id < y->run_id);
}

/* The sessions of each config the spread reads: a fleet's store holds a
 * year of nightly sessions of hundreds of configs, whose pairs would cost
 * a fleet summary seconds. The newest 32 (a month of nightly ones), then
 * fewer the older they are - the 64th, 128th, 256th... newest and the
 * oldest - so that the long gaps stay covered. */
#define SPREAD_SESSIONS 32

static int by_config_newest(const void *a, const void *b)
{
	const struct ct_stats_sitting *x = a, *y = b;

	if (x->config != y->config)
		return (x->config > y->config) - (x->config < y->config);
	return (x->start_ns < y->start_ns) - (x->start_ns > y->start_ns);
}

/* Keeps, of each config of s[0..n-1], its newest SPREAD_SESSIONS, then
 * those whose place from the newest is a power of two, and its oldest;
 * the count. */
static size_t newest_only(struct ct_stats_sitting *s, size_t n)
{
	size_t kept = 0, run = 0;

	qsort(s, n, sizeof(*s), by_config_newest);
	for (size_t i = 0; i < n; i++) {
		bool oldest = i + 1 == n || s[i + 1].config != s[i].config;

		run = i && s[i].config == s[i - 1].config ? run + 1 : 0;
		if (run < SPREAD_SESSIONS || !(run & (run - 1)) || oldest)
			s[kept++] = s[i];
	}
	return kept;
}

int rp_sittings(const struct ct_run_value *vals, size_t n, const struct ct_session_rec *recs,
		size_t nrecs, const char *load, const char *machine, struct ct_stats_sitting **out,
		size_t *nout)
{
	const struct ct_run_value **keep = malloc((n ? n : 1) * sizeof(*keep));
	double *v = malloc((n ? n : 1) * sizeof(*v));
	struct ct_stats_sitting *s = malloc((n ? n : 1) * sizeof(*s));
	size_t nk = 0, ns = 0;
	int rc = keep && v && s ? 0 : -ENOMEM;

	for (size_t i = 0; !rc && i < n; i++)
		if (vals[i].value > 0 && (!load || !strcmp(vals[i].load, load)) &&
		    counts(recs, nrecs, vals[i].session_id, machine))
			keep[nk++] = &vals[i];
	if (!rc)
		qsort(keep, nk, sizeof(*keep), by_session);
	/* session by session (and config by config: a --vary session's
	 * configs each have a session of their own, but an imported one may
	 * not): the runs of each */
	for (size_t i = 0, m = 0; !rc && i < nk; i++) {
		const struct ct_session_rec *r;

		v[m++] = keep[i]->value;
		if (i + 1 < nk && keep[i + 1]->session_id == keep[i]->session_id &&
		    keep[i + 1]->config_id == keep[i]->config_id)
			continue;
		r = ct_store_session_of(recs, nrecs, keep[i]->session_id);
		if (ct_stats_sitting_of(v, m, &s[ns]) == 0) {
			s[ns].config = keep[i]->config_id;
			s[ns].session = keep[i]->session_id;
			s[ns].group = r->group_id;
			s[ns].start_ns = r->started_at;
			s[ns].boot = ct_report_boot_key(r->owner.boot);
			ns++;
		}
		m = 0;
	}
	free(keep);
	free(v);
	if (rc) {
		free(s);
		s = NULL;
		ns = 0;
	}
	*out = s;
	*nout = s ? newest_only(s, ns) : 0;
	return rc;
}

void rp_gap_of(const struct ct_session_rec *recs, size_t nrecs, const int64_t *a, size_t na,
	       const int64_t *b, size_t nb, int64_t *gap_ns, bool *reboot)
{
	*gap_ns = 0;
	*reboot = false;
	for (size_t i = 0; i < na; i++)
		for (size_t j = 0; j < nb; j++) {
			const struct ct_session_rec *x = ct_store_session_of(recs, nrecs, a[i]);
			const struct ct_session_rec *y = ct_store_session_of(recs, nrecs, b[j]);
			int64_t g;

			if (!x || !y)
				continue;
			g = x->started_at > y->started_at ? x->started_at - y->started_at
							  : y->started_at - x->started_at;
			*gap_ns = g > *gap_ns ? g : *gap_ns;
			*reboot |= x->owner.boot[0] && y->owner.boot[0] &&
				   strcmp(x->owner.boot, y->owner.boot);
		}
}

/* The sittings of the machine's sessions of workload (its parameters, or
 * any) under load, from the store: *s malloc'd. */
static int machine_sittings(struct ct_store *st, const struct ct_session_rec *recs, size_t nrecs,
			    const char *workload, const char *params, const char *load,
			    const char *machine, struct ct_stats_sitting **s, size_t *ns, char *err,
			    size_t len)
{
	struct ct_run_filter f = {
		.workload = workload,
		.load = load,
		.workload_params = params && params[0] ? params : NULL,
		.ok_only = true,
	};
	struct ct_run_value *vals = NULL;
	size_t n = 0;
	int rc = ct_store_run_values(st, &f, &vals, &n, err, len);

	*s = NULL;
	*ns = 0;
	if (!rc && rp_sittings(vals, n, recs, nrecs, NULL, machine, s, ns))
		rc = ct_err(err, len, -ENOMEM, "out of memory");
	free(vals);
	return rc;
}

int ct_report_spread(struct ct_store *st, const struct ct_session_rec *recs, size_t nrecs,
		     const char *workload, const char *params, const char *load,
		     const char *machine, const int64_t *a, size_t na, const int64_t *b, size_t nb,
		     struct ct_stats_between *out, char *err, size_t len)
{
	int64_t gap_ns = 0;
	bool reboot = false;
	struct ct_stats_sitting *s = NULL;
	size_t ns = 0;
	int rc;

	memset(out, 0, sizeof(*out));
	out->var = NAN;
	if (na)
		rp_gap_of(recs, nrecs, a, na, b, nb, &gap_ns, &reboot);
	rc = machine_sittings(st, recs, nrecs, workload, params, load, machine, &s, &ns, err, len);
	if (!rc && ct_stats_spread_at(s, ns, gap_ns, reboot, out))
		rc = ct_err(err, len, -ENOMEM, "out of memory");
	free(s);
	return rc;
}

/* A duration as --every takes it, rounded up: "45s", "7m", "2h". */
static void every_text(int64_t ns, char *buf, size_t len)
{
	int64_t s = (ns + 999999999) / 1000000000;

	if (s < 120)
		snprintf(buf, len, "%llds", (long long)s);
	else if (s < 7200)
		snprintf(buf, len, "%lldm", (long long)((s + 59) / 60));
	else
		snprintf(buf, len, "%lldh", (long long)((s + 3599) / 3600));
}

/* Whether word (an option of run) is one the calibration does without:
 * 1 a flag, 2 an option with a value, 0 one it keeps. */
static int dropped(const char *w)
{
	static const char *const flags[] = { "-q",   "--quiet", "--dry-run",	    "--adaptive",
					     "--aa", "-i",	"--ignore-failures" };
	static const char *const vals[] = {
		"-L",	      "--label",    "-n",	  "--runs",	     "-o",
		"--output",   "--format",   "--baseline", "--target-effect", "--precision",
		"--max-runs", "--aa-pairs", "--commit",	  "--vary",	     "--set",
		"--progress", "-l",	    "--loads",	  "--order",	     "--order-seed",
		"--sessions", "--every",    "--effect",	  "--from"
	};

	for (size_t i = 0; i < CT_ARRAY_SIZE(flags); i++)
		if (!strcmp(w, flags[i]))
			return 1;
	for (size_t i = 0; i < CT_ARRAY_SIZE(vals); i++) {
		size_t n = strlen(vals[i]);

		if (!strcmp(w, vals[i]))
			return 2;
		/* --label=X, and a short option's value attached: -Lrc3, -n10 */
		if (!strncmp(w, vals[i], n) && (w[n] == '=' || (n == 2 && w[n])))
			return 1;
	}
	return 0;
}

void rp_calibrate_hint(const struct ct_session_rec *rec, const char *load, int64_t gap_ns,
		       bool reboot, char *buf, size_t len)
{
	char **w = NULL, every[32];
	size_t off = 0;
	int n = rec ? ct_split_words(rec->argv, &w) : -1, i = 1;
	int64_t took = rec && rec->ended_at > rec->started_at ? rec->ended_at - rec->started_at : 0;
	bool ok = n > 0 && len > 0;

	if (len)
		buf[0] = '\0';
	if (ok)
		ok = ct_append_word(buf, len, &off, "contend") &&
		     ct_append_word(buf, len, &off, "calibrate");
	/* the session's options that shape the workload, its parameters and
	 * the load compared; the command after -- as it was */
	for (; ok && i < n && strcmp(w[i], "--"); i++) {
		int d = dropped(w[i]);

		if (d) {
			i += d - 1;
			continue;
		}
		ok = ct_append_word(buf, len, &off, w[i]);
	}
	ok = ok && ct_append_word(buf, len, &off, "-l") && ct_append_word(buf, len, &off, load) &&
	     ct_append_word(buf, len, &off, "--sessions") &&
	     ct_append_word(buf, len, &off, reboot ? "2" : "4");
	/* four sessions span three gaps: --every a third of the comparison's,
	 * unless back to back they already do */
	if (ok && !reboot && 3 * took < gap_ns) {
		every_text(gap_ns / 3 > took ? gap_ns / 3 : took, every, sizeof(every));
		ok = ct_append_word(buf, len, &off, "--every") &&
		     ct_append_word(buf, len, &off, every);
	}
	for (; ok && i < n; i++)
		ok = ct_append_word(buf, len, &off, w[i]);
	if (ok && reboot)
		ok = snprintf(buf + off, len - off, " (in this boot and again after a reboot)") <
		     (int)(len - off);
	if (!ok && len)
		snprintf(buf, len, "contend calibrate -l %s --sessions %s%s", load,
			 reboot ? "2" : "4",
			 reboot ? " (in this boot and again after a reboot)" : "");
	free(w);
}

int ct_report_spread_classes(struct ct_store *st, const struct ct_session_rec *recs, size_t nrecs,
			     const char *workload, const char *params, const char *load,
			     const char *machine, const int64_t *edges, size_t nedges,
			     struct ct_stats_spread_class *out, struct ct_stats_between *all,
			     char *err, size_t len)
{
	struct ct_stats_sitting *s = NULL;
	size_t ns = 0;
	int rc = machine_sittings(st, recs, nrecs, workload, params, load, machine, &s, &ns, err,
				  len);

	if (!rc && (ct_stats_spread_classes(s, ns, edges, nedges, out) ||
		    ct_stats_spread_at(s, ns, 0, false, all)))
		rc = ct_err(err, len, -ENOMEM, "out of memory");
	free(s);
	return rc;
}
