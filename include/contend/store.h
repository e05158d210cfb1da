/*
 * The results store (docs/store.md): the interface the rest of
 * contend sees. A backend is a driver (SQLite in src/store/sqlite.c,
 * PostgreSQL in src/store/pg.c) chosen by ct_store_open() from the
 * target's form, under one set of entity operations (src/store/query.c);
 * nothing outside src/store includes a database's header.
 * Every raw run is kept; one transaction per run so a crash loses at most
 * the run in flight.
 *
 * Ownership: the store owns nothing the caller passes in; arrays returned
 * through **out are malloc'd and freed by the caller with free().
 */
#ifndef CONTEND_STORE_H
#define CONTEND_STORE_H

#include "contend/common.h"
#include "contend/proc.h"
#include "contend/reference.h"
#include "contend/run.h"
#include "contend/sysinfo.h"

struct ct_store;

/* A session's status, stored as its word (ct_session_status_names). */
enum ct_session_status {
	CT_SESSION_RUNNING,	/* "running" */
	CT_SESSION_COMPLETE,	/* "complete" */
	CT_SESSION_INTERRUPTED, /* "interrupted" */
	CT_SESSION_FAILED,	/* "failed" */
	CT_SESSION_NSTATUS
};
extern const char *const ct_session_status_names[CT_SESSION_NSTATUS];
const char *ct_session_status_name(enum ct_session_status s);
#define CT_SESSION_ONLY(st) (1u << (st)) /* a ct_session_filter's status mask */

struct ct_session_rec {
	int64_t id;
	int64_t config_id;
	char label[128];
	char argv[1024]; /* space-joined */
	char workload[32];
	char profile[16]; /* "quick" or "full" */
	enum ct_session_status status;
	int64_t started_at, ended_at; /* unix ns, ended_at 0 while running */
	unsigned nruns, nfailed;      /* nfailed: runs not "ok" (failed or interrupted) */
	/* who ran it, to tell a live session from one whose contend is gone */
	struct ct_owner owner;
	/* the sessions of one invocation that ran several configs (--vary):
	 * the group is the first config's session id (0 when putting that
	 * first: its own id), the order "interleaved" or "sequential" and its
	 * seed; group 0 and order "" for a session of one config */
	int64_t group_id;
	char order[16];
	uint64_t order_seed;
	/* a random id of its own, unique across machines (a fleet's store
	 * gathers sessions from many); made by session_begin when empty */
	char uuid[37];
	/* the commit it measured (run --commit REV): its full sha and its
	 * committer time (unix ns), "" and 0 when none was given; history
	 * orders sessions by it with --by commit */
	char commit[41];
	int64_t commit_time;
};

/* Which sessions ct_store_sessions() gives. */
struct ct_session_filter {
	const char *label;	   /* this label; NULL any */
	const char *const *labels; /* one of these nlabels labels; NULL any */
	size_t nlabels;
	const char *label_glob; /* labels this fnmatch(3) pattern takes; NULL any */
	/* a host name, or 4 or more leading digits of a machine id
	 * (ct_owner_named()); NULL any */
	const char *machine;
	const char *workload; /* NULL any */
	const char *params;   /* that ran a run of these workload parameters; NULL any */
	int64_t since;	      /* started at or after, unix ns; 0 any */
	int64_t group_id;     /* the sessions of one --vary run (its first's id); 0 any */
	bool with_commit;     /* only sessions that name their commit (run --commit) */
	bool with_ok_runs;    /* only sessions with an ok run */
	bool no_bisect;	      /* not a session a bisection's step ran (history) */
	unsigned status;      /* a mask of CT_SESSION_ONLY(status); 0 any */
	size_t limit;	      /* the first limit of them (in id order, newest id first); 0 all */
	/* count each session's runs (nruns, nfailed); without it they are 0:
	 * a count is most of what listing a fleet's store costs */
	bool counts;
};

struct ct_run_filter {
	int64_t session_id;	     /* 0 = any */
	const char *label;	     /* NULL = any */
	const char *workload;	     /* NULL = any */
	const char *load;	     /* NULL = any */
	const char *workload_params; /* NULL = any */
	bool ok_only;
};

/* A row of the knob journal that stores of schema 4 to 6 kept (the
 * journal is the machine's now, core/journal.c): read once to move it
 * there, then cleared. */
struct ct_store_knob_row {
	char path[512];
	char knob[256];
	char original[256];
	int session_pid;
	char boot_id[40];
	int64_t created_at;
};

