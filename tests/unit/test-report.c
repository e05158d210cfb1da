/*
 * The report model from a real SQLite store: means per row, Ratio against
 * the reference config's no-load mean (worked out by hand below), the
 * fallback to a stored no-load session, failed runs kept out of the means
 * and listed, and the text layout of contest's table.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "contend/report.h"
#include "contend/store.h"
#include "contend/util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fx {
	char dir[64];
	struct ct_store *st;
	int64_t cfg_a, cfg_b;
	int64_t sess_a1, sess_a2, sess_b;
};

static int64_t add_session(struct fx *fx, int64_t cfg, const char *label)
{
	struct ct_session_rec rec;
	char err[CT_ERRLEN];

	memset(&rec, 0, sizeof(rec));
	rec.config_id = cfg;
	snprintf(rec.label, sizeof(rec.label), "%s", label);
	snprintf(rec.workload, sizeof(rec.workload), "kbuild");
	snprintf(rec.profile, sizeof(rec.profile), "full");
	assert_int_equal(ct_store_session_begin(fx->st, &rec, err, sizeof(err)), 0);
	return rec.id;
}

static void add_run(struct fx *fx, int64_t sess, int64_t cfg, const char *load, unsigned seq,
		    double time_s, double cpu_s, uint64_t work, enum ct_run_status status)
{
	struct ct_run r;
	char err[CT_ERRLEN];

	memset(&r, 0, sizeof(r));
	r.session_id = sess;
	r.config_id = cfg;
	snprintf(r.workload, sizeof(r.workload), "kbuild");
	snprintf(r.load, sizeof(r.load), "%s", load);
	snprintf(r.workload_params, sizeof(r.workload_params), "files=10");
	r.seq = seq;
	r.status = status;
	if (status != CT_RUN_OK)
		snprintf(r.reason, sizeof(r.reason), "load 'io' exited with status 1");
	r.wall_ns = (int64_t)(time_s * 1e9);
	r.user_us = (int64_t)(cpu_s * 1e6);
	r.load_work = work;
	r.load_unit_scale = 1e6;
	r.load_user_us = (int64_t)(time_s * 0.25e6); /* LCPU 25% */
	assert_int_equal(ct_store_run_put(fx->st, &r, err, sizeof(err)), 0);
}

static int setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));
	struct ct_sysinfo si;
	char path[128], err[CT_ERRLEN];

	memset(&si, 0, sizeof(si));
	snprintf(si.kernel_release, sizeof(si.kernel_release), "6.18.44");
	snprintf(si.fingerprint, sizeof(si.fingerprint), "0123456789abcdef");
	snprintf(fx->dir, sizeof(fx->dir), "/tmp/ct-report-XXXXXX");
	assert_non_null(mkdtemp(fx->dir));
	snprintf(path, sizeof(path), "%s/r.db", fx->dir);
	assert_int_equal(ct_store_open(&fx->st, path, CT_STORE_CREATE, err, sizeof(err)), 0);
	assert_int_equal(ct_store_config_put(fx->st, "a", &si, &fx->cfg_a, err, sizeof(err)), 0);
	assert_int_equal(ct_store_config_put(fx->st, "b", &si, &fx->cfg_b, err, sizeof(err)), 0);

	/* a, session 1: no-load 10 and 12 s (mean 11), io 15 and 17 s + one failed */
	fx->sess_a1 = add_session(fx, fx->cfg_a, "a");
	add_run(fx, fx->sess_a1, fx->cfg_a, "none", 1, 10, 10, 0, CT_RUN_OK);
	add_run(fx, fx->sess_a1, fx->cfg_a, "none", 2, 12, 12, 0, CT_RUN_OK);
	add_run(fx, fx->sess_a1, fx->cfg_a, "io", 1, 15, 7.5, 1000000000ULL, CT_RUN_OK);
	add_run(fx, fx->sess_a1, fx->cfg_a, "io", 2, 17, 8.5, 3000000000ULL, CT_RUN_OK);
	add_run(fx, fx->sess_a1, fx->cfg_a, "io", 3, 500, 1, 0, CT_RUN_FAILED);
	/* a, session 2: io only (22 s) - its Ratio must use session 1's no-load mean */
	fx->sess_a2 = add_session(fx, fx->cfg_a, "a");
	add_run(fx, fx->sess_a2, fx->cfg_a, "io", 1, 22, 11, 2000000000ULL, CT_RUN_OK);
	/* b: no-load 20 s, io 30 s */
	fx->sess_b = add_session(fx, fx->cfg_b, "b");
	add_run(fx, fx->sess_b, fx->cfg_b, "none", 1, 20, 20, 0, CT_RUN_OK);
	add_run(fx, fx->sess_b, fx->cfg_b, "io", 1, 30, 15, 500000000ULL, CT_RUN_OK);
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fx *fx = *state;

	ct_store_close(fx->st);
	ct_rm_rf(fx->dir);
	free(fx);
	return 0;
}

