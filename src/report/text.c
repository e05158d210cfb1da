/*
 * Text printers over the report model: contest's table (a block per load,
 * a row per config, Ratio against the reference's no-load mean, failed
 * runs listed under their block with the reason), the verdict lines, and
 * the flagged runs with their evidence. They format; the model computed.
 */
#include "internal.h"
#include "contend/util.h"

#include <math.h>
#include <string.h>

/* contest printed seconds with two decimals; short runs need more */
const char *rp_fmt_time(double s, char *buf, size_t len)
{
	snprintf(buf, len, s >= 1 ? "%.2f" : s >= 0.01 ? "%.3f" : "%.5f", s);
	return buf;
}

static double mean_of(const double *x, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += x[i];
	return n ? s / (double)n : NAN;
}

const char *rp_figure_head(const struct ct_report *rep, char *buf, size_t len)
{
	if (!strcmp(rep->figure, rep->unit))
		snprintf(buf, len, "%s", rep->figure);
	else
		snprintf(buf, len, "%s %s", rep->figure, rep->unit);
	return buf;
}

/* A figure's value with its unit: "21295.9 IOPS", "1000 tps". */
static const char *with_unit(const struct ct_report *rep, double v, char *buf, size_t len)
{
	snprintf(buf, len, "%.6g%s%s", v, strcmp(rep->figure, rep->unit) ? " " : "",
		 strcmp(rep->figure, rep->unit) ? rep->unit : "");
	return buf;
}

double rp_cell_score(const struct ct_report *rep, const struct ct_report_cell *c)
{
	double m;

	if (!c->scores || !c->n || !(rep->score_tps > 0))
		return NAN;
	m = mean_of(c->values, c->n);
	return rep->higher_better ? 1000 * m / rep->score_tps : 1000 * rep->score_tps / m;
}

const char *rp_ratio_note(const struct ct_report *rep, char *buf, size_t len)
{
	char v[64], sb[48];

	if (rep->figure_kind != CT_FIGURE_OTHER || isnan(rep->ref_value))
		snprintf(buf, len, "no no-load runs of '%s' for this workload", rep->ref_label);
	else
		snprintf(buf, len, "%s / %s, the no-load mean of '%s' (%s%lld)", rep->figure,
			 with_unit(rep, rep->ref_value, v, sizeof(v)), rep->ref_label,
			 rp_sessions_of(rep->ref_nsessions, sb, sizeof(sb)),
			 (long long)rep->ref_session_id);
	return buf;
}

const char *rp_score_formula(const struct ct_report *rep, char *buf, size_t len)
{
	char v[64];

	with_unit(rep, rep->score_tps, v, sizeof(v));
	if (rep->figure_kind != CT_FIGURE_OTHER)
		snprintf(buf, len, "1000 x tps / %.2f, the no-load mean tps", rep->score_tps);
	else if (rep->higher_better)
		snprintf(buf, len, "1000 x %s / %s, the no-load mean %s", rep->figure, v,
			 rep->figure);
	else
		snprintf(buf, len, "1000 x %s / %s (lower is better), %s the no-load mean %s", v,
			 rep->figure, v, rep->figure);
	return buf;
}

double rp_metric(const struct ct_report_cell *c, const char *name)
{
	for (unsigned i = 0; i < c->nmetric_means; i++)
		if (!strcmp(c->metric_means[i].name, name))
			return c->metric_means[i].value;
	return NAN;
}

void rp_failed_runs(FILE *f, const struct ct_report_cell *c)
{
	for (size_t k = 0; k < c->nruns; k++)
		if (c->runs[k].status != CT_RUN_OK)
			fprintf(f, "  %s run %u %s: %s\n", c->label, c->runs[k].seq,
				ct_run_status_name(c->runs[k].status), c->runs[k].reason);
}

void rp_probe_line(FILE *f, const struct ct_report_cell *c)
{
	double p99 = rp_metric(c, "probe_p99_us");

	if (isnan(p99))
		return;
	fprintf(f, "  %s wakeup probe (us, mean of runs): p50 %.1f  p99 %.1f  max %.1f\n", c->label,
		rp_metric(c, "probe_p50_us"), p99, rp_metric(c, "probe_max_us"));
}

static int label_width(const struct ct_report *rep)
{
	int w = 16;

	for (size_t i = 0; i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].ncells; j++) {
			int l = (int)strlen(rep->blocks[i].cells[j].label);
			if (l > w)
				w = l;
		}
	return w;
}

