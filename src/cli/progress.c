/*
 * Progress on stderr while a session runs: one line rewritten in place
 * when stderr is a terminal (which load, run i of n, the last run's Time
 * and the load's running mean +- sd as hyperfine shows them, elapsed,
 * ETA), nothing but warnings otherwise, so logs and pipes stay clean -
 * unless --progress plain asks for one line per run (its Time, status, the
 * load's mean +- sd so far, elapsed, ETA), the form a CI log keeps.
 */
#include "cli.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

void cli_progress_init(struct cli_progress *p, enum cli_progress_mode mode)
{
	memset(p, 0, sizeof(*p));
	p->quiet = mode == CLI_PROGRESS_NONE;
	p->plain = mode == CLI_PROGRESS_PLAIN;
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

/* The running figures of load, NULL when the table is full. */
static unsigned load_slot(struct cli_progress *p, const char *load)
{
	unsigned i = 0;

	while (i < p->nloads && strcmp(p->loads[i].load, load))
		i++;
	if (i == p->nloads && i < sizeof(p->loads) / sizeof(p->loads[0])) {
		snprintf(p->loads[i].load, sizeof(p->loads[i].load), "%s", load);
		p->loads[i].n = 0;
		p->loads[i].mean = p->loads[i].m2 = 0;
		p->nloads++;
	}
	return i;
}

/* An ok run's Time into its load's running mean and sum of squares. */
static void add_time(struct cli_progress *p, const struct ct_event *ev)
{
	unsigned i = load_slot(p, ev->load);
	double x = (double)ev->result->wall_ns / 1e9, d;

	if (i == p->nloads)
		return;
	p->loads[i].last = x;
	p->loads[i].n++;
	d = x - p->loads[i].mean;
	p->loads[i].mean += d / p->loads[i].n;
	p->loads[i].m2 += d * (x - p->loads[i].mean);
}

/* "  mean 19.60 s +- 0.31" of load's ok runs, from the second one on. */
static const char *mean_sd(const struct cli_progress *p, const char *load, char *buf, size_t len)
{
	buf[0] = '\0';
	for (unsigned i = 0; i < p->nloads; i++)
		if (!strcmp(p->loads[i].load, load) && p->loads[i].n >= 2)
			snprintf(buf, len, "  mean %.3f s \u00b1 %.3f", p->loads[i].mean,
				 sqrt(p->loads[i].m2 / (p->loads[i].n - 1)));
	return buf;
}

/* --progress plain: "[io] run 2/5 (7/35) 19.82 s ok  mean 19.60 s +- 0.31
 * elapsed 02:31  ETA 10:00" */
static void plain_line(const struct cli_progress *p, const struct ct_event *ev)
{
	char ms[64];

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
	fputs(mean_sd(p, ev->load, ms, sizeof(ms)), stderr);
	fprintf(stderr, "  elapsed %s  ETA %s\n", fmt_dur(ev->elapsed_ns, el, sizeof(el)),
		ev->eta_ns < 0 ? "?" : fmt_dur(ev->eta_ns, eta, sizeof(eta)));
}

/* "  last 19.82 s" of load's latest ok run, "" before one. */
static const char *last_time(const struct cli_progress *p, const char *load)
{
	static char buf[48];

	buf[0] = '\0';
	for (unsigned i = 0; i < p->nloads; i++)
		if (!strcmp(p->loads[i].load, load) && p->loads[i].n)
			snprintf(buf, sizeof(buf), "  last %.3f s", p->loads[i].last);
	return buf;
}

void cli_progress_event(void *ctx, const struct ct_event *ev)
{
	struct cli_progress *p = ctx;
	char el[32], eta[32], ms[64];

	if (ev->kind == CT_EV_RUN_DONE) {
		p->nruns++;
		if (ev->result && ev->result->status != CT_RUN_OK)
			p->nfailed++;
		else if (ev->result && ev->run > 0)
			add_time(p, ev);
	}
	if (ev->kind == CT_EV_WARN) {
		close_line(p);
		cli_warn("%s", ev->msg);
		return;
	}
	if (ev->kind == CT_EV_NOTE) {
		if (!p->quiet) {
			close_line(p);
			fprintf(stderr, "%s\n", ev->msg);
		}
		return;
	}
	if (p->plain && !p->quiet) {
		if (ev->kind == CT_EV_INFO)
			fprintf(stderr, "%s\n", ev->msg);
		if (ev->kind == CT_EV_RUN_DONE)
			plain_line(p, ev);
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
			fprintf(stderr, "[%s] run %u/%u  (%u/%u)%s%s  elapsed %s  ETA %s", ev->load,
				ev->run, ev->runs, ev->done + 1, ev->total, last_time(p, ev->load),
				mean_sd(p, ev->load, ms, sizeof(ms)),
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
