/*
 * The fleet's summary as text and as one self-contained HTML page, and
 * the words every fleet printer shares: what the baseline is, a row's
 * figure, its verdict against its baseline and the notes under the table
 * (a verdict that holds for its two sessions only, a baseline on another
 * machine, the sessions left out).
 */
#include "contend/fleet.h"
#include "contend/history.h"
#include "internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *rp_fleet_value(const struct ct_fleet *fl, double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (fl->higher_better || fl->figure_kind != CT_FIGURE_TIME)
		snprintf(buf, len, "%.1f", v);
	else
		rp_fmt_time(v, buf, len);
	return buf;
}

/* A verdict that holds for its two sessions alone: one session a side and
 * no estimate of how far this machine's sessions move. */
static bool rp_fleet_unknown_spread(const struct ct_fleet *fl, const struct ct_fleet_cell *c)
{
	/* none known, or none that covers the gap between the two sessions */
	return c->compared && !fl->within_session && c->cmp.decided_by != CT_TEST_NONE &&
	       (c->scope == CT_SCOPE_ACROSS ||
		(c->scope == CT_SCOPE_MACHINE && !c->cmp.between.covers));
}

/* The baseline in words: "bench01 (1a2b3c4d), label '6.1', session 12",
 * or each machine's own session of a label. */
static void rp_fleet_baseline(FILE *f, const struct ct_fleet *fl)
{
	const struct ct_fleet_row *b = NULL;

	for (size_t k = 0; k < fl->nrows && !b; k++)
		if (fl->rows[k].base < 0)
			b = &fl->rows[k];
	if (fl->mode == CT_FLEET_BASE_LABEL) {
		const struct ct_fleet_row *other = NULL;

		for (size_t k = 0; k < fl->nrows && !other; k++)
			if (fl->rows[k].other_machine)
				other = &fl->rows[fl->rows[k].base];
		fprintf(f, "each machine's session labelled '%s'", fl->base_label);
		if (other)
			fprintf(f, " (a machine without one: %s's, session %lld)", other->machine,
				(long long)other->session_id);
		return;
	}
	if (!b)
		return;
	fprintf(f, "%s, label '%s', session %lld%s", b->machine, b->label, (long long)b->session_id,
		fl->mode == CT_FLEET_BASE_FIRST ? " (the first row; --baseline-machine or "
						  "--baseline choose)"
						: "");
}

/* What each note under the table says; which apply (bits). */
enum { NOTE_SPREAD = 1, NOTE_OTHER = 2 };

static unsigned rp_fleet_notes(const struct ct_fleet *fl)
{
	unsigned notes = 0;

	for (size_t k = 0; k < fl->nrows; k++) {
		const struct ct_fleet_row *w = &fl->rows[k];

		if (w->base >= 0 && w->other_machine && fl->mode == CT_FLEET_BASE_LABEL)
			notes |= NOTE_OTHER;
		for (size_t l = 0; l < fl->nloads; l++)
			if (rp_fleet_unknown_spread(fl, &w->cells[l]))
				notes |= NOTE_SPREAD;
	}
	return notes;
}

static void rp_fleet_note_lines(FILE *f, const struct ct_fleet *fl, const char *bullet)
{
	unsigned notes = rp_fleet_notes(fl);

	if (notes & NOTE_SPREAD)
		fprintf(f,
			"%s* one session a side, and how far sessions as far apart move is "
			"unknown: "
			"the verdict holds for these two sessions only (contend calibrate "
			"--sessions 4 --every D on the baseline's machine, D a third of the gap)\n",
			bullet);
	if (notes & NOTE_OTHER)
		fprintf(f,
			"%s^ judged against another machine's session: the machines differ as well "
			"as the labels\n",
			bullet);
	if (fl->nother_params)
		fprintf(f,
			"%s%zu complete session%s of %s ran other parameters than '%s' and %s "
			"left out\n",
			bullet, fl->nother_params, fl->nother_params == 1 ? "" : "s", fl->workload,
			fl->params, fl->nother_params == 1 ? "is" : "are");
}

/* "+6.4% [+2.0%, +10.9%] worse (U)*", "baseline", or why there is none */
static void rp_fleet_verdict(FILE *f, const struct ct_fleet *fl, const struct ct_fleet_row *w,
			     const struct ct_fleet_cell *c)
{
	if (w->base < 0) {
		fputs("baseline", f);
		return;
	}
	if (!c->compared) {
		fputs(c->n ? "not run by its baseline" : "-", f);
		return;
	}
	if (c->cmp.decided_by != CT_TEST_NONE) {
		ct_report_print_effect(f, &c->cmp);
		fputc(' ', f);
	}
	fputs(c->verdict, f);
	if (c->cmp.decided_by != CT_TEST_NONE)
		fprintf(f, " (%s)", ct_report_test_name(&c->cmp));
	if (rp_fleet_unknown_spread(fl, c))
		fputc('*', f);
	if (w->other_machine && fl->mode == CT_FLEET_BASE_LABEL)
		fputc('^', f);
}