/* Builds the model of srcs under loads (kbuild, params) into rep. */
/* the sessions of a label pooled: all (the default) or the latest */
static enum ct_report_pool pool;

static int build(struct fx *fx, struct ct_report *rep, const char *params,
		 const struct ct_report_source *src, size_t nsrc, const char *const *loads,
		 size_t nloads, const char *ref)
{
	static const char *const units[] = { "-", "MB written", "MB written" };
	struct ct_report_query q = {
		.workload = "kbuild",
		.params = params,
		.src = src,
		.nsrc = nsrc,
		.loads = loads,
		.work_units = units + 1,
		.nloads = nloads,
		.ref_label = ref,
		.confidence = 95,
		.pool = pool,
	};
	char err[CT_ERRLEN];
	int rc = ct_report_build(rep, fx->st, &q, err, sizeof(err));

	if (rc)
		print_error("ct_report_build: %s\n", err);
	return rc;
}

static void print_verdicts(FILE *f, const struct ct_report *rep)
{
	ct_report_print_verdicts(f, rep, NULL);
}

static char *print(const struct ct_report *rep,
		   void (*printer)(FILE *f, const struct ct_report *rep))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	printer(f, rep);
	fclose(f);
	return buf;
}

static void test_same_config(void **state)
{
	struct fx *fx = *state;
	const char *loads[] = { "none", "io" };
	struct ct_report_source src = { "a", fx->sess_a1 };
	struct ct_report rep;
	const struct ct_report_cell *io;

	assert_int_equal(build(fx, &rep, "files=10", &src, 1, loads, 2, NULL), 0);
	/* kbuild's runs carry no figure of their own: judged by Time */
	assert_int_equal(rep.figure_kind, CT_FIGURE_TIME);
	assert_string_equal(rep.figure_key, "time_s");
	assert_true(fabs(rep.ref_time_s - 11.0) < 1e-9);
	assert_int_equal(rep.ref_session_id, fx->sess_a1);
	assert_int_equal(rep.nblocks, 2);
	assert_int_equal(rep.blocks[0].cells[0].g.n, 2);
	assert_true(fabs(rep.blocks[0].cells[0].ratio - 1.0) < 1e-9);
	/* io: mean 16 s over the two good runs, ratio 16/11, Loads (1000+3000)/2 MB */
	io = &rep.blocks[1].cells[0];
	assert_int_equal(io->g.n, 2);
	assert_int_equal(io->g.nfailed, 1);
	assert_int_equal(io->nruns, 3);
	assert_int_equal(io->n, 2);
	assert_true(io->values[0] == 15 && io->values[1] == 17);
	assert_true(fabs(io->g.time_s - 16.0) < 1e-9);
	assert_true(fabs(io->ratio - 16.0 / 11.0) < 1e-9);
	assert_true(fabs(io->g.loads - 2000.0) < 1e-9);
	assert_true(fabs(io->g.cpu_pct - 50.0) < 1e-6);
	assert_true(fabs(io->g.lcpu_pct - 25.0) < 1e-6);
	/* one config: the baseline, compared with nothing */
	assert_int_equal(rep.blocks[1].base_cell, 0);
	assert_false(io->compared);
	ct_report_release(&rep);
}

