/*
 * The machine's knob journal on real files: entries survive the text
 * round trip (tabs, newlines, backslashes in an original), the first
 * original of a path is kept, a damaged file is refused with its line,
 * concurrent writers never lose an entry, a live owner is told from a dead
 * one by pid and start time, and - as root, on the disk under the test
 * directory - a real I/O scheduler journalled, changed and put back by the
 * session's restore and by restore_all, restored in the teardown whatever
 * happens; processes a killed contend left in a cgroup stopped by the next
 * session's check and by restore_all.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "contend/journal.h"
#include "contend/util.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char tmpdir[] = "/var/tmp/contend-test-journal.XXXXXX";
static char sched_path[PATH_MAX]; /* the scheduler of the disk under tmpdir */
static char saved_sched[64];

static int group_setup(void **state)
{
	/* readable by all: a test reads the journal as another user */
	return mkdtemp(tmpdir) && !chmod(tmpdir, 0755) ? 0 : -1;
}

static int group_teardown(void **state)
{
	return ct_rm_rf(tmpdir);
}

static void journal_in(struct ct_journal *j, const char *name)
{
	char dir[PATH_MAX], err[CT_ERRLEN];

	snprintf(dir, sizeof(dir), "%s/%s", tmpdir, name);
	assert_int_equal(ct_journal_init(j, dir, err, sizeof(err)), 0);
}

static void entry(struct ct_journal_entry *e, const char *path, const char *knob,
		  const char *original, int pid, const char *boot)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->path, sizeof(e->path), "%s", path);
	snprintf(e->knob, sizeof(e->knob), "%s", knob);
	snprintf(e->original, sizeof(e->original), "%s", original);
	e->owner.pid = pid;
	e->owner.start = 12345;
	snprintf(e->owner.boot, sizeof(e->owner.boot), "%s", boot);
}

static struct ct_journal_entry *list_ok(struct ct_journal *j, size_t want)
{
	char err[CT_ERRLEN] = "";
	struct ct_journal_entry *es = NULL;
	size_t n = 99;
	int rc = ct_journal_list(j, &es, &n, err, sizeof(err));

	if (rc)
		print_error("ct_journal_list: %s\n", err);
	assert_int_equal(rc, 0);
	assert_int_equal(n, want);
	if (!n)
		assert_null(es);
	return es;
}

static void put_ok(struct ct_journal *j, const struct ct_journal_entry *e, size_t n)
{
	char err[CT_ERRLEN] = "";
	int rc = ct_journal_put(j, e, n, err, sizeof(err));

	if (rc)
		print_error("ct_journal_put: %s\n", err);
	assert_int_equal(rc, 0);
}

/* Put, list, the first original kept, delete; a journal whose directory
 * does not exist is empty and reading it makes nothing. */