static void rp_fleet_heading(FILE *f, const struct ct_fleet *fl)
{
	fprintf(f,
		"fleet summary of %s (%s): %zu machine%s, %zu row%s (the newest complete "
		"session of each machine and label); %s in %s, %s is better\n",
		fl->workload, fl->params, fl->nmachines, fl->nmachines == 1 ? "" : "s", fl->nrows,
		fl->nrows == 1 ? "" : "s", fl->figure, fl->unit,
		fl->higher_better ? "higher" : "lower");
	fputs("baseline: ", f);
	rp_fleet_baseline(f, fl);
	fprintf(f, "; verdicts at %g%% confidence, Holm-adjusted across each row's loads%s\n",
		fl->confidence, fl->within_session ? ", within sessions (--within-session)" : "");
}

const char *rp_fleet_verdict_str(const struct ct_fleet *fl, const struct ct_fleet_row *w,
				 const struct ct_fleet_cell *c, char *buf, size_t len)
{
	FILE *m = fmemopen(buf, len, "w");

	buf[0] = '\0';
	if (m) {
		rp_fleet_verdict(m, fl, w, c);
		fclose(m);
	}
	return buf;
}

const char *rp_fleet_baseline_str(const struct ct_fleet *fl, char *buf, size_t len)
{
	FILE *m = fmemopen(buf, len, "w");

	buf[0] = '\0';
	if (m) {
		rp_fleet_baseline(m, fl);
		fclose(m);
	}
	return buf;
}

char *rp_fleet_notes_str(const struct ct_fleet *fl)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *m;

	if (!rp_fleet_notes(fl) && !fl->nother_params)
		return NULL;
	m = open_memstream(&buf, &n);
	if (!m)
		return NULL;
	rp_fleet_note_lines(m, fl, "");
	fclose(m);
	return buf;
}

int ct_fleet_print_text(FILE *f, const struct ct_fleet *fl)
{
	char fig[48];

	rp_fleet_heading(f, fl);
	snprintf(fig, sizeof(fig), "%s (%s)", fl->figure, fl->unit);
	fprintf(f, "\n%-24s %-16s %7s %-16s  %-10s %4s %10s %7s  %s\n", "machine", "label",
		"session", "started", "load", "runs", fig, "against", "verdict");
	for (size_t k = 0; k < fl->nrows; k++) {
		const struct ct_fleet_row *w = &fl->rows[k];
		bool first = true;

		for (size_t l = 0; l < fl->nloads; l++) {
			const struct ct_fleet_cell *c = &w->cells[l];
			char d[32], v[32], vs[24] = "-";

			if (!c->n)
				continue;
			if (w->base >= 0)
				snprintf(vs, sizeof(vs), "%lld",
					 (long long)fl->rows[w->base].session_id);
			if (first)
				fprintf(f, "%-24.24s %-16.16s %7lld %-16s", w->machine, w->label,
					(long long)w->session_id,
					ct_history_date(w->started_at, d, sizeof(d)));
			else
				fprintf(f, "%-24s %-16s %7s %-16s", "", "", "", "");
			fprintf(f, "  %-10.10s %4zu %10s %7s  ", fl->loads[l], c->n,
				rp_fleet_value(fl, c->mean, v, sizeof(v)), vs);
			rp_fleet_verdict(f, fl, w, c);
			fputc('\n', f);
			first = false;
		}
	}
	if (rp_fleet_notes(fl) || fl->nother_params)
		fputc('\n', f);
	rp_fleet_note_lines(f, fl, "");
	for (size_t k = 0; k < fl->nrows; k++) {
		const struct ct_fleet_row *w = &fl->rows[k];

		for (size_t l = 0; l < fl->nloads; l++) {
			char a[300], b[300];

			if (!w->cells[l].why)
				continue;
			snprintf(a, sizeof(a), "%s on %s (session %lld)", w->label, w->machine,
				 (long long)w->session_id);
			snprintf(b, sizeof(b), "%s on %s (session %lld)", fl->rows[w->base].label,
				 fl->rows[w->base].machine,
				 (long long)fl->rows[w->base].session_id);
			fputc('\n', f);
			ct_why_print(f, w->cells[l].why, a, b, fl->loads[l], fl->confidence, false);
		}
	}
	return ferror(f) ? -EIO : 0;
}

