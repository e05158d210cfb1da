/*
 * Parsers, file helpers, FNV-1a and the exit-code map. FNV-1a values are the
 * published test vectors of the algorithm's authors, not this code's output.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "contend/common.h"
#include "contend/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ct_strtod gives strtod's double, bit for bit, and stops where it does:
 * hand-picked edges, then 200,000 random decimals of every length. */
static void same_as_strtod(const char *s)
{
	char *e1, *e2;
	double a = ct_strtod(s, &e1), b = strtod(s, &e2);

	if (memcmp(&a, &b, sizeof(a)) || e1 != e2)
		fail_msg("'%s': ct_strtod %.17g (rest '%s'), strtod %.17g (rest '%s')", s, a, e1, b,
			 e2);
}

static void test_strtod(void **state)
{
	static const char *const edges[] = {
		"0",
		"-0",
		"+1",
		"1.",
		".5",
		"104.567",
		"1e22",
		"1e23",
		"1e-22",
		"1e-23",
		"9007199254740993",
		"123456789012345",
		"1234567890123456",
		"0.000000000000000000000001",
		"0x1p3",
		"inf",
		"nan",
		"1e",
		"1e+",
		"-.",
		".",
		"  3.25",
		"7e400",
		"0e999",
		"2.5e-3x",
		"00012.50000",
		"1.7976931348623157e308",
	};
	uint64_t st = 42;
	char buf[64];

	(void)state;
	for (size_t i = 0; i < CT_ARRAY_SIZE(edges); i++)
		same_as_strtod(edges[i]);
	for (int i = 0; i < 200000; i++) {
		uint64_t r = ct_rand64(&st);
		int ip = (int)(r % 12), fp = (int)((r >> 8) % 14), n = 0;

		if (r >> 20 & 1)
			buf[n++] = '-';
		for (int k = 0; k < ip; k++)
			buf[n++] = (char)('0' + ct_rand64(&st) % 10);
		if (fp || !ip) {
			buf[n++] = '.';
			for (int k = 0; k < (fp ? fp : 1); k++)
				buf[n++] = (char)('0' + ct_rand64(&st) % 10);
		}
		if (r >> 24 & 1)
			n += snprintf(buf + n, sizeof(buf) - (size_t)n, "e%d",
				      (int)(ct_rand64(&st) % 61) - 30);
		buf[n] = '\0';
		same_as_strtod(buf);
	}
}

static void test_parse_size(void **state)
{
	uint64_t v;

	assert_int_equal(ct_parse_size("4096", &v), 0);
	assert_int_equal(v, 4096);
	assert_int_equal(ct_parse_size("64K", &v), 0);
	assert_int_equal(v, 65536);
	assert_int_equal(ct_parse_size("1.5G", &v), 0);
	assert_int_equal(v, 1610612736ULL);
	assert_int_equal(ct_parse_size("2GiB", &v), 0);
	assert_int_equal(v, 2147483648ULL);
	assert_int_equal(ct_parse_size("8m", &v), 0);
	assert_int_equal(v, 8388608);
	assert_int_equal(ct_parse_size("", &v), -EINVAL);
	assert_int_equal(ct_parse_size("-1", &v), -EINVAL);
	assert_int_equal(ct_parse_size("10x", &v), -EINVAL);
	assert_int_equal(ct_parse_size("G", &v), -EINVAL);
	assert_int_equal(ct_parse_size(" 5", &v), -EINVAL);
	assert_int_equal(ct_parse_size("99999999T", &v), -ERANGE);
}

static void test_parse_duration(void **state)
{
	int64_t ns;

	assert_int_equal(ct_parse_duration("3", &ns), 0);
	assert_int_equal(ns, 3000000000LL);
	assert_int_equal(ct_parse_duration("500ms", &ns), 0);
	assert_int_equal(ns, 500000000LL);
	assert_int_equal(ct_parse_duration("2m", &ns), 0);
	assert_int_equal(ns, 120000000000LL);
	assert_int_equal(ct_parse_duration("0.25s", &ns), 0);
	assert_int_equal(ns, 250000000LL);
	assert_int_equal(ct_parse_duration("1h", &ns), 0);
	assert_int_equal(ns, 3600000000000LL);
	assert_int_equal(ct_parse_duration("3 s", &ns), -EINVAL);
	assert_int_equal(ct_parse_duration("abc", &ns), -EINVAL);
	assert_int_equal(ct_parse_duration("-2", &ns), -EINVAL);
}