/* A calibration (contend calibrate): the values of one config's runs of a
 * workload under one load, in run order, whose spread says which effects
 * the verdict rule can find. */
struct ct_calibration {
	int64_t id, config_id, session_id;
	char label[128];
	char workload[32];
	char workload_params[256];
	char load[32];
	int64_t created_at; /* unix ns */
	bool higher_better; /* tps, not Time */
	double *values;	    /* malloc'd by ct_store_calibration_get */
	size_t n;
};

/* How a store is opened. */
enum {
	CT_STORE_CREATE = 1 << 0, /* make it (and its directory) when missing: writers */
	/* with CREATE: make the file, never its directory - a path the user
	 * gave, whose missing directory is a typo (-ENOTDIR), as git and
	 * sqlite3 take it; the default store's directory is made */
	CT_STORE_NO_MKDIR = 1 << 1,
};

/* An open store (src/store/query.c holds the rest of it). */
struct ct_store {
	/* opened for reading only: a reader's store it cannot write (a file
	 * it may not write, a read-only mount); every write fails -EROFS */
	bool readonly;
	/* times a lost connection was made again (PostgreSQL), so the caller
	 * can say so; a write of the moment is never silently lost: it failed
	 * or it was sent again before anything of it was done */
	unsigned reconnects;
};

/* Default path: $CONTEND_DB, else $XDG_DATA_HOME/contend/results.db, else
 * $HOME/.local/share/contend/results.db. Writes into buf; on error (-ENOENT
 * when none is set, -ENAMETOOLONG) buf holds the message instead. */
int ct_store_default_path(char *buf, size_t len) CT_WUR;
/* The same without $CONTEND_DB: this machine's own file. */
int ct_store_local_path(char *buf, size_t len) CT_WUR;
/* The name of the backend that takes target ("sqlite", "postgresql"). */
const char *ct_store_backend(const char *target);

/* Opens the store target names with the backend that accepts it (SQLite
 * takes any path; ":memory:" is a private in-memory store), migrating an
 * older schema in place. Without CT_STORE_CREATE a missing store is
 * -ENOENT ("no results store at PATH") and nothing is made. A file that is
 * not a contend store, or one of a newer schema, is refused with -EINVAL
 * and left untouched. */
int ct_store_open(struct ct_store **out, const char *target, unsigned flags, char *err,
		  size_t len) CT_WUR;
void ct_store_close(struct ct_store *s);

/* An explicit transaction around several puts (they then join it instead
 * of committing one by one); rollback drops everything since begin. */
int ct_store_begin(struct ct_store *s, char *err, size_t len) CT_WUR;
int ct_store_commit(struct ct_store *s, char *err, size_t len) CT_WUR;
void ct_store_rollback(struct ct_store *s);

/* Finds or inserts the config (label + facts + fingerprint). */
int ct_store_config_put(struct ct_store *s, const char *label, const struct ct_sysinfo *si,
			int64_t *id, char *err, size_t len) CT_WUR;

/* Reads config id back: its label (into label, label_len) and facts. -ENOENT
 * when there is no such config. */
int ct_store_config_get(struct ct_store *s, int64_t id, char *label, size_t label_len,
			struct ct_sysinfo *si, char *err, size_t len) CT_WUR;

/* Sets rec->id (and a first config's group_id to it), status "running". */
int ct_store_session_begin(struct ct_store *s, struct ct_session_rec *rec, char *err,
			   size_t len) CT_WUR;
/* status: complete, interrupted or failed. -ENOENT: no such session. */
int ct_store_session_end(struct ct_store *s, int64_t id, enum ct_session_status status, char *err,
			 size_t len) CT_WUR;
/* Stores rec as it is - status, times, owner, UUID, group (0 for the first
 * of a group: its own id) - a session copied from another store; sets
 * rec->id. */
int ct_store_session_copy(struct ct_store *s, struct ct_session_rec *rec, char *err,
			  size_t len) CT_WUR;
/* The id of the session with this UUID, 0 when there is none. */
int ct_store_session_find(struct ct_store *s, const char *uuid, int64_t *id, char *err,
			  size_t len) CT_WUR;
/* The sessions f takes (NULL: all), by id descending - the order
 * ct_store_session_of() searches. */
int ct_store_sessions(struct ct_store *s, const struct ct_session_filter *f,
		      struct ct_session_rec **out, size_t *n, char *err, size_t len) CT_WUR;
