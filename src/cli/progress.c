/*
 * Progress on stderr while a session runs: one line rewritten in place
 * when stderr is a terminal (which load, run i of n, elapsed, ETA), nothing
 * but warnings otherwise, so logs and pipes stay clean - unless --progress
 * plain asks for one line per run (its Time, status, elapsed, ETA), the
 * form a CI log keeps.
 */
#include "cli.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

void cli_progress_init(struct cli_progress *p, const char *mode)
{
	memset(p, 0, sizeof(*p));
	p->quiet = mode && !strcmp(mode, "none");
	p->plain = mode && !strcmp(mode, "plain");
	p->tty = isatty(STDERR_FILENO);
}

static void close_line(struct cli_progress *p)
{
	if (p->line_open) {
		fputs("\r\033[K", stderr);
		p->line_open = false;
	}
}

static const char *fmt_dur(int64_t ns, char *buf, size_t len)
{
	long s = (long)(ns / 1000000000);

	if (s >= 3600)
		snprintf(buf, len, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		snprintf(buf, len, "%02ld:%02ld", s / 60, s % 60);
	return buf;
}

/* --progress plain: "[io] run 2/5 (7/35) 19.82 s ok  elapsed 02:31  ETA 10:00" */
static void plain_line(const struct ct_event *ev)
{
	char el[32], eta[32];

	if (ev->run == 0) {
		fprintf(stderr, "[warm-up] done  elapsed %s\n",
			fmt_dur(ev->elapsed_ns, el, sizeof(el)));
		return;
	}
	fprintf(stderr, "[%s] run %u/%u (%u/%u) ", ev->load, ev->run, ev->runs, ev->done,
		ev->total);
	if (ev->result)
		fprintf(stderr, "%.3f s %s", (double)ev->result->wall_ns / 1e9,
			ct_run_status_name(ev->result->status));
	if (ev->result && ev->result->status != CT_RUN_OK)
		fprintf(stderr, ": %s", ev->result->reason);
	fprintf(stderr, "  elapsed %s  ETA %s\n", fmt_dur(ev->elapsed_ns, el, sizeof(el)),
		ev->eta_ns < 0 ? "?" : fmt_dur(ev->eta_ns, eta, sizeof(eta)));
}

void cli_progress_event(void *ctx, const struct ct_event *ev)
{
	struct cli_progress *p = ctx;
	char el[32], eta[32];

	if (ev->kind == CT_EV_RUN_DONE) {
		p->nruns++;
		if (ev->result && ev->result->status != CT_RUN_OK)
			p->nfailed++;
	}
	if (ev->kind == CT_EV_WARN) {
		close_line(p);
		cli_warn("%s", ev->msg);
		return;
	}
	if (p->plain && !p->quiet) {
		if (ev->kind == CT_EV_INFO)
			fprintf(stderr, "%s\n", ev->msg);
		if (ev->kind == CT_EV_RUN_DONE)
			plain_line(ev);
		fflush(stderr);
		return;
	}
	if (p->quiet || !p->tty)
		return;
	switch (ev->kind) {
	case CT_EV_INFO:
		close_line(p);
		fprintf(stderr, "%s\n", ev->msg);
		break;
	case CT_EV_RUN_START:
		close_line(p);
		if (ev->run == 0)
			fprintf(stderr, "[warm-up]  elapsed %s",
				fmt_dur(ev->elapsed_ns, el, sizeof(el)));
		else
			fprintf(stderr, "[%s] run %u/%u  (%u/%u)  elapsed %s  ETA %s", ev->load,
				ev->run, ev->runs, ev->done + 1, ev->total,
				fmt_dur(ev->elapsed_ns, el, sizeof(el)),
				ev->eta_ns < 0 ? "?" : fmt_dur(ev->eta_ns, eta, sizeof(eta)));
		p->line_open = true;
		break;
	case CT_EV_RUN_DONE:
		if (ev->result && ev->result->status != CT_RUN_OK) {
			close_line(p);
			fprintf(stderr, "[%s] run %u failed: %s\n", ev->load, ev->run,
				ev->result->reason);
		}
		break;
	default:
		break;
	}
	fflush(stderr);
}

void cli_progress_done(struct cli_progress *p)
{
	close_line(p);
	fflush(stderr);
}