void ct_report_print_table(FILE *f, const struct ct_report *rep)
{
	int w = label_width(rep);
	char tbuf[32], sbuf[48];

	for (size_t i = 0; i < rep->nblocks; i++) {
		const struct ct_report_block *b = &rep->blocks[i];
		bool noload = !strcmp(b->load, "none");

		if (i)
			fputc('\n', f);
		fprintf(f, "%s:\n", b->load);
		fprintf(f, "%-*s  %-6s %-8s %-5s %-8s %-6s %s\n", w, rp_heading(rep), "[runs]",
			"Time(s)", "CPU%", "Loads", "LCPU%", "Ratio");
		for (size_t j = 0; j < b->ncells; j++) {
			const struct ct_report_cell *r = &b->cells[j];
			char loads[32], lcpu[16], ratio[16], cpu[16], time[16];

			if (!r->g.n) {
				fprintf(f, "%-*s  %-6s %s\n", w, r->label, "0",
					r->g.nfailed ? "(every run failed)" : "(no runs)");
			} else {
				rp_fmt_time(r->g.time_s, time, sizeof(time));
				snprintf(cpu, sizeof(cpu), "%.0f%%", r->g.cpu_pct);
				if (noload) {
					snprintf(loads, sizeof(loads), "-");
					snprintf(lcpu, sizeof(lcpu), "-");
				} else {
					snprintf(loads, sizeof(loads),
						 isnan(r->g.loads) ? "-" : "%.0f", r->g.loads);
					snprintf(lcpu, sizeof(lcpu), "%.0f%%", r->g.lcpu_pct);
				}
				if (isnan(r->ratio))
					snprintf(ratio, sizeof(ratio), "-");
				else
					snprintf(ratio, sizeof(ratio), "%.2f", r->ratio);
				fprintf(f, "%-*s  %-6u %-8s %-5s %-8s %-6s %s\n", w, r->label,
					r->g.n, time, cpu, loads, lcpu, ratio);
				rp_probe_line(f, r);
			}
			rp_failed_runs(f, r);
		}
	}
	if (isnan(rep->ref_time_s))
		fprintf(f, "\nRatio: no no-load runs of '%s' for this workload\n", rep->ref_label);
	else
		fprintf(f, "\nRatio = Time / %s s, the no-load mean of '%s' (%s%lld)\n",
			rp_fmt_time(rep->ref_time_s, tbuf, sizeof(tbuf)), rep->ref_label,
			rp_sessions_of(rep->ref_nsessions, sbuf, sizeof(sbuf)),
			(long long)rep->ref_session_id);
	bool first = true;

	for (size_t i = 0; i < rep->nblocks; i++) {
		const struct ct_report_block *b = &rep->blocks[i];

		if (!b->work_unit || !strcmp(b->load, "none"))
			continue;
		fprintf(f, "%s%s = %s", first ? "Loads: " : ", ", b->load, b->work_unit);
		first = false;
	}
	if (!first)
		fputc('\n', f);
}

void rp_pct(FILE *f, double r)
{
	if (isinf(r))
		fprintf(f, "%s", r < 0 ? "-inf" : "+inf");
	else
		fprintf(f, "%+.1f%%", (r - 1) * 100);
}

/* The effect the deciding test estimated, with its interval: "+10.6%
 * [-4.4%, +26.3%]" for a ratio, "+1.2 [-0.4, +2.8]" for a difference. */
void rp_effect(FILE *f, const struct ct_stats_comparison *v, const char *open)
{
	if (v->ratio_scale) {
		rp_pct(f, v->effect);
		fputs(open, f);
		rp_pct(f, v->effect_low);
		fputs(", ", f);
		rp_pct(f, v->effect_high);
		fputc(']', f);
	} else {
		fprintf(f, "%+.4g%s%+.4g, %+.4g]", v->effect, open, v->effect_low, v->effect_high);
	}
}

/* A command's other figures under its row: each one's mean, unit and
 * which way is better ("  p99 4567 ns (lower is better)"). */