static void test_stored_reference(void **state)
{
	struct fx *fx = *state;
	const char *loads[] = { "io" };
	struct ct_report_source src = { "a", fx->sess_a2 };
	struct ct_report rep;

	assert_int_equal(build(fx, &rep, "files=10", &src, 1, loads, 1, NULL), 0);
	assert_true(fabs(rep.ref_time_s - 11.0) < 1e-9);
	assert_true(fabs(rep.blocks[0].cells[0].ratio - 2.0) < 1e-9); /* 22 / 11 */
	ct_report_release(&rep);

	/* other workload params: no reference, Ratio is NaN */
	assert_int_equal(build(fx, &rep, "files=99", &src, 1, loads, 1, NULL), 0);
	assert_true(isnan(rep.ref_time_s));
	assert_int_equal(rep.blocks[0].cells[0].g.n, 0);
	ct_report_release(&rep);
}

static void test_baseline_and_text(void **state)
{
	struct fx *fx = *state;
	const char *loads[] = { "none", "io" };
	struct ct_report_source src[2] = { { "a", 0 }, { "b", fx->sess_b } };
	struct ct_report rep;
	char *buf;

	/* every session of a counts: io 15 and 17 s in the first, 22 s in the
	 * second */
	assert_int_equal(build(fx, &rep, "files=10", src, 2, loads, 2, "a"), 0);
	assert_true(fabs(rep.blocks[1].cells[0].g.time_s - 18.0) < 1e-9);
	assert_int_equal(rep.blocks[1].cells[0].nsessions, 2);
	assert_int_equal(rep.blocks[1].cells[0].session_id, fx->sess_a2);
	assert_int_equal(rep.configs[0].nsessions, 2);
	assert_int_equal(rep.configs[0].nruns, 5);
	ct_report_release(&rep);
	/* the latest alone: a's latest session with io is session 2 (22 s) */
	pool = CT_POOL_LATEST;
	assert_int_equal(build(fx, &rep, "files=10", src, 2, loads, 2, "a"), 0);
	pool = CT_POOL_ALL;
	assert_true(fabs(rep.blocks[1].cells[0].g.time_s - 22.0) < 1e-9);
	assert_int_equal(rep.blocks[1].cells[0].nsessions, 1);
	/* b against a's no-load mean: 20/11 and 30/11 */
	assert_true(fabs(rep.blocks[0].cells[1].ratio - 20.0 / 11.0) < 1e-9);
	assert_true(fabs(rep.blocks[1].cells[1].ratio - 30.0 / 11.0) < 1e-9);

	buf = print(&rep, ct_report_print_table);
	assert_non_null(strstr(buf, "none:\nConfig")); /* labels a and b: no kernels */
	assert_non_null(strstr(buf, "[runs] Time(s)  CPU%  Loads    LCPU%  Ratio"));
	assert_non_null(strstr(buf, "io:\n"));
	assert_non_null(strstr(buf, "2.73")); /* 30/11 */
	assert_non_null(strstr(buf, "1.82")); /* 20/11 */
	assert_non_null(strstr(buf, "Ratio = Time / 11.00 s, the no-load mean of 'a' (session 1)"));
	assert_non_null(strstr(buf, "io = MB written"));
	free(buf);
	/* b has one run a load: no test, and the verdict says why */
	assert_true(rep.blocks[0].cells[1].compared);
	assert_int_equal(rep.blocks[0].cells[1].cmp.outcome, CT_OUTCOME_NOT_ENOUGH);
	buf = print(&rep, print_verdicts);
	assert_non_null(strstr(buf, "none      b vs a: not enough runs for a verdict (4 a side "
				    "needed)\n"));
	free(buf);
	ct_report_release(&rep);

	/* the failed run is listed with its reason */
	src[0].session_id = fx->sess_a1;
	assert_int_equal(build(fx, &rep, "files=10", src, 1, loads, 2, NULL), 0);
	buf = print(&rep, ct_report_print_table);
	assert_non_null(strstr(buf, "a run 3 failed: load 'io' exited with status 1"));
	free(buf);
	ct_report_release(&rep);
}

/* Runs of load at times[] (seconds) in session sess, each in block i + 1
 * when blocked. */
static void add_runs(struct fx *fx, int64_t sess, int64_t cfg, const char *load,
		     const double *times, size_t n, bool blocked)
{
	char err[CT_ERRLEN];

	for (size_t i = 0; i < n; i++) {
		struct ct_run r;

		memset(&r, 0, sizeof(r));
		r.session_id = sess;
		r.config_id = cfg;
		snprintf(r.workload, sizeof(r.workload), "kbuild");
		snprintf(r.load, sizeof(r.load), "%s", load);
		snprintf(r.workload_params, sizeof(r.workload_params), "files=20");
		r.seq = (unsigned)i + 1;
		r.block = blocked ? (unsigned)i + 1 : 0;
		r.wall_ns = (int64_t)(times[i] * 1e9);
		assert_int_equal(ct_store_run_put(fx->st, &r, err, sizeof(err)), 0);
	}
}

