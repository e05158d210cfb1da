/*
 * Live knobs: parse what the user asked to change, find the files that
 * really hold it, refuse anything outside /sys and /proc/sys before a byte
 * is written, then write, read back and compare. The journal of originals
 * that puts everything back is src/core/journal.c.
 */
#include "contend/knob.h"
#include "contend/sysinfo.h"
#include "contend/util.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Longest content of a knob file read whole (a scheduler list, a sysctl). */
#define CONTENT_MAX 4096
/* Deepest stack of block devices followed (dm on md on partitions...). */
#define MAX_DEPTH 8

static const char *const knob_help =
	"knobs are iosched, iosched@DEV, sysctl.NAME and files under /sys or /proc/sys";

static bool under_trees(const char *p)
{
	return !strncmp(p, "/sys/", 5) || !strncmp(p, "/proc/sys/", 10);
}

static bool has_dotdot(const char *p)
{
	const char *c = p;

	while (*c) {
		const char *end = strchrnul(c, '/');

		if (end - c == 2 && c[0] == '.' && c[1] == '.')
			return true;
		c = *end ? end + 1 : end;
	}
	return false;
}

static bool bad_char(const char *s)
{
	for (; *s; s++)
		if (iscntrl((unsigned char)*s) && *s != '\t')
			return true;
	return false;
}

static void trim_trailing(char *s)
{
	size_t n = strlen(s);

	while (n > 0 && isspace((unsigned char)s[n - 1]))
		s[--n] = '\0';
}

/* "vm.swappiness" -> "/proc/sys/vm/swappiness"; a '/' inside a part is a
 * '.' of the file name ("net.ipv4.conf.eth0/100.rp_filter"). */
static int sysctl_path(const char *name, char *buf, size_t len)
{
	size_t off, start;

	off = (size_t)snprintf(buf, len, "/proc/sys/");
	if (!*name)
		return -EINVAL;
	start = off;
	for (const char *c = name;; c++) {
		if (*c == '.' || !*c) {
			size_t part = off - start;

			if (part == 0 || (part == 1 && buf[start] == '.') ||
			    (part == 2 && buf[start] == '.' && buf[start + 1] == '.'))
				return -EINVAL;
			if (!*c)
				break;
			if (off + 1 >= len)
				return -ENAMETOOLONG;
			buf[off++] = '/';
			start = off;
			continue;
		}
		if (off + 1 >= len)
			return -ENAMETOOLONG;
		buf[off++] = *c == '/' ? '.' : *c;
	}
	buf[off] = '\0';
	return 0;
}

static int parse_name(struct ct_knob *k, const char *opt, const char *spec, char *err, size_t len)
{
	char path[CT_KNOB_PATH_MAX];
	const char *dev;

	if (bad_char(k->name) || strchr(k->name, '\t'))
		return ct_err(err, len, -EINVAL, "%s '%s': bad character in knob name", opt, spec);
	if (!strcmp(k->name, "iosched")) {
		k->kind = CT_KNOB_IOSCHED;
		return 0;
	}
	if (!strncmp(k->name, "iosched@", 8)) {
		dev = k->name + 8;
		if (!*dev || strchr(dev, '/') || !strcmp(dev, ".") || !strcmp(dev, "..") ||
		    strlen(dev) >= 64)
			return ct_err(err, len, -EINVAL, "%s '%s': bad device name '%s'", opt, spec,
				      dev);
		k->kind = CT_KNOB_IOSCHED_DEV;
		return 0;
	}
	if (!strncmp(k->name, "sysctl.", 7)) {
		k->kind = CT_KNOB_SYSCTL;
		if (sysctl_path(k->name + 7, path, sizeof(path)))
			return ct_err(err, len, -EINVAL, "%s '%s': bad sysctl name '%s'", opt, spec,
				      k->name + 7);
		return 0;
	}
	if (k->name[0] == '/') {
		k->kind = CT_KNOB_PATH;
		if (!under_trees(k->name))
			return ct_err(err, len, -EINVAL,
				      "%s '%s': knob path '%s' is not under /sys or /proc/sys", opt,
				      spec, k->name);
		if (has_dotdot(k->name))
			return ct_err(err, len, -EINVAL, "%s '%s': knob path '%s' contains '..'",
				      opt, spec, k->name);
		if (strlen(k->name) >= CT_KNOB_PATH_MAX)
			return ct_err(err, len, -EINVAL, "%s '%s': knob path is too long", opt,
				      spec);
		return 0;
	}
	return ct_err(err, len, -EINVAL, "%s '%s': unknown knob '%s' (%s)", opt, spec, k->name,
		      knob_help);
}

