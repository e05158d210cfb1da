/*
 * Helpers every subsystem needs and none owns. Parsers are strict (no
 * trailing junk, no negatives) because a benchmark that silently reads
 * "10x" as 10 measures the wrong thing.
 */
#include "contend/util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <sys/random.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>
#include <linux/magic.h>

int64_t ct_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t ct_wall_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static int parse_number(const char *s, double *v, const char **rest)
{
	char *end;

	if (!s || !*s || isspace((unsigned char)*s) || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	*v = strtod(s, &end);
	if (end == s || errno || !isfinite(*v) || *v < 0)
		return -EINVAL;
	*rest = end;
	return 0;
}

int ct_parse_size(const char *s, uint64_t *out)
{
	static const struct {
		const char *suffix;
		double mult;
	} units[] = {
		{ "", 1 },
		{ "b", 1 },
		{ "k", 1024.0 },
		{ "kib", 1024.0 },
		{ "kb", 1024.0 },
		{ "m", 1048576.0 },
		{ "mib", 1048576.0 },
		{ "mb", 1048576.0 },
		{ "g", 1073741824.0 },
		{ "gib", 1073741824.0 },
		{ "gb", 1073741824.0 },
		{ "t", 1099511627776.0 },
		{ "tib", 1099511627776.0 },
		{ "tb", 1099511627776.0 },
	};
	const char *rest;
	double v;
	size_t i;

	if (parse_number(s, &v, &rest))
		return -EINVAL;
	for (i = 0; i < CT_ARRAY_SIZE(units); i++) {
		if (!strcasecmp(rest, units[i].suffix)) {
			v *= units[i].mult;
			if (v >= 18446744073709551615.0)
				return -ERANGE;
			*out = (uint64_t)v;
			return 0;
		}
	}
	return -EINVAL;
}

int ct_parse_duration(const char *s, int64_t *out_ns)
{
	static const struct {
		const char *suffix;
		double mult;
	} units[] = {
		{ "", 1e9 },   { "s", 1e9 },  { "ms", 1e6 },
		{ "us", 1e3 }, { "m", 60e9 }, { "h", 3600e9 },
	};
	const char *rest;
	double v;
	size_t i;

	if (parse_number(s, &v, &rest))
		return -EINVAL;
	for (i = 0; i < CT_ARRAY_SIZE(units); i++) {
		if (!strcmp(rest, units[i].suffix)) {
			v *= units[i].mult;
			if (v > 9.2e18)
				return -ERANGE;
			*out_ns = (int64_t)v;
			return 0;
		}
	}
	return -EINVAL;
}

int ct_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int ct_parse_number(const char *s, double *out)
{
	const char *rest;
	double v;

	if (parse_number(s, &v, &rest) || *rest)
		return -EINVAL;
	*out = v;
	return 0;
}

int ct_parse_double(const char *s, double *out)
{
	const char *rest;
	double v;

	if (parse_number(s, &v, &rest) || *rest || v <= 0)
		return -EINVAL;
	*out = v;
	return 0;
}

int ct_parse_scaled(const char *s, size_t n, double *out)
{
	static const char units[] = "kMGT";
	char buf[64], *end;
	const char *u;
	size_t digit;
	double v;

	if (!n || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, n);
	buf[n] = '\0';
	/* a number, not strtod's "inf", "nan" or hexadecimal */
	digit = buf[0] == '-' || buf[0] == '+';
	if (!isdigit((unsigned char)buf[digit]) &&
	    !(buf[digit] == '.' && isdigit((unsigned char)buf[digit + 1])))
		return -EINVAL;
	if (buf[digit] == '0' && (buf[digit + 1] == 'x' || buf[digit + 1] == 'X'))
		buf[digit + 1] = '\0';
	v = strtod(buf, &end);
	if (end == buf || !isfinite(v))
		return -EINVAL;
	u = *end ? strchr(units, *end == 'K' ? 'k' : *end) : NULL;
	if (u) {
		bool binary = end[1] == 'i';

		for (long k = u - units; k >= 0; k--)
			v *= binary ? 1024.0 : 1000.0;
	}
	if (!isfinite(v))
		return -EINVAL;
	*out = v;
	return 0;
}

/*
 * Clinger's fast path: a decimal of at most 15 significant digits is an
 * integer m < 2^53, exact as a double, and 10^e is exact for |e| <= 22,
 * so m * 10^e or m / 10^e is one correctly rounded operation - the double
 * strtod would give. Anything else (more digits, larger exponents, hex,
 * inf, nan) goes to strtod itself.
 */
double ct_strtod(const char *s, char **end)
{
	static const double pow10[] = { 1e0,  1e1,  1e2,  1e3,	1e4,  1e5,  1e6,  1e7,
					1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
					1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22 };
	const char *p = s;
	uint64_t m = 0;
	int digits = 0, exp10 = 0;
	bool neg = false, any = false;

	while (*p == ' ' || *p == '\t')
		p++;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	for (; *p >= '0' && *p <= '9'; p++, any = true) {
		if (m == 0 && *p == '0')
			continue; /* leading zeros are not significant */
		if (++digits > 15)
			goto slow;
		m = m * 10 + (uint64_t)(*p - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, any = true) {
			exp10--;
			if (m == 0 && *p == '0')
				continue;
			if (++digits > 15)
				goto slow;
			m = m * 10 + (uint64_t)(*p - '0');
		}
	}
	if (!any)
		goto slow;
	if (*p == 'e' || *p == 'E') {
		const char *q = p + 1;
		bool eneg = false;
		int e = 0;

		if (*q == '-' || *q == '+')
			eneg = *q++ == '-';
		if (!(*q >= '0' && *q <= '9'))
			goto slow;
		for (; *q >= '0' && *q <= '9'; q++)
			if ((e = e * 10 + (*q - '0')) > 400)
				goto slow;
		exp10 += eneg ? -e : e;
		p = q;
	}
	if (*p == 'x' || *p == 'X' || exp10 > 22 || exp10 < -22)
		goto slow;
	if (end)
		*end = (char *)(uintptr_t)p;
	{
		double v = exp10 >= 0 ? (double)m * pow10[exp10] : (double)m / pow10[-exp10];

		return neg ? -v : v;
	}
slow:
	return strtod(s, end);
}

bool ct_has_control(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return true;
	return false;
}

size_t ct_utf8_len(const unsigned char *s)
{
	size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	uint32_t cp;

	if (!n || s[0] > 0xf4)
		return 0;
	cp = s[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

const char *ct_quote(const char *s, char *buf, size_t len)
{
	size_t off = 0;

	if (len < 6) {
		if (len)
			buf[0] = '\0';
		return buf;
	}
	buf[off++] = '\'';
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char e[8];

		if (c == '\n')
			snprintf(e, sizeof(e), "\\n");
		else if (c == '\t')
			snprintf(e, sizeof(e), "\\t");
		else if (c == '\\')
			snprintf(e, sizeof(e), "\\\\");
		else if (c < 0x20 || c == 0x7f)
			snprintf(e, sizeof(e), "\\x%02x", c);
		else if (c < 0x80)
			snprintf(e, sizeof(e), "%c", c);
		else if (ct_utf8_len((const unsigned char *)s)) {
			/* a whole character, as the terminal shows it */
			size_t n = ct_utf8_len((const unsigned char *)s);

			memcpy(e, s, n);
			e[n] = '\0';
			s += n - 1;
		} else {
			/* a byte no text holds: a binary file's, a broken encoding */
			snprintf(e, sizeof(e), "\\x%02x", c);
		}
		if (off + strlen(e) + 2 >= len) {
			/* room for "...'" */
			while (off > 1 && off + 5 > len)
				off--;
			memcpy(buf + off, "...", 3);
			off += 3;
			break;
		}
		memcpy(buf + off, e, strlen(e));
		off += strlen(e);
	}
	buf[off++] = '\'';
	buf[off] = '\0';
	return buf;
}

const char *ct_fmt_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const suffix[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	size_t i = 0;

	while (v >= 1024 && i + 1 < CT_ARRAY_SIZE(suffix)) {
		v /= 1024;
		i++;
	}
	if (i == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%.1f %s", v, suffix[i]);
	return buf;
}

ssize_t ct_read_file(const char *path, char *buf, size_t len)
{
	ssize_t n, total = 0;
	int fd;

	if (!len)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while ((size_t)total < len - 1) {
		n = read(fd, buf + total, len - 1 - total);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return n;
		}
		if (n == 0)
			break;
		total += n;
	}
	close(fd);
	buf[total] = '\0';
	while (total > 0 && buf[total - 1] == '\n')
		buf[--total] = '\0';
	return total;
}

int ct_write_file(const char *path, const char *s)
{
	size_t len = strlen(s);
	ssize_t n;
	int fd, rc = 0;

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, s, len);
	if (n < 0)
		rc = -errno;
	else if ((size_t)n != len)
		rc = -EIO;
	if (close(fd) && !rc)
		rc = -errno;
	return rc;
}

int ct_read_u64(const char *path, uint64_t *out)
{
	char buf[64];
	ssize_t n = ct_read_file(path, buf, sizeof(buf));
	char *end;

	if (n < 0)
		return (int)n;
	errno = 0;
	*out = strtoull(buf, &end, 10);
	if (end == buf || errno)
		return -EINVAL;
	return 0;
}

bool ct_ident_ok(const char *s, size_t size)
{
	size_t n = strlen(s);

	if (!n || n >= size)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

int ct_grow(void **p, size_t *cap, size_t n, size_t size, size_t first)
{
	size_t c = *cap ? *cap : first;
	void *q;

	if (n <= *cap)
		return 0;
	if (!size || n > SIZE_MAX / size)
		return -ENOMEM;
	while (c < n)
		c = c > SIZE_MAX / 2 ? n : 2 * c;
	if (c > SIZE_MAX / size)
		c = n;
	q = realloc(*p, c * size);
	if (!q)
		return -ENOMEM;
	*p = q;
	*cap = c;
	return 0;
}

int ct_mkdir_p(const char *path, mode_t mode)
{
	char tmp[4096];
	size_t len = strlen(path);
	char *p;

	if (len == 0 || len >= sizeof(tmp))
		return -ENAMETOOLONG;
	memcpy(tmp, path, len + 1);
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, mode) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, mode) && errno != EEXIST)
		return -errno;
	return 0;
}