static void print_secondary(FILE *f, const struct ct_report *rep, const struct ct_report_cell *c,
			    int w)
{
	for (unsigned k = 0; c->n && k < rep->nextra; k++) {
		const struct ct_report_extra *x = &rep->extra[k];

		if (!x->secondary)
			continue;
		for (unsigned m = 0; m < c->nmetric_means; m++)
			if (!strcmp(c->metric_means[m].name, x->metric))
				fprintf(f, "%-*s  %-6s %-12.6g %s%s(%s is better)\n", w, "",
					x->metric, c->metric_means[m].value, x->unit,
					*x->unit ? " " : "", x->higher_better ? "higher" : "lower");
	}
}

void ct_report_print_figures(FILE *f, const struct ct_report *rep)
{
	int w = label_width(rep);
	char head[48], note[512], sb[48];

	rp_figure_head(rep, head, sizeof(head));
	for (size_t i = 0; i < rep->nblocks; i++) {
		const struct ct_report_block *b = &rep->blocks[i];

		if (i)
			fputc('\n', f);
		fprintf(f, "%s:\n", b->load);
		fprintf(f, "%-*s  %-6s %-12s %-12s %-12s %-12s %-5s %-6s %s\n", w, "Config",
			"[runs]", head, "Median", "Min", "Max", "CV%", "Ratio", "Score");
		for (size_t j = 0; j < b->ncells; j++) {
			const struct ct_report_cell *c = &b->cells[j];
			const struct ct_stats_summary *s = &c->sum;
			char cv[16], ratio[16], score[16];

			if (!c->n) {
				fprintf(f, "%-*s  %-6s %s\n", w, c->label, "0",
					c->g.nfailed ? "(every run failed)" : "(no runs)");
				rp_failed_runs(f, c);
				continue;
			}
			snprintf(cv, sizeof(cv), c->have_summary && s->mean ? "%.1f" : "-",
				 c->have_summary && s->mean ? 100 * s->sd / fabs(s->mean) : 0);
			snprintf(ratio, sizeof(ratio), isnan(c->ratio) ? "-" : "%.2f", c->ratio);
			snprintf(score, sizeof(score), isnan(rp_cell_score(rep, c)) ? "-" : "%.0f",
				 rp_cell_score(rep, c));
			if (!c->have_summary) /* one run */
				fprintf(f,
					"%-*s  %-6zu %-12.6g %-12.6g %-12.6g %-12.6g %-5s %-6s "
					"%s\n",
					w, c->label, c->n, c->values[0], c->values[0], c->values[0],
					c->values[0], cv, ratio, score);
			else
				fprintf(f,
					"%-*s  %-6zu %-12.6g %-12.6g %-12.6g %-12.6g %-5s %-6s "
					"%s\n",
					w, c->label, c->n, s->mean, s->median, s->min, s->max, cv,
					ratio, score);
			rp_failed_runs(f, c);
			print_secondary(f, rep, c, w);
		}
	}
	fprintf(f, "\n%s: the mean of the runs, %s is better\n", head,
		rep->higher_better ? "higher" : "lower");
	if (rep->figure_kind != CT_FIGURE_OTHER)
		return;
	fprintf(f, "Ratio = %s\n", rp_ratio_note(rep, note, sizeof(note)));
	if (isnan(rep->score_tps))
		fprintf(f, "Score: no no-load runs of '%s' with these parameters\n",
			rep->score_label[0] ? rep->score_label : rep->ref_label);
	else
		fprintf(f, "Score = %s of '%s' (%s%lld)%s\n",
			rp_score_formula(rep, note, sizeof(note)), rep->score_label,
			rp_sessions_of(rep->score_nsessions, sb, sizeof(sb)),
			(long long)rep->score_session_id,
			rep->score_default ? ", the first config stored with these parameters"
					   : "");
}

void ct_report_print_effect(FILE *f, const struct ct_stats_comparison *v)
{
	rp_effect(f, v, " [");
}

long rp_value_of(const struct ct_report_cell *c, const struct ct_run *r)
{
	for (size_t i = 0; c->ok && i < c->n; i++)
		if (c->ok[i] == r)
			return (long)i;
	return -1;
}

const struct ct_report_flag *rp_flag_of(const struct ct_report_cell *c, long v)
{
	for (size_t k = 0; v >= 0 && k < c->nflags; k++)
		if (c->flags[k].value == (size_t)v)
			return &c->flags[k];
	return NULL;
}

