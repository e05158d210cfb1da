/*
 * The session runner: a workload under each load, every config, every run
 * stored as soon as it ends. Loads are prepared one at a time (a RAM-sized
 * file per load would not fit the disk otherwise), and every exit path -
 * normal, failure, signal - puts the knobs back, kills and reaps what it
 * started and marks the stored sessions.
 */
#include "contend/session.h"
#include "internal.h"
#include "contend/monitor.h"
#include "contend/proc.h"
#include "contend/signals.h"
#include "contend/util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

void sess_emit(struct session_rt *rt, enum ct_event_kind kind, const char *load, unsigned run,
	       const struct ct_run *result, const char *msg)
{
	struct ct_session *s = rt->s;
	struct ct_event ev = {
		.kind = kind,
		.msg = msg,
		.load = load,
		.run = run,
		.runs = s->opts.runs,
		.done = rt->done,
		.total = rt->total,
		.elapsed_ns = ct_now_ns() - s->t0,
		.eta_ns = -1,
		.result = result,
	};

	if (rt->done && rt->done < rt->total)
		ev.eta_ns = ev.elapsed_ns / rt->done * (rt->total - rt->done);
	if (s->on_event)
		s->on_event(s->ctx, &ev);
}

void sess_warn(struct session_rt *rt, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	sess_emit(rt, CT_EV_WARN, NULL, 0, NULL, msg);
}

int ct_env_from_machine(struct ct_env *env, char *err, size_t len)
{
	struct ct_sysinfo si;
	int rc = ct_sysinfo_capture(&si, "", "/", err, len);

	if (rc)
		return rc;
	env->ncpus = si.ncpus ? si.ncpus : 1;
	env->ram_bytes = si.ram_bytes;
	env->swap_bytes = si.swap_bytes;
	env->mem_available = si.mem_available;
	return 0;
}

/* Whether the full profile sized anything of the session: its workload or
 * a load; "" is stored otherwise, so list shows none. The quick profile is
 * always stored: it was asked for, and it sets the runs (-n) too. */
static bool profiled(const struct ct_session *s)
{
	bool p = ct_workload_find(s->opts.workload)->flags & CT_WL_PROFILED;

	for (size_t i = 0; i < s->opts.nloads && !p; i++)
		p = ct_load_find(s->opts.loads[i])->flags & CT_LOAD_PROFILED;
	return p;
}

/*
 * The config and the session are stored once the workload and the first
 * load are prepared and the warm-up has run, not before: a session that
 * ends earlier (bad input found while preparing, no space for a load file,
 * a signal) leaves nothing in the store. From here on it is marked
 * complete, failed or interrupted.
 */
static int begin_session(struct session_rt *rt, struct ct_session_config *c, char *err, size_t len)
{
	struct ct_session *s = rt->s;
	int rc;

	rc = ct_store_config_put(rt->st, c->label, &c->si, &c->rec.config_id, err, len);
	if (rc)
		return rc;
	_Static_assert(sizeof(c->rec.label) == sizeof(c->label), "label sizes");
	memcpy(c->rec.label, c->label, sizeof(c->rec.label));
	snprintf(c->rec.argv, sizeof(c->rec.argv), "%s", s->opts.argv);
	snprintf(c->rec.workload, sizeof(c->rec.workload), "%s", s->opts.workload);
	_Static_assert(sizeof(c->rec.commit) == sizeof(s->opts.commit), "commit sizes");
	memcpy(c->rec.commit, s->opts.commit, sizeof(c->rec.commit));
	c->rec.commit_time = s->opts.commit_time;
	snprintf(c->rec.profile, sizeof(c->rec.profile), "%s",
		 s->env.quick  ? "quick"
		 : profiled(s) ? "full"
			       : "");
	if (s->ncfg > 1) {
		snprintf(c->rec.order, sizeof(c->rec.order), "%s",
			 s->opts.sequential ? "sequential" : "interleaved");
		c->rec.order_seed = s->opts.order_seed;
		c->rec.group_id = c == &s->cfg[0] ? 0 : s->cfg[0].rec.id; /* 0: its own id */
	}
	ct_owner_self(&c->rec.owner);
	rc = ct_store_session_begin(rt->st, &c->rec, err, len);
	if (rc)
		c->rec.id = 0;
	return rc;
}

/* Reference r stored with every config's session that is stored: the
 * configs of a --vary run share the host and its minutes. */
