/*
 * The machine's knob journal (include/contend/journal.h). A benchmark that
 * leaves a machine on bfq after it crashed has done harm, so the original
 * is on disk before the change, and an entry is only cleared by a read-back
 * that matches. The file is replaced whole by an fsynced rename, so a reader
 * never sees half of it and needs no lock; writers take an flock.
 */
#include "contend/journal.h"
#include "contend/util.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define JOURNAL_HEADER "# contend knob journal 1\n"
#define JOURNAL_MAX    (1u << 20) /* a journal larger than this is damaged */

const char *ct_journal_default_dir(void)
{
	const char *d = getenv("CONTEND_JOURNAL_DIR");

	return d && *d ? d : CT_JOURNAL_DIR;
}

int ct_journal_init(struct ct_journal *j, const char *dir, char *err, size_t len)
{
	memset(j, 0, sizeof(*j));
	if (!dir)
		dir = ct_journal_default_dir();
	if (*dir != '/')
		return ct_err(err, len, -EINVAL, "knob journal directory '%s' is not absolute",
			      dir);
	if ((size_t)snprintf(j->dir, sizeof(j->dir), "%s", dir) >= sizeof(j->dir))
		return ct_err(err, len, -ENAMETOOLONG, "knob journal directory is too long");
	snprintf(j->file, sizeof(j->file), "%s/knobs", j->dir);
	snprintf(j->lock, sizeof(j->lock), "%s/knobs.lock", j->dir);
	return 0;
}

/* Control characters and the backslash as \xHH and \\, so a field never
 * holds the tab that separates fields or the newline that ends a line. */
static int put_field(const char *s, size_t max, char *buf, size_t len, size_t *off)
{
	for (size_t i = 0; i < max && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];
		int m;

		if (c == '\\')
			m = snprintf(buf + *off, len - *off, "\\\\");
		else if (c < 0x20 || c == 0x7f)
			m = snprintf(buf + *off, len - *off, "\\x%02x", c);
		else
			m = snprintf(buf + *off, len - *off, "%c", c);
		if (m < 0 || (size_t)m >= len - *off)
			return -ENOSPC;
		*off += (size_t)m;
	}
	return 0;
}

static int put_text(const char *s, char *buf, size_t len, size_t *off)
{
	size_t n = strlen(s);

	if (n >= len - *off)
		return -ENOSPC;
	memcpy(buf + *off, s, n + 1);
	*off += n;
	return 0;
}

int ct_journal_encode(const struct ct_journal_entry *e, char *buf, size_t len)
{
	char nums[64];
	size_t off = 0;

	if (!len)
		return -ENOSPC;
	buf[0] = '\0';
	snprintf(nums, sizeof(nums), "\t%d\t%" PRIu64 "\t", e->owner.pid, e->owner.start);
	if (put_field(e->path, sizeof(e->path), buf, len, &off) || put_text("\t", buf, len, &off) ||
	    put_field(e->knob, sizeof(e->knob), buf, len, &off) || put_text("\t", buf, len, &off) ||
	    put_field(e->original, sizeof(e->original), buf, len, &off) ||
	    put_text(nums, buf, len, &off) ||
	    put_field(e->owner.boot, sizeof(e->owner.boot), buf, len, &off))
		return -ENOSPC;
	snprintf(nums, sizeof(nums), "\t%" PRId64 "\n", e->created_at);
	return put_text(nums, buf, len, &off);
}

/* Undoes put_field in place into out (size bytes); -EPROTO for a bad
 * escape or a field that does not fit. */
static int get_field(const char *s, char *out, size_t size)
{
	size_t n = 0;

	for (; *s; s++) {
		char c = *s;

		if (c == '\\') {
			unsigned v;

			if (s[1] == '\\') {
				s++;
			} else if (s[1] == 'x' && sscanf(s + 2, "%2x", &v) == 1 &&
				   strspn(s + 2, "0123456789abcdefABCDEF") >= 2) {
				c = (char)v;
				s += 3;
			} else {
				return -EPROTO;
			}
		}
		if (n + 1 >= size)
			return -EPROTO;
		out[n++] = c;
	}
	out[n] = '\0';
	return 0;
}

static int get_number(const char *s, int64_t min, int64_t max, int64_t *v)
{
	char *end;
	long long x;

	if (!*s || (*s != '-' && (*s < '0' || *s > '9')))
		return -EPROTO;
	errno = 0;
	x = strtoll(s, &end, 10);
	if (*end || errno || x < min || x > max)
		return -EPROTO;
	*v = x;
	return 0;
}