size_t rp_sysinfo_rows(const struct ct_sysinfo *si, const char *dir, const char *fs,
		       const char *rows[12][2], char bufs[3][32])
{
	const char *const r[][2] = {
		{ "kernel release", si->kernel_release },
		{ "kernel version", si->kernel_version },
		{ "cmdline", si->cmdline },
		{ "preemption", si->preempt },
		{ "cpu", si->cpu_model },
		{ "cpus", bufs[0] },
		{ "ram", ct_fmt_size(si->ram_bytes, bufs[1], sizeof(bufs[1])) },
		{ "swap", ct_fmt_size(si->swap_bytes, bufs[2], sizeof(bufs[2])) },
		{ "work dir", dir },
		{ "filesystem", fs },
		{ "block device", si->block_dev[0] ? si->block_dev : "-" },
		{ "io scheduler", si->iosched[0] ? si->iosched : "-" },
	};

	snprintf(bufs[0], sizeof(bufs[0]), "%u", si->ncpus);
	memcpy(rows, r, sizeof(r));
	return CT_ARRAY_SIZE(r);
}

void ct_report_sysinfo_text(FILE *f, const struct ct_sysinfo *si, const char *dir)
{
	const char *rows[12][2];
	char bufs[3][32], fs[320];
	size_t n;
	int w = (int)strlen("fingerprint");

	snprintf(fs, sizeof(fs), "%s on %s", si->fs_type, si->fs_source);
	n = rp_sysinfo_rows(si, dir, fs, rows, bufs);
	for (size_t i = 0; i < n; i++)
		if ((int)strlen(rows[i][0]) > w)
			w = (int)strlen(rows[i][0]);
	for (unsigned i = 0; i < si->nsysctl; i++)
		if ((int)strlen(si->sysctl[i].name) > w)
			w = (int)strlen(si->sysctl[i].name);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s:%*s %s\n", rows[i][0], w - (int)strlen(rows[i][0]), "", rows[i][1]);
	for (unsigned i = 0; i < si->nsysctl; i++)
		fprintf(f, "%s:%*s %s\n", si->sysctl[i].name, w - (int)strlen(si->sysctl[i].name),
			"", si->sysctl[i].value);
	fprintf(f, "fingerprint:%*s %s\n", w - (int)strlen("fingerprint"), "", si->fingerprint);
}

const char *rp_sessions_of(size_t n, char *buf, size_t len)
{
	if (n > 1)
		snprintf(buf, len, "%zu sessions, the latest ", n);
	else
		snprintf(buf, len, "session ");
	return buf;
}

const char *ct_report_test_name(const struct ct_stats_comparison *v)
{
	return v->decided_by == CT_TEST_SIGNED_RANK ? "signed-rank"
	       : v->decided_by == CT_TEST_RANK	    ? "U"
	       : v->decided_by == CT_TEST_SESSIONS  ? "sessions"
	       : v->decided_by == CT_TEST_ACROSS    ? "sessions+machine"
						    : "none";
}

const char *ct_report_fmt_gap(int64_t ns, char *buf, size_t len)
{
	int64_t s = ns / 1000000000;

	if (s >= 60 && s < 2 * 86400 && s % 3600 == 0)
		snprintf(buf, len, "%lld h", (long long)(s / 3600));
	else if (s >= 60 && s < 7200 && s % 60 == 0)
		snprintf(buf, len, "%lld min", (long long)(s / 60));
	else if (s < 10 && ns)
		snprintf(buf, len, "%.1f s", (double)ns / 1e9);
	else if (s < 120)
		snprintf(buf, len, "%lld s", (long long)s);
	else if (s < 7200)
		snprintf(buf, len, "%lld min", (long long)(s / 60));
	else if (s < 2 * 86400)
		snprintf(buf, len, "%lld h", (long long)(s / 3600));
	else
		snprintf(buf, len, "%lld days", (long long)(s / 86400));
	return buf;
}