static void test_put_list_delete(void **state)
{
	struct ct_journal j;
	struct ct_journal_entry e[3], *got;
	char err[CT_ERRLEN] = "", dir[PATH_MAX];
	struct stat sb;

	journal_in(&j, "a");
	free(list_ok(&j, 0));
	snprintf(dir, sizeof(dir), "%s/a", tmpdir);
	assert_int_equal(stat(dir, &sb), -1);

	entry(&e[0], "/sys/block/vda/queue/scheduler", "iosched", "mq-deadline", 4242,
	      "0e908cc6-966d-4c05-88e0-fdde5c11c97b");
	e[0].created_at = 1767225600LL * 1000000000LL;
	entry(&e[1], "/proc/sys/net/ipv4/tcp_rmem", "sysctl.net.ipv4.tcp_rmem",
	      "4096\t131072\t6291456", 4242, "b");
	put_ok(&j, e, 2);
	assert_int_equal(stat(dir, &sb), 0);

	/* the same path again, changed meanwhile: the first original stays */
	entry(&e[2], "/sys/block/vda/queue/scheduler", "iosched", "bfq", 777, "c");
	entry(&e[1], "/proc/sys/vm/swappiness", "sysctl.vm.swappiness", "a\\b\nc", 777, "c");
	put_ok(&j, &e[1], 2);
	got = list_ok(&j, 3);
	assert_string_equal(got[0].path, "/sys/block/vda/queue/scheduler");
	assert_string_equal(got[0].knob, "iosched");
	assert_string_equal(got[0].original, "mq-deadline");
	assert_int_equal(got[0].owner.pid, 4242);
	assert_int_equal(got[0].owner.start, 12345);
	assert_string_equal(got[0].owner.boot, "0e908cc6-966d-4c05-88e0-fdde5c11c97b");
	assert_true(got[0].created_at == e[0].created_at);
	assert_string_equal(got[1].original, "4096\t131072\t6291456");
	assert_true(got[1].created_at > 1767225600LL * 1000000000LL / 2); /* 0 is now */
	assert_string_equal(got[2].original, "a\\b\nc");
	free(got);

	/* bad entries are refused before anything is written */
	entry(&e[0], "/sys/x", "", "1", 1, "b");
	assert_int_equal(ct_journal_put(&j, e, 1, err, sizeof(err)), -EINVAL);
	entry(&e[0], "", "z", "1", 1, "b");
	assert_int_equal(ct_journal_put(&j, e, 1, err, sizeof(err)), -EINVAL);
	free(list_ok(&j, 3));

	assert_int_equal(ct_journal_delete(&j, "/sys/block/vda/queue/scheduler", err, sizeof(err)),
			 0);
	assert_int_equal(ct_journal_delete(&j, "/sys/block/vda/queue/scheduler", err, sizeof(err)),
			 -ENOENT);
	assert_non_null(strstr(err, "'/sys/block/vda/queue/scheduler'"));
	got = list_ok(&j, 2);
	assert_string_equal(got[0].knob, "sysctl.net.ipv4.tcp_rmem");
	assert_string_equal(got[1].knob, "sysctl.vm.swappiness");
	free(got);
}

/* The file is text a person can read and fix: one line an entry, fields
 * separated by tabs, control characters escaped. */
static void test_file_format(void **state)
{
	struct ct_journal j;
	struct ct_journal_entry e, back;
	char line[2048], path[PATH_MAX + 16], buf[4096];

	entry(&e, "/sys/x", "k", "tab\there\\nl\x01", 7, "boot");
	e.created_at = 99;
	assert_int_equal(ct_journal_encode(&e, line, sizeof(line)), 0);
	assert_string_equal(line, "/sys/x\tk\ttab\\x09here\\\\nl\\x01\t7\t12345\tboot\t99\n");
	assert_int_equal(ct_journal_decode(line, &back), 0);
	assert_string_equal(back.original, e.original);
	assert_int_equal(ct_journal_encode(&e, line, 20), -ENOSPC);

	/* damaged lines */
	{
		static const char *const bad[] = {
			"",
			"/sys/x\tk\tv\t7\t1\tb",	   /* a field short */
			"/sys/x\tk\tv\t7\t1\tb\t9\textra", /* one too many */
			"/sys/x\tk\tv\tseven\t1\tb\t9",	   /* pid not a number */
			"/sys/x\tk\tv\t-7\t1\tb\t9",	   /* negative pid */
			"/sys/x\tk\tv\\q\t7\t1\tb\t9",	   /* unknown escape */
			"/sys/x\tk\tv\\x4\t7\t1\tb\t9",	   /* short escape */
			"\tk\tv\t7\t1\tb\t9",		   /* empty path */
		};

		for (size_t i = 0; i < CT_ARRAY_SIZE(bad); i++) {
			snprintf(line, sizeof(line), "%s", bad[i]);
			if (ct_journal_decode(line, &back) != -EPROTO)
				fail_msg("decoded '%s'", bad[i]);
		}
	}

	journal_in(&j, "fmt");
	put_ok(&j, &e, 1);
	snprintf(path, sizeof(path), "%s/fmt/knobs", tmpdir);
	assert_true(ct_read_file(path, buf, sizeof(buf)) > 0);
	assert_non_null(strstr(buf, "# contend knob journal 1\n/sys/x\tk\t"));
	/* a damaged line is refused with its number, the file left as it is */
	{
		FILE *f = fopen(path, "a");
		char err[CT_ERRLEN] = "";
		struct ct_journal_entry *es = NULL;
		size_t n = 9;

		assert_non_null(f);
		fputs("garbage\n", f);
		fclose(f);
		assert_int_equal(ct_journal_list(&j, &es, &n, err, sizeof(err)), -EPROTO);
		assert_non_null(strstr(err, "is damaged at line 3"));
		assert_int_equal(ct_journal_put(&j, &e, 1, err, sizeof(err)), -EPROTO);
	}
}