static void test_parse_uint_double(void **state)
{
	uint64_t u;
	double d;

	assert_int_equal(ct_parse_uint("3", 1, 10, &u), 0);
	assert_int_equal(u, 3);
	assert_int_equal(ct_parse_uint("0", 1, 10, &u), -ERANGE);
	assert_int_equal(ct_parse_uint("11", 1, 10, &u), -ERANGE);
	assert_int_equal(ct_parse_uint("3x", 1, 10, &u), -EINVAL);
	assert_int_equal(ct_parse_uint("-3", 1, 10, &u), -EINVAL);
	assert_int_equal(ct_parse_uint("", 1, 10, &u), -EINVAL);
	assert_int_equal(ct_parse_uint("99999999999999999999999", 0, UINT64_MAX, &u), -EINVAL);
	assert_int_equal(ct_parse_double("0.5", &d), 0);
	assert_true(d == 0.5);
	assert_int_equal(ct_parse_double("0", &d), -EINVAL);
	assert_int_equal(ct_parse_double("nan", &d), -EINVAL);
	assert_int_equal(ct_parse_double("1e999", &d), -EINVAL);
	assert_int_equal(ct_parse_double("2.5k", &d), -EINVAL);
}

static void test_fmt_size(void **state)
{
	char buf[32];

	assert_string_equal(ct_fmt_size(512, buf, sizeof(buf)), "512 B");
	assert_string_equal(ct_fmt_size(1536, buf, sizeof(buf)), "1.5 KiB");
	assert_string_equal(ct_fmt_size(1073741824ULL, buf, sizeof(buf)), "1.0 GiB");
}

static void test_fnv1a(void **state)
{
	/* published FNV-1a 64-bit test vectors */
	assert_true(ct_fnv1a(CT_FNV_INIT, "") == 0xcbf29ce484222325ULL);
	assert_true(ct_fnv1a(CT_FNV_INIT, "a") == 0xaf63dc4c8601ec8cULL);
	assert_true(ct_fnv1a(CT_FNV_INIT, "foobar") == 0x85944171f73967e8ULL);
	/* continuing a hash equals hashing the concatenation */
	assert_true(ct_fnv1a(ct_fnv1a(CT_FNV_INIT, "foo"), "bar") == 0x85944171f73967e8ULL);
}

static void test_files(void **state)
{
	char dir[] = "/tmp/ct-util-XXXXXX", path[256], buf[64];
	uint64_t v, freeb;
	struct stat st;
	int fd;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/a/b/c", dir);
	assert_int_equal(ct_mkdir_p(path, 0755), 0);
	assert_int_equal(stat(path, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(ct_mkdir_p(path, 0755), 0); /* exists: fine */

	snprintf(path, sizeof(path), "%s/a/num", dir);
	fd = open(path, O_CREAT | O_WRONLY, 0644);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "12345\n\n", 7), 7);
	close(fd);
	assert_int_equal(ct_read_file(path, buf, sizeof(buf)), 5);
	assert_string_equal(buf, "12345");
	assert_int_equal(ct_read_u64(path, &v), 0);
	assert_int_equal(v, 12345);
	assert_int_equal(ct_write_file(path, "77"), 0);
	assert_int_equal(ct_read_u64(path, &v), 0);
	assert_int_equal(v, 77);
	assert_int_equal(ct_read_file("/nonexistent/x", buf, sizeof(buf)), -ENOENT);
	assert_int_equal(ct_write_file("/nonexistent/x", "1"), -ENOENT);

	/* a symlink out of the tree is removed, not followed */
	snprintf(path, sizeof(path), "%s/a/b/link", dir);
	assert_int_equal(symlink("/usr", path), 0);
	assert_int_equal(ct_fs_free(dir, &freeb), 0);
	assert_true(freeb > 0);
	assert_int_equal(ct_rm_rf(dir), 0);
	assert_int_equal(stat(dir, &st), -1);
	assert_int_equal(errno, ENOENT);
	assert_int_equal(stat("/usr/bin", &st), 0);
	assert_int_equal(ct_rm_rf(dir), 0); /* already gone: fine */
	assert_true(ct_fs_is_tmpfs("/dev/shm"));
}

static void test_random(void **state)
{
	unsigned char a[4096], b[4096];
	uint64_t s1 = 42, s2 = 42, s3 = 43;
	size_t same = 0;

	ct_fill_random(a, sizeof(a), &s1);
	ct_fill_random(b, sizeof(b), &s2);
	assert_memory_equal(a, b, sizeof(a));
	ct_fill_random(b, sizeof(b), &s3);
	for (size_t i = 0; i < sizeof(a); i++)
		same += a[i] == b[i];
	assert_true(same < 64); /* about 16 expected by chance */
}

/* Quoting for messages: text stays, control bytes and bytes that are not
 * UTF-8 are escaped, whole characters are kept, long input is cut. */
/* Words as a shell splits them, nothing expanded; the expected words
 * joined by '|'. */
