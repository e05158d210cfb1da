/*
 * `contend run --dry-run` (and calibrate's): every check the session makes
 * before its first run - the store, --baseline, the knob journal, the
 * knobs' values, the plan of --target-effect - so that a dry run that says
 * "checked" is followed by a run that starts; then the plan is printed.
 */
#include "run.h"
#include "contend/knob.h"
#include "contend/report.h"
#include "contend/workload.h"
#include "contend/util.h"

#include <errno.h>
#include <libgen.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

/* A store path the user gave is opened without making its directory: a
 * dry run refuses a missing one as the run will. */
static int dry_store_dir(const struct run_args *a, const char *db)
{
	const char *env = getenv("CONTEND_DB");
	char copy[4096], *dir;
	struct stat sb;

	if (strcmp(ct_store_backend(db), "sqlite") || !access(db, F_OK) ||
	    (!a->db && !(env && *env)))
		return 0;
	snprintf(copy, sizeof(copy), "%s", db);
	dir = dirname(copy);
	if (!stat(dir, &sb) && S_ISDIR(sb.st_mode))
		return 0;
	cli_error("cannot make results store '%s': '%s' is no directory (make it first)", db, dir);
	return CT_EXIT_USAGE;
}

/* The knobs' values, checked by the kernel: as root, each config's values
 * are written and put back at once, through the journal (a contend killed
 * in between leaves them to `contend restore`), with the signals that end
 * a run held until they are back. */
static int dry_knobs(struct run_args *a, struct ct_journal *j)
{
	const struct ct_session_opts *o = &a->s.opts;
	char err[CT_ERRLEN] = "", e2[CT_ERRLEN];
	sigset_t hold, old;
	int rc, r2;

	if (!o->nkconfigs || geteuid() != 0)
		return 0;
	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigaddset(&hold, SIGQUIT);
	sigprocmask(SIG_BLOCK, &hold, &old);
	rc = ct_journal_record(j, o->knobs, o->nknobs, err, sizeof(err));
	for (size_t k = 0; !rc && k < o->nkconfigs; k++)
		rc = ct_knob_apply_config(&o->kconfigs[k], err, sizeof(err));
	r2 = ct_journal_restore_session(j, o->knobs, o->nknobs, e2, sizeof(e2));
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (r2) {
		cli_error("%s: %s; run 'contend restore'", a->cmd, e2);
		return CT_EXIT_ENV;
	}
	return rc ? cli_fail(rc, err) : 0;
}

/* The workload's parameters as the session will store them: its describe
 * op, else the workload prepared in a directory of its own under --dir,
 * then removed. */
int run_params(const struct run_args *a, char *params, size_t plen, char *err, size_t len)
{
	const struct ct_workload_ops *ops = ct_workload_find(a->s.opts.workload);
	const char *parent = a->s.opts.dir ? a->s.opts.dir : "/var/tmp";
	static struct ct_env env;
	struct ct_workload w;
	int rc;

	if (ops->describe) {
		rc = ops->describe(&a->s.env, &a->s.opts.wopts, parent, params, plen, err, len);
		if (!rc)
			ct_workload_params_suite(&a->s.opts.wopts, params, plen);
		return rc;
	}
	env = a->s.env;
	if ((size_t)snprintf(env.dir, sizeof(env.dir), "%s/contend.XXXXXX", parent) >=
	    sizeof(env.dir))
		return ct_err(err, len, -ENAMETOOLONG, "work directory path too long");
	if (!mkdtemp(env.dir))
		return ct_err(err, len, -errno, "cannot make a work directory in '%s': %s", parent,
			      strerror(errno));
	rc = ct_workload_init(&w, ops, &env, &a->s.opts.wopts, err, len);
	if (!rc) {
		snprintf(params, plen, "%s", w.params);
		ct_workload_release(&w);
	}
	(void)ct_rm_rf(env.dir);
	return rc;
}

/* --target-effect: the session's plan, made as the session makes it - the
 * same check, the labels it composes, the workload's parameters, the same
 * calibrations (none when no store is there yet). */