/* A session of cfg - of the interleaved group when blocked (0: its own) -
 * with runs of load. */
static int64_t session_with(struct fx *fx, int64_t cfg, const char *label, int64_t group,
			    const char *load, const double *times, size_t n, bool blocked)
{
	struct ct_session_rec rec;
	char err[CT_ERRLEN];

	memset(&rec, 0, sizeof(rec));
	rec.config_id = cfg;
	snprintf(rec.label, sizeof(rec.label), "%s", label);
	snprintf(rec.workload, sizeof(rec.workload), "kbuild");
	if (blocked) {
		snprintf(rec.order, sizeof(rec.order), "interleaved");
		rec.group_id = group;
	}
	assert_int_equal(ct_store_session_begin(fx->st, &rec, err, sizeof(err)), 0);
	add_runs(fx, rec.id, cfg, load, times, n, blocked);
	return rec.id;
}

/* The comparisons of the model: configs of one interleaved group pair by
 * block (the signed-rank test decides), others do not; Holm across the loads of a
 * config, worked out by hand from the two raw p-values; a flagged run with
 * foreign CPU is a likely fluke, and the mean without it is the others'. */
static void test_comparisons(void **state)
{
	static const double x_none[] = { 10.0, 10.4, 9.8, 10.9, 10.2, 10.6, 10.1, 10.3 };
	/* x + 0.3..0.4 in every block */
	static const double y_none[] = { 10.3, 10.8, 10.1, 11.3, 10.5, 10.95, 10.45, 10.62 };
	static const double x_io[] = { 20, 21, 19, 22, 20, 21.5, 20.5, 19.5 };
	static const double y_io[] = { 20.5, 20.4, 19.9, 22.1, 20.2, 21.0, 20.9, 19.6 };
	static const double z_none[] = { 10.1, 10.3, 30.0, 10.2, 10.0 };
	struct fx *fx = *state;
	struct ct_sysinfo si;
	struct ct_report rep;
	struct ct_report_source src[3] = { { "x", 0 }, { "y", 0 }, { "z", 0 } };
	const char *loads[] = { "none", "io" };
	int64_t cx, cy, cz, sx, sy, sz;
	(void)sy;
	char err[CT_ERRLEN];
	const struct ct_report_cell *y0, *y1, *z0;

	memset(&si, 0, sizeof(si));
	snprintf(si.fingerprint, sizeof(si.fingerprint), "00000000000000aa");
	assert_int_equal(ct_store_config_put(fx->st, "x", &si, &cx, err, sizeof(err)), 0);
	assert_int_equal(ct_store_config_put(fx->st, "y", &si, &cy, err, sizeof(err)), 0);
	assert_int_equal(ct_store_config_put(fx->st, "z", &si, &cz, err, sizeof(err)), 0);
	sx = session_with(fx, cx, "x", 0, "none", x_none, 8, true);
	sy = session_with(fx, cy, "y", sx, "none", y_none, 8, true);
	add_runs(fx, sx, cx, "io", x_io, 8, true);
	add_runs(fx, sy, cy, "io", y_io, 8, true);
	sz = session_with(fx, cz, "z", 0, "none", z_none, 5, false);
	add_runs(fx, sz, cz, "io", x_io, 5, false);
	/* a session of z whose third run is an outlier beside foreign CPU */
	{
		struct ct_run r;

		memset(&r, 0, sizeof(r));
		r.session_id = sz;
		r.config_id = cz;
		snprintf(r.workload, sizeof(r.workload), "kbuild");
		snprintf(r.load, sizeof(r.load), "mem");
		snprintf(r.workload_params, sizeof(r.workload_params), "files=20");
		for (unsigned i = 0; i < 5; i++) {
			r.seq = i + 1;
			r.wall_ns = (int64_t)(z_none[i] * 1e9);
			r.mon.foreign_cpu_us = i == 2 ? r.wall_ns / 1000 / 4 : 0; /* 25% */
			r.mon.steal_us = i == 2 ? r.wall_ns / 1000 / 100 : 0;	  /* 1% */
			/* run 3 began with 1 GiB dirty, 64 MiB under writeback,
			 * and met a load of 40 units/s against the others' 100 */
			r.mon.start_dirty_bytes = i == 2 ? 1ll << 30 : 16ll << 20;
			r.mon.start_writeback_bytes = i == 2 ? 64ll << 20 : 0;
			/* and its CPU ran at 150 steps/us against the others' 200 */
			r.mon.start_cpu_speed = i == 2 ? 150 : 200;
			r.load_unit_scale = 1e6;
			r.load_work = (uint64_t)((i == 2 ? 40 : 100) * z_none[i] * 1e6);
			assert_int_equal(ct_store_run_put(fx->st, &r, err, sizeof(err)), 0);
		}
	}
	assert_int_equal(build(fx, &rep, "files=20", src, 3, loads, 2, NULL), 0);
	assert_string_equal(rep.base_label, "x");
	y0 = &rep.blocks[0].cells[1];
	y1 = &rep.blocks[1].cells[1];
	z0 = &rep.blocks[0].cells[2];
	assert_true(y0->compared && y0->paired && rep.paired);
	assert_int_equal(y0->cmp.npairs, 8);
	assert_int_equal(y0->cmp.decided_by, CT_TEST_SIGNED_RANK);
	assert_true(z0->compared && !z0->paired);
	assert_int_equal(z0->cmp.npairs, 0);
	assert_int_equal(z0->cmp.decided_by, CT_TEST_RANK);
	/* Holm across none and io for y: the smaller p doubled, the larger
	 * at least that */
	{
		double lo = fmin(y0->cmp.p, y1->cmp.p), hi = fmax(y0->cmp.p, y1->cmp.p);
		double adj_lo = fmin(1, 2 * lo), adj_hi = fmax(adj_lo, hi);
		const struct ct_report_cell *first = y0->cmp.p <= y1->cmp.p ? y0 : y1;
		const struct ct_report_cell *second = first == y0 ? y1 : y0;

		assert_true(fabs(first->cmp.p_adj - adj_lo) < 1e-12);
		assert_true(fabs(second->cmp.p_adj - adj_hi) < 1e-12);
	}
	/* y is slower in every one of the 8 blocks: the exact signed-rank
	 * test sees it, its p the two sign patterns as extreme (all +, all -)
	 * of the 256 */
	assert_true(y0->cmp.shift.exact);
	assert_true(fabs(y0->cmp.p - 2.0 / 256) < 1e-12);
	assert_int_equal(y0->cmp.outcome, CT_OUTCOME_HIGHER);
	assert_string_equal(ct_report_verdict(&rep, y0), "worse");
	/* z's 30 s run is flagged; no interference was recorded */
	assert_int_equal(z0->nflags, 1);
	assert_int_equal(z0->flags[0].value, 2);
	assert_false(z0->flags[0].likely_fluke);
	assert_true(fabs(z0->mean_unflagged - (10.1 + 10.3 + 10.2 + 10.0) / 4) < 1e-12);
	ct_report_release(&rep);

	/* under mem the same outlier shows 25% foreign CPU: a likely fluke */
	loads[0] = "mem";
	assert_int_equal(build(fx, &rep, "files=20", src + 2, 1, loads, 1, NULL), 0);
	z0 = &rep.blocks[0].cells[0];
	assert_int_equal(z0->nflags, 1);
	assert_true(z0->flags[0].likely_fluke);
	assert_true(fabs(z0->flags[0].foreign_pct - 25) < 1e-6);
	assert_true(fabs(z0->flags[0].steal_pct - 1) < 1e-6);
	assert_true(z0->flags[0].start_dirty_bytes == 1ll << 30);
	assert_true(fabs(z0->flags[0].load_rate - 40) < 1e-6);
	assert_true(fabs(z0->flags[0].load_rate_median - 100) < 1e-6);
	assert_true(fabs(z0->flags[0].cpu_speed_rel - 0.75) < 1e-12);
	{
		char *buf = print(&rep, ct_report_print_flagged);

		assert_non_null(strstr(buf,
				       "mem       z run 3 flagged (30.00 s): foreign CPU 25%, "
				       "steal 1.0%, PSI cpu some 0%, started with 1.0 GiB dirty "
				       "and 64.0 MiB under writeback, CPU speed 75% of the median, "
				       "load 40 MB written/s (median "
				       "100); likely fluke\n"));
		assert_non_null(
			strstr(buf, "mem       z mean without flagged runs: 10.15 s (4 runs)\n"));
		free(buf);
	}
	ct_report_release(&rep);
}