const char *rp_scope_note(const struct ct_report *rep, const struct ct_report_block *b,
			  const struct ct_report_cell *c, char *buf, size_t len)
{
	const struct ct_stats_between *bw = &c->between;
	char g[32], far[32];

	(void)b;
	ct_report_fmt_gap(bw->gap_ns, g, sizeof(g));
	ct_report_fmt_gap(bw->max_gap_ns, far, sizeof(far));
	if (c->scope == CT_SCOPE_ACROSS && rep->within_session)
		snprintf(buf, len, "within these sessions, as --within-session asks");
	else if (c->scope == CT_SCOPE_ACROSS)
		snprintf(buf, len,
			 "holds for these sessions; how far sessions %s apart%s move is unknown on "
			 "this machine: %s",
			 g, bw->reboot ? " across a reboot" : "", c->calibrate_hint);
	else if (c->scope == CT_SCOPE_MACHINE && bw->covers)
		snprintf(buf, len,
			 "across sessions: this machine's sessions %s apart or more%s move by "
			 "%.1f%% (CoV, from %zu pair%s of %zu sessions of %zu config%s)",
			 g, bw->reboot ? " across a reboot" : "", 100 * ct_stats_between_cov(bw),
			 bw->npairs, bw->npairs == 1 ? "" : "s", bw->nsessions, bw->nconfigs,
			 bw->nconfigs == 1 ? "" : "s");
	else if (c->scope == CT_SCOPE_MACHINE)
		snprintf(buf, len,
			 "does not cover these sessions, %s apart%s: this machine's sessions "
			 "move by %.1f%% (CoV) at up to %s apart; a covering estimate: %s",
			 g, bw->reboot ? " across a reboot" : "", 100 * ct_stats_between_cov(bw),
			 far, c->calibrate_hint);
	else
		buf[0] = '\0';
	return buf;
}

/* "load  other vs base: +10.6% [-4.4%, +26.3%]  p=0.14 (Welch), 0.13 (U) ..."
 * - of the judged figure, or (figure) of an extra one */
static void verdict_line(FILE *f, const struct ct_report *rep, const struct ct_report_block *b,
			 const struct ct_report_cell *c, const char *figure,
			 const struct ct_stats_comparison *v, const char *verdict)
{
	char note[1536];

	fprintf(f, "%-9s %s vs %s: %s%s", b->load, c->label, rep->base_label, figure ? figure : "",
		figure ? ": " : "");
	if (v->decided_by == CT_TEST_NONE) {
		fprintf(f, "%s\n", verdict);
		return;
	}
	ct_report_print_effect(f, v);
	fprintf(f, "  ");
	if (v->have_t)
		fprintf(f, "p=%.2g (Welch), ", v->t.p);
	fprintf(f, "%.2g (U)", v->u.p);
	if (v->npairs) {
		fprintf(f, "; paired over %zu blocks: ", v->npairs);
		if (v->have_pt)
			fprintf(f, "p=%.2g (paired t), ", v->pt.p);
		if (v->decided_by == CT_TEST_SIGNED_RANK)
			fprintf(f, "%.2g (signed-rank)", v->p);
		else if (v->have_w)
			fprintf(f, "%.2g (signed-rank)", v->w.p);
		else
			fprintf(f, "- (signed-rank)");
	}
	if (v->decided_by == CT_TEST_SESSIONS)
		fprintf(f, "; %zu vs %zu sessions: %.2g (Welch on their medians)",
			v->nsessions_other, v->nsessions_base, v->p);
	if (v->decided_by == CT_TEST_ACROSS)
		fprintf(f, "; %zu vs %zu sessions: %.2g (t with the machine's spread of sessions)",
			v->nsessions_other, v->nsessions_base, v->p);
	rp_scope_note(rep, b, c, note, sizeof(note));
	fprintf(f, "  Holm p=%.2g by %s: %s%s%s%s\n", v->p_adj, ct_report_test_name(v), verdict,
		note[0] ? " (" : "", note, note[0] ? ")" : "");
}

void ct_report_print_sessions(FILE *f, const struct ct_report *rep)
{
	bool pooled = false;

	for (size_t k = 0; k < rep->nconfigs; k++)
		pooled |= rep->configs[k].nsessions != 1 || rep->configs[k].nunfinished;
	if (!pooled)
		return;
	fprintf(f, "\nSessions:");
	for (size_t k = 0; k < rep->nconfigs; k++) {
		const struct ct_report_config *c = &rep->configs[k];

		fprintf(f, "%s '%s' %zu (%zu runs", k ? ";" : "", c->label, c->nsessions, c->nruns);
		if (c->nunfinished)
			fprintf(f, ", %zu interrupted, used as asked", c->nunfinished);
		fputc(')', f);
	}
	fputc('\n', f);
}