int ct_journal_decode(char *line, struct ct_journal_entry *e)
{
	char *f[7], *tok;
	size_t nf = 0;
	int64_t pid, created;
	unsigned long long start;
	char *end;

	memset(e, 0, sizeof(*e));
	line[strcspn(line, "\n")] = '\0';
	/* split by hand: strtok_r would merge empty fields */
	for (tok = line; tok && nf < 7; nf++) {
		f[nf] = tok;
		tok = strchr(tok, '\t');
		if (tok)
			*tok++ = '\0';
	}
	if (nf != 7 || tok)
		return -EPROTO;
	if (get_field(f[0], e->path, sizeof(e->path)) || !e->path[0] ||
	    get_field(f[1], e->knob, sizeof(e->knob)) || !e->knob[0] ||
	    get_field(f[2], e->original, sizeof(e->original)) ||
	    get_number(f[3], 0, INT32_MAX, &pid) ||
	    get_field(f[5], e->owner.boot, sizeof(e->owner.boot)) ||
	    get_number(f[6], 0, INT64_MAX, &created))
		return -EPROTO;
	if (*f[4] < '0' || *f[4] > '9')
		return -EPROTO;
	errno = 0;
	start = strtoull(f[4], &end, 10);
	if (*end || errno)
		return -EPROTO;
	e->owner.pid = (int)pid;
	e->owner.start = start;
	e->created_at = created;
	return 0;
}

/* Reads the journal file; a missing file or directory is an empty journal. */
static int read_all(struct ct_journal *j, struct ct_journal_entry **out, size_t *n, char *err,
		    size_t len)
{
	struct ct_journal_entry *es = NULL, *grown;
	size_t cnt = 0, cap = 0;
	unsigned lineno = 0;
	char *buf, *line, *next;
	ssize_t got;
	int rc = 0;

	*out = NULL;
	*n = 0;
	buf = malloc(JOURNAL_MAX + 1);
	if (!buf)
		return ct_err(err, len, -ENOMEM, "out of memory");
	got = ct_read_file(j->file, buf, JOURNAL_MAX + 1);
	if (got == -ENOENT || got == -ENOTDIR) {
		free(buf);
		return 0;
	}
	if (got < 0) {
		free(buf);
		return ct_err(err, len, (int)got, "cannot read knob journal '%s': %s", j->file,
			      strerror((int)-got));
	}
	if ((size_t)got >= JOURNAL_MAX) {
		free(buf);
		return ct_err(err, len, -EPROTO, "knob journal '%s' is damaged: too large",
			      j->file);
	}
	for (line = buf; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if (!*line || *line == '#')
			continue;
		if (cnt == cap) {
			cap = cap ? cap * 2 : 8;
			grown = realloc(es, cap * sizeof(*es));
			if (!grown) {
				rc = ct_err(err, len, -ENOMEM, "out of memory");
				break;
			}
			es = grown;
		}
		if (ct_journal_decode(line, &es[cnt])) {
			rc = ct_err(
				err, len, -EPROTO,
				"knob journal '%s' is damaged at line %u; fix or remove it after "
				"checking the knobs it names",
				j->file, lineno);
			break;
		}
		cnt++;
	}
	free(buf);
	if (rc) {
		free(es);
		return rc;
	}
	*out = es;
	*n = cnt;
	return 0;
}

int ct_journal_list(struct ct_journal *j, struct ct_journal_entry **out, size_t *n, char *err,
		    size_t len)
{
	return read_all(j, out, n, err, len);
}

static int fsync_path(const char *path, int flags)
{
	int fd = open(path, flags | O_RDONLY | O_CLOEXEC), rc = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd))
		rc = -errno;
	close(fd);
	return rc;
}

/* Replaces the file with es[0..n-1]: a temporary written and fsynced, then
 * renamed over it, then the directory fsynced, so the new journal is on
 * disk before the caller goes on. Called with the lock held. */