/* Sessions pooled: each is one, so a session that ran 20% slower as a
 * whole flags nothing (that is how sessions vary, which the verdict
 * weighs), while a fluke run inside a session is flagged; with three
 * sessions a side the sessions decide. */
static void test_pooled_sessions(void **state)
{
	static const double s1[] = { 10.0, 10.1, 9.9, 10.05 }, s2[] = { 12.0, 12.1, 11.9, 12.05 },
			    s3[] = { 10.0, 10.1, 9.9, 15.0 }, o1[] = { 10.2, 10.0, 10.1, 9.95 };
	const char *loads[] = { "none" };
	struct ct_report_source src[2] = { { "p", 0 }, { "q", 0 } };
	struct fx *fx = *state;
	struct ct_sysinfo si;
	struct ct_report rep;
	const struct ct_report_cell *p, *q;
	char err[CT_ERRLEN];
	int64_t cp, cq, last;

	memset(&si, 0, sizeof(si));
	snprintf(si.fingerprint, sizeof(si.fingerprint), "00000000000000bb");
	assert_int_equal(ct_store_config_put(fx->st, "p", &si, &cp, err, sizeof(err)), 0);
	assert_int_equal(ct_store_config_put(fx->st, "q", &si, &cq, err, sizeof(err)), 0);
	session_with(fx, cp, "p", 0, "none", s1, 4, false);
	session_with(fx, cp, "p", 0, "none", s2, 4, false);
	last = session_with(fx, cp, "p", 0, "none", s3, 4, false);
	for (int i = 0; i < 3; i++)
		session_with(fx, cq, "q", 0, "none", o1, 4, false);
	assert_int_equal(build(fx, &rep, "files=20", src, 2, loads, 1, NULL), 0);
	p = &rep.blocks[0].cells[0];
	q = &rep.blocks[0].cells[1];
	assert_int_equal(p->nsessions, 3);
	assert_int_equal(p->session_id, last);
	assert_int_equal(p->n, 12);
	assert_int_equal(p->nflags, 1);
	assert_true(p->flags[0].run->session_id == last && p->values[p->flags[0].value] == 15.0);
	assert_int_equal(q->scope, CT_SCOPE_SESSIONS);
	assert_int_equal(q->cmp.decided_by, CT_TEST_SESSIONS);
	assert_int_equal(q->cmp.nsessions_base, 3);
	assert_int_equal(q->cmp.nsessions_other, 3);
	ct_report_release(&rep);
}