static int rm_rf_at(int dfd, const char *name, dev_t dev)
{
	struct stat st;
	DIR *d;
	struct dirent *de;
	int fd, rc = 0;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -errno;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(dfd, name, 0) && errno != ENOENT ? -errno : 0;
	if (st.st_dev != dev)
		return -EXDEV;
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return -errno;
	}
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		int r = rm_rf_at(dirfd(d), de->d_name, dev);
		if (r && !rc)
			rc = r;
	}
	closedir(d);
	if (unlinkat(dfd, name, AT_REMOVEDIR) && errno != ENOENT && !rc)
		rc = -errno;
	return rc;
}

int ct_rm_rf(const char *path)
{
	struct stat st;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	return rm_rf_at(AT_FDCWD, path, st.st_dev);
}

int ct_fs_free(const char *path, uint64_t *out)
{
	struct statvfs sv;

	if (statvfs(path, &sv))
		return -errno;
	*out = (uint64_t)sv.f_bavail * sv.f_frsize;
	return 0;
}

bool ct_fs_is_tmpfs(const char *path)
{
	struct statfs sf;

	if (statfs(path, &sf))
		return false;
	return sf.f_type == TMPFS_MAGIC || sf.f_type == RAMFS_MAGIC;
}

uint64_t ct_rand64(uint64_t *state)
{
	uint64_t x = *state ? *state : 0x9e3779b97f4a7c15ULL;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*state = x;
	return x * 0x2545f4914f6cdd1dULL;
}

