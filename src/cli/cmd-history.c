/*
 * `contend history`: a config's stored results over time - the matching
 * sessions in the order they ran (or by the commit each measured), a
 * series per load and machine, and the change points found in each
 * (docs/statistics.md, "Change points over time"). For a nightly CI:
 * `--fail-on-change PCT` exits 1 when the newest change past the last
 * acknowledged one is a slowdown larger than PCT, and `contend history
 * ack ID` records that the change at session ID was seen.
 */
#include "cli.h"
#include "opts.h"
#include "contend/history.h"
#include "contend/store.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_LOADS 32

enum history_order { ORDER_TIME, ORDER_COMMIT };

static const struct ct_option_choice orders[] = {
	{ "time", ORDER_TIME },
	{ "commit", ORDER_COMMIT },
	{ NULL, 0 },
};

struct history_args {
	const char *workload, *loads, *label, *machine, *db, *output, *note;
	const char *since_arg; /* --since as given */
	int64_t since;
	int order, format;
	double confidence, fail_pct;
	bool why;
};

/* Local midnight of YYYY-MM-DD, or YYYY-MM-DD HH:MM[:SS] (a 'T' or a space
 * between), or N days ago ("7d"). */
static int since_opt(const struct cli_opt *o, void *base, const char *arg, char *err, size_t len)
{
	struct history_args *a = base;
	static const char *const forms[] = { "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S",
					     "%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d" };
	char *end;
	unsigned long days;

	(void)o;
	errno = 0;
	days = strtoul(arg, &end, 10);
	if (end != arg && !strcmp(end, "d") && !errno && days <= 100000 && *arg != '-') {
		a->since = ((int64_t)time(NULL) - (int64_t)days * 86400) * 1000000000;
		a->since_arg = arg;
		return 0;
	}
	for (size_t i = 0; i < CT_ARRAY_SIZE(forms); i++) {
		struct tm tm;
		const char *e;
		time_t t;

		memset(&tm, 0, sizeof(tm));
		e = strptime(arg, forms[i], &tm);
		if (!e || *e)
			continue;
		tm.tm_isdst = -1;
		t = mktime(&tm);
		if (t == (time_t)-1)
			break;
		a->since = (int64_t)t * 1000000000;
		a->since_arg = arg;
		return 0;
	}
	return ct_err(err, len, -EINVAL,
		      "--since takes a date (2026-12-01, 2026-12-01 18:30) or days ago (7d), "
		      "not '%s'",
		      arg);
}

/* One table for history and its ack: the options that choose the
 * sessions are both's, so that an ack is checked against the history the
 * gate read. */
static const struct cli_opt history_opts[] = {
	CLI_STRING('w', "workload", struct history_args, workload, "NAME",
		   "workload (default: the newest matching session's; ack:\nthe session's)"),
	{ .type = CLI_OPT_STRING,
	  .short_name = 'l',
	  .long_name = "loads",
	  .off = offsetof(struct history_args, loads),
	  .argh = "LIST",
	  .help = "loads, separated by commas (default: every load run)",
	  .only = "history" },
	{ .type = CLI_OPT_STRING,
	  .short_name = 'l',
	  .long_name = "load",
	  .off = offsetof(struct history_args, loads),
	  .argh = "LOAD",
	  .help = "only the change of this load (default: every load's)",
	  .only = "history ack" },
	CLI_STRING(0, "label", struct history_args, label, "GLOB",
		   "only sessions whose label matches GLOB (fnmatch: 6.1.*)"),
	CLI_STRING(0, "machine", struct history_args, machine, "M",
		   "only sessions of machine M (a host name or 4+ digits of\nits machine id); all: "
		   "pool every machine's (default: a\nseries per machine)"),
	CLI_CALLBACK("since", "DATE",
		     "only sessions started since DATE (2026-12-01, or 7d\nfor seven days ago)",
		     since_opt),
	CLI_CHOICE("by", struct history_args, order, "ORDER",
		   "order sessions by time (default) or by commit (the\ncommit time of run "
		   "--commit; sessions without one are\nleft out)",
		   orders, "time"),
	{ .type = CLI_OPT_DOUBLE,
	  .long_name = "confidence",
	  .off = offsetof(struct history_args, confidence),
	  .argh = "PCT",
	  .help = "confidence level of the intervals (%D; %R)",
	  .min = 0,
	  .max = 100,
	  .flags = CLI_MIN_OPEN | CLI_MAX_OPEN,
	  .def = "95",
	  .only = "history" },
	{ .type = CLI_OPT_DOUBLE,
	  .long_name = "fail-on-change",
	  .off = offsetof(struct history_args, fail_pct),
	  .argh = "PCT",
	  .help = "exit 1 when a series' newest change point past the last\nacknowledged one is a "
		  "slowdown larger than PCT percent\n(%R)",
	  .max = INFINITY,
	  .only = "history" },
	{ .type = CLI_OPT_STRING,
	  .long_name = "note",
	  .off = offsetof(struct history_args, note),
	  .argh = "TEXT",
	  .help = "why it is acknowledged",
	  .only = "history ack" },
	{ .type = CLI_OPT_FLAG,
	  .long_name = "why",
	  .off = offsetof(struct history_args, why),
	  .help = "explain each change by the counters of the runs of\nthe 3 nearest sessions a "
		  "side (contend why's rule)",
	  .only = "history" },
	CLI_DB(struct history_args, db),
	CLI_FORMAT_OF(struct history_args, format, cli_formats_html, CLI_FORMAT_HELP_HTML,
		      "history"),
	CLI_OUTPUT_ONLY(struct history_args, output, "the history", "history"),
	CLI_END,
};