/* The one rule of "newer" between two sessions: the later start, then the
 * higher id (a session copied from another store keeps its start). */
bool ct_store_session_newer(const struct ct_session_rec *a, const struct ct_session_rec *b);
/* The session of id among the n of recs, in the order ct_store_sessions()
 * gives them (id descending; a subset in that order too), NULL when none
 * is; the pointer is into recs. */
const struct ct_session_rec *ct_store_session_of(const struct ct_session_rec *recs, size_t n,
						 int64_t id);

/* Inserts a run (sets r->id) with its metrics and series in its own
 * transaction (or the caller's, after ct_store_begin). */
int ct_store_run_put(struct ct_store *s, struct ct_run *r, char *err, size_t len) CT_WUR;
/* Runs matching f, ordered by id. *out malloc'd (may be NULL when *n == 0). */
int ct_store_runs(struct ct_store *s, const struct ct_run_filter *f, struct ct_run **out, size_t *n,
		  char *err, size_t len) CT_WUR;
/* What a verdict needs of a run, read without the rest of it: a fleet's
 * store holds millions of runs, and a struct ct_run is 4 KiB. */
struct ct_run_value {
	int64_t run_id, session_id, config_id;
	char load[32];
	unsigned block; /* the interleaved block it ran in, 0 none */
	double value;	/* ct_run_value(): the judged figure */
};
/* The values of the runs matching f, ordered by id. *out malloc'd. */
int ct_store_run_values(struct ct_store *s, const struct ct_run_filter *f,
			struct ct_run_value **out, size_t *n, char *err, size_t len) CT_WUR;
/* The per-second series stored with run_id (*out malloc'd, may be empty). */
int ct_store_run_series(struct ct_store *s, int64_t run_id, double **out, size_t *n, char *err,
			size_t len) CT_WUR;
/* The counters stored with run_id (contend why; none for a run stored
 * before schema 16 or without them). */
int ct_store_run_counters(struct ct_store *s, int64_t run_id, struct ct_counters *out, char *err,
			  size_t len) CT_WUR;
/* The histogram called name stored with run_id; -ENOENT (err untouched)
 * when the run has none of that name. */
int ct_store_run_hist(struct ct_store *s, int64_t run_id, const char *name, struct ct_hist *out,
		      char *err, size_t len) CT_WUR;
/* Every histogram of run_id into r->hists, each a malloc'd ct_hist that
 * ct_store_hists_free() releases. */
int ct_store_run_hists(struct ct_store *s, int64_t run_id, struct ct_run *r, char *err,
		       size_t len) CT_WUR;
void ct_store_hists_free(struct ct_run *r);
/* Last session id that has OK runs of (label, workload, load) with
 * matching workload_params (NULL: any); 0 when none. */
int ct_store_latest_session_with(struct ct_store *s, const char *label, const char *workload,
				 const char *load, const char *workload_params, int64_t *session_id,
				 char *err, size_t len) CT_WUR;

/* The host's reference a session took (r->session_id, r->seq, its time,
 * phase and figures; a NaN figure is stored as NULL), and every one of
 * session_id in seq order, a missing figure read as NaN. *out malloc'd
 * (NULL when *n == 0). */
int ct_store_ref_put(struct ct_store *s, const struct ct_ref *r, char *err, size_t len) CT_WUR;
int ct_store_refs(struct ct_store *s, int64_t session_id, struct ct_ref **out, size_t *n, char *err,
		  size_t len) CT_WUR;

/* The knob journal rows an older store kept, and clearing them once they
 * are safe elsewhere. */
int ct_store_knob_rows(struct ct_store *s, struct ct_store_knob_row **out, size_t *n, char *err,
		       size_t len) CT_WUR;
int ct_store_knob_rows_clear(struct ct_store *s, char *err, size_t len) CT_WUR;

/*
 * A bisection (contend bisect, docs/statistics.md "Bisection"): its range,
 * how it measures and how it ended; and its steps in turn. A step is one
 * sitting of a commit's measurement against its base (the good end, or the
 * culprit's parent): the session group that holds the runs of both (its
 * first session), and the answer once judged. A candidate measured in two
 * sittings (a crash between) has two rows of one seq; the search replays
 * from the answers.
 */
