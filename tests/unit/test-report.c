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
	assert_int_equal(ct_store_open(&fx->st, path, err, sizeof(err)), 0);
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

static void test_same_config(void **state)
{
	struct fx *fx = *state;
	const char *loads[] = { "none", "io" };
	struct ct_report_source src = { "a", fx->sess_a1 };
	struct ct_report rep;
	char err[CT_ERRLEN];

	assert_int_equal(ct_report_build(&rep, fx->st, "kbuild", "files=10", &src, 1, loads, 2,
					 NULL, err, sizeof(err)),
			 0);
	assert_true(fabs(rep.ref_time_s - 11.0) < 1e-9);
	assert_int_equal(rep.ref_session_id, fx->sess_a1);
	assert_int_equal(rep.nblocks, 2);
	assert_int_equal(rep.blocks[0].rows[0].g.n, 2);
	assert_true(fabs(rep.blocks[0].rows[0].ratio - 1.0) < 1e-9);
	/* io: mean 16 s over the two good runs, ratio 16/11, Loads (1000+3000)/2 MB */
	assert_int_equal(rep.blocks[1].rows[0].g.n, 2);
	assert_int_equal(rep.blocks[1].rows[0].nfailed, 1);
	assert_true(fabs(rep.blocks[1].rows[0].g.time_s - 16.0) < 1e-9);
	assert_true(fabs(rep.blocks[1].rows[0].ratio - 16.0 / 11.0) < 1e-9);
	assert_true(fabs(rep.blocks[1].rows[0].g.loads - 2000.0) < 1e-9);
	assert_true(fabs(rep.blocks[1].rows[0].g.cpu_pct - 50.0) < 1e-6);
	assert_true(fabs(rep.blocks[1].rows[0].g.lcpu_pct - 25.0) < 1e-6);
	ct_report_release(&rep);
}

static void test_stored_reference(void **state)
{
	struct fx *fx = *state;
	const char *loads[] = { "io" };
	struct ct_report_source src = { "a", fx->sess_a2 };
	struct ct_report rep;
	char err[CT_ERRLEN];

	assert_int_equal(ct_report_build(&rep, fx->st, "kbuild", "files=10", &src, 1, loads, 1,
					 NULL, err, sizeof(err)),
			 0);
	assert_true(fabs(rep.ref_time_s - 11.0) < 1e-9);
	assert_true(fabs(rep.blocks[0].rows[0].ratio - 2.0) < 1e-9); /* 22 / 11 */
	ct_report_release(&rep);

	/* other workload params: no reference, Ratio is NaN */
	assert_int_equal(ct_report_build(&rep, fx->st, "kbuild", "files=99", &src, 1, loads, 1,
					 NULL, err, sizeof(err)),
			 0);
	assert_true(isnan(rep.ref_time_s));
	assert_int_equal(rep.blocks[0].rows[0].g.n, 0);
	ct_report_release(&rep);
}

static void test_baseline_and_text(void **state)
{
	struct fx *fx = *state;
	const char *loads[] = { "none", "io" };
	struct ct_report_source src[2] = { { "a", 0 }, { "b", fx->sess_b } };
	struct ct_report rep;
	char err[CT_ERRLEN], *buf = NULL;
	size_t len = 0;
	FILE *f;

	assert_int_equal(ct_report_build(&rep, fx->st, "kbuild", "files=10", src, 2, loads, 2, "a",
					 err, sizeof(err)),
			 0);
	/* a's latest session with io is session 2 (22 s) */
	assert_true(fabs(rep.blocks[1].rows[0].g.time_s - 22.0) < 1e-9);
	/* b against a's no-load mean: 20/11 and 30/11 */
	assert_true(fabs(rep.blocks[0].rows[1].ratio - 20.0 / 11.0) < 1e-9);
	assert_true(fabs(rep.blocks[1].rows[1].ratio - 30.0 / 11.0) < 1e-9);

	f = open_memstream(&buf, &len);
	ct_report_print_text(f, &rep);
	fclose(f);
	assert_non_null(strstr(buf, "none:\nKernel"));
	assert_non_null(strstr(buf, "[runs] Time     CPU%  Loads    LCPU%  Ratio"));
	assert_non_null(strstr(buf, "io:\n"));
	assert_non_null(strstr(buf, "2.73")); /* 30/11 */
	assert_non_null(strstr(buf, "1.82")); /* 20/11 */
	assert_non_null(strstr(buf, "Ratio = Time / 11.00 s, the no-load mean of 'a' (session 1)"));
	assert_non_null(strstr(buf, "io = MB written"));
	free(buf);
	ct_report_release(&rep);

	/* the failed run is listed with its reason */
	src[0].session_id = fx->sess_a1;
	assert_int_equal(ct_report_build(&rep, fx->st, "kbuild", "files=10", src, 1, loads, 2, NULL,
					 err, sizeof(err)),
			 0);
	buf = NULL;
	f = open_memstream(&buf, &len);
	ct_report_print_text(f, &rep);
	fclose(f);
	assert_non_null(strstr(buf, "a run 3 failed: load 'io' exited with status 1"));
	free(buf);
	ct_report_release(&rep);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_config),
		cmocka_unit_test(test_stored_reference),
		cmocka_unit_test(test_baseline_and_text),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