/* Writers on one journal from many processes at once lose no entry. */
static void test_concurrent(void **state)
{
	enum { NPROC = 8, EACH = 20 };
	struct ct_journal j;
	pid_t pids[NPROC];

	journal_in(&j, "conc");
	for (int p = 0; p < NPROC; p++) {
		pids[p] = fork();
		assert_true(pids[p] >= 0);
		if (pids[p] == 0) {
			for (int i = 0; i < EACH; i++) {
				struct ct_journal_entry e;
				char path[64], err[CT_ERRLEN];

				snprintf(path, sizeof(path), "/sys/p%d/k%d", p, i);
				entry(&e, path, "k", "v", p, "b");
				if (ct_journal_put(&j, &e, 1, err, sizeof(err)))
					_exit(1);
			}
			_exit(0);
		}
	}
	for (int p = 0; p < NPROC; p++) {
		int status;

		assert_int_equal(waitpid(pids[p], &status, 0), pids[p]);
		assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	free(list_ok(&j, NPROC * EACH));
}

/* A live owner is told from a dead one and from a pid reused by another
 * process (same pid, other start time); an earlier boot is gone. */
static void test_owner(void **state)
{
	struct ct_owner me, o;
	pid_t child;
	int status;

	ct_owner_self(&me);
	assert_int_equal(me.pid, getpid());
	assert_true(me.start > 0);
	assert_int_equal(strlen(me.boot), 36);
	assert_int_equal(ct_owner_state(&me), CT_OWNER_ALIVE);
	o = me;
	o.start++;
	assert_int_equal(ct_owner_state(&o), CT_OWNER_GONE);
	o = me;
	snprintf(o.boot, sizeof(o.boot), "00000000-0000-0000-0000-000000000000");
	assert_int_equal(ct_owner_state(&o), CT_OWNER_GONE);
	o = me;
	snprintf(o.machine, sizeof(o.machine), "another-machine");
	assert_int_equal(ct_owner_state(&o), CT_OWNER_FOREIGN);

	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		pause();
		_exit(0);
	}
	o = me;
	o.pid = child;
	o.start = ct_proc_start_time(child);
	assert_true(o.start > 0);
	assert_int_equal(ct_owner_state(&o), CT_OWNER_ALIVE);
	kill(child, SIGKILL);
	assert_int_equal(waitpid(child, &status, 0), child);
	assert_int_equal(ct_owner_state(&o), CT_OWNER_GONE);
	assert_int_equal(ct_proc_start_time(child), 0);
	o.start = 0; /* what a pid that is gone reads as: still gone */
	assert_int_equal(ct_owner_state(&o), CT_OWNER_GONE);
}

/* The bracketed scheduler of a queue, read with stdio, not the library. */
static void sched_of(char *out, size_t len)
{
	char buf[256], *a, *b;
	FILE *f = fopen(sched_path, "r");

	assert_non_null(f);
	assert_non_null(fgets(buf, sizeof(buf), f));
	fclose(f);
	a = strchr(buf, '[');
	b = a ? strchr(a, ']') : NULL;
	assert_non_null(b);
	snprintf(out, len, "%.*s", (int)(b - a - 1), a + 1);
}

