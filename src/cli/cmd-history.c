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
	int64_t since;
	int order, format;
	double confidence, fail_pct;
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
		return 0;
	}
	return ct_err(err, len, -EINVAL,
		      "--since takes a date (2026-12-01, 2026-12-01 18:30) or days ago (7d), "
		      "not '%s'",
		      arg);
}

static const struct cli_opt history_opts[] = {
	CLI_STRING('w', "workload", struct history_args, workload, "NAME",
		   "workload (default: the newest matching session's)"),
	CLI_STRING('l', "loads", struct history_args, loads, "LIST",
		   "loads, separated by commas (default: every load run)"),
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
	CLI_NUM_DEF(CLI_OPT_DOUBLE, 0, "confidence", struct history_args, confidence, "PCT",
		    "confidence level of the intervals (%D; %R)", 0, 100,
		    CLI_MIN_OPEN | CLI_MAX_OPEN, "95", NULL),
	{ .type = CLI_OPT_DOUBLE,
	  .long_name = "fail-on-change",
	  .off = offsetof(struct history_args, fail_pct),
	  .argh = "PCT",
	  .help = "exit 1 when a series' newest change point past the last\nacknowledged one is a "
		  "slowdown larger than PCT percent\n(%R)",
	  .max = INFINITY },
	CLI_STRING(0, "db", struct history_args, db, "PATH",
		   "results store (default $CONTEND_DB or\n$XDG_DATA_HOME/contend/results.db)"),
	CLI_CHOICE("format", struct history_args, format, "F", CLI_FORMAT_HELP_HTML,
		   cli_formats_html, NULL),
	CLI_STRING('o', "output", struct history_args, output, "FILE",
		   "write the history to FILE (whole or not at all)"),
	CLI_END,
};

static const struct cli_opt ack_opts[] = {
	CLI_STRING('l', "load", struct history_args, loads, "LOAD",
		   "only the change of this load (default: every load's)"),
	CLI_STRING(0, "note", struct history_args, note, "TEXT", "why it is acknowledged"),
	CLI_STRING(0, "db", struct history_args, db, "PATH",
		   "results store (default $CONTEND_DB or\n$XDG_DATA_HOME/contend/results.db)"),
	CLI_END,
};

#define HISTORY_SYNOPSIS "contend history [options]\n       contend history ack ID [options]"
#define HISTORY_INTRO                                                                       \
	"finds the change points in stored results over time: the matching sessions in\n"   \
	"order, a series per load and machine, where each series moved, by how much, and\n" \
	"what else changed there; ack ID records that the change at session ID was seen"

/* Splits -l's list into loads[] (pointers into buf). */
static int split_loads(const char *list, char *buf, size_t size, const char **loads, size_t *n)
{
	char *save = NULL;

	*n = 0;
	if (!list)
		return 0;
	if (strlen(list) >= size)
		return cli_usage_error("history", "-l: the list is too long");
	snprintf(buf, size, "%s", list);
	for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (*n == MAX_LOADS)
			return cli_usage_error("history", "-l: at most %d loads", MAX_LOADS);
		loads[(*n)++] = t;
	}
	if (!*n)
		return cli_usage_error("history", "-l names no load");
	return 0;
}

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

/* --fail-on-change: each series' newest change past the last
 * acknowledged one; the exit code. */
static int gate(const struct ct_history *h, double pct)
{
	int ex = 0;

	for (size_t i = 0; i < h->nseries; i++) {
		const struct ct_history_series *s = &h->series[i];
		const struct ct_history_change *c = ct_history_newest(s);
		char d[32];

		if (!c || !c->worse || !(fabs(c->effect) * 100 > pct))
			continue;
		ct_history_date(s->points[c->at].started_at, d, sizeof(d));
		cli_error("history: %s under load '%s' (machine %s) moved %+.1f%% since session "
			  "%lld (%s), past --fail-on-change %g%%; once seen: contend history ack "
			  "%lld",
			  h->workload, s->load, s->machine, 100 * c->effect,
			  (long long)s->points[c->at].session_id, d, pct,
			  (long long)s->points[c->at].session_id);
		ex = CT_EXIT_REGRESSION;
	}
	return ex;
}

