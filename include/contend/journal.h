/*
 * The knob journal (docs/architecture.md, "Measurement rules"): the
 * original value of each live setting a session is about to change, one
 * entry per file, made durable before the change and deleted once the
 * original is written back and reads back right. What is left in it after a
 * session is what `contend restore` puts back.
 *
 * It belongs to the machine, not to a results store: a knob changed with
 * --db X is still found by a run or a restore without it, and a store
 * shared by many machines (PostgreSQL) never holds another machine's
 * settings. It is a small text file in one directory (default
 * /var/lib/contend, or $CONTEND_JOURNAL_DIR), replaced whole by an
 * fsynced rename at every change, under an flock so two sessions never
 * interleave their writes.
 *
 * Ownership: struct ct_journal is the caller's; arrays returned through
 * **out are malloc'd and freed by the caller with free().
 */
#ifndef CONTEND_JOURNAL_H
#define CONTEND_JOURNAL_H

#include "contend/common.h"
#include "contend/knob.h"
#include "contend/proc.h"

#include <limits.h>

#define CT_JOURNAL_DIR "/var/lib/contend"
/* Delay accounting (kernel.task_delayacct), which every session that
 * stores counters turns on: the one knob two running contends may share
 * (each wants 1); each restores what it found when it ends. */
#define CT_JOURNAL_DELAYACCT "/proc/sys/kernel/task_delayacct"

/* An entry whose knob starts so is no knob but a cgroup of processes a
 * session started (a database server): path is the cgroup's directory,
 * original the signal number that stops them in order ("3": SIGQUIT). */
#define CT_JOURNAL_CGROUP "cgroup:"

struct ct_journal_entry {
	char path[CT_KNOB_PATH_MAX];	  /* the file written, the key: one entry per path */
	char knob[CT_KNOB_NAME_MAX];	  /* the knob as the user named it: "iosched" */
	char original[CT_KNOB_VALUE_MAX]; /* the value to restore, read before the change */
	struct ct_owner owner;		  /* the contend that changed it */
	int64_t created_at;		  /* unix ns; 0 when putting: now */
};

struct ct_journal {
	char dir[PATH_MAX];
	char file[PATH_MAX + 16];
	char lock[PATH_MAX + 16];
};

/* $CONTEND_JOURNAL_DIR, else CT_JOURNAL_DIR. */
const char *ct_journal_default_dir(void);

/* Names the journal in dir (NULL: the default). Touches nothing: a
 * journal whose directory does not exist is empty. */
int ct_journal_init(struct ct_journal *j, const char *dir, char *err, size_t len) CT_WUR;

/* Every entry, oldest first. -EPROTO naming the line for a damaged file. */
int ct_journal_list(struct ct_journal *j, struct ct_journal_entry **out, size_t *n, char *err,
		    size_t len) CT_WUR;
/* Adds e[0..n-1] and returns once they are on disk (file and directory
 * fsynced), creating the directory (0755) as needed. A path already in the
 * journal keeps its entry: the older original is the one to go back to.
 * -EINVAL for an entry with an empty or unterminated field. */
int ct_journal_put(struct ct_journal *j, const struct ct_journal_entry *e, size_t n, char *err,
		   size_t len) CT_WUR;
/* Deletes the entry of path; -ENOENT when there is none. */
int ct_journal_delete(struct ct_journal *j, const char *path, char *err, size_t len) CT_WUR;

/* A cgroup whose processes this session is about to start (what names
 * them for the user: "pgbench server"), journalled before the first starts;
 * ct_journal_delete(path) once the last is gone and the cgroup removed. If
 * the session dies first, the next session's ct_journal_check and
 * `contend restore` stop them: sig to each, up to 10 s for them to go,
 * SIGKILL to the rest, the cgroup removed. */
int ct_journal_hold_cgroup(struct ct_journal *j, const char *cgroup, const char *what, int sig,
			   char *err, size_t len) CT_WUR;
bool ct_journal_is_cgroup(const struct ct_journal_entry *e);

/* The text of one entry as a journal line, and back (for tests and
 * fuzzing: what a damaged file may hold). decode modifies line. */
int ct_journal_encode(const struct ct_journal_entry *e, char *buf, size_t len) CT_WUR;
int ct_journal_decode(char *line, struct ct_journal_entry *e) CT_WUR;

/* Reads the current value of every path of k[0..n-1] and journals them as
 * originals before the caller changes anything. Under the journal's lock,
 * so a second contend cannot slip in between: -EBUSY when another live
 * contend holds an entry. */
int ct_journal_record(struct ct_journal *j, const struct ct_knob *k, size_t n, char *err,
		      size_t len) CT_WUR;

/* At the end of a session: writes back the journalled original of every
 * path of k[0..n-1], deleting each entry that reads back right. Keeps
 * going past a failure and returns the first (others counted in err). */
int ct_journal_restore_session(struct ct_journal *j, const struct ct_knob *k, size_t n, char *err,
			       size_t len) CT_WUR;

enum ct_restore_how {
	CT_RESTORE_DONE,	 /* original written, read back right, entry deleted */
	CT_RESTORE_EARLIER_BOOT, /* changed in an earlier boot: the file already
				  * holds its boot value; not written, entry deleted */
	CT_RESTORE_GONE,	 /* the file no longer exists (device removed); entry deleted */
	CT_RESTORE_HELD,	 /* a running contend holds it; kept (-EBUSY) */
	CT_RESTORE_FAILED,	 /* could not be written or read back; kept */
};

struct ct_knob_restored {
	struct ct_journal_entry entry;
	enum ct_restore_how how;
	char before[CT_KNOB_VALUE_MAX]; /* the value found ("" if unreadable); a
					 * cgroup's: how many processes it held */
	int rc;				/* HELD, FAILED */
	char err[CT_ERRLEN];
};

/*
 * `contend restore`: every journal entry, oldest first. An entry of this
 * boot is written back (unless a running contend other than this process
 * still holds it and force is false). An entry of an earlier boot is not
 * written: a reboot already put the file back to its boot value, and after
 * a reboot the path may name another device; it is reported with the value
 * found and deleted. Returns 0 once every entry was tried (per-entry
 * results in *out); -EPERM, touching nothing, when not root and an entry
 * of this boot needs writing.
 */
int ct_journal_restore_all(struct ct_journal *j, bool force, struct ct_knob_restored **out,
			   size_t *n, char *err, size_t len) CT_WUR;

/* For `contend run` before it starts: 0 when the journal is empty, else
 * -EBUSY with one line naming the knobs left changed and saying "run
 * 'contend restore'" (or naming the running contend that holds them).
 * Processes a dead contend left in a cgroup are stopped here and then, one
 * line a cgroup in note (nlen bytes, "" when none) for the caller to print. */
int ct_journal_check(struct ct_journal *j, char *note, size_t nlen, char *err, size_t len) CT_WUR;

#endif