#define HISTORY_SYNOPSIS "contend history [options]\n       contend history ack ID [options]"
#define HISTORY_INTRO                                                                       \
	"finds the change points in stored results over time: the matching sessions in\n"   \
	"order, a series per load and machine, where each series moved, by how much, and\n" \
	"what else changed there; ack ID records that the change at session ID was seen"

static int print_history(const struct ct_history *h, struct cli_out *o)
{
	switch (o->fmt) {
	case CT_FORMAT_JSON:
		return ct_history_print_json(o->f, h);
	case CT_FORMAT_CSV:
		return ct_history_print_csv(o->f, h);
	case CT_FORMAT_MD:
		return ct_history_print_md(o->f, h);
	case CT_FORMAT_HTML:
		return ct_history_print_html(o->f, h);
	case CT_FORMAT_TEXT:
	default:
		return ct_history_print_text(o->f, h);
	}
}

/* The options that chose the sessions, as a command line takes them
 * again (the gate's ack names the history it read). */
static void selection_words(const struct history_args *a, char *buf, size_t size)
{
	size_t off = 0;
	char since[32];

	buf[0] = '\0';
	if (a->workload && ct_append_word(buf, size, &off, "-w"))
		ct_append_word(buf, size, &off, a->workload);
	if (a->label && ct_append_word(buf, size, &off, "--label"))
		ct_append_word(buf, size, &off, a->label);
	if (a->machine && ct_append_word(buf, size, &off, "--machine"))
		ct_append_word(buf, size, &off, a->machine);
	if (a->since_arg && ct_append_word(buf, size, &off, "--since")) {
		snprintf(since, sizeof(since), "%s", a->since_arg);
		ct_append_word(buf, size, &off, since);
	}
	if (a->order == ORDER_COMMIT && ct_append_word(buf, size, &off, "--by"))
		ct_append_word(buf, size, &off, "commit");
}

/* --fail-on-change: each series' newest change past the last
 * acknowledged one; the exit code. */
static int gate(const struct ct_history *h, const struct history_args *a)
{
	char sel[1024];
	int ex = 0;

	selection_words(a, sel, sizeof(sel));
	for (size_t i = 0; i < h->nseries; i++) {
		const struct ct_history_series *s = &h->series[i];
		const struct ct_history_change *c = ct_history_newest(s);
		char d[32];

		if (!c || !c->worse || !(fabs(c->effect) * 100 > a->fail_pct))
			continue;
		ct_history_date(s->points[c->at].started_at, d, sizeof(d));
		cli_error("history: %s under load '%s' (machine %s) moved %+.1f%% since session "
			  "%lld (%s), past --fail-on-change %g%%; once seen: contend history ack "
			  "%lld%s%s%s%s",
			  h->workload, s->load, s->machine, 100 * c->effect,
			  (long long)s->points[c->at].session_id, d, a->fail_pct,
			  (long long)s->points[c->at].session_id, h->nseries > 1 ? " -l " : "",
			  h->nseries > 1 ? s->load : "", sel[0] ? " " : "", sel);
		ex = CT_EXIT_REGRESSION;
	}
	return ex;
}