int ct_fleet_print_html(FILE *f, const struct ct_fleet *fl)
{
	char line[512], *notes;

	rp_html_page_start(f, "contend fleet summary", fl->workload);
	fprintf(f, "<p class=\"note\">workload <b>");
	rp_html_esc(f, fl->workload);
	fprintf(f, "</b> (");
	rp_html_esc(f, fl->params);
	fprintf(f,
		"): %zu machine%s, %zu row%s, the newest complete session of each machine and "
		"label; %s in %s, %s is better.<br>\nbaseline: ",
		fl->nmachines, fl->nmachines == 1 ? "" : "s", fl->nrows, fl->nrows == 1 ? "" : "s",
		fl->figure, fl->unit, fl->higher_better ? "higher" : "lower");
	rp_html_esc(f, rp_fleet_baseline_str(fl, line, sizeof(line)));
	fprintf(f, "; verdicts at %g%% confidence, Holm-adjusted across each row's loads.</p>\n",
		fl->confidence);
	fprintf(f,
		"<table><tr><th class=\"l\">machine</th><th class=\"l\">label</th>"
		"<th>session</th><th class=\"l\">started</th><th class=\"l\">load</th>"
		"<th>runs</th><th>%s (%s)</th><th>against</th><th class=\"l\">verdict</th>"
		"</tr>\n",
		fl->figure, fl->unit);
	for (size_t k = 0; k < fl->nrows; k++) {
		const struct ct_fleet_row *w = &fl->rows[k];

		for (size_t l = 0; l < fl->nloads; l++) {
			const struct ct_fleet_cell *c = &w->cells[l];
			bool sig = c->compared && (c->cmp.outcome == CT_OUTCOME_LOWER ||
						   c->cmp.outcome == CT_OUTCOME_HIGHER);
			char d[32], v[32];

			if (!c->n)
				continue;
			fprintf(f, "<tr%s><td class=\"l\">",
				!sig			       ? ""
				: !strcmp(c->verdict, "worse") ? " class=\"worse\""
							       : " class=\"better\"");
			rp_html_esc(f, w->machine);
			fprintf(f, "</td><td class=\"l\">");
			rp_html_esc(f, w->label);
			fprintf(f, "</td><td>%lld</td><td class=\"l\">%s</td><td class=\"l\">",
				(long long)w->session_id,
				ct_history_date(w->started_at, d, sizeof(d)));
			rp_html_esc(f, fl->loads[l]);
			fprintf(f, "</td><td>%zu</td><td>%s</td><td>", c->n,
				rp_fleet_value(fl, c->mean, v, sizeof(v)));
			if (w->base >= 0)
				fprintf(f, "%lld", (long long)fl->rows[w->base].session_id);
			else
				fputs("-", f);
			fputs("</td><td class=\"l\">", f);
			rp_html_esc(f, rp_fleet_verdict_str(fl, w, c, line, sizeof(line)));
			fputs("</td></tr>\n", f);
		}
	}
	fputs("</table>\n", f);
	notes = rp_fleet_notes_str(fl);
	if (notes) {
		fputs("<p class=\"note\">", f);
		for (char *s = notes, *e; (e = strchr(s, '\n')); s = e + 1) {
			*e = '\0';
			rp_html_esc(f, s);
			fputs("<br>\n", f);
		}
		fputs("</p>\n", f);
		free(notes);
	}
	for (size_t k = 0; k < fl->nrows; k++) {
		const struct ct_fleet_row *w = &fl->rows[k];

		for (size_t l = 0; l < fl->nloads; l++) {
			const struct ct_fleet_row *b = w->base >= 0 ? &fl->rows[w->base] : NULL;

			if (!w->cells[l].why || !b)
				continue;
			fputs("<h2>Why ", f);
			rp_html_esc(f, w->label);
			fputs(" on ", f);
			rp_html_esc(f, w->machine);
			fprintf(f, " (session %lld) differs from ", (long long)w->session_id);
			rp_html_esc(f, b->label);
			fputs(" on ", f);
			rp_html_esc(f, b->machine);
			fprintf(f, " (session %lld) under ", (long long)b->session_id);
			rp_html_esc(f, fl->loads[l]);
			fputs("</h2>\n", f);
			rp_why_html(f, w->cells[l].why, fl->confidence);
		}
	}
	fputs("</body>\n</html>\n", f);
	return ferror(f) ? -EIO : 0;
}