static int history_main(int argc, char **argv)
{
	struct history_args a = { .fail_pct = -1, .format = CLI_FORMAT_AUTO };
	struct ct_history_query q = { 0 };
	struct ct_history h;
	struct ct_store *st = NULL;
	const char *loads[MAX_LOADS];
	char loadbuf[1024], err[CT_ERRLEN];
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
	ex = split_loads(a.loads, loadbuf, sizeof(loadbuf), loads, &q.nloads);
	if (!ex)
		ex = cli_out_setup(&o, "history", a.format, a.output, true);
	if (ex)
		return ex;
	q.workload = a.workload;
	q.loads = loads;
	q.label_glob = a.label;
	q.machine = a.machine;
	q.since = a.since;
	q.by_commit = a.order == ORDER_COMMIT;
	q.confidence = a.confidence;
	ex = cli_open_store(a.db, &st);
	if (ex)
		return ex;
	rc = ct_history_build(&h, st, &q, err, sizeof(err));
	ct_store_close(st);
	if (rc == -ENOENT || rc == -EDOM || rc == -EINVAL)
		return cli_cmd_fail("history", -EINVAL, err);
	if (rc)
		return cli_fail(rc, err);
	ex = cli_out_open(&o, "history");
	if (!ex) {
		rc = print_history(&h, &o);
		ex = cli_out_close(&o, "history", !rc);
		if (!ex && rc)
			ex = cli_fail(rc, "cannot print the history");
	}
	if (!ex && a.fail_pct >= 0)
		ex = gate(&h, a.fail_pct);
	ct_history_release(&h);
	return ex;
}

/* history ack ID: the change at session ID was seen. */
static int ack_main(int argc, char **argv)
{
	struct history_args a = { 0 };
	struct ct_history_ack k = { 0 };
	struct ct_session_rec *recs = NULL;
	struct ct_store *st = NULL;
	char err[CT_ERRLEN], *end;
	const struct ct_session_rec *r;
	struct cli_parsed p;
	long long id;
	size_t n = 0;
	int ex, rc;

	ex = cli_parse("history ack", "contend history ack ID [options]",
		       "records that the change point at session ID was seen: --fail-on-change "
		       "looks\nonly past it",
		       ack_opts, &a, argc, argv, &p);
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
	if (a.loads && strlen(a.loads) >= sizeof(k.load))
		return cli_usage_error("history ack", "-l: no load has so long a name");
	if (a.note && strlen(a.note) >= sizeof(k.note))
		return cli_usage_error("history ack", "--note is longer than %zu bytes",
				       sizeof(k.note) - 1);
	ex = cli_open_store(a.db, &st);
	if (ex)
		return ex;
	rc = ct_store_sessions(st, NULL, &recs, &n, err, sizeof(err));
	if (rc) {
		ct_store_close(st);
		return cli_fail(rc, err);
	}
	r = ct_store_session_of(recs, n, id);
	if (!r) {
		cli_error(
			"history ack: no session %lld in the results store (see: contend history)",
			id);
		ex = CT_EXIT_USAGE;
	} else {
		snprintf(k.session_uuid, sizeof(k.session_uuid), "%s", r->uuid);
		snprintf(k.workload, sizeof(k.workload), "%s", r->workload);
		snprintf(k.load, sizeof(k.load), "%s", a.loads ? a.loads : "");
		snprintf(k.machine, sizeof(k.machine), "%s", r->owner.machine);
		snprintf(k.note, sizeof(k.note), "%s", a.note ? a.note : "");
		k.acked_at = ct_wall_ns();
		rc = ct_store_ack_put(st, &k, err, sizeof(err));
		if (rc)
			ex = cli_fail(rc, err);
		else
			printf("acknowledged the change at session %lld (%s, %s)\n", id, k.workload,
			       a.loads ? a.loads : "every load");
	}
	free(recs);
	ct_store_close(st);
	return ex;
}

int cmd_history(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "ack"))
		return ack_main(argc - 1, argv + 1);
	return history_main(argc, argv);
}