/* The history the options choose; 0, or the exit code after one line. */
static int build(const char *cmd, const struct history_args *a, const char *workload,
		 struct ct_history *h)
{
	struct ct_history_query q = { 0 };
	struct ct_store *st = NULL;
	const char *loads[MAX_LOADS];
	char loadbuf[1024], err[CT_ERRLEN];
	int ex, rc;

	ex = cli_split_loads(cmd, a->loads, loadbuf, sizeof(loadbuf), loads, MAX_LOADS, &q.nloads);
	if (ex)
		return ex;
	q.workload = workload;
	q.loads = loads;
	q.label_glob = a->label;
	q.machine = a->machine;
	q.since = a->since;
	q.by_commit = a->order == ORDER_COMMIT;
	q.confidence = a->confidence > 0 ? a->confidence : 95;
	q.why = a->why;
	ex = cli_open_store(a->db, &st);
	if (ex)
		return ex;
	rc = ct_history_build(h, st, &q, err, sizeof(err));
	ct_store_close(st);
	if (rc == -ENOENT || rc == -EDOM || rc == -EINVAL)
		return cli_cmd_fail(cmd, -EINVAL, err);
	return rc ? cli_fail(rc, err) : 0;
}

static int history_main(int argc, char **argv)
{
	struct history_args a = { .fail_pct = -1, .format = CLI_FORMAT_AUTO };
	struct ct_history h;
	struct cli_parsed p;
	struct cli_out o;
	int ex, rc;

	ex = cli_parse("history", HISTORY_SYNOPSIS, HISTORY_INTRO, history_opts, &a, argc, argv,
		       &p);
	if (ex)
		return ex == 1 ? 0 : ex;
	if (p.rest < argc)
		return cli_usage_error("history",
				       "unexpected operand '%s' (ack ID records a change)",
				       argv[p.rest]);
	ex = cli_out_setup(&o, "history", a.format, a.output, true);
	if (!ex)
		ex = build("history", &a, a.workload, &h);
	if (ex)
		return ex;
	ex = cli_out_open(&o, "history");
	if (!ex) {
		rc = print_history(&h, &o);
		ex = cli_out_close(&o, "history", !rc);
		if (!ex && rc)
			ex = cli_fail(rc, "cannot print the history");
	}
	if (!ex && a.fail_pct >= 0)
		ex = gate(&h, &a);
	ct_history_release(&h);
	return ex;
}

/* The change of h (of load, NULL any) within CT_HISTORY_ACK_TOL points of
 * the session uuid, else NULL and the change nearest in time to when it
 * started in *near (NULL when h has none). */
static const struct ct_history_change *change_at(const struct ct_history *h, const char *load,
						 const struct ct_session_rec *r,
						 const struct ct_history_series **in,
						 const struct ct_history_change **near,
						 const struct ct_history_series **near_in)
{
	int64_t best = INT64_MAX;

	*near = NULL;
	for (size_t i = 0; i < h->nseries; i++) {
		const struct ct_history_series *s = &h->series[i];
		long at = -1;

		if (load && strcmp(load, s->load))
			continue;
		for (size_t p = 0; p < s->npoints && at < 0; p++)
			if (!strcmp(s->points[p].uuid, r->uuid))
				at = (long)p;
		for (size_t c = 0; c < s->nchanges; c++) {
			const struct ct_history_change *ch = &s->changes[c];
			int64_t gap = s->points[ch->at].started_at - r->started_at;

			if (at >= 0 && labs(at - (long)ch->at) <= CT_HISTORY_ACK_TOL) {
				*in = s;
				return ch;
			}
			gap = gap < 0 ? -gap : gap;
			if (gap < best) {
				best = gap;
				*near = ch;
				*near_in = s;
			}
		}
	}
	return NULL;
}

/* Stores the acknowledgement of the change at session r; the exit code. */
static int ack_store(const struct history_args *a, const struct ct_session_rec *r, long long id)
{
	struct ct_history_ack k = { 0 };
	struct ct_store *st = NULL;
	char err[CT_ERRLEN];
	int ex = cli_open_store(a->db, &st), rc;

	if (ex)
		return ex;
	snprintf(k.session_uuid, sizeof(k.session_uuid), "%s", r->uuid);
	snprintf(k.workload, sizeof(k.workload), "%s", r->workload);
	snprintf(k.load, sizeof(k.load), "%s", a->loads ? a->loads : "");
	snprintf(k.machine, sizeof(k.machine), "%s", r->owner.machine);
	snprintf(k.note, sizeof(k.note), "%s", a->note ? a->note : "");
	k.acked_at = ct_wall_ns();
	rc = ct_store_ack_put(st, &k, err, sizeof(err));
	ct_store_close(st);
	if (rc)
		return cli_fail(rc, err);
	printf("acknowledged the change at session %lld (%s, %s)\n", id, k.workload,
	       a->loads ? a->loads : "every load");
	return 0;
}

