/*
 * Suite files: `contend run -f FILE` runs the jobs of an INI file written
 * in fio's convention - a section per job, a [global] section every job
 * starts from, `include FILE`, ${VAR} from the environment and the
 * machine's $ncpus, $mem_mb and $pagesize - whose keys are run's long
 * options, read by run's own table, so a key means what the option means.
 * `command` is what follows "--"; `param = NAME=V1,V2` makes a job one per
 * value, {NAME} replaced in every value (hyperfine's -L). The whole file is
 * read and every job checked before anything runs: each mistake is one
 * line "FILE:LINE: ...", exit 2. Each job then runs as its own `contend
 * run`, with the options given beside -f, and its workload's parameters
 * name the suite, the job and a hash of the job as run, so sessions of a
 * job that changed are never pooled with the old ones.
 */
#include "cli.h"
#include "opts.h"
#include "run.h"
#include "contend/store.h"
#include "contend/util.h"

#include <ctype.h>
#include <dirent.h>
#include <limits.h>
#include <stdarg.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SUITE_MAX_JOBS	 128 /* after params */
#define SUITE_MAX_KEYS	 96  /* a job's, [global]'s included */
#define SUITE_MAX_DEPTH	 8   /* includes within includes */
#define SUITE_MAX_PARAMS 4
#define SUITE_MAX_VALUES 32 /* a param's */
#define SUITE_MAX_ARGS	 (2 * SUITE_MAX_KEYS + 64)
#define VALUE_MAX	 4096

struct kv {
	char *key, *value; /* value NULL: a bare key (a flag) */
	const char *file;  /* for messages, owned by the suite */
	unsigned line;
};

struct section {
	char *name;
	const char *file;
	unsigned line;
	struct kv kv[SUITE_MAX_KEYS];
	size_t n;
};

struct suite {
	const char *path;
	char *files[64]; /* the names read, for messages */
	size_t nfiles;
	struct section global, *sec[SUITE_MAX_JOBS];
	size_t nsec;
	unsigned nerr;
	bool quiet; /* profiles reads files to count their jobs */
	/* the text as read, includes spliced in after their line between
	 * marks (stored with the sessions its jobs run); NULL: not kept */
	FILE *text;
	/* the mistakes said, so that one in [global] is said once, not once
	 * a job */
	uint64_t said[64];
	size_t nsaid;
};

/* One job ready to run: its name and its argv. */
struct job {
	char name[160];
	const char *file;
	unsigned line;
	char *argv[SUITE_MAX_ARGS];
	int argc;
	char *mem[SUITE_MAX_ARGS]; /* what argv points into, owned */
	size_t nmem;
};

/* ct_fnv1a of s and then of an end, so that "ab","c" is not "a","bc". */
static uint64_t fnv1a(uint64_t h, const char *s)
{
	return ct_fnv1a(ct_fnv1a(h, s), "\n");
}

static void bad(struct suite *su, const char *file, unsigned line, const char *fmt, ...)
	CT_PRINTF(4, 5);