static int write_all(struct ct_journal *j, const struct ct_journal_entry *es, size_t n, char *err,
		     size_t len)
{
	char tmp[sizeof(j->file) + 8], line[2 * (CT_KNOB_PATH_MAX + CT_KNOB_NAME_MAX) * 4];
	FILE *f;
	int rc = 0;

	snprintf(tmp, sizeof(tmp), "%s.tmp", j->file);
	f = fopen(tmp, "we");
	if (!f)
		return ct_err(err, len, -errno, "cannot write knob journal '%s': %s", tmp,
			      strerror(errno));
	fputs(JOURNAL_HEADER, f);
	for (size_t i = 0; i < n && !rc; i++) {
		if (ct_journal_encode(&es[i], line, sizeof(line)))
			rc = -ENOSPC;
		else
			fputs(line, f);
	}
	if (!rc && (fflush(f) || fsync(fileno(f))))
		rc = -errno;
	if (fclose(f) && !rc)
		rc = -errno;
	if (!rc && rename(tmp, j->file))
		rc = -errno;
	if (!rc)
		rc = fsync_path(j->dir, O_DIRECTORY);
	if (rc) {
		unlink(tmp);
		return ct_err(err, len, rc, "cannot write knob journal '%s': %s", j->file,
			      strerror(-rc));
	}
	return 0;
}

