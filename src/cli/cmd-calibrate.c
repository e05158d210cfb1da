/*
 * `contend calibrate`: run's flow and options (cmd-run.c, run-opts.c) with
 * what calibrate adds - its runs' noise floor computed and stored after
 * the session, --sessions K's spread between sessions, --from's stored
 * runs instead of a session. The statistics are calibrate.c's.
 */
#include "cli.h"
#include "run.h"
#include "contend/report.h"
#include "contend/store.h"

#include <stdio.h>

/* calibrate --sessions K: K sessions of the config in turn, each stored
 * whole, then the spread between them. */
static int run_spread(struct run_args *a, struct ct_store *st, struct cli_progress *prog, int *ex,
		      char *err, size_t len)
{
	int64_t ids[50], first = 0;
	size_t k = 0;
	int rc = 0;

	*ex = 0;
	if (a->cal_every && !a->quiet) {
		char g[32];

		fprintf(stderr,
			"calibrate: %u sessions, one every %s: the last starts %s after the "
			"first\n",
			a->cal_sessions, ct_report_fmt_gap(a->cal_every, g, sizeof(g)),
			ct_report_fmt_gap((int64_t)(a->cal_sessions - 1) * a->cal_every,
					  (char[32]){ 0 }, 32));
	}
	for (unsigned i = 0; i < a->cal_sessions && !rc; i++) {
		if (i)
			ct_session_reset(&a->s);
		if (i && a->cal_every && (rc = calibrate_wait(a, first, i)) != 0) {
			ct_err(err, len, rc, "interrupted while waiting for session %u", i + 1);
			break;
		}
		rc = ct_session_run(&a->s, st, err, len);
		if (!i)
			first = a->s.rec.started_at;
		cli_progress_done(prog);
		if (!rc) {
			ids[k++] = a->s.rec.id;
			if (!a->quiet)
				fprintf(stderr, "calibrate: session %u of %u stored (%lld)\n",
					i + 1, a->cal_sessions, (long long)a->s.rec.id);
		}
	}
	if (!rc)
		*ex = calibrate_spread(a, st, ids, k);
	return rc;
}

/* The session(s), then the calibration of their runs. */
static int sessions(struct run_args *a, struct ct_store *st, struct cli_progress *prog, int *ex,
		    char *err, size_t len)
{
	int rc;

	if (a->cal_sessions)
		return run_spread(a, st, prog, ex, err, len);
	rc = run_session(a, st, prog, ex, err, len);
	if (!rc && !*ex)
		*ex = calibrate_session(a, st);
	return rc;
}

/* --from: a label's stored runs, read; nothing is run or made. */
static int from(struct run_args *a)
{
	struct ct_store *st = NULL;
	int ex = cli_read_store(a->db, &st);

	if (!ex)
		ex = calibrate_from(a, st);
	ct_store_close(st);
	return ex;
}

/* --show: the workload's parameters as a session would store them, then
 * the machine's spread by gap. */
static int show(struct run_args *a)
{
	char params[256], err[CT_ERRLEN];
	int rc = run_params(a, params, sizeof(params), err, sizeof(err));

	return rc ? cli_fail(rc, err) : calibrate_show(a, params);
}

int cmd_calibrate(int argc, char **argv)
{
	static const struct run_cmd calibrate = {
		.name = "calibrate",
		.synopsis = "contend calibrate [options] [-- command...]",
		.intro = "Runs the workload -n times (default %{runs}) under each load, or reads "
			 "--from a\nlabel's stored runs, and prints the noise floor (CoV, robust "
			 "CoV, outliers,\ndrift) and the smallest slowdown the verdict rule finds "
			 "with 80% power at\nn = 3, 5, 10 and 20 runs a side. The calibration is "
			 "stored with the config;\n'contend run --target-effect PCT' picks -n from "
			 "it. Every run option applies.",
		.calibrate = true,
		.sessions = sessions,
		.from = from,
		.show = show,
	};

	return run_main(&calibrate, argc, argv);
}