#define CT_BISECT_SHA 41
/* The closed sets of a bisection, stored as their words (*_names). */
enum ct_bisection_mode {
	CT_BISECTION_RUN,  /* "run": contend builds and measures */
	CT_BISECTION_STEP, /* "step": one step per boot */
	CT_BISECTION_NMODES
};
enum ct_bisection_status {
	CT_BISECTION_RUNNING, /* "running" */
	CT_BISECTION_FOUND,   /* "found": the culprit named */
	CT_BISECTION_NONE,    /* "none": ended without a culprit */
	CT_BISECTION_RESET,   /* "reset": reset before its end */
	CT_BISECTION_NSTATUS
};
enum ct_bisect_role {
	CT_ROLE_REGRESSION, /* "regression": bad against good */
	CT_ROLE_CANDIDATE,  /* "candidate": a commit of the search against good */
	CT_ROLE_ACROSS,	    /* "across": the culprit against its parent */
	CT_ROLE_NROLES
};
enum ct_bisect_answer {
	CT_ANSWER_NONE, /* "": being measured */
	CT_ANSWER_GOOD, /* "good" */
	CT_ANSWER_BAD,	/* "bad" (the regression: good and bad differ) */
	CT_ANSWER_SKIP, /* "skip": no answer (a build failed, no verdict) */
	CT_ANSWER_SAME, /* "same": the regression's ends do not differ */
	CT_ANSWER_NANSWERS
};
extern const char *const ct_bisection_mode_names[CT_BISECTION_NMODES];
extern const char *const ct_bisection_status_names[CT_BISECTION_NSTATUS];
extern const char *const ct_bisect_role_names[CT_ROLE_NROLES];
extern const char *const ct_bisect_answer_names[CT_ANSWER_NANSWERS];

struct ct_bisection {
	int64_t id;
	char repo[1024];			      /* the work tree's top directory */
	char good[CT_BISECT_SHA], bad[CT_BISECT_SHA]; /* full shas */
	enum ct_bisection_mode mode;
	char argv[4096]; /* how it measures: bisect start's options, as shell words */
	enum ct_bisection_status status;
	char culprit[CT_BISECT_SHA];  /* CT_BISECTION_FOUND: the first bad commit */
	char note[256];		      /* why it ended as it did */
	int64_t started_at, ended_at; /* unix ns; ended_at 0 while running */
};

struct ct_bisect_step {
	int64_t id, bisection_id;
	unsigned seq; /* 0: the regression, then each step of the search in turn */
	enum ct_bisect_role role;
	char sha[CT_BISECT_SHA], base[CT_BISECT_SHA];
	int64_t session_id; /* the sitting's session group; 0: none (a build failed) */
	enum ct_bisect_answer answer;
	char why[256];				/* a skip's reason; what a step's answer rests on */
	unsigned runs;				/* ok runs a side judged, over its sittings */
	bool have_effect;			/* the comparison had an interval */
	double effect, effect_low, effect_high; /* ratio sha/base - 1 with its interval */
	int64_t created_at, ended_at;
};

/* Stores a new bisection (every member but id) and sets b->id. */
int ct_store_bisection_put(struct ct_store *s, struct ct_bisection *b, char *err,
			   size_t len) CT_WUR;
/* Writes b's status, culprit, note and ended_at to its row. */
int ct_store_bisection_end(struct ct_store *s, const struct ct_bisection *b, char *err,
			   size_t len) CT_WUR;
/* The newest bisection of repo; -ENOENT (err untouched) when there is
 * none. */
int ct_store_bisection_get(struct ct_store *s, const char *repo, struct ct_bisection *b, char *err,
			   size_t len) CT_WUR;
/* Stores a step (every member but id) and sets p->id. */
int ct_store_bisect_step_put(struct ct_store *s, struct ct_bisect_step *p, char *err,
			     size_t len) CT_WUR;
/* Writes p's session, answer, why, runs, effect and ended_at to its row. */
int ct_store_bisect_step_end(struct ct_store *s, const struct ct_bisect_step *p, char *err,
			     size_t len) CT_WUR;
/* The steps of a bisection, in the order they were stored. */
int ct_store_bisect_steps(struct ct_store *s, int64_t bisection_id, struct ct_bisect_step **out,
			  size_t *n, char *err, size_t len) CT_WUR;

/*
 * A change point that was seen (contend history ack): the session that
 * starts it, the series it was found in (workload, load, machine id; ""
 * load: every load) and when. history's gate looks only past the newest
 * acknowledged change of a series.
 */