/* The writers' lock, held until unlock(fd). Creates the directory. */
static int lock(struct ct_journal *j, char *err, size_t len)
{
	int fd, rc;

	rc = ct_mkdir_p(j->dir, 0755);
	if (rc)
		return ct_err(err, len, rc, "cannot create knob journal directory '%s': %s", j->dir,
			      strerror(-rc));
	fd = open(j->lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return ct_err(err, len, -errno, "cannot lock knob journal '%s': %s", j->lock,
			      strerror(errno));
	while (flock(fd, LOCK_EX)) {
		if (errno != EINTR) {
			rc = -errno;
			close(fd);
			return ct_err(err, len, rc, "cannot lock knob journal '%s': %s", j->lock,
				      strerror(-rc));
		}
	}
	return fd;
}

static void unlock(int fd)
{
	close(fd); /* drops the flock */
}

static int check_entry(const struct ct_journal_entry *e, char *err, size_t len)
{
	if (!e->path[0] || strnlen(e->path, sizeof(e->path)) == sizeof(e->path))
		return ct_err(err, len, -EINVAL, "knob journal entry has a bad path");
	if (!e->knob[0] || strnlen(e->knob, sizeof(e->knob)) == sizeof(e->knob))
		return ct_err(err, len, -EINVAL, "knob journal entry for '%s' has a bad knob name",
			      e->path);
	if (strnlen(e->original, sizeof(e->original)) == sizeof(e->original))
		return ct_err(err, len, -EINVAL,
			      "knob journal entry for '%s' has an unterminated original", e->path);
	return 0;
}

/* Appends the entries of add whose path is not in es yet (the first
 * original recorded for a path is the one to go back to) and writes. */
static int merge_write(struct ct_journal *j, struct ct_journal_entry *es, size_t n,
		       const struct ct_journal_entry *add, size_t nadd, char *err, size_t len)
{
	struct ct_journal_entry *all = malloc((n + nadd + 1) * sizeof(*all));
	size_t cnt = n;
	int rc;

	if (!all)
		return ct_err(err, len, -ENOMEM, "out of memory");
	if (n)
		memcpy(all, es, n * sizeof(*all));
	for (size_t i = 0; i < nadd; i++) {
		bool seen = false;

		for (size_t k = 0; k < cnt && !seen; k++)
			seen = !strcmp(all[k].path, add[i].path);
		if (seen)
			continue;
		all[cnt] = add[i];
		if (!all[cnt].created_at)
			all[cnt].created_at = ct_wall_ns();
		cnt++;
	}
	rc = write_all(j, all, cnt, err, len);
	free(all);
	return rc;
}

int ct_journal_put(struct ct_journal *j, const struct ct_journal_entry *e, size_t n, char *err,
		   size_t len)
{
	struct ct_journal_entry *es = NULL;
	size_t ne = 0;
	int fd, rc;

	for (size_t i = 0; i < n; i++) {
		rc = check_entry(&e[i], err, len);
		if (rc)
			return rc;
	}
	fd = lock(j, err, len);
	if (fd < 0)
		return fd;
	rc = read_all(j, &es, &ne, err, len);
	if (!rc)
		rc = merge_write(j, es, ne, e, n, err, len);
	free(es);
	unlock(fd);
	return rc;
}

int ct_journal_delete(struct ct_journal *j, const char *path, char *err, size_t len)
{
	struct ct_journal_entry *es = NULL;
	size_t ne = 0, kept = 0;
	int fd, rc;

	fd = lock(j, err, len);
	if (fd < 0)
		return fd;
	rc = read_all(j, &es, &ne, err, len);
	for (size_t i = 0; !rc && i < ne; i++)
		if (strcmp(es[i].path, path))
			es[kept++] = es[i];
	if (!rc && kept == ne)
		rc = ct_err(err, len, -ENOENT, "no knob journal entry for '%s'", path);
	if (!rc)
		rc = write_all(j, es, kept, err, len);
	free(es);
	unlock(fd);
	return rc;
}

int ct_journal_hold_cgroup(struct ct_journal *j, const char *cgroup, const char *what, int sig,
			   char *err, size_t len)
{
	struct ct_journal_entry e = { 0 };

	if ((size_t)snprintf(e.path, sizeof(e.path), "%s", cgroup) >= sizeof(e.path))
		return ct_err(err, len, -ENAMETOOLONG, "cgroup path '%s' is too long", cgroup);
	snprintf(e.knob, sizeof(e.knob), "%s%s", CT_JOURNAL_CGROUP, what);
	snprintf(e.original, sizeof(e.original), "%d", sig);
	ct_owner_self(&e.owner);
	return ct_journal_put(j, &e, 1, err, len);
}

bool ct_journal_is_cgroup(const struct ct_journal_entry *e)
{
	return !strncmp(e->knob, CT_JOURNAL_CGROUP, strlen(CT_JOURNAL_CGROUP));
}

/* What a dead contend left in a cgroup: its journalled signal (a server's
 * immediate shutdown, which removes its shared memory), up to 10 s for
 * them to go, SIGKILL to the rest, the cgroup removed. "N processes" in
 * what. */
static int stop_cgroup(const struct ct_journal_entry *e, char *what, size_t wlen, char *err,
		       size_t len)
{
	unsigned n = 0;
	int rc = ct_cgroup_stop(e->path, atoi(e->original), 10000000000LL, &n);

	snprintf(what, wlen, "%u process%s", n, n == 1 ? "" : "es");
	if (rc == -EINVAL)
		return ct_err(err, len, rc,
			      "%s: '%s' is no cgroup contend made; left alone (remove its line "
			      "from the journal)",
			      e->knob + strlen(CT_JOURNAL_CGROUP), e->path);
	if (rc)
		return ct_err(err, len, rc, "%s (cgroup %s): cannot stop or remove: %s",
			      e->knob + strlen(CT_JOURNAL_CGROUP), e->path, strerror(-rc));
	return 0;
}

/* A contend other than this process that still runs: its entries are its
 * own to restore. */
static bool held_by_running(const struct ct_journal_entry *e)
{
	return e->owner.pid != (int)getpid() && ct_owner_state(&e->owner) == CT_OWNER_ALIVE;
}

static bool earlier_boot(const struct ct_journal_entry *e, const char *boot)
{
	return *boot && *e->owner.boot && strcmp(e->owner.boot, boot);
}

static int knob_err(char *err, size_t len, int rc, const char *knob)
{
	char msg[CT_ERRLEN];

	snprintf(msg, sizeof(msg), "%s", err ? err : "");
	return ct_err(err, len, rc, "knob '%s': %s", knob, msg);
}

/* The originals of k[0..n-1] as entries owned by this process. */
static int read_originals(const struct ct_knob *k, size_t n, struct ct_journal_entry **out,
			  size_t *nout, char *err, size_t len)
{
	struct ct_journal_entry *es = calloc(n * CT_KNOB_MAX_PATHS + 1, sizeof(*es));
	struct ct_owner me;
	size_t ne = 0;
	int rc = 0;

	if (!es)
		return ct_err(err, len, -ENOMEM, "out of memory");
	ct_owner_self(&me);
	for (size_t i = 0; i < n && !rc; i++) {
		for (unsigned p = 0; p < k[i].npaths && !rc; p++) {
			struct ct_journal_entry *e = &es[ne++];

			rc = ct_knob_read(k[i].paths[p], e->original, sizeof(e->original), err,
					  len);
			if (rc) {
				rc = knob_err(err, len, rc, k[i].name);
				break;
			}
			snprintf(e->path, sizeof(e->path), "%s", k[i].paths[p]);
			snprintf(e->knob, sizeof(e->knob), "%s", k[i].name);
			e->owner = me;
		}
	}
	if (rc) {
		free(es);
		return rc;
	}
	*out = es;
	*nout = ne;
	return 0;
}

int ct_journal_record(struct ct_journal *j, const struct ct_knob *k, size_t n, char *err,
		      size_t len)
{
	struct ct_journal_entry *es = NULL, *add = NULL;
	size_t ne = 0, nadd = 0;
	int fd, rc;

	fd = lock(j, err, len);
	if (fd < 0)
		return fd;
	rc = read_all(j, &es, &ne, err, len);
	for (size_t i = 0; !rc && i < ne; i++)
		if (held_by_running(&es[i]) && strcmp(es[i].path, CT_JOURNAL_DELAYACCT) &&
		    !ct_journal_is_cgroup(&es[i]))
			rc = ct_err(err, len, -EBUSY,
				    "knob '%s' (%s) is in use by a running contend (pid %d)",
				    es[i].knob, es[i].path, es[i].owner.pid);
	if (!rc)
		rc = read_originals(k, n, &add, &nadd, err, len);
	if (!rc)
		rc = merge_write(j, es, ne, add, nadd, err, len);
	free(add);
	free(es);
	unlock(fd);
	return rc;
}

int ct_journal_restore_session(struct ct_journal *j, const struct ct_knob *k, size_t n, char *err,
			       size_t len)
{
	struct ct_journal_entry *es = NULL;
	char e1[CT_ERRLEN] = "", e2[CT_ERRLEN];
	unsigned nfail = 0;
	size_t ne = 0;
	int rc, first = 0;

	rc = ct_journal_list(j, &es, &ne, err, len);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		for (unsigned p = 0; p < k[i].npaths; p++) {
			const struct ct_journal_entry *e = NULL;

			for (size_t m = 0; m < ne && !e; m++)
				if (!strcmp(es[m].path, k[i].paths[p]))
					e = &es[m];
			if (!e) /* never journalled, so never changed */
				continue;
			rc = ct_knob_write(e->knob, e->path, e->original, e2, sizeof(e2));
			if (!rc) {
				rc = ct_journal_delete(j, e->path, e2, sizeof(e2));
				if (rc == -ENOENT)
					rc = 0;
			}
			if (rc && !nfail++) {
				first = rc;
				snprintf(e1, sizeof(e1), "%s", e2);
			}
		}
	}
	free(es);
	if (nfail > 1)
		return ct_err(err, len, first, "%s (and %u more knobs not restored)", e1,
			      nfail - 1);
	if (nfail)
		return ct_err(err, len, first, "%s", e1);
	return 0;
}