/* The session ID names, into *r; 0, or the exit code after one line. */
static int ack_session(const struct history_args *a, long long id, struct ct_session_rec *r)
{
	struct ct_session_rec *recs = NULL;
	const struct ct_session_rec *found;
	struct ct_store *st = NULL;
	char err[CT_ERRLEN];
	size_t n = 0;
	int ex = cli_open_store(a->db, &st), rc;

	if (ex)
		return ex;
	rc = ct_store_sessions(st, NULL, &recs, &n, err, sizeof(err));
	ct_store_close(st);
	if (rc)
		return cli_fail(rc, err);
	found = ct_store_session_of(recs, n, id);
	if (found)
		*r = *found;
	free(recs);
	if (!found) {
		cli_error(
			"history ack: no session %lld in the results store (see: contend history)",
			id);
		return CT_EXIT_USAGE;
	}
	return 0;
}

/* history ack ID: the change at session ID was seen - a change point the
 * history of the same options finds there (or within CT_HISTORY_ACK_TOL
 * sessions of it), else one line naming the nearest and exit 2. */
static int ack_main(int argc, char **argv)
{
	struct history_args a = { 0 };
	const struct ct_history_change *c, *near;
	const struct ct_history_series *in = NULL, *near_in = NULL;
	struct ct_session_rec r;
	struct ct_history h;
	struct cli_parsed p;
	char *end, loadbuf[64];
	long long id;
	int ex;

	ex = cli_parse("history ack", "contend history ack ID [options]",
		       "records that the change point at session ID was seen: --fail-on-change "
		       "looks\nonly past it. The options that chose the sessions are history's: "
		       "the change\nmust be one that history finds with them",
		       history_opts, &a, argc, argv, &p);
	if (ex)
		return ex == 1 ? 0 : ex;
	if (p.rest != argc - 1)
		return cli_usage_error("history ack", "needs one session ID (the change's, as "
						      "history prints it)");
	errno = 0;
	id = strtoll(argv[p.rest], &end, 10);
	if (errno || end == argv[p.rest] || *end || id <= 0)
		return cli_usage_error("history ack",
				       "ID is a session id (see: contend history), "
				       "not '%s'",
				       argv[p.rest]);
	/* one load, read as -l always is (blanks around it no part of it) */
	if (a.loads) {
		const char *one[1];
		size_t n = 0;

		ex = cli_split_loads("history ack", a.loads, loadbuf, sizeof(loadbuf), one, 1, &n);
		if (ex)
			return ex;
		a.loads = one[0];
	}
	if (a.loads && strlen(a.loads) >= sizeof(((struct ct_history_ack *)0)->load))
		return cli_usage_error("history ack", "-l: no load has so long a name");
	if (a.note && strlen(a.note) >= sizeof(((struct ct_history_ack *)0)->note))
		return cli_usage_error("history ack", "--note is longer than %zu bytes",
				       sizeof(((struct ct_history_ack *)0)->note) - 1);
	ex = ack_session(&a, id, &r);
	if (!ex)
		ex = build("history ack", &a, a.workload ? a.workload : r.workload, &h);
	if (ex)
		return ex;
	c = change_at(&h, a.loads, &r, &in, &near, &near_in);
	if (c) {
		ex = ack_store(&a, &r, id);
	} else if (near) {
		cli_error("history ack: no change point at session %lld%s%s; the nearest is at "
			  "session %lld (load '%s', %+.1f%%)",
			  id, a.loads ? " under load " : "", a.loads ? a.loads : "",
			  (long long)near_in->points[near->at].session_id, near_in->load,
			  100 * near->effect);
		ex = CT_EXIT_USAGE;
	} else {
		cli_error("history ack: the history of %s%s%s finds no change point to acknowledge",
			  h.workload, a.loads ? " under load " : "", a.loads ? a.loads : "");
		ex = CT_EXIT_USAGE;
	}
	ct_history_release(&h);
	return ex;
}

int cmd_history(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "ack"))
		return ack_main(argc - 1, argv + 1);
	return history_main(argc, argv);
}