void ct_fill_random(void *buf, size_t len, uint64_t *state)
{
	unsigned char *p = buf;
	uint64_t v;

	while (len >= 8) {
		v = ct_rand64(state);
		memcpy(p, &v, 8);
		p += 8;
		len -= 8;
	}
	if (len) {
		v = ct_rand64(state);
		memcpy(p, &v, len);
	}
}

uint64_t ct_fnv1a(uint64_t h, const char *s)
{
	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

int ct_uuid4(char out[37])
{
	unsigned char b[16];
	size_t got = 0;

	while (got < sizeof(b)) {
		ssize_t n = getrandom(b + got, sizeof(b) - got, 0);

		if (n < 0 && errno != EINTR)
			return -errno;
		if (n > 0)
			got += (size_t)n;
	}
	b[6] = (unsigned char)((b[6] & 0x0f) | 0x40); /* version 4 */
	b[8] = (unsigned char)((b[8] & 0x3f) | 0x80); /* RFC 4122 variant */
	snprintf(out, 37, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12],
		 b[13], b[14], b[15]);
	return 0;
}

int ct_split_words(const char *s, char ***out)
{
	size_t len = strlen(s), nwords = 0;
	char **argv, *o;
	char quote = 0;
	bool in_word = false;

	*out = NULL;
	/* at most len / 2 + 1 words; each ends with a NUL in the copy */
	argv = malloc((len / 2 + 2) * sizeof(*argv) + len + 1);
	if (!argv)
		return -ENOMEM;
	o = (char *)(argv + len / 2 + 2);
	for (const char *p = s;; p++) {
		char c = *p;

		if (!c && quote) {
			free(argv);
			return -EINVAL;
		}
		if (!quote && (!c || c == ' ' || c == '\t' || c == '\n')) {
			if (in_word) {
				*o++ = '\0';
				in_word = false;
			}
			if (!c)
				break;
			continue;
		}
		if (!in_word) {
			argv[nwords++] = o;
			in_word = true;
		}
		if (quote && c == quote) {
			quote = 0;
		} else if (!quote && (c == '\'' || c == '"')) {
			quote = c;
		} else if (c == '\\' && quote != '\'' && p[1]) {
			*o++ = *++p;
		} else {
			*o++ = c;
		}
	}
	argv[nwords] = NULL;
	*out = argv;
	return (int)nwords;
}