static void restore_one(struct ct_journal *j, struct ct_knob_restored *r, bool force,
			const char *boot)
{
	const struct ct_journal_entry *e = &r->entry;
	struct stat sb;
	int rc;

	if (ct_journal_is_cgroup(e) || ct_knob_read(e->path, r->before, sizeof(r->before), NULL, 0))
		r->before[0] = '\0';
	if (earlier_boot(e, boot)) {
		r->how = CT_RESTORE_EARLIER_BOOT;
	} else if (stat(e->path, &sb) && errno == ENOENT) {
		r->how = CT_RESTORE_GONE;
	} else if ((!force || ct_journal_is_cgroup(e)) && held_by_running(e)) {
		r->how = CT_RESTORE_HELD;
		r->rc = ct_err(r->err, sizeof(r->err), -EBUSY,
			       "in use by a running contend (pid %d)", e->owner.pid);
		return;
	} else if (ct_journal_is_cgroup(e)) {
		r->how = CT_RESTORE_DONE;
		rc = stop_cgroup(e, r->before, sizeof(r->before), r->err, sizeof(r->err));
		if (rc) {
			r->how = CT_RESTORE_FAILED;
			r->rc = rc;
			return;
		}
	} else {
		r->how = CT_RESTORE_DONE;
		rc = ct_knob_write(e->knob, e->path, e->original, r->err, sizeof(r->err));
		if (rc) {
			r->how = CT_RESTORE_FAILED;
			r->rc = rc;
			return;
		}
	}
	rc = ct_journal_delete(j, e->path, r->err, sizeof(r->err));
	if (rc && rc != -ENOENT) {
		r->how = CT_RESTORE_FAILED;
		r->rc = rc;
	}
}

