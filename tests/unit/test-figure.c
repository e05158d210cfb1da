/*
 * A benchmark's own figure (contend/figure.h): the spec as a user writes
 * it, the number read from lines and from a JSON document, the matches
 * joined, and a run's declared figures kept in the store's metrics - each
 * checked against values worked out by hand from the text given.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "contend/figure.h"
#include "contend/store.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_scaled(void **state)
{
	static const struct {
		const char *s;
		double v;
	} good[] = {
		{ "25.1k", 25100 }, { "25.1K", 25100 },
		{ "3Mi", 3145728 }, { "2G", 2e9 },
		{ "-2.5", -2.5 },   { "+7", 7 },
		{ ".5", 0.5 },	    { "1e3", 1000 },
		{ "12 ops/s", 12 }, { "1Ti", 1099511627776.0 },
	};
	static const char *const bad[] = { "inf", "nan", "k", "", "-", "ops 12", "-.", "1e999" };
	double v;

	(void)state;
	for (size_t i = 0; i < CT_ARRAY_SIZE(good); i++) {
		assert_int_equal(ct_parse_scaled(good[i].s, strlen(good[i].s), &v), 0);
		if (fabs(v - good[i].v) > 1e-9 * fabs(good[i].v))
			fail_msg("'%s' read as %.17g, not %.17g", good[i].s, v, good[i].v);
	}
	for (size_t i = 0; i < CT_ARRAY_SIZE(bad); i++)
		if (ct_parse_scaled(bad[i], strlen(bad[i]), &v) != -EINVAL)
			fail_msg("'%s' read as %g", bad[i], v);
	/* only the n bytes given are read: "12" of "1234" */
	assert_int_equal(ct_parse_scaled("1234", 2, &v), 0);
	assert_true(v == 12);
}

static void test_spec(void **state)
{
	struct ct_figure_spec f;
	char err[CT_ERRLEN];

	(void)state;
	assert_int_equal(ct_figure_spec_parse("ops=([0-9.]+) ops/s:higher:ops/s", false, &f, err,
					      sizeof(err)),
			 0);
	assert_string_equal(f.def.name, "ops");
	assert_string_equal(f.def.unit, "ops/s");
	assert_true(f.def.higher_better);
	assert_int_equal(f.agg, CT_FIGURE_LAST);
	assert_string_equal(f.pattern, "([0-9.]+) ops/s");
	ct_figure_spec_free(&f);
	/* colons in the regex: the direction is the last higher or lower */
	assert_int_equal(
		ct_figure_spec_parse("t=time: ([0-9]+):lower:s:mean", false, &f, err, sizeof(err)),
		0);
	assert_string_equal(f.pattern, "time: ([0-9]+)");
	assert_string_equal(f.def.unit, "s");
	assert_false(f.def.higher_better);
	assert_int_equal(f.agg, CT_FIGURE_MEAN);
	ct_figure_spec_free(&f);
	/* an aggregate without a unit, and a regex that says lower */
	assert_int_equal(
		ct_figure_spec_parse("x=a:lower:(b):higher:sum", false, &f, err, sizeof(err)), 0);
	assert_string_equal(f.pattern, "a:lower:(b)");
	assert_string_equal(f.def.unit, "");
	assert_true(f.def.higher_better);
	assert_int_equal(f.agg, CT_FIGURE_SUM);
	ct_figure_spec_free(&f);
	/* a path: brackets are steps */
	assert_int_equal(ct_figure_spec_parse("iops=jobs[0].read.iops:higher:IOPS", true, &f, err,
					      sizeof(err)),
			 0);
	assert_string_equal(f.pattern, "jobs.0.read.iops");
	assert_true(f.json);
	ct_figure_spec_free(&f);
}

static void test_spec_bad(void **state)
{
	static const struct {
		const char *arg;
		bool json;
		const char *says;
	} bad[] = {
		{ "ops", false, "write NAME=REGEX" },
		{ "Ops=(1):higher", false, "a figure's name" },
		{ "1ops=(1):higher", false, "a figure's name" },
		{ "abcdefghijklmnopqrstuvwx=(1):higher", false, "a figure's name" },
		{ "ops=([0-9]+)", false, "say which way is better" },
		{ "ops=([0-9]+):up", false, "say which way is better" },
		{ "ops=([0-9]+):higher:o p s", false, "a unit is" },
		{ "ops=([0-9]+):higher:abcdefghijklmnopq", false, "over 15" },
		{ "ops=:higher", false, "the REGEX is empty" },
		{ "ops=[0-9]+:higher", false, "has no group" },
		{ "ops=([0-9]+:higher", false, "--figure 'ops=([0-9]+:higher': " },
		{ "iops=jobs..iops:higher", true, "a path is" },
		{ "iops=.jobs:higher", true, "a path is" },
		{ "iops=jobs[x]:higher", true, "a path is" },
		{ "iops=jobs[0:higher", true, "a path is" },
	};
	struct ct_figure_spec f;
	char err[CT_ERRLEN];

	(void)state;
	for (size_t i = 0; i < CT_ARRAY_SIZE(bad); i++) {
		err[0] = '\0';
		if (ct_figure_spec_parse(bad[i].arg, bad[i].json, &f, err, sizeof(err)) !=
		    -EINVAL) {
			ct_figure_spec_free(&f);
			fail_msg("'%s' was taken", bad[i].arg);
		}
		if (!strstr(err, bad[i].says))
			fail_msg("'%s': \"%s\" does not say \"%s\"", bad[i].arg, err, bad[i].says);
		assert_null(f.pattern);
	}
}