static void expect_words(const char *in, int n, const char *joined)
{
	char **w = NULL, buf[256] = "";

	assert_int_equal(ct_split_words(in, &w), n);
	for (int i = 0; i < n; i++) {
		if (i)
			strcat(buf, "|");
		strcat(buf, w[i]);
	}
	assert_null(w[n]);
	assert_string_equal(buf, joined);
	free(w);
}

static void test_split_words(void **state)
{
	char **w = NULL;

	(void)state;
	expect_words("make -C dir clean", 4, "make|-C|dir|clean");
	expect_words("  a\t b\n", 2, "a|b");
	expect_words("", 0, "");
	expect_words("   ", 0, "");
	expect_words("sh -c 'echo $HOME >f'", 3, "sh|-c|echo $HOME >f");
	expect_words("a\"b c\"d e", 2, "ab cd|e");
	expect_words("x\\ y", 1, "x y");
	expect_words("'it''s' \"q\\\"q\"", 2, "its|q\"q");
	expect_words("''", 1, "");
	expect_words("'a\\b'", 1, "a\\b"); /* no escape inside '...' */
	assert_int_equal(ct_split_words("sh -c 'echo", &w), -EINVAL);
	assert_null(w);
	assert_int_equal(ct_split_words("a \"b", &w), -EINVAL);
}

static void test_quote(void **state)
{
	char b[64];

	(void)state;
	assert_string_equal(ct_quote("abc", b, sizeof(b)), "'abc'");
	assert_string_equal(ct_quote("a\tb\n\\", b, sizeof(b)), "'a\\tb\\n\\\\'");
	assert_string_equal(ct_quote("\x01\x7f", b, sizeof(b)), "'\\x01\\x7f'");
	/* é (2 bytes), € (3), 😀 (4): whole characters */
	assert_string_equal(ct_quote("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", b, sizeof(b)),
			    "'\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80'");
	/* a lone continuation byte, a cut sequence, an overlong '/', a
	 * surrogate, past U+10FFFF: bytes no text holds */
	assert_string_equal(ct_quote("\x80", b, sizeof(b)), "'\\x80'");
	assert_string_equal(ct_quote("\xe2\x82", b, sizeof(b)), "'\\xe2\\x82'");
	assert_string_equal(ct_quote("\xc0\xaf", b, sizeof(b)), "'\\xc0\\xaf'");
	assert_string_equal(ct_quote("\xed\xa0\x80", b, sizeof(b)), "'\\xed\\xa0\\x80'");
	assert_string_equal(ct_quote("\xf4\x90\x80\x80", b, sizeof(b)), "'\\xf4\\x90\\x80\\x80'");
	assert_string_equal(ct_quote("abcdefghijklmnop", b, 12), "'abcdef...'");
}

/* Passwords as libpq takes them, each written as the mask whatever its
 * length; everything else kept byte for byte. */
