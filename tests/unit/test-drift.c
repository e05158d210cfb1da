/*
 * The host's drift in the report model, from a real SQLite store whose
 * references are chosen by hand: each side's reference is the median of
 * its sessions' medians (worked out below), the drift their ratio in %,
 * and a load warns when the largest drift is at least half its
 * significant effect - not when the drift is small, and never for a
 * config whose sessions took no reference.
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

static char dir[] = "/tmp/ct-drift-XXXXXX";

/* A session of label with runs of 'none' at times[] (seconds) and the
 * references refs[][3] (NaN: a figure missing). */
static void session(struct ct_store *st, const char *label, const double *times, size_t n,
		    const double (*refs)[CT_REF_NFIGS], size_t nrefs)
{
	char err[CT_ERRLEN];
	struct ct_session_rec rec;
	struct ct_sysinfo si;

	memset(&si, 0, sizeof(si));
	snprintf(si.fingerprint, sizeof(si.fingerprint), "00000000000000dd");
	memset(&rec, 0, sizeof(rec));
	assert_int_equal(ct_store_config_put(st, label, &si, &rec.config_id, err, sizeof(err)), 0);
	snprintf(rec.workload, sizeof(rec.workload), "kbuild");
	assert_int_equal(ct_store_session_begin(st, &rec, err, sizeof(err)), 0);
	for (size_t i = 0; i < n; i++) {
		struct ct_run r;

		memset(&r, 0, sizeof(r));
		r.session_id = rec.id;
		r.config_id = rec.config_id;
		snprintf(r.workload, sizeof(r.workload), "kbuild");
		snprintf(r.load, sizeof(r.load), "none");
		snprintf(r.workload_params, sizeof(r.workload_params), "files=20");
		r.seq = (unsigned)i + 1;
		r.wall_ns = (int64_t)(times[i] * 1e9);
		assert_int_equal(ct_store_run_put(st, &r, err, sizeof(err)), 0);
	}
	for (size_t i = 0; i < nrefs; i++) {
		struct ct_ref r = { .session_id = rec.id, .seq = (unsigned)i + 1, .taken_at = 1 };

		r.phase = i ? CT_REF_ROUND : CT_REF_START;
		memcpy(r.fig, refs[i], sizeof(r.fig));
		assert_int_equal(ct_store_ref_put(st, &r, err, sizeof(err)), 0);
	}
}

static char *print_drift(const struct ct_report *rep)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ct_report_print_drift(f, rep);
	fclose(f);
	return buf;
}