static int add_value(struct ct_knob *k, const char *opt, const char *spec, const char *v, size_t n,
		     char *err, size_t len)
{
	char *dst;

	if (n == 0)
		return ct_err(err, len, -EINVAL, "%s '%s': empty value", opt, spec);
	if (n >= CT_KNOB_VALUE_MAX)
		return ct_err(err, len, -EINVAL, "%s '%s': value longer than %d bytes", opt, spec,
			      CT_KNOB_VALUE_MAX - 1);
	if (k->nvalues == CT_KNOB_MAX_VALUES)
		return ct_err(err, len, -EINVAL, "%s '%s': more than %d values", opt, spec,
			      CT_KNOB_MAX_VALUES);
	dst = k->values[k->nvalues];
	memcpy(dst, v, n);
	dst[n] = '\0';
	if (bad_char(dst))
		return ct_err(err, len, -EINVAL, "%s '%s': control character in value", opt, spec);
	for (unsigned i = 0; i < k->nvalues; i++)
		if (!strcmp(k->values[i], dst))
			return ct_err(err, len, -EINVAL, "%s '%s': value '%s' given twice", opt,
				      spec, dst);
	k->nvalues++;
	return 0;
}

/* The spec as error messages quote it: on one line, and not too long. */
static void shown(const char *spec, char *buf, size_t len)
{
	size_t i;

	for (i = 0; spec[i] && i + 1 < len; i++)
		buf[i] = iscntrl((unsigned char)spec[i]) && spec[i] != '\t' ? '?' : spec[i];
	buf[i] = '\0';
	if (spec[i] && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

int ct_knob_parse(const char *text, bool vary, struct ct_knob *k, char *err, size_t len)
{
	const char *opt = vary ? "--vary" : "--set", *eq, *v, *comma;
	char spec[96];
	int rc;

	memset(k, 0, sizeof(*k));
	k->vary = vary;
	if (!text)
		text = "";
	shown(text, spec, sizeof(spec));
	eq = strchr(text, '=');
	if (!eq)
		return ct_err(err, len, -EINVAL, "%s '%s': expected KNOB=%s", opt, spec,
			      vary ? "VALUE1,VALUE2[,...]" : "VALUE");
	if (eq == text)
		return ct_err(err, len, -EINVAL, "%s '%s': no knob name before '='", opt, spec);
	if ((size_t)(eq - text) >= sizeof(k->name))
		return ct_err(err, len, -EINVAL, "%s '%s': knob name too long", opt, spec);
	memcpy(k->name, text, (size_t)(eq - text));
	rc = parse_name(k, opt, spec, err, len);
	if (rc)
		return rc;
	v = eq + 1;
	if (!vary)
		return add_value(k, opt, spec, v, strlen(v), err, len);
	for (;;) {
		comma = strchrnul(v, ',');
		rc = add_value(k, opt, spec, v, (size_t)(comma - v), err, len);
		if (rc)
			return rc;
		if (!*comma)
			break;
		v = comma + 1;
	}
	/* one value is refused by ct_knobs_prepare(), after the value itself
	 * was checked: a scheduler the disk does not offer is the news */
	return 0;
}

/* Prefixes the message already in err with "knob 'NAME': ". */
static int knob_err(char *err, size_t len, int rc, const char *knob)
{
	char tmp[CT_ERRLEN];

	if (!err || !len)
		return rc;
	snprintf(tmp, sizeof(tmp), "%s", err);
	return ct_err(err, len, rc, "knob '%s': %s", knob, tmp);
}

static int join_root(char *buf, size_t len, const char *root, const char *rel)
{
	int n = snprintf(buf, len, "%s%s", root ? root : "", rel);

	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int no_dots(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

static int sched_walk(const char *root, const char *dev, unsigned depth, char (*disks)[64],
		      size_t max, size_t *n, char *err, size_t len)
{
	char disk[64], rel[192], path[PATH_MAX];
	struct dirent **names = NULL;
	struct stat st;
	int nn, rc = 0;

	if (depth > MAX_DEPTH)
		return ct_err(err, len, -ELOOP, "block device '%s' is stacked more than %d deep",
			      dev, MAX_DEPTH);
	rc = ct_sysinfo_disk(root, dev, disk, sizeof(disk));
	if (rc == -ENOENT)
		return ct_err(err, len, rc, "no block device '%s'", dev);
	if (rc)
		return ct_err(err, len, rc, "cannot find the disk of block device '%s': %s", dev,
			      strerror(-rc));
	snprintf(rel, sizeof(rel), "/sys/block/%s/slaves", disk);
	if (join_root(path, sizeof(path), root, rel))
		return ct_err(err, len, -ENAMETOOLONG, "sysfs path of '%s' is too long", disk);
	nn = scandir(path, &names, no_dots, alphasort);
	if (nn > 0) {
		for (int i = 0; i < nn; i++) {
			if (!rc)
				rc = sched_walk(root, names[i]->d_name, depth + 1, disks, max, n,
						err, len);
			free(names[i]);
		}
		free(names);
		return rc;
	}
	free(names);
	snprintf(rel, sizeof(rel), "/sys/block/%s/queue/scheduler", disk);
	if (join_root(path, sizeof(path), root, rel))
		return ct_err(err, len, -ENAMETOOLONG, "sysfs path of '%s' is too long", disk);
	if (stat(path, &st))
		return ct_err(err, len, -EINVAL, "block device '%s' has no I/O scheduler", disk);
	for (size_t i = 0; i < *n; i++)
		if (!strcmp(disks[i], disk))
			return 0;
	if (*n == max)
		return ct_err(err, len, -E2BIG, "block device stack reaches more than %zu disks",
			      max);
	snprintf(disks[(*n)++], 64, "%s", disk);
	return 0;
}

int ct_knob_sched_disks(const char *root, const char *dev, char (*disks)[64], size_t max, size_t *n,
			char *err, size_t len)
{
	*n = 0;
	return sched_walk(root, dev, 0, disks, max, n, err, len);
}

static int check_file(const char *knob, const char *path, char *err, size_t len)
{
	char real[PATH_MAX];
	struct stat st;

	if (stat(path, &st)) {
		if (errno == ENOENT || errno == ENOTDIR)
			return ct_err(err, len, -ENOENT, "knob '%s': '%s' does not exist", knob,
				      path);
		return ct_err(err, len, -errno, "knob '%s': cannot stat '%s': %s", knob, path,
			      strerror(errno));
	}
	if (!realpath(path, real))
		return ct_err(err, len, -errno, "knob '%s': cannot resolve '%s': %s", knob, path,
			      strerror(errno));
	if (!under_trees(real))
		return ct_err(err, len, -EINVAL,
			      "knob '%s': '%s' leads to '%s', outside /sys and /proc/sys", knob,
			      path, real);
	if (!S_ISREG(st.st_mode))
		return ct_err(err, len, -EINVAL, "knob '%s': '%s' is not a file", knob, path);
	return 0;
}

static int iosched_paths(struct ct_knob *k, const char *dev, char *err, size_t len)
{
	char disks[CT_KNOB_MAX_PATHS][64];
	size_t nd;
	int rc;

	rc = ct_knob_sched_disks("", dev, disks, CT_KNOB_MAX_PATHS, &nd, err, len);
	if (rc)
		return knob_err(err, len, rc, k->name);
	for (size_t i = 0; i < nd; i++)
		snprintf(k->paths[i], sizeof(k->paths[i]), "/sys/block/%s/queue/scheduler",
			 disks[i]);
	k->npaths = (unsigned)nd;
	return 0;
}

int ct_knob_resolve(struct ct_knob *k, const char *dir, char *err, size_t len)
{
	char dev[64];
	struct stat st;
	int rc;

	k->npaths = 0;
	switch (k->kind) {
	case CT_KNOB_IOSCHED:
		if (!dir || !*dir)
			dir = "/var/tmp";
		if (stat(dir, &st))
			return ct_err(err, len, -errno, "knob '%s': cannot use work dir '%s': %s",
				      k->name, dir, strerror(errno));
		rc = ct_sysinfo_blockdev("", dir, dev, sizeof(dev));
		if (rc)
			return ct_err(err, len, rc,
				      "knob '%s': cannot find the block device under '%s': %s",
				      k->name, dir, strerror(-rc));
		if (!*dev)
			return ct_err(err, len, -EINVAL,
				      "no block device under '%s'; name one with iosched@DEV", dir);
		rc = iosched_paths(k, dev, err, len);
		break;
	case CT_KNOB_IOSCHED_DEV:
		rc = iosched_paths(k, k->name + 8, err, len);
		break;
	case CT_KNOB_SYSCTL:
		rc = sysctl_path(k->name + 7, k->paths[0], sizeof(k->paths[0]));
		if (rc)
			return ct_err(err, len, -EINVAL, "bad sysctl name '%s'", k->name + 7);
		k->npaths = 1;
		break;
	case CT_KNOB_PATH:
		snprintf(k->paths[0], sizeof(k->paths[0]), "%s", k->name);
		k->npaths = 1;
		rc = 0;
		break;
	case CT_KNOB_PLACEBO:
		return 0; /* nothing to write */
	default:
		return ct_err(err, len, -EINVAL, "knob '%s' has an unknown kind", k->name);
	}
	if (rc)
		return rc;
	for (unsigned i = 0; i < k->npaths; i++) {
		rc = check_file(k->name, k->paths[i], err, len);
		if (rc)
			return rc;
	}
	return 0;
}

/* Reads the whole file, trailing whitespace removed. */
static int read_content(const char *path, char *buf, size_t size, char *err, size_t len)
{
	ssize_t n = ct_read_file(path, buf, size);

	if (n < 0)
		return ct_err(err, len, (int)n, "cannot read '%s': %s", path, strerror((int)-n));
	if ((size_t)n >= size - 1)
		return ct_err(err, len, -EFBIG, "'%s' holds more than %zu bytes", path, size - 2);
	trim_trailing(buf);
	return 0;
}

/* The bracketed word of a choice list ("none [mq-deadline] kyber bfq"):
 * whitespace-separated words, exactly one in brackets. */
static bool choice_current(const char *content, char *cur, size_t len)
{
	const char *p = content, *word = NULL;
	size_t wlen = 0, nb = 0;

	while (*p) {
		size_t n;

		while (isspace((unsigned char)*p))
			p++;
		n = strcspn(p, " \t\n");
		if (n >= 3 && p[0] == '[' && p[n - 1] == ']') {
			word = p + 1;
			wlen = n - 2;
			nb++;
		}
		p += n;
	}
	if (nb != 1)
		return false;
	if (cur && len) {
		if (wlen >= len)
			wlen = len - 1;
		memcpy(cur, word, wlen);
		cur[wlen] = '\0';
	}
	return true;
}

/* Whether a choice list offers value; offered gets the words without
 * brackets, space-separated. */
static bool choice_offers(const char *content, const char *value, char *offered, size_t olen)
{
	const char *p = content;
	size_t off = 0, vlen = strlen(value);
	bool found = false;

	if (olen)
		offered[0] = '\0';
	while (*p) {
		const char *w;
		size_t tok, n;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		tok = n = strcspn(p, " \t\n");
		w = p;
		if (n >= 3 && p[0] == '[' && p[n - 1] == ']') {
			w = p + 1;
			n -= 2;
		}
		if (n == vlen && !memcmp(w, value, n))
			found = true;
		if (off < olen) {
			int m = snprintf(offered + off, olen - off, "%s%.*s", off ? " " : "",
					 (int)n, w);

			off += m > 0 ? (size_t)m : 0;
		}
		p += tok;
	}
	return found;
}

int ct_knob_read(const char *path, char *buf, size_t len, char *err, size_t elen)
{
	char content[CONTENT_MAX];
	int rc;

	rc = read_content(path, content, sizeof(content), err, elen);
	if (rc)
		return rc;
	if (!choice_current(content, NULL, 0)) {
		if (strlen(content) >= len)
			return ct_err(err, elen, -EFBIG, "value of '%s' is longer than %zu bytes",
				      path, len - 1);
		memcpy(buf, content, strlen(content) + 1);
		return 0;
	}
	choice_current(content, buf, len);
	return 0;
}

/* Whole-number fields ("4096\t131072\t6291456"); -1 when s is not only that. */
static int numeric_fields(const char *s, long long *v, int max)
{
	int n = 0;
	char *end;

	for (;;) {
		while (isspace((unsigned char)*s))
			s++;
		if (!*s)
			return n;
		if (n == max || !(isdigit((unsigned char)*s) || *s == '-'))
			return -1;
		errno = 0;
		v[n++] = strtoll(s, &end, 10);
		if (errno || end == s || (*end && !isspace((unsigned char)*end)))
			return -1;
		s = end;
	}
}

static bool values_match(const char *got, const char *want)
{
	char w[CT_KNOB_VALUE_MAX];
	long long a[16], b[16];
	int na, nb;

	snprintf(w, sizeof(w), "%s", want);
	trim_trailing(w);
	if (!strcmp(got, w))
		return true;
	na = numeric_fields(got, a, 16);
	nb = numeric_fields(w, b, 16);
	return na > 0 && na == nb && !memcmp(a, b, (size_t)na * sizeof(a[0]));
}

int ct_knob_write(const char *knob, const char *path, const char *value, char *err, size_t len)
{
	char content[CONTENT_MAX], cur[CT_KNOB_VALUE_MAX];
	const char *got = content;
	int rc;

	rc = ct_write_file(path, value);
	if (rc)
		return ct_err(err, len, rc, "cannot set knob '%s' (%s) to '%s': %s", knob, path,
			      value, strerror(-rc));
	rc = read_content(path, content, sizeof(content), err, len);
	if (rc)
		return knob_err(err, len, rc, knob);
	if (choice_current(content, cur, sizeof(cur))) {
		got = cur;
		if (!strcmp(cur, value))
			return 0;
	} else if (values_match(content, value)) {
		return 0;
	}
	return ct_err(err, len, -EIO, "knob '%s' (%s): wrote '%s', read back '%s'", knob, path,
		      value, got);
}

void ct_knob_placebo(struct ct_knob *k)
{
	memset(k, 0, sizeof(*k));
	snprintf(k->name, sizeof(k->name), "aa");
	k->kind = CT_KNOB_PLACEBO;
	k->vary = true;
	snprintf(k->values[0], sizeof(k->values[0]), "A");
	snprintf(k->values[1], sizeof(k->values[1]), "B");
	k->nvalues = 2;
}

int ct_knob_apply(const struct ct_knob *k, const char *value, char *err, size_t len)
{
	int rc;

	for (unsigned i = 0; i < k->npaths; i++) {
		rc = ct_knob_write(k->name, k->paths[i], value, err, len);
		if (rc)
			return rc;
	}
	return 0;
}

int ct_knob_check(const struct ct_knob *k, char *err, size_t len)
{
	char content[CONTENT_MAX], offered[512];
	bool sched = k->kind == CT_KNOB_IOSCHED || k->kind == CT_KNOB_IOSCHED_DEV;
	struct stat st;
	int rc;

	if (k->kind == CT_KNOB_PLACEBO)
		return 0;
	if (!k->npaths)
		return ct_err(err, len, -EINVAL, "knob '%s' is not resolved", k->name);
	for (unsigned i = 0; i < k->npaths; i++) {
		rc = read_content(k->paths[i], content, sizeof(content), err, len);
		if (rc)
			return knob_err(err, len, rc, k->name);
		/* a scheduler list without brackets offers its only word */
		if (!sched && !choice_current(content, NULL, 0))
			continue;
		for (unsigned j = 0; j < k->nvalues; j++)
			if (!choice_offers(content, k->values[j], offered, sizeof(offered)))
				return ct_err(err, len, -EINVAL,
					      "knob '%s': '%s' is not offered by %s (%s)", k->name,
					      k->values[j], k->paths[i], offered);
	}
	for (unsigned i = 0; i < k->npaths; i++) {
		if (stat(k->paths[i], &st))
			return ct_err(err, len, -errno, "knob '%s': cannot stat '%s': %s", k->name,
				      k->paths[i], strerror(errno));
		if (!(st.st_mode & S_IWUSR))
			return ct_err(err, len, -EINVAL, "knob '%s': '%s' is read-only", k->name,
				      k->paths[i]);
	}
	if (geteuid() != 0)
		return ct_err(err, len, -EPERM, "changing knob '%s' needs root", k->name);
	for (unsigned i = 0; i < k->npaths; i++)
		if (access(k->paths[i], W_OK))
			return ct_err(err, len, -errno, "knob '%s': cannot write '%s': %s", k->name,
				      k->paths[i], strerror(errno));
	return 0;
}

static int check_names(const struct ct_knob *k, size_t n, char *err, size_t len)
{
	if (n > CT_KNOB_MAX)
		return ct_err(err, len, -EINVAL, "more than %d knobs", CT_KNOB_MAX);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(k[i].name, k[j].name))
				return ct_err(err, len, -EINVAL, "knob '%s' given twice",
					      k[i].name);
	return 0;
}

int ct_knobs_prepare(struct ct_knob *k, size_t n, const char *dir, char *err, size_t len)
{
	char(*real)[PATH_MAX] = NULL;
	const char **owner = NULL;
	size_t nreal = 0;
	int rc;

	rc = check_names(k, n, err, len);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		rc = ct_knob_resolve(&k[i], dir, err, len);
		if (!rc)
			rc = ct_knob_check(&k[i], err, len);
		if (!rc && k[i].vary && k[i].nvalues < 2)
			rc = ct_err(err, len, -EINVAL,
				    "--vary '%s': needs at least two values (for one: --set)",
				    k[i].name);
		if (rc)
			return rc;
	}
	real = calloc(n * CT_KNOB_MAX_PATHS + 1, sizeof(*real));
	owner = calloc(n * CT_KNOB_MAX_PATHS + 1, sizeof(*owner));
	if (!real || !owner) {
		rc = ct_err(err, len, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		for (unsigned p = 0; p < k[i].npaths; p++) {
			if (!realpath(k[i].paths[p], real[nreal])) {
				rc = ct_err(err, len, -errno, "knob '%s': cannot resolve '%s': %s",
					    k[i].name, k[i].paths[p], strerror(errno));
				goto out;
			}
			for (size_t j = 0; j < nreal; j++) {
				if (strcmp(real[j], real[nreal]))
					continue;
				rc = ct_err(err, len, -EINVAL,
					    "knobs '%s' and '%s' both write '%s'", owner[j],
					    k[i].name, k[i].paths[p]);
				goto out;
			}
			owner[nreal++] = k[i].name;
		}
	}
out:
	free(owner);
	free(real);
	return rc;
}

int ct_knob_configs(const struct ct_knob *k, size_t n, struct ct_knob_config **out, size_t *nout,
		    char *err, size_t len)
{
	struct ct_knob_config *cs;
	size_t total = 1;
	int rc;

	*out = NULL;
	*nout = 0;
	rc = check_names(k, n, err, len);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		if (!k[i].nvalues || (!k[i].vary && k[i].nvalues != 1))
			return ct_err(err, len, -EINVAL, "knob '%s' has %u values", k[i].name,
				      k[i].nvalues);
		if (k[i].vary)
			total *= k[i].nvalues;
		if (total > CT_KNOB_MAX_CONFIGS)
			return ct_err(err, len, -EINVAL,
				      "--vary gives more than %d configs to compare",
				      CT_KNOB_MAX_CONFIGS);
	}
	cs = calloc(total, sizeof(*cs));
	if (!cs)
		return ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t c = 0; c < total; c++) {
		size_t rem = c;

		/* mixed radix, the last --vary the fastest digit */
		for (size_t i = n; i-- > 0;) {
			unsigned v = 0;

			if (k[i].vary) {
				v = (unsigned)(rem % k[i].nvalues);
				rem /= k[i].nvalues;
			}
			cs[c].set[i].knob = &k[i];
			cs[c].set[i].value = k[i].values[v];
		}
		cs[c].n = (unsigned)n;
	}
	*out = cs;
	*nout = total;
	return 0;
}

int ct_knob_label(const struct ct_knob_config *c, bool varied_only, char *buf, size_t len)
{
	size_t off = 0;

	if (!len)
		return -ENAMETOOLONG;
	buf[0] = '\0';
	for (unsigned i = 0; i < c->n; i++) {
		int m;

		if (varied_only && !c->set[i].knob->vary)
			continue;
		m = snprintf(buf + off, len - off, "%s%s=%s", off ? "+" : "", c->set[i].knob->name,
			     c->set[i].value);
		if (m < 0 || (size_t)m >= len - off) {
			buf[0] = '\0';
			return -ENAMETOOLONG;
		}
		off += (size_t)m;
	}
	return 0;
}

int ct_knob_apply_config(const struct ct_knob_config *c, char *err, size_t len)
{
	int rc;

	for (unsigned i = 0; i < c->n; i++) {
		rc = ct_knob_apply(c->set[i].knob, c->set[i].value, err, len);
		if (rc)
			return rc;
	}
	return 0;
}