/* The figure spec reads from text (its length given, NULs and all). */
static int read_as(const char *spec, bool json, const char *text, size_t n, double *v, char *err,
		   size_t len)
{
	struct ct_figure_spec f;
	int rc;

	assert_int_equal(ct_figure_spec_parse(spec, json, &f, err, len), 0);
	rc = ct_figure_read(&f, text, n, v, err, len);
	ct_figure_spec_free(&f);
	return rc;
}

static void test_lines(void **state)
{
	static const char out[] = "start\nops: 10\nnoise ops: 20 here\n  ops: 30k\nend\n";
	static const struct {
		const char *agg;
		double v;
	} want[] = {
		{ "", 30000 },	    { ":last", 30000 }, { ":first", 10 },  { ":sum", 30030 },
		{ ":mean", 10010 }, { ":min", 10 },	{ ":max", 30000 },
	};
	char spec[96], err[CT_ERRLEN];
	double v;

	(void)state;
	for (size_t i = 0; i < CT_ARRAY_SIZE(want); i++) {
		snprintf(spec, sizeof(spec), "ops=ops: ([0-9.]+k?):higher:ops%s", want[i].agg);
		assert_int_equal(read_as(spec, false, out, strlen(out), &v, err, sizeof(err)), 0);
		if (v != want[i].v)
			fail_msg("%s: %.17g, not %.17g", spec, v, want[i].v);
	}
	/* ^ and $ are a line's ends */
	assert_int_equal(
		read_as("x=^ops: ([0-9]+)$:higher", false, out, strlen(out), &v, err, sizeof(err)),
		0);
	assert_true(v == 10);
	/* a line's first match only */
	assert_int_equal(
		read_as("x=([0-9]+):higher:n:sum", false, "1 2\n3 4\n", 8, &v, err, sizeof(err)),
		0);
	assert_true(v == 4);
	/* a NUL ends no line, and a last line needs no newline */
	assert_int_equal(read_as("x=v=([0-9]+):lower::sum", false, "a\0b v=7\nv=9", 11, &v, err,
				 sizeof(err)),
			 0);
	assert_true(v == 16);
	/* nothing matched; a match that is not a number */
	assert_int_equal(
		read_as("ops=ops: ([0-9]+):higher", false, "tps: 5\n", 7, &v, err, sizeof(err)),
		-ENOENT);
	assert_non_null(strstr(err, "figure 'ops': no line of the output matched 'ops: ([0-9]+)'"));
	assert_int_equal(read_as("ops=ops: (.*):higher", false, "ops: 5\nops: N/A\n", 16, &v, err,
				 sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "'N/A'"));
	assert_int_equal(read_as("ops=ops: (.*):higher", false, "", 0, &v, err, sizeof(err)),
			 -ENOENT);
}

static void test_json(void **state)
{
	/* fio's layout, a note before the document as fio prints one */
	static const char out[] =
		"note: both iodepth >= 1 and synchronous I/O engine are selected\n"
		"{\n \"jobs\": [\n"
		"  {\"read\": {\"iops\": 123.5, \"clat_ns\": {\"percentile\": "
		"{\"99.000000\": 4567, \"99.900000\": 8901}}}, \"bw\": \"12k\", \"x\": null},\n"
		"  {\"read\": {\"iops\": 100}}\n ]\n}\ntrailing words\n";
	static const struct {
		const char *spec;
		double v;
	} want[] = {
		{ "a=jobs.0.read.iops:higher:IOPS", 123.5 },
		{ "a=jobs[1].read.iops:higher", 100 },
		{ "a=jobs.*.read.iops:higher::sum", 223.5 },
		{ "a=jobs.*.read.iops:higher:IOPS:mean", 111.75 },
		{ "a=jobs.*.read.iops:higher", 100 },
		{ "a=jobs.0.read.clat_ns.percentile.99.000000:lower:ns", 4567 },
		{ "a=jobs.0.read.clat_ns.percentile.99.900000:lower:ns", 8901 },
		{ "a=jobs.0.bw:higher", 12000 },
	};
	char err[CT_ERRLEN];
	double v;

	(void)state;
	for (size_t i = 0; i < CT_ARRAY_SIZE(want); i++) {
		assert_int_equal(
			read_as(want[i].spec, true, out, strlen(out), &v, err, sizeof(err)), 0);
		if (v != want[i].v)
			fail_msg("%s: %.17g, not %.17g", want[i].spec, v, want[i].v);
	}
	assert_int_equal(
		read_as("a=jobs.2.read.iops:higher", true, out, strlen(out), &v, err, sizeof(err)),
		-ENOENT);
	assert_non_null(strstr(err, "the JSON output has no 'jobs.2.read.iops'"));
	assert_int_equal(read_as("a=jobs.0.x:higher", true, out, strlen(out), &v, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "(null) is not a number"));
	assert_int_equal(
		read_as("a=jobs.0.read:higher", true, out, strlen(out), &v, err, sizeof(err)),
		-EINVAL);
	assert_int_equal(read_as("a=jobs:higher", true, "no json here\n", 13, &v, err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "no JSON document"));
}

