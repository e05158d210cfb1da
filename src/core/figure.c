/*
 * A benchmark's own figure read from its output (contend/figure.h): the
 * spec a user writes, a regex over the output's lines or a path into the
 * JSON document it printed, and the matches joined into one number.
 */
#include "contend/figure.h"
#include "contend/util.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const ct_figure_agg_names[CT_FIGURE_NAGG] = {
	[CT_FIGURE_LAST] = "last", [CT_FIGURE_FIRST] = "first", [CT_FIGURE_SUM] = "sum",
	[CT_FIGURE_MEAN] = "mean", [CT_FIGURE_MIN] = "min",	[CT_FIGURE_MAX] = "max",
};

/* the deepest path a figure walks */
#define MAX_STEPS 32

static int agg_of(const char *s, size_t n)
{
	for (int i = 0; i < CT_FIGURE_NAGG; i++)
		if (strlen(ct_figure_agg_names[i]) == n && !strncmp(ct_figure_agg_names[i], s, n))
			return i;
	return -1;
}

static bool is_dir(const char *s, size_t n)
{
	return (n == 6 && !strncmp(s, "higher", 6)) || (n == 5 && !strncmp(s, "lower", 5));
}

static bool name_ok(const char *s, size_t n)
{
	if (!n || n >= CT_METRIC_NAME || !(s[0] >= 'a' && s[0] <= 'z'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return true;
}

/* A path as its steps joined by '.': "jobs[0].read" is "jobs.0.read".
 * -EINVAL for an empty step or a bracket that is not [DIGITS] or [*]. */
static int normal_path(const char *in, char *out, size_t size)
{
	size_t o = 0;

	for (const char *p = in; *p; p++) {
		if (o + 2 >= size)
			return -EINVAL;
		if (*p != '[') {
			out[o++] = *p;
			continue;
		}
		const char *end = strchr(p, ']');
		size_t k = end ? (size_t)(end - p - 1) : 0;

		if (!end || !k || (strspn(p + 1, "0123456789") != k && !(k == 1 && p[1] == '*')) ||
		    (end[1] && end[1] != '.' && end[1] != '[') || o + k + 2 >= size)
			return -EINVAL;
		if (o)
			out[o++] = '.';
		memcpy(out + o, p + 1, k);
		o += k;
		p = end;
	}
	out[o] = '\0';
	if (!o || out[0] == '.' || out[o - 1] == '.' || strstr(out, ".."))
		return -EINVAL;
	return 0;
}

int ct_figure_spec_parse(const char *arg, bool json, struct ct_figure_spec *out, char *err,
			 size_t len)
{
	const char *opt = json ? "--figure-json" : "--figure", *what = json ? "PATH" : "REGEX";
	const char *eq = strchr(arg, '='), *rest, *colon[3], *dir = NULL, *unit = "", *end;
	size_t ncolon = 0, nunit = 0, nl;
	int agg = CT_FIGURE_LAST, rc;
	char q[96];

	memset(out, 0, sizeof(*out));
	ct_quote(arg, q, sizeof(q));
	if (!eq)
		return ct_err(err, len, -EINVAL, "%s %s: write NAME=%s:higher|lower[:UNIT][:AGG]",
			      opt, q, what);
	nl = (size_t)(eq - arg);
	if (!name_ok(arg, nl))
		return ct_err(err, len, -EINVAL,
			      "%s %s: a figure's name is a lower-case letter, then lower-case "
			      "letters, digits or '_', at most %d",
			      opt, q, CT_METRIC_NAME - 1);
	memcpy(out->def.name, arg, nl);
	out->def.name[nl] = '\0';
	rest = eq + 1;
	end = rest + strlen(rest);
	for (const char *p = end; p > rest && ncolon < 3;)
		if (*--p == ':')
			colon[ncolon++] = p;
	/* the rightmost direction that only a unit and an aggregate follow */
	for (size_t k = 0; k < ncolon && !dir; k++) {
		const char *f = colon[k] + 1, *fend = k ? colon[k - 1] : end;
		const char *f1 = k ? colon[k - 1] + 1 : NULL, *f1end = k > 1 ? colon[k - 2] : end;
		const char *f2 = k > 1 ? colon[k - 2] + 1 : NULL;

		if (!is_dir(f, (size_t)(fend - f)))
			continue;
		if (k == 1 && agg_of(f1, (size_t)(end - f1)) >= 0) {
			agg = agg_of(f1, (size_t)(end - f1));
		} else if (k == 1) {
			unit = f1;
			nunit = (size_t)(end - f1);
		} else if (k == 2) {
			agg = agg_of(f2, (size_t)(end - f2));
			if (agg < 0)
				continue;
			unit = f1;
			nunit = (size_t)(f1end - f1);
		}
		dir = f;
		end = colon[k];
	}
	if (!dir)
		return ct_err(err, len, -EINVAL,
			      "%s %s: say which way is better: NAME=%s:higher or :lower, then "
			      "[:UNIT][:last|first|sum|mean|min|max]",
			      opt, q, what);
	out->def.higher_better = dir[0] == 'h';
	out->agg = (enum ct_figure_agg)agg;
	if (nunit >= CT_FIGURE_UNIT)
		return ct_err(err, len, -EINVAL, "%s %s: the unit is over %d characters", opt, q,
			      CT_FIGURE_UNIT - 1);
	memcpy(out->def.unit, unit, nunit);
	out->def.unit[nunit] = '\0';
	if (!ct_figure_unit_ok(out->def.unit))
		return ct_err(err, len, -EINVAL,
			      "%s %s: a unit is letters, digits and / %% _ . - only (\"ops/s\")",
			      opt, q);
	if (end == rest)
		return ct_err(err, len, -EINVAL, "%s %s: the %s is empty", opt, q, what);
	out->pattern = strndup(rest, (size_t)(end - rest));
	if (!out->pattern)
		return ct_err(err, len, -ENOMEM, "out of memory");
	out->json = json;
	if (json) {
		char path[512];

		if (normal_path(out->pattern, path, sizeof(path))) {
			ct_figure_spec_free(out);
			return ct_err(err, len, -EINVAL,
				      "%s %s: a path is keys and indices joined by '.' "
				      "(jobs.0.read.iops), none empty, '*' for every one",
				      opt, q);
		}
		strcpy(out->pattern, path); /* never longer */
		return 0;
	}
	rc = regcomp(&out->re, out->pattern, REG_EXTENDED | REG_NEWLINE);
	if (rc) {
		char why[128];

		regerror(rc, &out->re, why, sizeof(why));
		free(out->pattern);
		out->pattern = NULL;
		return ct_err(err, len, -EINVAL, "%s %s: %s", opt, q, why);
	}
	if (out->re.re_nsub == 0) {
		ct_figure_spec_free(out);
		return ct_err(err, len, -EINVAL,
			      "%s %s: the regex has no group: put ( ) around the number", opt, q);
	}
	return 0;
}

void ct_figure_spec_free(struct ct_figure_spec *f)
{
	if (f->pattern && !f->json)
		regfree(&f->re);
	free(f->pattern);
	f->pattern = NULL;
}

/* The matches of a figure, joined as it says. */
struct acc {
	size_t n;
	double first, last, sum, min, max;
	char bad[48]; /* the first match that is not a number, quoted */
};

static void acc_add(struct acc *a, double v)
{
	if (!a->n++) {
		a->first = a->min = a->max = v;
	}
	a->last = v;
	a->sum += v;
	a->min = fmin(a->min, v);
	a->max = fmax(a->max, v);
}

static void acc_bad(struct acc *a, const char *s, size_t n)
{
	char text[64];

	if (a->bad[0])
		return;
	snprintf(text, sizeof(text), "%.*s", (int)(n < sizeof(text) ? n : sizeof(text) - 1), s);
	ct_quote(text, a->bad, sizeof(a->bad));
}

static double acc_value(const struct acc *a, enum ct_figure_agg agg)
{
	switch (agg) {
	case CT_FIGURE_FIRST:
		return a->first;
	case CT_FIGURE_SUM:
		return a->sum;
	case CT_FIGURE_MEAN:
		return a->sum / (double)a->n;
	case CT_FIGURE_MIN:
		return a->min;
	case CT_FIGURE_MAX:
		return a->max;
	default:
		return a->last;
	}
}

/* Each line of text, its first match: REG_STARTEND bounds the search to
 * the line, so a long output is read once, not once a match. */
static void read_lines(const struct ct_figure_spec *f, const char *text, size_t n, struct acc *a)
{
	regmatch_t m[2];
	size_t at = 0;

	while (at < n) {
		const char *nl = memchr(text + at, '\n', n - at);
		size_t eol = nl ? (size_t)(nl - text) : n;

		m[0].rm_so = (regoff_t)at;
		m[0].rm_eo = (regoff_t)eol;
		if (!regexec(&f->re, text, 2, m, REG_STARTEND) && m[1].rm_so >= 0) {
			const char *s = text + m[1].rm_so;
			size_t k = (size_t)(m[1].rm_eo - m[1].rm_so);
			double v;

			/* spaces around the number are no part of it */
			while (k && (*s == ' ' || *s == '\t')) {
				s++;
				k--;
			}
			if (!ct_parse_scaled(s, k, &v))
				acc_add(a, v);
			else
				acc_bad(a, s, k);
		}
		at = eol + 1;
	}
}

/* The values at steps[i..] under node. */
static void walk(const json_t *node, char **steps, size_t nsteps, size_t i, struct acc *a)
{
	char key[512];

	if (i == nsteps) {
		if (json_is_number(node)) {
			acc_add(a, json_number_value(node));
		} else if (json_is_string(node)) {
			const char *s = json_string_value(node);
			double v;

			if (!ct_parse_scaled(s, strlen(s), &v))
				acc_add(a, v);
			else
				acc_bad(a, s, strlen(s));
		} else if (!a->bad[0]) {
			snprintf(a->bad, sizeof(a->bad), "%s",
				 json_is_null(node)	 ? "null"
				 : json_is_boolean(node) ? "a boolean"
							 : "an object or array");
		}
		return;
	}
	if (!strcmp(steps[i], "*")) {
		size_t k;
		const char *name;
		json_t *v;

		if (json_is_array(node))
			json_array_foreach(node, k, v) walk(v, steps, nsteps, i + 1, a);
		else if (json_is_object(node))
			json_object_foreach((json_t *)node, name, v)
				walk(v, steps, nsteps, i + 1, a);
		return;
	}
	if (json_is_array(node)) {
		char *end;
		unsigned long k = strtoul(steps[i], &end, 10);
		const json_t *v = *end || steps[i][0] == '-' ? NULL : json_array_get(node, k);

		if (v)
			walk(v, steps, nsteps, i + 1, a);
		return;
	}
	if (!json_is_object(node))
		return;
	/* a key may hold dots (fio's percentile "99.000000"): the longest
	 * run of steps that is a key */
	for (size_t j = nsteps; j > i; j--) {
		size_t o = 0;
		const json_t *v;

		for (size_t s = i; s < j && o < sizeof(key); s++)
			o += (size_t)snprintf(key + o, sizeof(key) - o, "%s%s", s > i ? "." : "",
					      steps[s]);
		if (o >= sizeof(key))
			continue;
		v = json_object_get(node, key);
		if (v) {
			walk(v, steps, nsteps, j, a);
			return;
		}
	}
}

/* The first JSON document in text: from the first line that starts with
 * '{' or '[' and parses (a benchmark may print notes before it). */
static json_t *find_json(const char *text, size_t n)
{
	for (size_t at = 0; at < n;) {
		const char *nl = memchr(text + at, '\n', n - at);
		size_t s = at;

		while (s < n && (text[s] == ' ' || text[s] == '\t'))
			s++;
		if (s < n && (text[s] == '{' || text[s] == '[')) {
			json_t *doc = json_loadb(text + s, n - s, JSON_DISABLE_EOF_CHECK, NULL);

			if (doc)
				return doc;
		}
		at = nl ? (size_t)(nl - text) + 1 : n;
	}
	return NULL;
}

int ct_figure_read(const struct ct_figure_spec *f, const char *text, size_t n, double *v, char *err,
		   size_t len)
{
	struct acc a = { 0 };
	char q[96];

	if (f->json) {
		char path[512], *steps[MAX_STEPS], *save = NULL;
		size_t nsteps = 0;
		json_t *doc = find_json(text, n);

		if (!doc)
			return ct_err(err, len, -ENOENT,
				      "figure '%s': no JSON document in the output", f->def.name);
		snprintf(path, sizeof(path), "%s", f->pattern);
		for (char *s = strtok_r(path, ".", &save); s && nsteps < MAX_STEPS;
		     s = strtok_r(NULL, ".", &save))
			steps[nsteps++] = s;
		walk(doc, steps, nsteps, 0, &a);
		json_decref(doc);
	} else {
		read_lines(f, text, n, &a);
	}
	ct_quote(f->pattern, q, sizeof(q));
	if (a.bad[0] && f->json)
		return ct_err(err, len, -EINVAL,
			      "figure '%s': the value at %s (%s) is not a number", f->def.name, q,
			      a.bad);
	if (a.bad[0])
		return ct_err(err, len, -EINVAL,
			      "figure '%s': %s, what %s captured, is not a number", f->def.name,
			      a.bad, q);
	if (!a.n)
		return ct_err(err, len, -ENOENT, "figure '%s': %s %s", f->def.name,
			      f->json ? "the JSON output has no" : "no line of the output matched",
			      q);
	*v = acc_value(&a, f->agg);
	if (!isfinite(*v))
		return ct_err(err, len, -EINVAL, "figure '%s': its %s is not finite", f->def.name,
			      ct_figure_agg_names[f->agg]);
	return 0;
}

int ct_figure_slurp(const char *path, size_t max, char **out, size_t *n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc = 0;
	size_t cap = 65536, used = 0;
	char *buf = NULL;
	struct stat st;

	*out = NULL;
	*n = 0;
	if (fd < 0)
		return -errno;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && (size_t)st.st_size > max)
		rc = -EFBIG;
	else if (!fstat(fd, &st) && S_ISREG(st.st_mode) && (size_t)st.st_size + 2 > cap)
		cap = (size_t)st.st_size + 2;
	buf = rc ? NULL : malloc(cap);
	if (!rc && !buf)
		rc = -ENOMEM;
	while (!rc) {
		ssize_t k;

		if (used + 1 >= cap) {
			char *grown = used >= max ? NULL : realloc(buf, cap * 2);

			if (!grown) {
				rc = used >= max ? -EFBIG : -ENOMEM;
				break;
			}
			buf = grown;
			cap *= 2;
		}
		k = read(fd, buf + used, cap - 1 - used);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			rc = -errno;
		else if (!k)
			break;
		else
			used += (size_t)k;
		if (used > max)
			rc = -EFBIG;
	}
	close(fd);
	if (rc) {
		free(buf);
		return rc;
	}
	buf[used] = '\0';
	*out = buf;
	*n = used;
	return 0;
}