static void test_hide_secrets(void **state)
{
	static const struct {
		const char *in, *out;
		unsigned n;
	} cases[] = {
		{ "postgresql://postgres:topsecret42@/postgres?host=/tmp/x",
		  "postgresql://postgres:********@/postgres?host=/tmp/x", 1 },
		{ "postgres://u:p@db.example:5432/r", "postgres://u:********@db.example:5432/r",
		  1 },
		/* libpq reads the user information up to '@' before '/': '?' and
		 * ':' belong to the password */
		{ "postgresql://u:a?b:c@h/db", "postgresql://u:********@h/db", 1 },
		{ "postgresql://u@h/db?password=x1&sslmode=require",
		  "postgresql://u@h/db?password=********&sslmode=require", 1 },
		{ "postgresql://u:p@h/db?password=q",
		  "postgresql://u:********@h/db?password=********", 2 },
		{ "host=/tmp dbname=r password=hunter2 user=u",
		  "host=/tmp dbname=r password=******** user=u", 1 },
		{ "host=h password = 'a b\\'c' user=u", "host=h password = '********' user=u", 1 },
		/* conninfo skips blanks after '=' too */
		{ "host=h password= x", "host=h password= ********", 1 },
		{ "sslpassword=k PGPASSWORD=z", "sslpassword=******** PGPASSWORD=********", 2 },
		/* conninfo values run to a blank, '&' included */
		{ "password=a&b", "password=********", 1 },
		/* nothing to hide */
		{ "postgresql://postgres@/db?host=/tmp", "postgresql://postgres@/db?host=/tmp", 0 },
		{ "ssh://git@host:22/repo", "ssh://git@host:22/repo", 0 },
		{ "https://example.org/a:b@c", "https://example.org/a:b@c", 0 },
		{ "user:pw@host", "user:pw@host", 0 },
		{ "--password-file=/etc/pw", "--password-file=/etc/pw", 0 },
		{ "postgresql://u:@h/db", "postgresql://u:@h/db", 0 },
		/* hidden already: left as it is */
		{ "postgresql://u:********@h/db password=********",
		  "postgresql://u:********@h/db password=********", 0 },
	};
	char out[256], line[256];

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char blank[256];
		size_t j;

		assert_int_equal(ct_hide_secrets(cases[i].in, out, sizeof(out)), cases[i].n);
		assert_string_equal(out, cases[i].out);
		/* blanked in place: the same length, a '*' where each secret was */
		snprintf(blank, sizeof(blank), "%s", cases[i].in);
		assert_int_equal(ct_blank_secrets(blank), cases[i].n);
		assert_int_equal(strlen(blank), strlen(cases[i].in));
		for (j = 0; blank[j] && blank[j] == cases[i].in[j]; j++)
			;
		if (!cases[i].n)
			assert_int_equal(blank[j], '\0');
		else
			assert_int_equal(blank[j], '*');
	}
	/* cut short: terminated, nothing of the secret */
	assert_int_equal(ct_hide_secrets("password=hunter2", out, 12), 1);
	assert_string_equal(out, "password=**");

	/* a joined command line, word by word: a conninfo in quotes keeps its
	 * quoting, a line without a secret is kept as it was */
	assert_int_equal(
		ct_hide_secrets_cmdline("contend run --db 'host=/s password='\\''a b'\\''' -L x",
					line, sizeof(line)),
		1);
	assert_string_equal(line, "contend run --db 'host=/s password='\\''********'\\''' -L x");
	assert_int_equal(ct_hide_secrets_cmdline("contend run --db postgresql://u:s3@/d -n  5",
						 line, sizeof(line)),
			 1);
	/* the mask's '*' quoted, as a shell would glob it */
	assert_string_equal(line, "contend run --db 'postgresql://u:********@/d' -n 5");
	assert_int_equal(ct_hide_secrets_cmdline("contend run -n  5 'a b'", line, sizeof(line)), 0);
	assert_string_equal(line, "contend run -n  5 'a b'");
	/* an open quote (a line cut short when stored): hidden all the same */
	assert_int_equal(
		ct_hide_secrets_cmdline("contend run --db 'password=abc", line, sizeof(line)), 1);
	assert_string_equal(line, "contend run --db 'password=********");
}

static void test_exit_codes(void **state)
{
	char err[32];

	assert_int_equal(ct_exit_code(0), 0);
	assert_int_equal(ct_exit_code(-EINVAL), 2);
	assert_int_equal(ct_exit_code(-ENOENT), 2);
	assert_int_equal(ct_exit_code(-ENOSPC), 3);
	assert_int_equal(ct_exit_code(-EACCES), 3);
	assert_int_equal(ct_exit_code(-EINTR), 4);
	assert_int_equal(ct_err(err, sizeof(err), -EINVAL, "bad '%s'", "x"), -EINVAL);
	assert_string_equal(err, "bad 'x'");
}

/* names as JSON keys and SQL paths take them; growth by doubling */
static void test_ident_grow(void **state)
{
	int *v = NULL;
	size_t cap = 0;

	(void)state;
	assert_true(ct_ident_ok("t_cpu_wait", 24));
	assert_true(ct_ident_ok("a", 2));
	assert_false(ct_ident_ok("ab", 2)); /* no room for its end */
	assert_false(ct_ident_ok("", 24));
	assert_false(ct_ident_ok("Bad", 24));
	assert_false(ct_ident_ok("a-b", 24));
	assert_false(ct_ident_ok("a.b", 24));
	assert_int_equal(ct_grow((void **)&v, &cap, 1, sizeof(*v), 4), 0);
	assert_int_equal(cap, 4);
	v[3] = 7;
	assert_int_equal(ct_grow((void **)&v, &cap, 4, sizeof(*v), 4), 0);
	assert_int_equal(cap, 4); /* room enough: nothing moves */
	assert_int_equal(ct_grow((void **)&v, &cap, 9, sizeof(*v), 4), 0);
	assert_int_equal(cap, 16);
	assert_int_equal(v[3], 7);
	v[15] = 1;
	assert_int_equal(ct_grow((void **)&v, &cap, SIZE_MAX / 2, sizeof(*v), 4), -ENOMEM);
	assert_int_equal(cap, 16);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_words),    cmocka_unit_test(test_parse_size),
		cmocka_unit_test(test_parse_duration), cmocka_unit_test(test_parse_uint_double),
		cmocka_unit_test(test_fmt_size),       cmocka_unit_test(test_fnv1a),
		cmocka_unit_test(test_files),	       cmocka_unit_test(test_strtod),
		cmocka_unit_test(test_random),	       cmocka_unit_test(test_exit_codes),
		cmocka_unit_test(test_quote),	       cmocka_unit_test(test_hide_secrets),
		cmocka_unit_test(test_ident_grow),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