int ct_journal_restore_all(struct ct_journal *j, bool force, struct ct_knob_restored **out,
			   size_t *n, char *err, size_t len)
{
	struct ct_journal_entry *es = NULL;
	struct ct_knob_restored *rs = NULL;
	struct ct_owner me;
	char list[CT_ERRLEN] = "";
	size_t ne = 0, off = 0;
	int rc;

	*out = NULL;
	*n = 0;
	rc = ct_journal_list(j, &es, &ne, err, len);
	if (rc || !ne)
		goto out;
	ct_owner_self(&me);
	if (geteuid() != 0) {
		for (size_t i = 0; i < ne; i++) {
			int m;

			if (earlier_boot(&es[i], me.boot) || off >= sizeof(list))
				continue;
			m = snprintf(list + off, sizeof(list) - off, "%s%s (%s)", off ? ", " : "",
				     es[i].knob, es[i].path);
			off += m > 0 ? (size_t)m : 0;
		}
		if (*list) {
			rc = ct_err(err, len, -EPERM, "restoring knobs needs root: %s", list);
			goto out;
		}
	}
	rs = calloc(ne, sizeof(*rs));
	if (!rs) {
		rc = ct_err(err, len, -ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < ne; i++) {
		rs[i].entry = es[i];
		restore_one(j, &rs[i], force, me.boot);
	}
	*out = rs;
	*n = ne;
out:
	free(es);
	return rc;
}

/* A cgroup entry at a session's start: a running contend's is its own; a
 * dead one's processes are stopped now (a line in note). True when the
 * entry is dealt with. */
static bool check_cgroup(struct ct_journal *j, const struct ct_journal_entry *e, char *note,
			 size_t nlen)
{
	char what[64] = "", e2[CT_ERRLEN];
	struct ct_owner me;
	size_t off = note ? strlen(note) : 0;
	int rc;

	if (ct_owner_state(&e->owner) == CT_OWNER_ALIVE) /* this process's too */
		return true;
	ct_owner_self(&me);
	if (!earlier_boot(e, me.boot) && stop_cgroup(e, what, sizeof(what), e2, sizeof(e2)))
		return false;
	rc = ct_journal_delete(j, e->path, e2, sizeof(e2));
	if (rc && rc != -ENOENT)
		return false;
	if (*what && note && off < nlen)
		snprintf(note + off, nlen - off,
			 "%sstopped %s (cgroup %s): %s a killed contend "
			 "(pid %d) left",
			 off ? "\n" : "", e->knob + strlen(CT_JOURNAL_CGROUP), e->path, what,
			 e->owner.pid);
	return true;
}

int ct_journal_check(struct ct_journal *j, char *note, size_t nlen, char *err, size_t len)
{
	struct ct_journal_entry *es = NULL;
	char list[CT_ERRLEN] = "";
	const char *suffix = "; run 'contend restore'";
	size_t ne = 0, off = 0, budget;
	int rc;

	if (note && nlen)
		*note = '\0';
	rc = ct_journal_list(j, &es, &ne, err, len);
	if (rc || !ne)
		goto out;
	/* delay accounting, which sessions share: a running contend's entry
	 * is its own, a gone one's is put back now (nothing waits on it);
	 * processes in a cgroup likewise, stopped */
	for (size_t i = 0; i < ne; i++) {
		char e2[CT_ERRLEN];

		if (ct_journal_is_cgroup(&es[i])) {
			if (!check_cgroup(j, &es[i], note, nlen))
				continue;
		} else if (strcmp(es[i].path, CT_JOURNAL_DELAYACCT) ||
			   (!held_by_running(&es[i]) &&
			    (ct_knob_write(es[i].knob, es[i].path, es[i].original, e2,
					   sizeof(e2)) ||
			     ct_journal_delete(j, es[i].path, e2, sizeof(e2))))) {
			continue;
		}
		es[i--] = es[--ne];
	}
	if (!ne)
		goto out;
	for (size_t i = 0; i < ne; i++) {
		if (held_by_running(&es[i])) {
			rc = ct_err(err, len, -EBUSY,
				    "knob '%s' (%s) is in use by a running contend (pid %d)",
				    es[i].knob, es[i].path, es[i].owner.pid);
			goto out;
		}
	}
	for (size_t i = 0; i < ne && off < sizeof(list); i++) {
		int m = snprintf(list + off, sizeof(list) - off, "%s%s (%s, was '%s')",
				 off ? ", " : "", es[i].knob, es[i].path, es[i].original);

		off += m > 0 ? (size_t)m : 0;
	}
	/* the way out must survive a long list */
	budget = len > 80 + strlen(suffix) ? len - 80 - strlen(suffix) : 0;
	if (strlen(list) > budget && budget > 3)
		snprintf(list + budget - 3, 4, "...");
	rc = ct_err(err, len, -EBUSY, "knobs left changed by an earlier contend: %s%s", list,
		    suffix);
out:
	free(es);
	return rc;
}