static int dry_target(struct run_args *a, struct ct_store *st)
{
	static struct ct_session s;
	const struct ct_session_opts *o = &a->s.opts;
	struct ct_store *mem = NULL;
	char err[CT_ERRLEN] = "", suffix[sizeof(s.label)];
	struct utsname u;
	int rc = 0, ex;

	if (!st) {
		rc = ct_store_open(&mem, ":memory:", CT_STORE_CREATE, err, sizeof(err));
		if (rc)
			return cli_fail(rc, err);
		st = mem;
	}
	ex = target_check(a, st);
	s = a->s;
	snprintf(s.label, sizeof(s.label), "%s",
		 o->label ? o->label : (uname(&u) ? "" : u.release));
	snprintf(s.cfg[0].label, sizeof(s.cfg[0].label), "%s", s.label);
	if (!ex && o->nkconfigs) {
		rc = ct_knob_label(&o->kconfigs[0], o->label != NULL, suffix, sizeof(suffix));
		if (!rc && *suffix &&
		    (size_t)snprintf(s.cfg[0].label, sizeof(s.cfg[0].label), "%s+%s", s.label,
				     suffix) >= sizeof(s.cfg[0].label))
			rc = ct_err(err, sizeof(err), -ENAMETOOLONG, "label '%s+%s' is too long",
				    s.label, suffix);
		if (rc)
			ex = cli_fail(rc, err);
	}
	if (!ex && !rc)
		rc = run_params(a, s.workload_params, sizeof(s.workload_params), err, sizeof(err));
	a->st = st;
	if (!ex && !rc)
		rc = target_plan(a, &s, err, sizeof(err));
	a->st = NULL;
	if (!ex && rc)
		ex = cli_fail(rc, err);
	a->s.opts.runs = s.opts.runs;
	ct_store_close(mem);
	return ex;
}

/* What the dry run says of the session it checked. */
static void dry_plan(const struct run_args *a, const char *db)
{
	const struct ct_session_opts *o = &a->s.opts;
	unsigned per = o->adaptive ? o->max_runs : o->runs;
	char label[256];

	printf("contend %s: dry run - checked; %s\n", a->cmd,
	       o->nkconfigs && geteuid() == 0
		       ? "nothing is run or stored; each knob value was set and put back"
		       : "nothing is run, stored or changed");
	printf("workload:  %s%s\n", o->workload, a->s.env.quick ? " (quick profile)" : "");
	printf("loads:    ");
	for (size_t i = 0; i < o->nloads; i++)
		printf(" %s", o->loads[i]);
	printf("\nconfigs:   %zu", o->nkconfigs ? o->nkconfigs : 1);
	for (size_t k = 0; k < o->nkconfigs; k++)
		if (!ct_knob_label(&o->kconfigs[k], false, label, sizeof(label)))
			printf("%s%s", k ? ", " : " (", label);
	printf("%s\n", o->nkconfigs ? (o->sequential ? "; sequential)" : "; interleaved)") : "");
	printf("runs:      %s%u per load and config, %zu in all%s\n", o->adaptive ? "up to " : "",
	       per, (size_t)per * o->nloads * (o->nkconfigs ? o->nkconfigs : 1),
	       o->warmup && !(ct_workload_find(o->workload)->flags & CT_WL_OWN_WARMUP)
		       ? ", after an unrecorded warm-up"
		       : "");
	if (a->cal_sessions)
		printf("sessions:  %u in turn, each stored whole; %zu runs in all\n",
		       a->cal_sessions, (size_t)per * o->nloads * a->cal_sessions);
	if (a->cal_every)
		printf("every:     a session starts every %s: the last %s after the first\n",
		       ct_report_fmt_gap(a->cal_every, (char[32]){ 0 }, 32),
		       ct_report_fmt_gap((int64_t)(a->cal_sessions - 1) * a->cal_every,
					 (char[32]){ 0 }, 32));
	if (o->nloads > 1)
		printf("order:     %s\n",
		       ct_session_in_rounds(o, o->nkconfigs)
			       ? "the loads in rounds (run i of each, then run i+1)"
			       : "load by load (every run of one, then the next)");
	printf("store:     %s%s\n", db, access(db, F_OK) ? " (to be made)" : "");
}

/* How long the session will take, from the newest stored session of the
 * workload and its parameters on this machine: its time a run, times the
 * runs planned (and --every's waits); unknown without one. */