static void bad(struct suite *su, const char *file, unsigned line, const char *fmt, ...)
{
	char msg[CT_ERRLEN];
	uint64_t h;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	su->nerr++;
	h = fnv1a(fnv1a(CT_FNV_INIT, file), msg) ^ line;
	for (size_t i = 0; i < su->nsaid; i++)
		if (su->said[i] == h)
			return;
	if (su->nsaid < CT_ARRAY_SIZE(su->said))
		su->said[su->nsaid++] = h;
	if (su->quiet)
		return;
	if (line)
		fprintf(stderr, "contend: run: %s:%u: %s\n", file, line, msg);
	else
		fprintf(stderr, "contend: run: %s: %s\n", file, msg);
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

static const char *keep_name(struct suite *su, const char *name)
{
	if (su->nfiles == CT_ARRAY_SIZE(su->files))
		return su->files[su->nfiles - 1];
	su->files[su->nfiles] = strdup(name);
	return su->files[su->nfiles] ? su->files[su->nfiles++] : "?";
}

static void add_kv(struct suite *su, struct section *s, const char *key, const char *value,
		   const char *file, unsigned line)
{
	struct kv *kv;

	if (s->n == SUITE_MAX_KEYS) {
		bad(su, file, line, "over %d keys in [%s]", SUITE_MAX_KEYS, s->name);
		return;
	}
	kv = &s->kv[s->n];
	kv->key = strdup(key);
	kv->value = value ? strdup(value) : NULL;
	kv->file = file;
	kv->line = line;
	if (!kv->key || (value && !kv->value)) {
		free(kv->key);
		free(kv->value);
		bad(su, file, line, "out of memory");
		return;
	}
	s->n++;
}

/* The job sections' and [global]'s names: letters, digits, _ - . + */
static bool section_name_ok(const char *s)
{
	if (!*s || strlen(s) > 64)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_-.+", *s))
			return false;
	return true;
}

/* Reads path (relative to the including file's directory) into su, the
 * current section *cur. */
static void read_file(struct suite *su, const char *path, const char *from, struct section **cur,
		      int depth)
{
	char full[4096], *line = NULL;
	const char *name;
	size_t cap = 0;
	unsigned no = 0;
	ssize_t n;
	FILE *f;

	if (path[0] != '/' && from && strrchr(from, '/'))
		snprintf(full, sizeof(full), "%.*s/%s", (int)(strrchr(from, '/') - from), from,
			 path);
	else
		snprintf(full, sizeof(full), "%s", path);
	name = keep_name(su, full);
	f = fopen(full, "r");
	if (!f) {
		bad(su, from ? from : full, 0, "cannot read '%s': %s", full, strerror(errno));
		return;
	}
	if (su->text && depth)
		fprintf(su->text, "; ==> %s <==\n", full);
	while ((n = getline(&line, &cap, f)) >= 0) {
		char *s, *eq;

		if (su->text)
			fprintf(su->text, "%s%s", line, n && line[n - 1] == '\n' ? "" : "\n");
		s = trim(line);
		no++;
		if (!*s || *s == ';' || *s == '#')
			continue;
		if (ct_has_control(s)) {
			bad(su, name, no, "a control character in the line");
			continue;
		}
		if (!strncmp(s, "include", 7) && isspace((unsigned char)s[7])) {
			if (depth + 1 >= SUITE_MAX_DEPTH)
				bad(su, name, no,
				    "includes nest over %d deep (one includes itself?)",
				    SUITE_MAX_DEPTH);
			else
				read_file(su, trim(s + 7), name, cur, depth + 1);
			continue;
		}
		if (*s == '[') {
			char *end = strchr(s, ']');

			if (!end || end[1]) {
				bad(su, name, no, "a section is [NAME] alone on its line");
				continue;
			}
			*end = '\0';
			s = trim(s + 1);
			if (!section_name_ok(s)) {
				bad(su, name, no,
				    "section '%s': a name is letters, digits and _ - . + (at most "
				    "64)",
				    s);
				continue;
			}
			if (!strcmp(s, "global")) {
				*cur = &su->global;
				continue;
			}
			for (size_t k = 0; k < su->nsec; k++)
				if (!strcmp(su->sec[k]->name, s))
					bad(su, name, no, "job [%s] again (first at %s:%u)", s,
					    su->sec[k]->file, su->sec[k]->line);
			if (su->nsec == SUITE_MAX_JOBS) {
				bad(su, name, no, "over %d jobs", SUITE_MAX_JOBS);
				continue;
			}
			*cur = calloc(1, sizeof(**cur));
			if (!*cur || !((*cur)->name = strdup(s))) {
				free(*cur);
				*cur = NULL;
				bad(su, name, no, "out of memory");
				continue;
			}
			(*cur)->file = name;
			(*cur)->line = no;
			su->sec[su->nsec++] = *cur;
			continue;
		}
		eq = strchr(s, '=');
		if (eq)
			*eq = '\0';
		if (!*cur) {
			bad(su, name, no,
			    "a key before any section: put it under [global] or [JOB]");
			continue;
		}
		add_kv(su, *cur, trim(s), eq ? trim(eq + 1) : NULL, name, no);
	}
	if (su->text && depth)
		fprintf(su->text, "; <== %s ==>\n", full);
	free(line);
	fclose(f);
}

/* What $name stands for on this machine; false for none of ours. */
static bool machine_value(const char *name, size_t n, char *buf, size_t len)
{
	long v = -1;

	if (n == 5 && !strncmp(name, "ncpus", 5))
		v = sysconf(_SC_NPROCESSORS_ONLN);
	else if (n == 6 && !strncmp(name, "mem_mb", 6))
		v = (long)((double)sysconf(_SC_PHYS_PAGES) * (double)sysconf(_SC_PAGESIZE) /
			   (1024.0 * 1024.0));
	else if (n == 8 && !strncmp(name, "pagesize", 8))
		v = sysconf(_SC_PAGESIZE);
	else
		return false;
	snprintf(buf, len, "%ld", v);
	return true;
}

/* in with ${VAR}, $ncpus, $mem_mb, $pagesize and $$ replaced, and {NAME}
 * by a param's value; false after saying what is wrong. */
static bool expand(struct suite *su, const struct kv *kv, const char *in, const char *const *pn,
		   const char *const *pv, size_t np, char *out, size_t len)
{
	size_t o = 0;

	for (const char *p = in; *p;) {
		char val[64], var[128], dflt[256]; /* what add may point to */
		const char *add = NULL;
		size_t skip = 1, n;

		if (p[0] == '$' && p[1] == '$') {
			add = "$";
			skip = 2;
		} else if (p[0] == '$' && p[1] == '{') {
			const char *end = strchr(p, '}');
			char *def;

			if (!end || end == p + 2 || (size_t)(end - p - 2) >= sizeof(var)) {
				bad(su, kv->file, kv->line, "%s: a ${ without its }", kv->key);
				return false;
			}
			snprintf(var, sizeof(var), "%.*s", (int)(end - p - 2), p + 2);
			/* ${VAR:-DEFAULT}: DEFAULT when VAR is unset or empty */
			def = strstr(var, ":-");
			if (def) {
				*def = '\0';
				def += 2;
			}
			add = getenv(var);
			if (!add || (def && !*add)) {
				/* the default is expanded too: ${GROUPS:-$ncpus} */
				if (def && !expand(su, kv, def, pn, pv, np, dflt, sizeof(dflt)))
					return false;
				add = def ? dflt : NULL;
			}
			if (!add) {
				bad(su, kv->file, kv->line, "%s: ${%s} is not set", kv->key, var);
				return false;
			}
			skip = (size_t)(end - p) + 1;
		} else if (p[0] == '$') {
			for (n = 0; isalnum((unsigned char)p[1 + n]) || p[1 + n] == '_'; n++)
				;
			if (machine_value(p + 1, n, val, sizeof(val))) {
				add = val;
				skip = n + 1;
			}
		} else if (p[0] == '{') {
			const char *end = strchr(p, '}');

			for (size_t k = 0; end && k < np; k++)
				if ((size_t)(end - p - 1) == strlen(pn[k]) &&
				    !strncmp(p + 1, pn[k], strlen(pn[k]))) {
					add = pv[k];
					skip = (size_t)(end - p) + 1;
				}
		}
		n = add ? strlen(add) : 1;
		if (o + n + 1 > len) {
			bad(su, kv->file, kv->line, "%s: over %zu bytes once expanded", kv->key,
			    len - 1);
			return false;
		}
		memcpy(out + o, add ? add : p, n);
		o += n;
		p += skip;
	}
	out[o] = '\0';
	return true;
}

/* The keys of job s: [global]'s, then its own; a key the job sets
 * replaces every [global] value of it. */
static size_t merged(const struct suite *su, const struct section *s, const struct kv **out)
{
	size_t n = 0;

	for (size_t i = 0; i < su->global.n; i++) {
		bool mine = false;

		for (size_t k = 0; k < s->n && !mine; k++)
			mine = !strcmp(s->kv[k].key, su->global.kv[i].key);
		if (!mine && n < SUITE_MAX_KEYS)
			out[n++] = &su->global.kv[i];
	}
	for (size_t k = 0; k < s->n && n < SUITE_MAX_KEYS; k++)
		out[n++] = &s->kv[k];
	return n;
}

static bool flag_value(const char *v, bool *on)
{
	static const char *const yes[] = { "1", "true", "yes", "on" }, *const no[] = { "0", "false",
										       "no",
										       "off" };

	for (size_t i = 0; i < 4; i++) {
		if (!strcmp(v, yes[i]))
			*on = true;
		else if (!strcmp(v, no[i]))
			*on = false;
		else
			continue;
		return true;
	}
	return false;
}

/* The option of run a key names, or NULL after saying what is wrong. */
static const struct cli_opt *key_option(struct suite *su, const struct kv *kv)
{
	const struct cli_opt *opts = run_opts_table(), *o;
	const char *near = NULL;
	size_t best = SIZE_MAX;

	if (!strcmp(kv->key, "file")) {
		bad(su, kv->file, kv->line, "file: a suite takes another with 'include FILE'");
		return NULL;
	}
	o = cli_find(opts, "run", kv->key);
	if (o && !(o->flags & CLI_HIDDEN))
		return o;
	for (size_t i = 0; opts[i].type != CLI_OPT_END; i++)
		if (opts[i].long_name && !(opts[i].flags & CLI_HIDDEN) &&
		    cli_near(kv->key, opts[i].long_name, &best))
			near = opts[i].long_name;
	if (cli_near(kv->key, "command", &best))
		near = "command";
	if (near)
		bad(su, kv->file, kv->line, "unknown key '%s'; did you mean '%s'?", kv->key, near);
	else
		bad(su, kv->file, kv->line,
		    "unknown key '%s' (a key is one of run's long options, command or param)",
		    kv->key);
	return NULL;
}

static char *job_keep(struct job *j, const char *s)
{
	char *d;

	if (j->nmem == SUITE_MAX_ARGS || !(d = strdup(s)))
		return NULL;
	j->mem[j->nmem++] = d;
	return d;
}

static bool job_arg(struct job *j, const char *s)
{
	char *d = job_keep(j, s);

	if (!d || j->argc + 2 >= SUITE_MAX_ARGS)
		return false;
	j->argv[j->argc++] = d;
	j->argv[j->argc] = NULL;
	return true;
}

static void job_free(struct job *j)
{
	for (size_t i = 0; i < j->nmem; i++)
		free(j->mem[i]);
	j->nmem = 0;
	j->argc = 0;
}

/* -o FILE given beside -f to a suite of several jobs: each job's report
 * to its own file, the job's name (its characters outside [A-Za-z0-9_.-]
 * as '-') before FILE's extension - out.json, job randread:
 * out.randread.json. The job's argv points at the new name. */
static bool job_output(struct job *j)
{
	for (int i = 1; i < j->argc; i++) {
		const char *a = j->argv[i], *v = NULL, *dot, *slash;
		char name[sizeof(j->name)], out[PATH_MAX + sizeof(j->name) + 16], *keep;
		bool joined = false; /* -oFILE, --output=FILE: one word */
		int pre, at;

		if (!strcmp(a, "--"))
			break;
		if ((!strcmp(a, "-o") || !strcmp(a, "--output")) && i + 1 < j->argc)
			v = j->argv[++i];
		else if (!strncmp(a, "--output=", 9))
			v = a + 9, joined = true;
		else if (!strncmp(a, "-o", 2) && a[2])
			v = a + 2, joined = true;
		if (!v)
			continue;
		snprintf(name, sizeof(name), "%s", j->name);
		for (char *c = name; *c; c++)
			if (!isalnum((unsigned char)*c) && !strchr("_.-", *c))
				*c = '-';
		dot = strrchr(v, '.');
		slash = strrchr(v, '/');
		pre = dot && dot > v && (!slash || dot > slash + 1) ? (int)(dot - v)
								    : (int)strlen(v);
		at = joined ? snprintf(out, sizeof(out), "--output=") : 0;
		snprintf(out + at, sizeof(out) - (size_t)at, "%.*s.%s%s", pre, v, name, v + pre);
		keep = job_keep(j, out);
		if (!keep)
			return false;
		j->argv[i] = keep;
	}
	return true;
}

/* One job of section s with param values pv: its argv, every key checked
 * by run's table (each mistake said with its line). */
static bool make_job(struct suite *su, const struct section *s, const char *const *pn,
		     const char *const *pv, size_t np, char *const *extra, int nextra,
		     struct job *j)
{
	static struct run_args scratch;
	const struct kv *kv[SUITE_MAX_KEYS];
	size_t nkv = merged(su, s, kv), off;
	const char *command = NULL;
	char *value = malloc(VALUE_MAX), err[CT_ERRLEN], tag[256];
	bool shell = false, ok = value != NULL;
	uint64_t h = CT_FNV_INIT;

	memset(j, 0, sizeof(*j));
	j->file = s->file;
	j->line = s->line;
	off = (size_t)snprintf(j->name, sizeof(j->name), "%s", s->name);
	for (size_t k = 0; k < np && off < sizeof(j->name); k++)
		off += (size_t)snprintf(j->name + off, sizeof(j->name) - off, "%s%s=%s",
					k ? "," : "[", pn[k], pv[k]);
	if (np && off + 2 < sizeof(j->name))
		strcat(j->name, "]");
	memset(&scratch, 0, sizeof(scratch));
	ok = ok && job_arg(j, "run");
	/* every key, past a mistake too: each is said */
	for (size_t i = 0; value && i < nkv; i++) {
		const struct cli_opt *o;
		bool on = true;

		if (!strcmp(kv[i]->key, "param"))
			continue;
		if (kv[i]->value &&
		    !expand(su, kv[i], kv[i]->value, pn, pv, np, value, VALUE_MAX)) {
			ok = false;
			continue;
		}
		/* an empty value takes back what [global] set (${VAR:-} too) */
		if (kv[i]->value && !*value)
			continue;
		if (!strcmp(kv[i]->key, "command")) {
			if (!kv[i]->value || !*value) {
				bad(su, kv[i]->file, kv[i]->line, "command: it is empty");
				ok = false;
			} else {
				command = job_keep(j, value);
			}
			continue;
		}
		o = key_option(su, kv[i]);
		if (!o) {
			ok = false;
			continue;
		}
		if (o->type == CLI_OPT_FLAG) {
			if (kv[i]->value && !flag_value(value, &on)) {
				bad(su, kv[i]->file, kv[i]->line,
				    "%s is a flag: the key alone, or = 1, 0, true, false, yes, no",
				    kv[i]->key);
				ok = false;
			}
			if (!strcmp(kv[i]->key, "shell"))
				shell = on;
			snprintf(tag, sizeof(tag), "--%s", o->long_name);
			if (on && !job_arg(j, tag))
				ok = false;
			continue;
		}
		if (!kv[i]->value) {
			bad(su, kv[i]->file, kv[i]->line, "%s needs a value: %s = %s", kv[i]->key,
			    kv[i]->key, o->argh ? o->argh : "VALUE");
			ok = false;
			continue;
		}
		if (cli_set_value(o, &scratch, value, err, sizeof(err))) {
			bad(su, kv[i]->file, kv[i]->line, "%s", err);
			ok = false;
			continue;
		}
		snprintf(tag, sizeof(tag), "--%s", o->long_name);
		if (!job_arg(j, tag) || !job_arg(j, value))
			ok = false;
	}
	/* the job as the file makes it, hashed: its parameters name it (the
	 * options given beside -f, a --db or -q, are no part of it) */
	for (int i = 1; ok && i < j->argc; i++)
		h = fnv1a(h, j->argv[i]);
	h = fnv1a(h, command ? command : "");
	for (int i = 0; ok && i < nextra; i++)
		ok = job_arg(j, extra[i]);
	if (ok) {
		const char *base = strrchr(su->path, '/') ? strrchr(su->path, '/') + 1 : su->path;

		snprintf(tag, sizeof(tag), "%s/%s#%08x", base, j->name,
			 (unsigned)(h & 0xffffffffu));
		ok = job_arg(j, "--suite") && job_arg(j, tag);
	}
	if (ok && command) {
		char **words = NULL;
		int nw = shell ? 1 : ct_split_words(command, &words);

		if (nw < 0) {
			bad(su, s->file, s->line, "command: a quote is left open");
			ok = false;
		}
		ok = ok && job_arg(j, "--");
		if (shell)
			ok = ok && job_arg(j, command);
		for (int i = 0; ok && !shell && i < nw; i++)
			ok = job_arg(j, words[i]);
		free(words);
	}
	free(value);
	if (!ok)
		job_free(j);
	return ok;
}

/* A param's values: "NAME=V1,V2" split in copy (malloc'd, the caller's
 * to free); false after saying what is wrong. */
static bool param_of(struct suite *su, const struct kv *kv, char **copy, char **name, char **vals,
		     size_t *nv)
{
	char *eq, *save = NULL;

	*nv = 0;
	*copy = kv->value ? strdup(kv->value) : NULL;
	eq = *copy ? strchr(*copy, '=') : NULL;
	if (!eq || eq == *copy) {
		bad(su, kv->file, kv->line, "param: write param = NAME=V1,V2,...");
		return false;
	}
	*eq = '\0';
	*name = *copy;
	for (char *p = *name; *p; p++)
		if (!islower((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_') {
			bad(su, kv->file, kv->line, "param %s: a name is a-z, 0-9 and _", *name);
			return false;
		}
	for (char *v = strtok_r(eq + 1, ",", &save); v && *nv < SUITE_MAX_VALUES;
	     v = strtok_r(NULL, ",", &save))
		vals[(*nv)++] = trim(v);
	if (!*nv)
		bad(su, kv->file, kv->line, "param %s: no values", *name);
	return *nv > 0;
}

/* Every job of su, params expanded, in file order (*made of them in *out,
 * the caller's to free); -1 when any is wrong. */
static int make_jobs(struct suite *su, char *const *extra, int nextra, struct job **out, int *made)
{
	struct job *jobs = calloc(SUITE_MAX_JOBS, sizeof(*jobs));
	int n = 0;

	if (!jobs) {
		bad(su, su->path, 0, "out of memory");
		return -1;
	}
	for (size_t i = 0; i < su->nsec; i++) {
		const struct kv *kv[SUITE_MAX_KEYS];
		size_t nkv = merged(su, su->sec[i], kv), np = 0, nv[SUITE_MAX_PARAMS] = { 0 },
		       at[SUITE_MAX_PARAMS] = { 0 };
		char *pn[SUITE_MAX_PARAMS], *pvals[SUITE_MAX_PARAMS][SUITE_MAX_VALUES],
			*copies[SUITE_MAX_PARAMS + 1] = { NULL };
		bool ok = true;

		for (size_t k = 0; k < nkv; k++) {
			if (strcmp(kv[k]->key, "param"))
				continue;
			if (np == SUITE_MAX_PARAMS) {
				bad(su, kv[k]->file, kv[k]->line, "over %d params in a job",
				    SUITE_MAX_PARAMS);
				ok = false;
				break;
			}
			if (!param_of(su, kv[k], &copies[np], &pn[np], pvals[np], &nv[np])) {
				free(copies[np]);
				copies[np] = NULL;
				ok = false;
			} else {
				np++;
			}
		}
		while (ok) {
			const char *v[SUITE_MAX_PARAMS];
			size_t k;

			for (k = 0; k < np; k++)
				v[k] = pvals[k][at[k]];
			if (n == SUITE_MAX_JOBS) {
				bad(su, su->sec[i]->file, su->sec[i]->line, "over %d jobs",
				    SUITE_MAX_JOBS);
				break;
			}
			if (make_job(su, su->sec[i], (const char *const *)pn, v, np, extra, nextra,
				     &jobs[n]))
				n++;
			else
				break; /* its mistakes said once, not once a value */
			for (k = 0; k < np && ++at[k] == nv[k]; k++)
				at[k] = 0;
			if (k == np)
				break;
		}
		for (size_t k = 0; k < np; k++)
			free(copies[k]);
	}
	if (!su->nsec && !su->nerr)
		bad(su, su->path, 0, "no job: a job is a section [NAME] with its keys");
	*out = jobs;
	*made = n;
	return su->nerr ? -1 : n;
}

static void suite_free(struct suite *su, struct job *jobs, int njobs)
{
	for (int i = 0; jobs && i < njobs; i++)
		job_free(&jobs[i]);
	free(jobs);
	for (size_t i = 0; i < su->nsec; i++) {
		for (size_t k = 0; k < su->sec[i]->n; k++) {
			free(su->sec[i]->kv[k].key);
			free(su->sec[i]->kv[k].value);
		}
		free(su->sec[i]->name);
		free(su->sec[i]);
	}
	for (size_t k = 0; k < su->global.n; k++) {
		free(su->global.kv[k].key);
		free(su->global.kv[k].value);
	}
	for (size_t i = 0; i < su->nfiles; i++)
		free(su->files[i]);
}

/* The directories shipped suites are found in, in order: $CONTEND_SUITES
 * (colon-separated), the source tree's suites/ beside the build directory
 * the binary is in, the installed share/contend/suites beside its bin/. */
static size_t suite_dirs(char dirs[][PATH_MAX], size_t max)
{
	const char *env = getenv("CONTEND_SUITES");
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	size_t k = 0;

	if (env && *env) {
		char *copy = strdup(env), *save = NULL;

		for (char *d = copy ? strtok_r(copy, ":", &save) : NULL; d && k < max;
		     d = strtok_r(NULL, ":", &save))
			snprintf(dirs[k++], PATH_MAX, "%s", d);
		free(copy);
	}
	if (n > 0) {
		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			if (k < max)
				snprintf(dirs[k++], PATH_MAX, "%.*s/../suites", PATH_MAX - 16, exe);
			if (k < max)
				snprintf(dirs[k++], PATH_MAX, "%.*s/../share/contend/suites",
					 PATH_MAX - 32, exe);
		}
	}
	return k;
}

/* path as given when it is a file; else a shipped suite of that name
 * (NAME or NAME.ini in suite_dirs); false when neither. */
static bool find_suite(const char *name, char *out, size_t len)
{
	char dirs[8][PATH_MAX];
	size_t nd;

	snprintf(out, len, "%s", name);
	if (!access(name, F_OK) || strchr(name, '/'))
		return !access(name, F_OK);
	nd = suite_dirs(dirs, 8);
	for (size_t i = 0; i < nd; i++)
		for (int ext = 0; ext < 2; ext++) {
			char full[PATH_MAX], real[PATH_MAX];
			int n = snprintf(full, sizeof(full), "%s/%s%s", dirs[i], name,
					 ext ? ".ini" : "");

			if (n < 0 || (size_t)n >= sizeof(full) || access(full, R_OK))
				continue;
			/* named without the build tree's "bin/../" */
			snprintf(out, len, "%s", realpath(full, real) ? real : full);
			return true;
		}
	snprintf(out, len, "%s", name);
	return false;
}

int run_suite(const struct run_cmd *cmd, const char *given, char *const *extra, int nextra)
{
	static char path[PATH_MAX];
	struct suite su = { .path = path, .global = { .name = (char *)"global" } };
	struct section *cur = NULL;
	struct job *jobs = NULL;
	bool dry = false;
	int n, ex = 0, first = 0, made = 0;
	char *text = NULL;
	size_t tlen = 0;

	for (int i = 0; i < nextra; i++)
		dry = dry || !strcmp(extra[i], "--dry-run");
	if (!find_suite(given, path, sizeof(path))) {
		fprintf(stderr,
			"contend: run: -f %s: no such file, nor a shipped suite of that name (see: "
			"contend profiles)\n",
			given);
		return CT_EXIT_USAGE;
	}
	su.text = open_memstream(&text, &tlen);
	read_file(&su, path, NULL, &cur, 0);
	if (su.text)
		fclose(su.text);
	su.text = NULL;
	n = su.nerr ? -1 : make_jobs(&su, extra, nextra, &jobs, &made);
	/* every job's own checks (its workload, loads, knobs, command) before
	 * any runs: a mistake there is said with the job's line */
	for (int i = 0; n > 0 && i < n; i++) {
		int rc = run_check_only(cmd, jobs[i].argc, jobs[i].argv);

		if (rc) {
			fprintf(stderr, "contend: run: %s:%u: job [%s] cannot run (above)\n",
				jobs[i].file, jobs[i].line, jobs[i].name);
			su.nerr++;
		}
	}
	if (su.nerr) {
		suite_free(&su, jobs, made);
		free(text);
		return CT_EXIT_USAGE;
	}
	for (int i = 0; n > 1 && i < n; i++)
		if (!job_output(&jobs[i])) {
			suite_free(&su, jobs, n);
			free(text);
			return cli_fail(-ENOMEM, "out of memory");
		}
	run_suite_text(text);
	for (int i = 0; i < n; i++) {
		/* on stderr, as progress is: stdout may be a JSON document a job */
		fprintf(stderr, "contend: run: %s: job %d of %d, [%s] (%s:%u)\n", path, i + 1, n,
			jobs[i].name, jobs[i].file, jobs[i].line);
		ex = run_main(cmd, jobs[i].argc, jobs[i].argv);
		if (ex && !first)
			first = ex;
		if (ex == CT_EXIT_INTERRUPTED)
			break;
	}
	if (!dry && n > 1)
		fprintf(stderr, "contend: run: %s: %d jobs, %s\n", path, n,
			first ? "not every one ended well" : "every one ended well");
	run_suite_text(NULL);
	free(text);
	suite_free(&su, jobs, n);
	return first;
}

/* A suite file's summary: its first comment lines up to a blank or a
 * section, joined, cut to len. */
static void summary_of(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	char line[512];
	size_t off = 0;

	buf[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		char *s = trim(line);

		if (*s != ';' && *s != '#')
			break;
		s = trim(s + 1);
		if (off + 2 < len)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? " " : "", s);
	}
	if (f)
		fclose(f);
	if (off >= len - 1 && len > 4)
		memcpy(buf + len - 4, "...", 4);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct profiles_args {
	const char *session;
	const char *db;
};

/* `contend profiles`: the shipped suites, each its jobs and what it
 * measures; `contend profiles NAME`: where one is and its text. */
int cmd_profiles(int argc, char **argv)
{
	static const struct cli_opt opts[] = {
		CLI_STRING(0, "session", struct profiles_args, session, "ID",
			   "the suite file session ID's job came from, as the\nstore kept it"),
		CLI_DB(struct profiles_args, db),
		CLI_END,
	};
	struct profiles_args a = { 0 };
	char dirs[8][PATH_MAX], path[PATH_MAX], sum[80], *names[256];
	size_t nd = suite_dirs(dirs, 8), nn = 0;
	struct cli_parsed p;
	int rc = cli_parse("profiles", "contend profiles [NAME] | --session ID",
			   "The shipped suites of the benchmarks kernel people run, each a suite "
			   "file: run one with contend run -f NAME.",
			   opts, &a, argc, argv, &p);

	if (rc)
		return rc == 1 ? 0 : rc;
	if (p.rest + 1 < argc || (a.session && p.rest < argc))
		return cli_usage_error("profiles", "one NAME at most, or --session alone");
	if (a.session)
		return cli_stored_suite(a.session, a.db);
	if (p.rest < argc) {
		FILE *f;
		int c;

		if (!find_suite(argv[p.rest], path, sizeof(path)))
			return cli_usage_error("profiles",
					       "no suite named '%s' (contend profiles lists "
					       "them)",
					       argv[p.rest]);
		printf("# %s\n", path);
		f = fopen(path, "r");
		while (f && (c = getc(f)) != EOF)
			putchar(c);
		if (f)
			fclose(f);
		return 0;
	}
	for (size_t i = 0; i < nd; i++) {
		DIR *d = opendir(dirs[i]);
		struct dirent *e;

		while (d && (e = readdir(d)) && nn < CT_ARRAY_SIZE(names)) {
			size_t n = strlen(e->d_name);
			bool seen = false;

			if (n < 5 || strcmp(e->d_name + n - 4, ".ini"))
				continue;
			for (size_t k = 0; k < nn && !seen; k++)
				seen = !strncmp(names[k], e->d_name, n - 4) && !names[k][n - 4];
			if (seen)
				continue;
			names[nn] = malloc(n + 1 + strlen(dirs[i]) + 2);
			if (!names[nn])
				break;
			/* "NAME\0DIR": sorted by name, read from its dir */
			memcpy(names[nn], e->d_name, n - 4);
			names[nn][n - 4] = '\0';
			strcpy(names[nn] + n - 3, dirs[i]);
			nn++;
		}
		if (d)
			closedir(d);
	}
	if (!nn) {
		cli_error("profiles: no suites found (looked in $CONTEND_SUITES, and beside the "
			  "binary)");
		return CT_EXIT_ENV;
	}
	qsort(names, nn, sizeof(*names), by_name);
	printf("%-12s %-5s %s\n", "profile", "jobs", "what it measures");
	for (size_t i = 0; i < nn; i++) {
		struct suite su = { .path = path,
				    .quiet = true,
				    .global = { .name = (char *)"global" } };
		struct section *cur = NULL;

		snprintf(path, sizeof(path), "%s/%s.ini", names[i] + strlen(names[i]) + 1,
			 names[i]);
		read_file(&su, path, NULL, &cur, 0);
		summary_of(path, sum, sizeof(sum));
		printf("%-12s %-5zu %s\n", names[i], su.nsec, sum);
		suite_free(&su, NULL, 0);
		free(names[i]);
	}
	printf("\nRun one: contend run -f NAME (--dry-run: its jobs checked and planned); "
	       "see one: contend profiles NAME\n");
	return 0;
}