/* The lookup the model pools and pairs sessions by: a session's record
 * among those listed, found by its id; an id not listed finds nothing. */
static void test_session_of(void **state)
{
	struct fx *fx = *state;
	struct ct_session_rec *recs = NULL;
	const struct ct_session_rec *r;
	char err[CT_ERRLEN];
	int64_t top = 0;
	size_t n = 0;

	assert_int_equal(ct_store_sessions(fx->st, NULL, &recs, &n, err, sizeof(err)), 0);
	assert_true(n >= 3);
	for (size_t i = 0; i < n; i++)
		top = recs[i].id > top ? recs[i].id : top;
	r = ct_store_session_of(recs, n, fx->sess_b);
	assert_non_null(r);
	assert_int_equal(r->id, fx->sess_b);
	assert_int_equal(r->config_id, fx->cfg_b);
	r = ct_store_session_of(recs, n, fx->sess_a1);
	assert_non_null(r);
	assert_int_equal(r->id, fx->sess_a1);
	assert_int_equal(r->config_id, fx->cfg_a);
	assert_null(ct_store_session_of(recs, n, top + 1));
	assert_null(ct_store_session_of(recs, 0, fx->sess_a1));
	free(recs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_config),	  cmocka_unit_test(test_stored_reference),
		cmocka_unit_test(test_baseline_and_text), cmocka_unit_test(test_comparisons),
		cmocka_unit_test(test_pooled_sessions),	  cmocka_unit_test(test_session_of),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