static void dry_time(const struct run_args *a, struct ct_store *st)
{
	const struct ct_session_opts *o = &a->s.opts;
	size_t runs = (size_t)(o->adaptive ? o->max_runs : o->runs) * o->nloads *
		      (o->nkconfigs ? o->nkconfigs : 1) * (a->cal_sessions ? a->cal_sessions : 1);
	struct ct_session_filter f = { .workload = o->workload,
				       .status = CT_SESSION_ONLY(CT_SESSION_COMPLETE),
				       .counts = true };
	struct ct_session_rec *recs = NULL, *r = NULL;
	char params[256], err[CT_ERRLEN], g[32], t[32];
	struct ct_owner me;
	size_t n = 0;
	int64_t each, total;

	ct_owner_self(&me);
	f.machine = me.machine[0] ? me.machine : NULL;
	if (st && !run_params(a, params, sizeof(params), err, sizeof(err))) {
		f.params = params;
		if (ct_store_sessions(st, &f, &recs, &n, err, sizeof(err)))
			n = 0;
	}
	for (size_t i = 0; i < n; i++)
		if (recs[i].nruns && recs[i].ended_at > recs[i].started_at &&
		    (!r || ct_store_session_newer(&recs[i], r)))
			r = &recs[i];
	if (!r) {
		printf("time:      unknown: no session of this workload and its parameters on this "
		       "machine yet\n");
		free(recs);
		return;
	}
	/* the warm-ups and delays are in the session's time a run */
	each = (r->ended_at - r->started_at) / (int64_t)r->nruns;
	total = each * (int64_t)runs;
	if (a->cal_every &&
	    (int64_t)(a->cal_sessions - 1) * a->cal_every + total / (int64_t)a->cal_sessions >
		    total)
		total = (int64_t)(a->cal_sessions - 1) * a->cal_every +
			total / (int64_t)a->cal_sessions;
	printf("time:      about %s (session %lld of this workload took %s a run)\n",
	       ct_report_fmt_gap(total, g, sizeof(g)), (long long)r->id,
	       ct_report_fmt_gap(each, t, sizeof(t)));
	free(recs);
}

/* --dry-run: every check the session makes before its first run - the
 * store, --baseline, the knob journal, the knobs' values, the plan of
 * --target-effect - so that a dry run that says "checked" is followed by
 * a run that starts; the store is only read, nothing is made. */
int run_dry(struct run_args *a)
{
	struct ct_store *st = NULL;
	struct ct_journal j;
	char err[CT_ERRLEN], note[CT_ERRLEN] = "", db[4096] = "";
	int ex, rc;

	if (a->db)
		snprintf(db, sizeof(db), "%s", a->db);
	else if (ct_store_default_path(db, sizeof(db)))
		db[0] = '\0';
	/* a file that is not there, or a database without contend's tables,
	 * is no store yet: a run would make it */
	ex = dry_store_dir(a, db);
	if (ex)
		return ex;
	if (!strcmp(ct_store_backend(db), "sqlite")) {
		ex = access(db, F_OK) ? 0 : cli_read_store(a->db, &st);
	} else {
		rc = ct_store_open(&st, db, 0, err, sizeof(err));
		ex = rc && rc != -ENOENT ? cli_fail(rc, err) : 0;
	}
	if (!ex && a->baseline)
		ex = st ? run_check_baseline(a, st)
			: cli_usage_error(a->cmd, "--baseline '%s': no results store at '%s'",
					  a->baseline, db);
	rc = ex ? 0 : ct_journal_init(&j, NULL, err, sizeof(err));
	if (!ex && !rc)
		rc = ct_journal_check(&j, note, sizeof(note), err, sizeof(err));
	if (!ex && !rc && *note)
		fprintf(stderr, "contend: %s\n", note);
	if (!ex && rc) {
		cli_error("%s", err);
		ex = CT_EXIT_ENV;
	}
	if (!ex)
		ex = dry_knobs(a, &j);
	if (!ex && a->target_effect)
		ex = dry_target(a, st);
	if (!ex)
		dry_plan(a, db);
	if (!ex)
		dry_time(a, st);
	ct_store_close(st);
	return ex;
}