void ct_report_print_verdicts(FILE *f, const struct ct_report *rep, const char *note)
{
	size_t ncells = rep->nblocks ? rep->blocks[0].ncells : 0;
	unsigned nsecondary = 0;
	bool heading = false;

	for (unsigned k = 0; k < rep->nextra; k++)
		nsecondary += rep->extra[k].secondary;
	for (size_t j = 0; j < ncells; j++) {
		if (!rep->blocks[0].cells[j].compared)
			continue;
		if (!heading)
			fprintf(f,
				"\n%s against '%s' (%s%sHolm-adjusted across %zu load%s%s%s, %g%% "
				"confidence):\n",
				rep->figure, rep->base_label, note ? note : "", note ? "; " : "",
				rep->nblocks, rep->nblocks == 1 ? "" : "s",
				nsecondary < rep->nextra ? " and figures" : "",
				nsecondary ? "; the other figures among themselves, never gating"
					   : "",
				rep->confidence);
		heading = true;
		for (size_t i = 0; i < rep->nblocks; i++) {
			const struct ct_report_cell *c = &rep->blocks[i].cells[j];

			verdict_line(f, rep, &rep->blocks[i], c, NULL, &c->cmp,
				     ct_report_verdict(rep, c));
			for (unsigned k = 0; k < rep->nextra; k++)
				verdict_line(f, rep, &rep->blocks[i], c, rep->extra[k].metric,
					     &c->extra_cmp[k],
					     ct_report_outcome(rep, &c->extra_cmp[k],
							       rep->extra[k].higher_better));
		}
	}
}

/* A run's figure as the table shows it: Time with fmt_time's decimals,
 * any other figure (tps, p99 in us, IOPS) with one. */
static const char *fmt_value(const struct ct_report *rep, double v, char *buf, size_t len)
{
	if (rep->higher_better || rep->figure_kind != CT_FIGURE_TIME)
		snprintf(buf, len, "%.1f", v);
	else
		rp_fmt_time(v, buf, len);
	return buf;
}

/*
 * One flagged run and its evidence: interference (foreign CPU, steal, PSI),
 * the state it started from (dirty and writeback page cache, the CPU's
 * speed before its load) and the load's rate during it against the cell's
 * median - a run that met a weaker or stronger load than its siblings says
 * so here.
 */
static void print_flag(FILE *f, const struct ct_report *rep, const struct ct_report_block *b,
		       const struct ct_report_cell *c, const struct ct_report_flag *fl)
{
	char v[32], d[32], w[32], run[48];

	/* pooled sessions: which session's run */
	if (c->nsessions > 1 && fl->run)
		snprintf(run, sizeof(run), "run %u of session %lld", fl->run->seq,
			 (long long)fl->run->session_id);
	else
		snprintf(run, sizeof(run), "run %u", fl->run ? fl->run->seq : 0);
	if (fl->unmonitored) {
		fprintf(f, "%-9s %s %s flagged (%s %s): imported, no monitors to say why\n",
			b->load, c->label, run, fmt_value(rep, c->values[fl->value], v, sizeof(v)),
			rep->unit);
		return;
	}
	fprintf(f,
		"%-9s %s %s flagged (%s %s): foreign CPU %.0f%%, steal %.1f%%, PSI %s some "
		"%.0f%%",
		b->load, c->label, run, fmt_value(rep, c->values[fl->value], v, sizeof(v)),
		rep->unit, fl->foreign_pct, fl->steal_pct, fl->psi_resource, fl->psi_pct);
	if (fl->start_dirty_bytes >= 0 && fl->start_writeback_bytes >= 0)
		fprintf(f, ", started with %s dirty and %s under writeback",
			ct_fmt_size((uint64_t)fl->start_dirty_bytes, d, sizeof(d)),
			ct_fmt_size((uint64_t)fl->start_writeback_bytes, w, sizeof(w)));
	if (!isnan(fl->cpu_speed_rel))
		fprintf(f, ", CPU speed %.0f%% of the median", 100 * fl->cpu_speed_rel);
	if (!isnan(fl->load_rate))
		fprintf(f, ", load %.*f %s/s (median %.*f)", fl->load_rate < 10 ? 2 : 0,
			fl->load_rate, b->work_unit ? b->work_unit : "units",
			fl->load_rate_median < 10 ? 2 : 0, fl->load_rate_median);
	fprintf(f, "; %s\n", fl->likely_fluke ? "likely fluke" : "no interference seen");
}