/* Appends s to buf at *off, quoted like a shell would need it. Returns false
 * when it did not fit. */
bool ct_append_word(char *buf, size_t size, size_t *off, const char *s)
{
	bool quote = !*s || strpbrk(s, " \t\n'\"\\$`*?;&|<>()") != NULL;
	size_t need = strlen(s) + (*off ? 1 : 0) + (quote ? 2 : 0);
	char *p;

	if (quote)
		for (const char *c = s; *c; c++)
			if (*c == '\'')
				need += 3; /* ' -> '\'' */
	if (*off + need >= size)
		return false;
	p = buf + *off;
	if (*off)
		*p++ = ' ';
	if (quote)
		*p++ = '\'';
	for (const char *c = s; *c; c++) {
		if (quote && *c == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = *c;
		}
	}
	if (quote)
		*p++ = '\'';
	*p = '\0';
	*off = (size_t)(p - buf);
	return true;
}

/* The password of a URI's user information, as libpq reads it: after
 * "://", up to the last '@' before the first '/' (or a blank, in a joined
 * command line), from the first ':'. */
static bool uri_secret(const char *s, const char **b, const char **e)
{
	for (const char *p = s; (p = strstr(p, "://")); p += 3) {
		const char *host = p + 3;
		size_t n = strcspn(host, "/ \t\n");
		const char *at = memrchr(host, '@', n);
		const char *colon = at ? memchr(host, ':', (size_t)(at - host)) : NULL;

		if (colon && colon + 1 < at) {
			*b = colon + 1;
			*e = at;
			return true;
		}
	}
	return false;
}

