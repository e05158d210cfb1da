/*
 * The derived figures of contest's table, checked against values worked out
 * by hand: CPU% = (user+sys)/wall, Loads = raw/unit, LCPU%, and group means
 * that leave failed runs out.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "contend/run.h"

#include <errno.h>
#include <math.h>
#include <string.h>

static void test_derived(void **state)
{
	struct ct_run r;

	memset(&r, 0, sizeof(r));
	r.wall_ns = 2000000000LL;    /* 2 s */
	r.user_us = 1500000;	     /* 1.5 s */
	r.sys_us = 700000;	     /* 0.7 s */
	r.load_work = 1530000000ULL; /* bytes */
	r.load_unit_scale = 1e6;     /* MB */
	r.load_user_us = 300000;
	r.load_sys_us = 120000;
	assert_true(fabs(ct_run_time_s(&r) - 2.0) < 1e-12);
	assert_true(fabs(ct_run_cpu_pct(&r) - 110.0) < 1e-9);
	assert_true(fabs(ct_run_loads(&r) - 1530.0) < 1e-9);
	assert_true(fabs(ct_run_lcpu_pct(&r) - 21.0) < 1e-9);
	r.wall_ns = 0;
	assert_true(ct_run_cpu_pct(&r) == 0);
	/* no scale: a load that counts no work (--load-cmd alone) */
	r.load_unit_scale = 0;
	assert_true(isnan(ct_run_loads(&r)));
}

static void test_group(void **state)
{
	struct ct_run runs[4];
	struct ct_run_group g;

	memset(runs, 0, sizeof(runs));
	runs[0].wall_ns = 8000000000LL;
	runs[0].user_us = 8000000;
	runs[1].wall_ns = 10000000000LL;
	runs[1].user_us = 5000000;
	runs[2].wall_ns = 99000000000LL; /* failed: must not count */
	runs[2].status = CT_RUN_FAILED;
	runs[3].wall_ns = 9000000000LL;
	runs[3].user_us = 9000000;
	for (int i = 0; i < 4; i++) {
		runs[i].load_work = (uint64_t)(i + 1) * 1000;
		runs[i].load_unit_scale = 1;
	}
	ct_run_group(runs, 4, &g);
	assert_int_equal(g.n, 3);
	assert_int_equal(g.nfailed, 1);
	assert_true(fabs(g.time_s - 9.0) < 1e-12);
	/* CPU% per run: 100, 50, 100 -> mean 83.33 */
	assert_true(fabs(g.cpu_pct - 250.0 / 3.0) < 1e-9);
	/* loads 1000, 2000, 4000 */
	assert_true(fabs(g.loads - 7000.0 / 3.0) < 1e-9);
	ct_run_group(runs, 0, &g);
	assert_int_equal(g.n, 0);
	assert_true(g.time_s == 0);
}

static void test_status(void **state)
{
	enum ct_run_status s;

	assert_string_equal(ct_run_status_name(CT_RUN_FAILED), "failed");
	assert_int_equal(ct_run_status_parse("interrupted", &s), 0);
	assert_int_equal(s, CT_RUN_INTERRUPTED);
	assert_int_equal(ct_run_status_parse("bogus", &s), -EINVAL);
	assert_string_equal(ct_run_status_name((enum ct_run_status)42), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_derived),
		cmocka_unit_test(test_group),
		cmocka_unit_test(test_status),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