void ct_report_print_flagged(FILE *f, const struct ct_report *rep)
{
	const char *unit = rep->unit;
	char v[32];

	for (size_t i = 0; i < rep->nblocks; i++) {
		const struct ct_report_block *b = &rep->blocks[i];

		for (size_t j = 0; j < b->ncells; j++) {
			const struct ct_report_cell *c = &b->cells[j];

			for (size_t k = 0; k < c->nflags; k++)
				print_flag(f, rep, b, c, &c->flags[k]);
			if (c->nflags)
				fprintf(f, "%-9s %s mean without flagged runs: %s %s (%zu run%s)\n",
					b->load, c->label,
					fmt_value(rep, c->mean_unflagged, v, sizeof(v)), unit,
					c->n - c->nflags, c->n - c->nflags == 1 ? "" : "s");
		}
	}
}

void ct_report_print_diff(FILE *f, const struct ct_report *rep)
{
	for (size_t d = 0; d < rep->ndiffs; d++) {
		fprintf(f, "%s%s (", d ? "; " : "\nconfigs differ in: ", rep->diffs[d].name);
		for (size_t k = 0; k < rep->nconfigs; k++)
			fprintf(f, "%s%s: %s", k ? ", " : "", rep->configs[k].label,
				rep->diffs[d].values[k][0] ? rep->diffs[d].values[k] : "-");
		fprintf(f, ")");
	}
	if (rep->ndiffs)
		fputc('\n', f);
}

/* A figure of the reference as the text shows it, "-" when missing. */
const char *rp_ref_fig(double v, int fig, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fig == CT_REF_MEM ? "%.2f" : "%.1f", v);
	return buf;
}

/* A drift in %, "-" when unknown. */
const char *rp_drift_pct(double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%", v);
	return buf;
}

static void drift_row(FILE *f, int w, const char *label, const struct ct_report_ref *r,
		      const struct ct_report_drift *d)
{
	char b[CT_REF_NFIGS][32], p[32], n[32];

	snprintf(n, sizeof(n), "%zu/%zu", r->nsessions, r->nrefs);
	fprintf(f, "%-*s  %-12s %-9s %-10s %-9s ", w, label,
		rp_ref_fig(r->median[CT_REF_CPU], CT_REF_CPU, b[0], sizeof(b[0])),
		rp_ref_fig(r->median[CT_REF_MEM], CT_REF_MEM, b[1], sizeof(b[1])),
		rp_ref_fig(r->median[CT_REF_DISK], CT_REF_DISK, b[2], sizeof(b[2])), n);
	if (!d) {
		fputs("baseline\n", f);
		return;
	}
	if (!d->compared) {
		fputs("-\n", f);
		return;
	}
	for (int i = 0; i < CT_REF_NFIGS; i++)
		fprintf(f, "%s%s %s", i ? ", " : "", ct_ref_fig_names[i],
			rp_drift_pct(d->pct[i], p, sizeof(p)));
	fputc('\n', f);
}

void ct_report_print_drift(FILE *f, const struct ct_report *rep)
{
	long base = rep->nblocks ? rep->blocks[0].base_cell : -1;
	int w = label_width(rep);
	char p[32];

	if (!rep->have_refs || !rep->drift)
		return;
	fprintf(f,
		"\nHost reference (median over each config's sessions) and its drift against "
		"'%s':\n",
		rep->base_label);
	fprintf(f, "%-*s  %-12s %-9s %-10s %-9s %s\n", w, "Config", "cpu steps/us", "mem GB/s",
		"disk MB/s", "sess/refs", "Drift");
	if (base < 0)
		drift_row(f, w, rep->base_label, &rep->base_ref, NULL);
	for (size_t k = 0; k < rep->nconfigs; k++)
		drift_row(f, w, rep->drift[k].label, &rep->drift[k].ref,
			  (long)k == base ? NULL : &rep->drift[k]);
	for (size_t k = 0; k < rep->nconfigs; k++) {
		const struct ct_report_drift *d = &rep->drift[k];

		for (size_t i = 0; i < d->nwarnings; i++)
			fprintf(f,
				"warning: %s %s vs %s: the host's %s drifted %s between their "
				"sessions, at least half the effect %+.1f%%\n",
				d->warnings[i].load, d->label, rep->base_label,
				ct_ref_fig_names[d->largest],
				rp_drift_pct(d->pct[d->largest], p, sizeof(p)),
				d->warnings[i].effect_pct);
	}
}