static int store_ref(struct session_rt *rt, struct ct_ref *r, char *err, size_t len)
{
	for (size_t k = 0; k < rt->s->ncfg; k++) {
		int rc;

		if (!rt->s->cfg[k].rec.id)
			continue;
		r->session_id = rt->s->cfg[k].rec.id;
		rc = ct_store_ref_put(rt->st, r, err, len);
		if (rc)
			return rc;
	}
	return 0;
}

/* Every config's session, in order, so ids follow the configs. */
int sess_begin_sessions(struct session_rt *rt, char *err, size_t len)
{
	for (size_t k = 0; k < rt->s->ncfg; k++) {
		int rc;

		if (rt->s->cfg[k].rec.id)
			continue;
		rc = begin_session(rt, &rt->s->cfg[k], err, len);
		if (rc)
			return rc;
	}
	if (rt->start_ref_held) {
		rt->start_ref_held = false;
		return store_ref(rt, &rt->start_ref, err, len);
	}
	return 0;
}

int sess_reference(struct session_rt *rt, enum ct_ref_phase phase, char *err, size_t len)
{
	struct ct_ref r = { .phase = phase, .seq = ++rt->nrefs };

	/* a probe that cannot run leaves its figure missing: never an error */
	ct_ref_take(&r, rt->s->env.dir);
	/* a signal stops the session before its next run; at the end, every
	 * run is stored and the session is whole */
	if (phase != CT_REF_END && ct_signals_pending())
		return -EINTR;
	if (rt->s->ncfg && rt->s->cfg[0].rec.id)
		return store_ref(rt, &r, err, len);
	rt->start_ref = r; /* stored with the sessions, after the warm-up */
	rt->start_ref_held = true;
	return 0;
}

int sess_store_run(struct session_rt *rt, struct ct_session_config *c, struct ct_run *r,
		   unsigned seq, char *err, size_t len)
{
	int rc;

	if (!c->rec.id) {
		rc = sess_begin_sessions(rt, err, len);
		if (rc)
			return rc;
	}
	r->session_id = c->rec.id;
	r->config_id = c->rec.config_id;
	r->seq = seq;
	/* runs of one block of an interleaved schedule pair up */
	r->block = rt->s->ncfg > 1 && !rt->s->opts.sequential ? seq : 0;
	rc = ct_store_run_put(rt->st, r, err, len);
	if (rt->st->reconnects != rt->reconnects) {
		rt->reconnects = rt->st->reconnects;
		sess_warn(rt, "the connection to the results store was lost and made again (%u %s)",
			  rt->reconnects, rt->reconnects == 1 ? "time" : "times");
	}
	return rc;
}