/* The value of a password keyword: conninfo's password = VALUE (blanks
 * around '=', a quoted value with backslash escapes), a URI's
 * &password=VALUE (up to '&' when the word is a URI), PGPASSWORD=VALUE. */
static bool keyword_secret(const char *s, const char **b, const char **e)
{
	for (const char *p = s; (p = strcasestr(p, "password")); p += 8) {
		const char *v = p + 8, *word = p;
		bool uri;

		v += strspn(v, " \t");
		if (*v != '=')
			continue;
		v++;
		v += strspn(v, " \t");
		while (word > s && !strchr(" \t\n", word[-1]))
			word--;
		uri = memmem(word, (size_t)(p - word), "://", 3) != NULL;
		if (*v == '\'' && !uri) {
			*b = ++v;
			while (*v && *v != '\'')
				v += v[0] == '\\' && v[1] ? 2 : 1;
			*e = v;
		} else {
			*b = v;
			*e = v + strcspn(v, uri ? " \t\n&#" : " \t\n");
		}
		if (*e > *b)
			return true;
	}
	return false;
}

/* The first secret at or after s that is not already CT_SECRET_MASK. */
static bool next_secret(const char *s, const char **b, const char **e)
{
	const char *ub = NULL, *ue = NULL, *kb = NULL, *ke = NULL;

	for (;;) {
		bool u = uri_secret(s, &ub, &ue), k = keyword_secret(s, &kb, &ke);

		if (!u && !k)
			return false;
		if (u && (!k || ub <= kb)) {
			*b = ub;
			*e = ue;
		} else {
			*b = kb;
			*e = ke;
		}
		if ((size_t)(*e - *b) != strlen(CT_SECRET_MASK) ||
		    memcmp(*b, CT_SECRET_MASK, strlen(CT_SECRET_MASK)))
			return true;
		s = *e;
	}
}

unsigned ct_hide_secrets(const char *in, char *out, size_t len)
{
	const char *b, *e;
	unsigned n = 0;
	size_t off = 0;

	if (!len)
		return 0;
	while (next_secret(in, &b, &e)) {
		off += (size_t)snprintf(out + off, len - off, "%.*s%s", (int)(b - in), in,
					CT_SECRET_MASK);
		n++;
		in = e;
		if (off >= len)
			return n;
	}
	snprintf(out + off, len - off, "%s", in);
	return n;
}

unsigned ct_blank_secrets(char *s)
{
	const char *b, *e;
	unsigned n = 0;

	while (next_secret(s, &b, &e)) {
		memset(s + (b - s), '*', (size_t)(e - b));
		s += e - s;
		n++;
	}
	return n;
}

unsigned ct_hide_secrets_cmdline(const char *in, char *out, size_t len)
{
	char **words, word[4096];
	const char *b, *e;
	unsigned n = 0;
	size_t off = 0;
	int nw;

	if (!len)
		return 0;
	snprintf(out, len, "%s", in);
	if (!next_secret(in, &b, &e))
		return 0;
	nw = ct_split_words(in, &words);
	if (nw < 0) /* not a shell's words (cut short): the text as one */
		return ct_hide_secrets(in, out, len);
	out[0] = '\0';
	for (int i = 0; i < nw; i++) {
		n += ct_hide_secrets(words[i], word, sizeof(word));
		if (!ct_append_word(out, len, &off, word))
			break;
	}
	free(words);
	if (!n) /* only what a word's quoting made look like one */
		snprintf(out, len, "%s", in);
	return n;
}