static void test_drift(void **state)
{
	/* a's two sessions; every other config's runs are 1.2 times a's, so
	 * each is 20% slower, the sessions deciding (two a side) */
	static const double a1[] = { 10.0, 10.2, 9.9, 10.1 }, a2[] = { 10.1, 10.3, 10.0, 10.2 };
	/* a: session 1's medians cpu 100, mem 11 (one missing), disk none;
	 * session 2's 120, 14, 200: a's reference is cpu 110, mem 12.5,
	 * disk 200 (the one session that measured it), 2 sessions, 4 refs */
	static const double ra1[][CT_REF_NFIGS] = { { 100, 10, NAN },
						    { 110, NAN, NAN },
						    { 90, 12, NAN } };
	static const double ra2[][CT_REF_NFIGS] = { { 120, 14, 200 } };
	/* b: 99, 22, 100 - drift -10%, +76%, -50%, the largest mem's, at
	 * least half of 20%: it warns */
	static const double rb[][CT_REF_NFIGS] = { { 99, 22, 100 } };
	/* d: 111.1, 12.5, 200 - drift +1%, 0, 0: too small to warn */
	static const double rd[][CT_REF_NFIGS] = { { 111.1, 12.5, 200 } };
	const struct ct_report_source src[] = { { "a", 0 }, { "b", 0 }, { "c", 0 }, { "d", 0 } };
	const char *loads[] = { "none" };
	struct ct_report_query q = { .workload = "kbuild",
				     .params = "files=20",
				     .src = src,
				     .nsrc = 4,
				     .loads = loads,
				     .nloads = 1,
				     .confidence = 95 };
	double b1[4], b2[4];
	char path[64], err[CT_ERRLEN], *text;
	struct ct_store *st;
	struct ct_report rep;
	const struct ct_report_drift *b, *c, *d;

	(void)state;
	for (int i = 0; i < 4; i++) {
		b1[i] = 1.2 * a1[i];
		b2[i] = 1.2 * a2[i];
	}
	snprintf(path, sizeof(path), "%s/d.db", dir);
	assert_int_equal(ct_store_open(&st, path, CT_STORE_CREATE, err, sizeof(err)), 0);
	session(st, "a", a1, 4, ra1, 3);
	session(st, "a", a2, 4, ra2, 1);
	session(st, "b", b1, 4, rb, 1);
	session(st, "b", b2, 4, rb, 1);
	session(st, "c", b1, 4, NULL, 0); /* an older store's, or imported */
	session(st, "c", b2, 4, NULL, 0);
	session(st, "d", b1, 4, rd, 1);
	session(st, "d", b2, 4, rd, 1);
	assert_int_equal(ct_report_build(&rep, st, &q, err, sizeof(err)), 0);
	assert_true(rep.have_refs);
	assert_int_equal(rep.base_ref.nsessions, 2);
	assert_int_equal(rep.base_ref.nrefs, 4);
	assert_true(rep.base_ref.median[CT_REF_CPU] == 110);
	assert_true(rep.base_ref.median[CT_REF_MEM] == 12.5);
	assert_true(rep.base_ref.median[CT_REF_DISK] == 200);
	assert_false(rep.drift[0].compared);
	/* each compared config is significantly slower, by 20% */
	for (int k = 1; k < 4; k++) {
		const struct ct_report_cell *cell = &rep.blocks[0].cells[k];

		assert_int_equal(cell->cmp.outcome, CT_OUTCOME_HIGHER);
		assert_true(fabs(cell->cmp.effect - 1.2) < 1e-9);
	}

	b = &rep.drift[1];
	assert_true(b->compared);
	assert_true(fabs(b->pct[CT_REF_CPU] - -10) < 1e-9);
	assert_true(fabs(b->pct[CT_REF_MEM] - 76) < 1e-9);
	assert_true(fabs(b->pct[CT_REF_DISK] - -50) < 1e-9);
	assert_int_equal(b->largest, CT_REF_MEM);
	assert_int_equal(b->nwarnings, 1);
	assert_string_equal(b->warnings[0].load, "none");
	assert_true(fabs(b->warnings[0].effect_pct - 20) < 1e-6);

	/* no reference in its sessions: "-" and no warning */
	c = &rep.drift[2];
	assert_true(c->compared);
	assert_int_equal(c->ref.nsessions, 0);
	assert_true(isnan(c->ref.median[CT_REF_CPU]) && isnan(c->pct[CT_REF_CPU]));
	assert_int_equal(c->largest, -1);
	assert_int_equal(c->nwarnings, 0);

	d = &rep.drift[3];
	assert_true(fabs(d->pct[CT_REF_CPU] - 1) < 1e-9);
	assert_int_equal(d->largest, CT_REF_CPU);
	assert_int_equal(d->nwarnings, 0);

	/* every session shown, its references and medians */
	assert_int_equal(rep.nsession_refs, 8);

	text = print_drift(&rep);
	assert_non_null(strstr(text,
			       "a                 110.0        12.50     200.0      2/4       "
			       "baseline\n"));
	assert_non_null(strstr(text,
			       "b                 99.0         22.00     100.0      2/2       "
			       "cpu -10.0%, mem +76.0%, disk -50.0%\n"));
	assert_non_null(strstr(text,
			       "c                 -            -         -          0/0       "
			       "cpu -, mem -, disk -\n"));
	assert_non_null(strstr(text, "warning: none b vs a: the host's mem drifted +76.0% between "
				     "their sessions, at least half the effect +20.0%\n"));
	assert_null(strstr(text, "d vs a"));
	free(text);
	ct_report_release(&rep);
	ct_store_close(st);
}

/* No session shown took a reference (a store of schema 11): nothing is
 * printed, and nothing warns. */
static void test_no_refs(void **state)
{
	static const double t[] = { 10.0, 10.2, 9.9, 10.1 }, u[] = { 12.0, 12.2, 11.9, 12.1 };
	const struct ct_report_source src[] = { { "p", 0 }, { "q", 0 } };
	const char *loads[] = { "none" };
	struct ct_report_query q = { .workload = "kbuild",
				     .params = "files=20",
				     .src = src,
				     .nsrc = 2,
				     .loads = loads,
				     .nloads = 1,
				     .confidence = 95 };
	char path[64], err[CT_ERRLEN], *text;
	struct ct_store *st;
	struct ct_report rep;

	(void)state;
	snprintf(path, sizeof(path), "%s/n.db", dir);
	assert_int_equal(ct_store_open(&st, path, CT_STORE_CREATE, err, sizeof(err)), 0);
	session(st, "p", t, 4, NULL, 0);
	session(st, "q", u, 4, NULL, 0);
	assert_int_equal(ct_report_build(&rep, st, &q, err, sizeof(err)), 0);
	assert_false(rep.have_refs);
	assert_int_equal(rep.drift[1].nwarnings, 0);
	text = print_drift(&rep);
	assert_string_equal(text, "");
	free(text);
	ct_report_release(&rep);
	ct_store_close(st);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	ct_rm_rf(dir);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_drift),
		cmocka_unit_test(test_no_refs),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