static void sched_set(const char *v)
{
	FILE *f = fopen(sched_path, "w");

	assert_non_null(f);
	assert_true(fputs(v, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

/* The disk under the test directory, when its scheduler can be set. */
static int disk_setup(void **state)
{
	struct ct_knob k;
	char err[CT_ERRLEN];

	saved_sched[0] = sched_path[0] = '\0';
	if (geteuid() != 0)
		return 0;
	if (ct_knob_parse("iosched=none", false, &k, err, sizeof(err)) ||
	    ct_knob_resolve(&k, tmpdir, err, sizeof(err)))
		return 0;
	snprintf(sched_path, sizeof(sched_path), "%s", k.paths[0]);
	sched_of(saved_sched, sizeof(saved_sched));
	return 0;
}

/* Whatever the test did, the disk goes back to what it had, and euid to
 * root. */
static int disk_teardown(void **state)
{
	char now[64];

	if (geteuid() != getuid() && seteuid(getuid()))
		return -1;
	if (!saved_sched[0])
		return 0;
	sched_of(now, sizeof(now));
	if (strcmp(now, saved_sched))
		sched_set(saved_sched);
	sched_of(now, sizeof(now));
	return strcmp(now, saved_sched) ? -1 : 0;
}

/* A scheduler the disk offers that is not the current one, or NULL. */
static const char *other_sched(void)
{
	char buf[256];

	if (ct_read_file(sched_path, buf, sizeof(buf)) <= 0)
		return NULL;
	if (strcmp(saved_sched, "bfq") && strstr(buf, "bfq"))
		return "bfq";
	if (strcmp(saved_sched, "none") && strstr(buf, "none"))
		return "none";
	return NULL;
}

static void disk_usable(void)
{
	if (geteuid() != 0)
		skip(); /* changing a scheduler needs root */
	if (!sched_path[0] || !other_sched())
		skip(); /* no disk with two schedulers under the test directory */
}

static size_t journal_len(struct ct_journal *j)
{
	char err[CT_ERRLEN] = "";
	struct ct_journal_entry *es = NULL;
	size_t n = 0;

	assert_int_equal(ct_journal_list(j, &es, &n, err, sizeof(err)), 0);
	free(es);
	return n;
}

/* A real scheduler through the whole life of a knob: journal, change, the
 * session's own restore, then a "crash" restored by restore_all. */
static void test_disk_session(void **state)
{
	char err[CT_ERRLEN] = "", now[64], spec[160];
	struct ct_journal_entry *es = NULL;
	struct ct_knob_restored *rs = NULL;
	struct ct_knob_config *cs = NULL;
	struct ct_owner me;
	struct ct_journal j;
	struct ct_knob k;
	size_t n = 0, nc = 0;

	disk_usable();
	journal_in(&j, "disk");
	snprintf(spec, sizeof(spec), "iosched=%s,%s", saved_sched, other_sched());
	assert_int_equal(ct_knob_parse(spec, true, &k, err, sizeof(err)), 0);
	assert_int_equal(ct_knobs_prepare(&k, 1, tmpdir, err, sizeof(err)), 0);
	assert_int_equal(ct_knob_configs(&k, 1, &cs, &nc, err, sizeof(err)), 0);
	assert_int_equal(nc, 2);

	assert_int_equal(ct_journal_check(&j, NULL, 0, err, sizeof(err)), 0);
	assert_int_equal(ct_journal_record(&j, &k, 1, err, sizeof(err)), 0);
	es = list_ok(&j, 1);
	assert_string_equal(es[0].path, sched_path);
	assert_string_equal(es[0].knob, "iosched");
	assert_string_equal(es[0].original, saved_sched);
	ct_owner_self(&me);
	assert_int_equal(es[0].owner.pid, me.pid);
	assert_true(es[0].owner.start == me.start);
	assert_string_equal(es[0].owner.boot, me.boot);
	free(es);

	/* the second config changes it; the journal keeps the original */
	assert_int_equal(ct_knob_apply_config(&cs[1], err, sizeof(err)), 0);
	sched_of(now, sizeof(now));
	assert_string_equal(now, other_sched());
	assert_int_equal(ct_journal_record(&j, &k, 1, err, sizeof(err)), 0);
	es = list_ok(&j, 1);
	assert_string_equal(es[0].original, saved_sched);
	free(es);
	/* a run would now be refused */
	assert_int_equal(ct_journal_check(&j, NULL, 0, err, sizeof(err)), -EBUSY);
	assert_non_null(strstr(err, "; run 'contend restore'"));

	assert_int_equal(ct_journal_restore_session(&j, &k, 1, err, sizeof(err)), 0);
	sched_of(now, sizeof(now));
	assert_string_equal(now, saved_sched);
	assert_int_equal(journal_len(&j), 0);

	/* a session that died after its change: restore_all puts it back */
	assert_int_equal(ct_journal_record(&j, &k, 1, err, sizeof(err)), 0);
	assert_int_equal(ct_knob_apply(&k, other_sched(), err, sizeof(err)), 0);
	assert_int_equal(ct_journal_restore_all(&j, false, &rs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(rs[0].how, CT_RESTORE_DONE);
	assert_string_equal(rs[0].before, other_sched());
	assert_string_equal(rs[0].entry.original, saved_sched);
	free(rs);
	sched_of(now, sizeof(now));
	assert_string_equal(now, saved_sched);
	assert_int_equal(journal_len(&j), 0);
	assert_int_equal(ct_journal_restore_all(&j, false, &rs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 0);
	assert_null(rs);
	free(cs);
}

static void put_entry(struct ct_journal *j, const char *path, const char *knob,
		      const char *original, int pid, uint64_t start, const char *boot)
{
	struct ct_journal_entry e;

	entry(&e, path, knob, original, pid, boot);
	e.owner.start = start;
	put_ok(j, &e, 1);
}

/* What restore_all does with entries it must not simply write back. */
static void test_restore_cases(void **state)
{
	char err[CT_ERRLEN] = "", now[64];
	struct ct_knob_restored *rs = NULL;
	struct ct_owner me;
	struct ct_journal j;
	size_t n = 0;
	pid_t child;
	int status;

	disk_usable();
	ct_owner_self(&me);
	journal_in(&j, "cases");

	/* an earlier boot: not written (a reboot already reset it), cleared */
	put_entry(&j, sched_path, "iosched", other_sched(), 1, 1, "00000000-0000-earlier-boot");
	/* a device gone since */
	put_entry(&j, "/sys/block/nosuchdev0/queue/scheduler", "iosched@nosuchdev0", "bfq", 1, 1,
		  me.boot);
	/* an original the kernel refuses: kept and reported */
	put_entry(&j, "/proc/sys/vm/swappiness", "sysctl.vm.swappiness", "not-a-number", 1, 1,
		  me.boot);
	assert_int_equal(ct_journal_restore_all(&j, false, &rs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_int_equal(rs[0].how, CT_RESTORE_EARLIER_BOOT);
	assert_string_equal(rs[0].before, saved_sched);
	assert_int_equal(rs[1].how, CT_RESTORE_GONE);
	assert_int_equal(rs[2].how, CT_RESTORE_FAILED);
	assert_int_equal(rs[2].rc, -EINVAL);
	assert_non_null(strstr(rs[2].err, "cannot set knob 'sysctl.vm.swappiness'"));
	free(rs);
	sched_of(now, sizeof(now));
	assert_string_equal(now, saved_sched);
	assert_int_equal(journal_len(&j), 1);
	assert_int_equal(ct_journal_delete(&j, "/proc/sys/vm/swappiness", err, sizeof(err)), 0);

	/* a contend still running holds its knob; --force takes it */
	child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		pause();
		_exit(0);
	}
	put_entry(&j, sched_path, "iosched", saved_sched, child, ct_proc_start_time(child),
		  me.boot);
	sched_set(other_sched());
	assert_int_equal(ct_journal_check(&j, NULL, 0, err, sizeof(err)), -EBUSY);
	assert_non_null(strstr(err, "is in use by a running contend (pid"));
	assert_int_equal(ct_journal_restore_all(&j, false, &rs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(rs[0].how, CT_RESTORE_HELD);
	assert_int_equal(rs[0].rc, -EBUSY);
	free(rs);
	sched_of(now, sizeof(now));
	assert_string_equal(now, other_sched());
	assert_int_equal(ct_journal_restore_all(&j, true, &rs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(rs[0].how, CT_RESTORE_DONE);
	free(rs);
	kill(child, SIGKILL);
	assert_int_equal(waitpid(child, &status, 0), child);
	sched_of(now, sizeof(now));
	assert_string_equal(now, saved_sched);
	assert_int_equal(journal_len(&j), 0);

	/* the same pid with another start time is not its owner */
	put_entry(&j, sched_path, "iosched", saved_sched, getppid(), 1, me.boot);
	assert_int_equal(ct_journal_check(&j, NULL, 0, err, sizeof(err)), -EBUSY);
	assert_non_null(strstr(err, "knobs left changed by an earlier contend"));

	/* not root: nothing touched, one line naming the knob */
	sched_set(other_sched());
	assert_int_equal(seteuid(65534), 0);
	rs = (struct ct_knob_restored *)&rs;
	assert_int_equal(ct_journal_restore_all(&j, false, &rs, &n, err, sizeof(err)), -EPERM);
	assert_int_equal(seteuid(0), 0);
	assert_null(rs);
	{
		char want[PATH_MAX + 64];

		snprintf(want, sizeof(want), "restoring knobs needs root: iosched (%s)",
			 sched_path);
		assert_string_equal(err, want);
	}
	sched_of(now, sizeof(now));
	assert_string_equal(now, other_sched());
	assert_int_equal(journal_len(&j), 1);
	assert_int_equal(ct_journal_restore_all(&j, false, &rs, &n, err, sizeof(err)), 0);
	assert_int_equal(rs[0].how, CT_RESTORE_DONE);
	free(rs);
	sched_of(now, sizeof(now));
	assert_string_equal(now, saved_sched);
}

/* A "server" in a cgroup: exits 7 on SIGQUIT, as PostgreSQL's immediate
 * shutdown ends it; anything else (a SIGKILL) is not the signal asked for. */
static pid_t server_in(const struct ct_memcg *cg)
{
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid) {
		sigset_t set;
		int sig = 0;

		/* blocked before it is seen in the cgroup: a SIGQUIT sent
		 * then waits for sigwait */
		sigemptyset(&set);
		sigaddset(&set, SIGQUIT);
		sigprocmask(SIG_BLOCK, &set, NULL);
		if (ct_memcg_attach(cg, getpid()))
			_exit(99);
		for (;;)
			if (!sigwait(&set, &sig) && sig == SIGQUIT)
				_exit(7);
	}
	for (int i = 0; i < 500; i++) { /* until it is in the cgroup */
		char file[4200], buf[64];

		snprintf(file, sizeof(file), "%s/cgroup.procs", cg->path);
		if (ct_read_file(file, buf, sizeof(buf)) > 0 && atoi(buf) == pid)
			return pid;
		usleep(10000);
	}
	fail_msg("the server never joined %s", cg->path);
	return -1;
}

/* The cgroup journalled by a contend that is gone (a child, reaped). */
static void hold_dead(struct ct_journal *j, const char *cg)
{
	char err[CT_ERRLEN] = "";
	int status;
	pid_t pid = fork();

	assert_true(pid >= 0);
	if (!pid)
		_exit(ct_journal_hold_cgroup(j, cg, "test server", SIGQUIT, err, sizeof(err)) ? 1
											      : 0);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void exited_7(pid_t pid)
{
	int status;

	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 7);
}

/* Processes a killed contend left in a cgroup: a running owner's entry is
 * left alone (and refuses nothing); a dead owner's processes get the
 * journalled signal from the next session's check and from restore_all,
 * and the cgroup goes. Real cgroups and processes, as root. */
static void test_cgroup_left(void **state)
{
	char err[CT_ERRLEN] = "", note[CT_ERRLEN], name[64];
	struct ct_knob_restored *rs = NULL;
	struct ct_memcg cg;
	struct ct_journal j;
	struct stat sb;
	size_t n = 0;
	pid_t srv;

	if (geteuid() != 0)
		skip();
	snprintf(name, sizeof(name), "contend-test-journal-%d", (int)getpid());
	if (ct_memcg_create(&cg, name, 1ull << 30, err, sizeof(err)) == -ENOTSUP) {
		print_message("skipped: %s\n", err);
		skip();
	}
	assert_int_not_equal(cg.version, 0);
	journal_in(&j, "cgroup");

	/* a live owner (this process): kept, nothing stopped, no refusal */
	assert_int_equal(
		ct_journal_hold_cgroup(&j, cg.path, "test server", SIGQUIT, err, sizeof(err)), 0);
	srv = server_in(&cg);
	assert_int_equal(ct_journal_check(&j, note, sizeof(note), err, sizeof(err)), 0);
	assert_string_equal(note, "");
	assert_int_equal(journal_len(&j), 1);
	assert_int_equal(kill(srv, 0), 0);
	assert_int_equal(ct_journal_delete(&j, cg.path, err, sizeof(err)), 0);

	/* its owner gone: the next session's check stops it */
	hold_dead(&j, cg.path);
	assert_int_equal(ct_journal_check(&j, note, sizeof(note), err, sizeof(err)), 0);
	exited_7(srv);
	assert_non_null(strstr(note, "stopped test server (cgroup "));
	assert_non_null(strstr(note, "): 1 process a killed contend (pid "));
	assert_int_equal(stat(cg.path, &sb), -1);
	assert_int_equal(journal_len(&j), 0);

	/* and restore_all, counting what it stopped */
	assert_int_equal(ct_memcg_create(&cg, name, 1ull << 30, err, sizeof(err)), 0);
	hold_dead(&j, cg.path);
	srv = server_in(&cg);
	assert_int_equal(ct_journal_restore_all(&j, false, &rs, &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_int_equal(rs[0].how, CT_RESTORE_DONE);
	assert_string_equal(rs[0].before, "1 process");
	assert_true(ct_journal_is_cgroup(&rs[0].entry));
	free(rs);
	exited_7(srv);
	assert_int_equal(stat(cg.path, &sb), -1);
	assert_int_equal(journal_len(&j), 0);

	/* a path that is no cgroup contend made (its parent, which holds this
	 * process): refused, nothing signalled, the entry kept */
	{
		char parent[sizeof(cg.path)];

		snprintf(parent, sizeof(parent), "%s", cg.path);
		*strrchr(parent, '/') = '\0';
		hold_dead(&j, parent);
		assert_int_equal(ct_journal_restore_all(&j, false, &rs, &n, err, sizeof(err)), 0);
		assert_int_equal(rs[0].how, CT_RESTORE_FAILED);
		assert_int_equal(rs[0].rc, -EINVAL);
		assert_non_null(strstr(rs[0].err, "is no cgroup contend made; left alone"));
		free(rs);
		assert_int_equal(ct_journal_check(&j, note, sizeof(note), err, sizeof(err)),
				 -EBUSY);
		assert_int_equal(ct_journal_delete(&j, parent, err, sizeof(err)), 0);
	}

	/* gone already: cleared, nothing to stop */
	hold_dead(&j, cg.path);
	assert_int_equal(ct_journal_restore_all(&j, false, &rs, &n, err, sizeof(err)), 0);
	assert_int_equal(rs[0].how, CT_RESTORE_GONE);
	free(rs);
	assert_int_equal(journal_len(&j), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_put_list_delete),
		cmocka_unit_test(test_file_format),
		cmocka_unit_test(test_concurrent),
		cmocka_unit_test(test_owner),
		cmocka_unit_test_setup_teardown(test_disk_session, disk_setup, disk_teardown),
		cmocka_unit_test_setup_teardown(test_restore_cases, disk_setup, disk_teardown),
		cmocka_unit_test(test_cgroup_left),
	};

	return cmocka_run_group_tests_name("journal", tests, group_setup, group_teardown);
}