static int make_workdir(struct ct_session *s, char *err, size_t len)
{
	const char *parent = s->opts.dir ? s->opts.dir : "/var/tmp";
	struct stat st;
	int n;

	if (stat(parent, &st))
		return ct_err(err, len, -errno, "cannot use work directory '%s': %s", parent,
			      strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return ct_err(err, len, -ENOTDIR, "work directory '%s' is not a directory", parent);
	n = snprintf(s->env.dir, sizeof(s->env.dir), "%s/contend.XXXXXX", parent);
	if (n < 0 || (size_t)n >= sizeof(s->env.dir))
		return ct_err(err, len, -ENAMETOOLONG, "work directory '%s' is too long", parent);
	if (!mkdtemp(s->env.dir))
		return ct_err(err, len, -errno, "cannot create a directory in '%s': %s", parent,
			      strerror(errno));
	return 0;
}

/* Every load exists, runs here, and what the user set for it fits. */
static int check_loads(const struct ct_session *s, const char *dir, char *err, size_t len)
{
	for (size_t i = 0; i < s->opts.nloads; i++) {
		const struct ct_load_ops *ops = ct_load_find(s->opts.loads[i]);
		char why[CT_ERRLEN];
		int rc;

		if (!ops)
			return ct_err(err, len, -EINVAL, "unknown load '%s' (see: contend loads)",
				      s->opts.loads[i]);
		rc = ops->supported ? ops->supported(&s->env, why, sizeof(why)) : 0;
		if (!rc && ops->check)
			rc = ops->check(&s->env, dir, why, sizeof(why));
		if (rc)
			return ct_err(err, len, rc, "%s", why);
	}
	return 0;
}

/* The quietness check: the CPU busy outside contend and what it started,
 * over the session's first second or more - its preparation, warm-up and
 * first runs, which it waits for anyway - so that it costs no wait of its
 * own. Said once, at the first run to end after that second, or at the
 * session's end; a session shorter than that is too short to tell. */
#define QUIET_NS   1000000000LL
#define QUIET_CPUS 0.10

int64_t sess_helper_cpu_us(struct ct_workload *w)
{
	int64_t us = w && w->ops->helper_cpu_us ? w->ops->helper_cpu_us(w) : 0;

	return us > 0 ? us : 0;
}

void sess_quiet_check(struct session_rt *rt, bool last)
{
	int64_t elapsed;
	double cpus;

	if (!rt->quiet_open || (!last && ct_now_ns() - rt->quiet.t0 < QUIET_NS))
		return;
	rt->quiet_open = false;
	if (ct_window_end(&rt->quiet, "", sess_helper_cpu_us(rt->wl), &cpus, &elapsed) ||
	    elapsed < QUIET_NS)
		return;
	if (cpus > QUIET_CPUS)
		sess_warn(rt,
			  "the machine is not quiet: %.2f CPUs busy outside contend over the "
			  "session's first %.1f s; results may be noisy",
			  cpus, (double)elapsed / 1e9);
}

static bool orphan(const struct ct_session_rec *rec)
{
	/* a session of another machine (a shared store) is never judged */
	return rec->status == CT_SESSION_RUNNING && ct_owner_state(&rec->owner) == CT_OWNER_GONE;
}

unsigned ct_session_show_orphans(struct ct_session_rec *recs, size_t n)
{
	unsigned shown = 0;

	for (size_t i = 0; i < n; i++)
		if (orphan(&recs[i])) {
			recs[i].status = CT_SESSION_INTERRUPTED;
			shown++;
		}
	return shown;
}

int ct_session_close_orphans(struct ct_store *st, unsigned *closed, char *err, size_t len)
{
	const struct ct_session_filter running = { .status = CT_SESSION_ONLY(CT_SESSION_RUNNING) };
	struct ct_session_rec *recs = NULL;
	size_t n = 0;
	int rc;

	*closed = 0;
	rc = ct_store_sessions(st, &running, &recs, &n, err, len);
	if (rc)
		return rc;
	for (size_t i = 0; i < n && !rc; i++) {
		if (!orphan(&recs[i]))
			continue;
		rc = ct_store_session_end(st, recs[i].id, CT_SESSION_INTERRUPTED, err, len);
		if (!rc)
			(*closed)++;
	}
	free(recs);
	return rc;
}

/* The knobs' originals into the journal, before any is changed. */
static int journal_knobs(struct session_rt *rt, char *err, size_t len)
{
	struct ct_session *s = rt->s;
	int rc = ct_journal_record(rt->journal, s->opts.knobs, s->opts.nknobs, err, len);

	rt->journalled = !rc;
	return rc;
}

/*
 * Configs of directories (bisect: a commit's work tree each): the labels
 * given, the workload's commands run in each one's directory; the knobs of
 * --set, when given, are applied once and hold for all of them.
 */
static int setup_dir_configs(struct session_rt *rt, char *err, size_t len)
{
	struct ct_session *s = rt->s;
	int rc;

	if (s->opts.ndirs > CT_SESSION_MAX_CONFIGS)
		return ct_err(err, len, -EINVAL, "at most %d configs in one session",
			      CT_SESSION_MAX_CONFIGS);
	if (s->opts.nkconfigs > 1)
		return ct_err(err, len, -EINVAL, "--vary cannot vary configs of directories");
	if (s->opts.nkconfigs) {
		rc = journal_knobs(rt, err, len);
		if (rc)
			return rc;
		rc = ct_knob_apply_config(&s->opts.kconfigs[0], err, len);
		if (rc)
			return rc;
		rt->cur_cfg = 0;
		rc = ct_sysinfo_capture(&s->si, "", s->env.dir, err, len);
		if (rc)
			return rc;
	}
	s->ncfg = s->opts.ndirs;
	for (size_t k = 0; k < s->ncfg; k++) {
		struct ct_session_config *c = &s->cfg[k];

		if ((size_t)snprintf(c->label, sizeof(c->label), "%s", s->opts.dir_labels[k]) >=
		    sizeof(c->label))
			return ct_err(err, len, -ENAMETOOLONG, "label '%s' is too long",
				      s->opts.dir_labels[k]);
		c->knobs = s->opts.nkconfigs ? &s->opts.kconfigs[0] : NULL;
		c->cwd = s->opts.dirs[k];
		c->si = s->si;
	}
	return 0;
}

/*
 * The configs of the session. Without knobs, one: the session's label and
 * machine. With knobs, the originals go to the journal first; then each
 * config's knobs are applied in turn and the machine captured with them,
 * so its stored config shows (and its fingerprint covers) the scheduler or
 * sysctl it ran with. Labels compose: "6.18.44+iosched=bfq".
 */
static int setup_configs(struct session_rt *rt, char *err, size_t len)
{
	struct ct_session *s = rt->s;
	int rc;

	if (s->opts.ndirs)
		return setup_dir_configs(rt, err, len);
	if (!s->opts.nkconfigs) {
		s->ncfg = 1;
		snprintf(s->cfg[0].label, sizeof(s->cfg[0].label), "%s", s->label);
		s->cfg[0].si = s->si;
		return 0;
	}
	if (s->opts.nkconfigs > CT_SESSION_MAX_CONFIGS)
		return ct_err(err, len, -EINVAL, "at most %d configs in one session",
			      CT_SESSION_MAX_CONFIGS);
	rc = journal_knobs(rt, err, len);
	if (rc)
		return rc;
	s->ncfg = s->opts.nkconfigs;
	for (size_t k = 0; k < s->ncfg; k++) {
		struct ct_session_config *c = &s->cfg[k];
		char suffix[sizeof(c->label)];

		c->knobs = &s->opts.kconfigs[k];
		/* a label the user chose names the session's --set knobs; the
		 * kernel release does not, so they join it, and a --set session
		 * never shares its label with the defaults' runs */
		rc = ct_knob_label(c->knobs, s->opts.label != NULL, suffix, sizeof(suffix));
		if (!rc && (size_t)snprintf(c->label, sizeof(c->label), "%s%s%s", s->label,
					    *suffix ? "+" : "", suffix) >= sizeof(c->label))
			rc = ct_err(err, len, -ENAMETOOLONG, "label '%s+%s' is too long", s->label,
				    suffix);
		if (rc)
			return rc;
		rc = ct_knob_apply_config(c->knobs, err, len);
		if (rc)
			return rc;
		rt->cur_cfg = (long)k;
		rc = ct_sysinfo_capture(&c->si, "", s->env.dir, err, len);
		if (rc)
			return rc;
	}
	return 0;
}

/* Checks what can be checked before anything is made. */
int ct_session_check(const struct ct_session *s, char *err, size_t len)
{
	const struct ct_workload_ops *w = ct_workload_find(s->opts.workload);
	const char *dir = s->opts.dir ? s->opts.dir : "/var/tmp";
	struct stat st;
	int rc;

	if (!w)
		return ct_err(err, len, -EINVAL, "unknown workload '%s'", s->opts.workload);
	if (!s->opts.runs)
		return ct_err(err, len, -EINVAL, "number of runs must be at least 1");
	if (s->opts.adaptive && s->opts.max_runs < CT_ADAPTIVE_MIN_RUNS)
		return ct_err(err, len, -EINVAL, "--max-runs must be at least %d with --adaptive",
			      CT_ADAPTIVE_MIN_RUNS);
	if (s->opts.drop_caches && geteuid() != 0)
		return ct_err(err, len, -EPERM, "--drop-caches needs root");
	if (stat(dir, &st))
		return ct_err(err, len, -errno, "cannot use work directory '%s': %s", dir,
			      strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return ct_err(err, len, -ENOTDIR, "work directory '%s' is not a directory", dir);
	rc = check_loads(s, dir, err, len);
	if (!rc && w->check)
		rc = w->check(&s->env, &s->opts.wopts, dir, err, len);
	return rc;
}

/* The unrecorded warm-up run (contest's cacherun) under no load; a
 * foreground that cannot even start ends the session here. */
static int warmup(struct session_rt *rt, struct ct_workload *w, char *err, size_t len)
{
	struct ct_session *s = rt->s;
	struct ct_load none;
	struct ct_run r = { 0 };
	int rc;

	if (!s->opts.warmup || (w->ops->flags & CT_WL_OWN_WARMUP))
		return 0;
	rc = ct_load_init(&none, ct_load_find("none"), &s->env, err, len);
	if (rc)
		return rc;
	/* configs of directories run other programs: each is warmed */
	for (size_t k = 0; !rc && k < (s->opts.ndirs ? s->ncfg : 1); k++) {
		w->cwd = s->cfg[k].cwd;
		memset(&r, 0, sizeof(r));
		sess_emit(rt, CT_EV_RUN_START, "warm-up", 0, NULL, NULL);
		rc = sess_run_one(rt, w, &none, &r, err, len);
		if (!rc && r.status != CT_RUN_OK && (r.exit_code == 126 || r.exit_code == 127))
			/* the command cannot even start: every run would fail the same */
			rc = ct_err(err, len, -ENOENT, "the foreground cannot start%s%s: %s",
				    s->opts.ndirs ? " in " : "",
				    s->opts.ndirs ? s->cfg[k].label : "", r.reason);
		else if (!rc && r.status != CT_RUN_OK)
			sess_warn(rt, "warm-up run failed: %s", r.reason);
	}
	ct_load_release(&none);
	return rc;
}

/* Prepares the workload, warms it up and runs every load. */
static int run_all(struct session_rt *rt, struct ct_workload *w, bool *have_wl, char *err,
		   size_t len)
{
	struct ct_session *s = rt->s;
	char msg[PATH_MAX + 128];
	unsigned closed;
	int rc;

	snprintf(msg, sizeof(msg), "preparing workload '%s' in %s", s->opts.workload, s->env.dir);
	sess_emit(rt, CT_EV_INFO, NULL, 0, NULL, msg);
	s->opts.wopts.first_cwd = s->opts.ndirs ? s->cfg[0].cwd : NULL;
	rc = ct_workload_init(w, ct_workload_find(s->opts.workload), &s->env, &s->opts.wopts, err,
			      len);
	if (rc)
		return rc;
	*have_wl = true;
	rt->wl = w; /* prepared after the quiet window opened: all its server did is in it */
	snprintf(s->workload_params, sizeof(s->workload_params), "%s", w->params);
	if (s->opts.plan) {
		rc = s->opts.plan(s->opts.plan_ctx, s, err, len);
		if (rc)
			return rc;
		if (!s->opts.runs)
			return ct_err(err, len, -EINVAL, "the plan left no runs");
		rt->total = (unsigned)(s->opts.nloads * s->ncfg) *
			    (s->opts.adaptive ? s->opts.max_runs : s->opts.runs);
	}
	if (ct_signals_pending())
		return -EINTR;
	rc = ct_session_close_orphans(rt->st, &closed, err, len);
	if (rc)
		return rc;
	if (closed)
		sess_warn(rt,
			  "%u session%s left running by a contend that is gone marked interrupted",
			  closed, closed == 1 ? "" : "s");
	/* the host as the session finds it, before the warm-up */
	rc = sess_reference(rt, CT_REF_START, err, len);
	if (!rc)
		rc = warmup(rt, w, err, len);
	if (!rc)
		rc = sess_run_loads(rt, w, err, len);
	return rc ? rc : sess_reference(rt, CT_REF_END, err, len);
}

/* One line once the knobs are back, as contend restore says it: each
 * knob with the value it reads now. */
static void restored_note(struct session_rt *rt)
{
	const struct ct_session *s = rt->s;
	char msg[1024], v[CT_KNOB_VALUE_MAX], e[CT_ERRLEN];
	size_t off = 0;
	int n = 0;

	off = (size_t)snprintf(msg, sizeof(msg), "knobs restored:");
	for (size_t i = 0; i < s->opts.nknobs && off < sizeof(msg); i++) {
		const struct ct_knob *k = &s->opts.knobs[i];

		if (!k->npaths) /* the A/A check's placebo writes nothing */
			continue;
		if (ct_knob_read(k->paths[0], v, sizeof(v), e, sizeof(e)))
			snprintf(v, sizeof(v), "?");
		off += (size_t)snprintf(msg + off, sizeof(msg) - off, "%s %s %s", n++ ? "," : "",
					k->name, v);
	}
	if (n)
		sess_emit(rt, CT_EV_NOTE, NULL, 0, NULL, msg);
}

/* Every exit path that returns comes through here: the knobs go back
 * before anything else (SIGKILL leaves the journal to `contend restore`),
 * then the stored sessions are marked. */
static int finish(struct session_rt *rt, int rc, char *err, size_t len)
{
	struct ct_session *s = rt->s;

	if (ct_signals_pending() && rc != -EINTR && rc)
		rc = -EINTR; /* a step failed because it was interrupted */
	if (rc == -EINTR)
		ct_err(err, len, rc, "interrupted by signal %d (%s)", ct_signals_pending(),
		       strsignal(ct_signals_pending()));
	sess_counters_teardown(rt);
	if (rt->journalled) {
		char e2[CT_ERRLEN];

		if (ct_journal_restore_session(rt->journal, s->opts.knobs, s->opts.nknobs, e2,
					       sizeof(e2))) {
			sess_warn(rt, "%s; run 'contend restore'", e2);
			if (!rc)
				rc = ct_err(err, len, -EIO, "%s", e2);
		} else {
			restored_note(rt);
		}
	}
	for (size_t k = 0; k < s->ncfg; k++) {
		struct ct_session_config *c = &s->cfg[k];
		enum ct_session_status status = !rc	       ? CT_SESSION_COMPLETE
						: rc == -EINTR ? CT_SESSION_INTERRUPTED
							       : CT_SESSION_FAILED;
		char e2[CT_ERRLEN];

		if (!c->rec.id)
			continue;
		if (ct_store_session_end(rt->st, c->rec.id, status, e2, sizeof(e2)) && !rc)
			rc = ct_err(err, len, -EIO, "%s", e2);
		c->rec.status = status;
	}
	if (s->ncfg)
		s->rec = s->cfg[0].rec;
	return rc;
}

int ct_session_run(struct ct_session *s, struct ct_store *st, char *err, size_t len)
{
	struct session_rt rt = { .s = s, .st = st, .journal = s->opts.journal, .cur_cfg = -1 };
	struct ct_workload w = { 0 };
	bool have_wl = false;
	char msg[PATH_MAX + 128];
	int rc;

	s->t0 = ct_now_ns();
	rc = ct_session_check(s, err, len);
	if (!rc && s->opts.nkconfigs && !s->opts.journal)
		rc = ct_err(err, len, -EINVAL, "knobs need a journal");
	if (rc)
		return rc;
	rc = ct_signals_install();
	if (rc)
		return ct_err(err, len, rc, "cannot install signal handlers: %s", strerror(-rc));
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	rc = make_workdir(s, err, len);
	if (rc)
		return rc;
	snprintf(rt.fg_tmp, sizeof(rt.fg_tmp), "%s/tmp", s->env.dir);
	if (mkdir(rt.fg_tmp, 0700))
		rt.fg_tmp[0] = '\0'; /* the foreground keeps the TMPDIR it had */
	rc = ct_sysinfo_capture(&s->si, "", s->env.dir, err, len);
	if (rc)
		goto out;
	if (ct_fs_is_tmpfs(s->env.dir))
		sess_warn(&rt,
			  "work directory '%s' is on tmpfs: the io loads will only fill memory",
			  s->env.dir);
	snprintf(s->label, sizeof(s->label), "%s",
		 s->opts.label ? s->opts.label : s->si.kernel_release);
	rc = setup_configs(&rt, err, len);
	if (rc)
		goto out;
	rt.total = (unsigned)(s->opts.nloads * s->ncfg) *
		   (s->opts.adaptive ? s->opts.max_runs : s->opts.runs);
	sess_cgroups_setup(&rt);
	sess_counters_setup(&rt);
	rc = sess_guard_start(&rt);
	if (rc) {
		ct_err(err, len, rc, "cannot start the guard process: %s", strerror(-rc));
		goto out;
	}
	rt.quiet_open = ct_window_begin(&rt.quiet, "") == 0;
	rc = run_all(&rt, &w, &have_wl, err, len);
	if (!rc)
		sess_quiet_check(&rt, true);
out:
	rc = finish(&rt, rc, err, len);
	if (have_wl)
		ct_workload_release(&w);
	sess_guard_stop(&rt);
	sess_cgroups_teardown(&rt);
	sess_probe_release(&rt);
	sess_reap_orphans();
	if (!s->env.keep_files) {
		ct_rm_rf(s->env.dir);
	} else {
		snprintf(msg, sizeof(msg), "files kept in %s", s->env.dir);
		sess_emit(&rt, CT_EV_INFO, NULL, 0, NULL, msg);
	}
	return rc;
}

void ct_session_reset(struct ct_session *s)
{
	struct ct_session_opts o = s->opts;
	struct ct_env e = s->env;
	ct_event_fn fn = s->on_event;
	void *ctx = s->ctx;

	memset(s, 0, sizeof(*s));
	s->opts = o;
	s->env = e;
	s->env.dir[0] = '\0';
	s->on_event = fn;
	s->ctx = ctx;
}
