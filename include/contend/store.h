/*
 * The results store (DESIGN.md section 7). This interface is all the rest
 * of contend sees; src/store/sqlite.c is the only file that includes
 * sqlite3.h. Every raw run is kept; one transaction per run so a crash
 * loses at most the run in flight.
 *
 * Ownership: the store owns nothing the caller passes in; arrays returned
 * through **out are malloc'd and freed by the caller with free().
 */
#ifndef CONTEND_STORE_H
#define CONTEND_STORE_H

#include "contend/common.h"
#include "contend/run.h"
#include "contend/sysinfo.h"

struct ct_store;

struct ct_session_rec {
	int64_t id;
	int64_t config_id;
	char label[128];
	char argv[1024]; /* space-joined */
	char workload[32];
	char profile[16];	      /* "quick" or "full" */
	char status[16];	      /* "running", "complete", "interrupted", "failed" */
	int64_t started_at, ended_at; /* unix ns, ended_at 0 while running */
	unsigned nruns, nfailed;      /* nfailed: runs not "ok" (failed or interrupted) */
	/* who ran it, to tell a live session from one whose contend is gone */
	int pid;
	uint64_t pid_start;  /* the process's start time, /proc/PID/stat field 22 */
	char boot_id[40];    /* /proc/sys/kernel/random/boot_id */
	char machine_id[40]; /* /etc/machine-id */
	/* several configs: "interleaved seed=N first=ID" (ID: the session of
	 * the first config, 0 for that one), "" for a session of one config */
	char schedule[96];
};

/* Default path: $CONTEND_DB, else $XDG_DATA_HOME/contend/results.db, else
 * $HOME/.local/share/contend/results.db. Writes into buf; on error (-ENOENT
 * when none is set, -ENAMETOOLONG) buf holds the message instead. */
int ct_store_default_path(char *buf, size_t len) CT_WUR;

/* Opens (creating parent directories and the schema, migrating older
 * versions) in WAL mode. ":memory:" opens a private in-memory store. A file
 * that is not a contend store, or one of a newer schema, is refused with
 * -EINVAL and left untouched. */
int ct_store_open(struct ct_store **out, const char *path, char *err, size_t len) CT_WUR;
void ct_store_close(struct ct_store *s);

/* Finds or inserts the config (label + facts + fingerprint). */
int ct_store_config_put(struct ct_store *s, const char *label, const struct ct_sysinfo *si,
			int64_t *id, char *err, size_t len) CT_WUR;

/* Reads config id back: its label (into label, label_len) and facts. -ENOENT
 * when there is no such config. */
int ct_store_config_get(struct ct_store *s, int64_t id, char *label, size_t label_len,
			struct ct_sysinfo *si, char *err, size_t len) CT_WUR;

int ct_store_session_begin(struct ct_store *s, struct ct_session_rec *rec, char *err,
			   size_t len) CT_WUR; /* sets rec->id, status "running" */
int ct_store_session_end(struct ct_store *s, int64_t id, const char *status, char *err,
			 size_t len) CT_WUR;

/* Inserts a run (sets r->id) with its series in its own transaction. */
int ct_store_run_put(struct ct_store *s, struct ct_run *r, char *err, size_t len) CT_WUR;
/* The per-second series stored with run_id (*out malloc'd, may be empty). */
int ct_store_run_series(struct ct_store *s, int64_t run_id, double **out, size_t *n, char *err,
			size_t len) CT_WUR;

struct ct_run_filter {
	int64_t session_id;	     /* 0 = any */
	const char *label;	     /* NULL = any */
	const char *workload;	     /* NULL = any */
	const char *load;	     /* NULL = any */
	const char *workload_params; /* NULL = any */
	bool ok_only;
};
/* Runs matching f, ordered by id. *out malloc'd (may be NULL when *n == 0). */
int ct_store_runs(struct ct_store *s, const struct ct_run_filter *f, struct ct_run **out, size_t *n,
		  char *err, size_t len) CT_WUR;
/* Sessions, newest first; limit 0 = all. */
int ct_store_sessions(struct ct_store *s, size_t limit, struct ct_session_rec **out, size_t *n,
		      char *err, size_t len) CT_WUR;
/* Last session id that has OK runs of (label, workload, load "none") with
 * matching workload_params; 0 when none. Used for the Ratio reference. */
int ct_store_latest_session_with(struct ct_store *s, const char *label, const char *workload,
				 const char *load, const char *workload_params, int64_t *session_id,
				 char *err, size_t len) CT_WUR;

/*
 * The knob journal (DESIGN.md section 4): the original value of each live
 * setting (a file under /sys or /proc/sys) a session is about to change,
 * one entry per file, committed before the change and deleted once the
 * original is written back and reads back right. What is left in it after
 * a session is what `contend restore` puts back.
 */
struct ct_journal_entry {
	int64_t id;
	char path[512];	    /* the file written, the key: one entry per path */
	char knob[256];	    /* the knob as the user named it: "iosched" */
	char original[256]; /* the value to restore, as read before the change */
	int session_pid;    /* the contend that changed it */
	char boot_id[40];   /* the boot it was changed in */
	int64_t created_at; /* unix ns; 0 when putting: now */
};

/* Records e[0..n-1] in one transaction and returns once it is committed.
 * A path already in the journal keeps its entry (the older original is the
 * one to go back to). -EINVAL for an entry with an empty path or knob. */
int ct_store_journal_put(struct ct_store *s, const struct ct_journal_entry *e, size_t n, char *err,
			 size_t len) CT_WUR;
/* Every entry, oldest first. *out malloc'd (NULL when *n == 0). -EPROTO for
 * an entry whose text does not fit struct ct_journal_entry. */
int ct_store_journal_list(struct ct_store *s, struct ct_journal_entry **out, size_t *n, char *err,
			  size_t len) CT_WUR;
/* Deletes the entry of path; -ENOENT when there is none. */
int ct_store_journal_delete(struct ct_store *s, const char *path, char *err, size_t len) CT_WUR;

#endif