struct ct_history_ack {
	int64_t id;
	char session_uuid[37];
	char workload[32];
	char load[32];
	char machine[64];
	char note[256];
	int64_t acked_at; /* unix ns */
};
/* Stores a (every member but id) and sets a->id. */
int ct_store_ack_put(struct ct_store *s, struct ct_history_ack *a, char *err, size_t len) CT_WUR;
/* Every acknowledgement of workload, oldest first. */
int ct_store_acks(struct ct_store *s, const char *workload, struct ct_history_ack **out, size_t *n,
		  char *err, size_t len) CT_WUR;

/*
 * The suite files jobs ran from (contend run -f): by the tag a job's
 * sessions carry in their parameters ("hackbench.ini/process-pipe#23a7548a"),
 * the text of the file and of every file it includes. put stores a tag
 * once (the same tag is the same job) and keeps the first text; get finds
 * it (-ENOENT: none), *text malloc'd.
 */
int ct_store_suite_put(struct ct_store *s, const char *tag, const char *text, char *err,
		       size_t len) CT_WUR;
int ct_store_suite_get(struct ct_store *s, const char *tag, char **text, char *err,
		       size_t len) CT_WUR;
/* The suite tag in a run's workload parameters (their word "suite=TAG"),
 * into tag (truncated to size); false when they name none. */
bool ct_store_suite_tag(const char *params, char *tag, size_t size);

/* Stores c (config_id, workload, params, load, session, time, values) and
 * sets c->id. */
int ct_store_calibration_put(struct ct_store *s, struct ct_calibration *c, char *err,
			     size_t len) CT_WUR;
/* The latest calibration of the config labelled label for the workload,
 * its parameters (NULL: any) and the load; -ENOENT (err untouched) when
 * there is none. c->values is malloc'd. */
int ct_store_calibration_get(struct ct_store *s, const char *label, const char *workload,
			     const char *workload_params, const char *load,
			     struct ct_calibration *c, char *err, size_t len) CT_WUR;

/*
 * Copies session rec of store from into store to, in one transaction of
 * to: the session as it was (its UUID, status, times, owner; group_id is
 * the target's id of its group's first session, 0 for that first one), its
 * configs (found or added by label and fingerprint), every run with its
 * metrics and series, and the host's references it took. 0 with *to_id and
 * *nruns; 1 when to already holds a
 * session of that UUID (*to_id is it; nothing copied); -errno.
 */
int ct_store_copy_session(struct ct_store *from, struct ct_store *to,
			  const struct ct_session_rec *rec, int64_t group_id, int64_t *to_id,
			  unsigned *nruns, char *err, size_t len) CT_WUR;

/*
 * How metrics and series are kept: JSON text a database can query
 * (json_extract(metrics, '$.tps')). A run's declared figures (r->figs)
 * ride in the metrics under the key "@figures", which no metric can have,
 * as [["ops","ops/s","higher"], ...]: the first is the judged one.
 * Encoders return -ENOSPC when buf is too small; decoders -EPROTO for text
 * that is not such JSON (a name too long, a value that is not a number,
 * more than CT_RUN_MAX_METRICS, a figure that is not one).
 */
#define CT_STORE_METRICS_MAX                               \
	(CT_RUN_MAX_METRICS * (CT_METRIC_NAME + 32) + 16 + \
	 CT_RUN_MAX_FIGS * (CT_METRIC_NAME + CT_FIGURE_UNIT + 20))
int ct_store_metrics_encode(const struct ct_run *r, char *buf, size_t len) CT_WUR;
int ct_store_metrics_decode(const char *text, struct ct_run *r) CT_WUR;
/* *out malloc'd (NULL when empty). */
char *ct_store_series_encode(const double *v, size_t n);
int ct_store_series_decode(const char *text, double **out, size_t *n) CT_WUR;
/* The hists of r as one JSON object, name to {"count", "min", "max",
 * "sum", "buckets": [[lower bound, count]...]} (bounds in ns, so the text
 * does not depend on the bucket scheme); malloc'd, "{}" when none. */
char *ct_store_hists_encode(const struct ct_run *r);
/* The histogram name of such text: 0, -ENOENT, or -EPROTO for text that
 * is not such JSON (a bound that is no bucket's, counts that disagree). */
int ct_store_hist_decode(const char *text, const char *name, struct ct_hist *out) CT_WUR;

#endif