/* A run's declared figures ride in its metrics and come back; the first is
 * the one it is judged by. */
static void test_stored(void **state)
{
	static const char *const bad[] = {
		"{\"@figures\": 1}",
		"{\"@figures\": []}",
		"{\"@figures\": [[\"a\", \"u\", \"up\"]]}",
		"{\"@figures\": [[\"A\", \"u\", \"higher\"]]}",
		"{\"@figures\": [[\"a\", \"u u\", \"higher\"]]}",
		"{\"@figures\": [[\"a\", \"u\"]]}",
		"{\"@figures\": [[\"a\", \"\", \"higher\"], [\"a\", \"\", \"lower\"]]}",
	};
	char buf[CT_STORE_METRICS_MAX];
	struct ct_run r, back;
	const struct ct_figure *fig;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.wall_ns = 60000000000LL;
	assert_int_equal(ct_run_metric_set(&r, "ops", 5e4), 0);
	assert_int_equal(ct_run_metric_set(&r, "lat", 2.5), 0);
	assert_int_equal(ct_run_figure_add(&r, "lat", "ms", false), 0);
	assert_int_equal(ct_run_figure_add(&r, "ops", "ops/s", true), 0);
	assert_int_equal(ct_run_figure_add(&r, "ops", "x", true), -EEXIST);
	assert_int_equal(ct_run_figure_add(&r, "b", "a b", true), -EINVAL);
	assert_int_equal(ct_store_metrics_encode(&r, buf, sizeof(buf)), 0);
	assert_string_equal(buf, "{\"ops\":50000,\"lat\":2.5,\"@figures\":[[\"lat\",\"ms\","
				 "\"lower\"],[\"ops\",\"ops/s\",\"higher\"]]}");
	memset(&back, 0, sizeof(back));
	back.wall_ns = r.wall_ns;
	assert_int_equal(ct_store_metrics_decode(buf, &back), 0);
	assert_int_equal(back.nfigs, 2);
	fig = ct_run_figure(&back);
	assert_non_null(fig);
	assert_string_equal(fig->key, "lat");
	assert_string_equal(fig->unit, "ms");
	assert_false(fig->higher_better);
	assert_true(ct_run_value(&back) == 2.5);
	/* the same figure is one pointer, kept after the run is gone */
	assert_ptr_equal(ct_run_figure(&r), fig);
	/* a figure declared but not measured (a failed run) is no Time */
	assert_int_equal(
		ct_store_metrics_decode("{\"@figures\":[[\"ops\",\"\",\"higher\"]]}", &back), 0);
	assert_true(isnan(ct_run_value(&back)));
	for (size_t i = 0; i < CT_ARRAY_SIZE(bad); i++) {
		memset(&back, 0, sizeof(back));
		if (ct_store_metrics_decode(bad[i], &back) != -EPROTO)
			fail_msg("decoded '%s'", bad[i]);
		assert_int_equal(back.nfigs, 0);
	}
}

static void test_slurp(void **state)
{
	char path[] = "/tmp/contend-figure-XXXXXX", *text = NULL;
	size_t n = 0;
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "ops: 1\n", 7), 7);
	close(fd);
	assert_int_equal(ct_figure_slurp(path, 100, &text, &n), 0);
	assert_int_equal(n, 7);
	assert_string_equal(text, "ops: 1\n");
	free(text);
	assert_int_equal(ct_figure_slurp(path, 6, &text, &n), -EFBIG);
	assert_null(text);
	unlink(path);
	assert_int_equal(ct_figure_slurp(path, 100, &text, &n), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_scaled),	 cmocka_unit_test(test_spec),
		cmocka_unit_test(test_spec_bad), cmocka_unit_test(test_lines),
		cmocka_unit_test(test_json),	 cmocka_unit_test(test_stored),
		cmocka_unit_test(test_slurp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
