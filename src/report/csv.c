/*
 * The CSV printers (RFC 4180: a header row, fields quoted when they hold a
 * comma, a quote or a line break, quotes doubled): one row per stored run
 * with every column the store keeps plus the figures the model derived
 * (its value, score, whether it was flagged), the host's drift (its
 * session's reference, its config's drift) and its config's verdict for
 * its load (the same on each of its runs), one row per session for
 * `list`, name,value rows for `sysinfo`, and one row per value for
 * `stats`. An unknown figure is an empty field.
 */
#include "internal.h"
#include "contend/fleet.h"
#include "contend/history.h"

#include <errno.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* The shortest text that reads back as v (0.138581136, not
 * 0.13858113599999999): fewer digits while strtod() gives v again. */
static void num(FILE *f, double v)
{
	char buf[32];

	if (!isfinite(v))
		return;
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, sizeof(buf), "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	fputs(buf, f);
}

static const char *const run_header =
	"session_id,label,workload,load,seq,block,status,reason,started_at_ns,wall_ns,time_s,"
	"user_us,sys_us,cpu_pct,exit_code,load_work,load_unit_scale,loads,load_user_us,"
	"load_sys_us,lcpu_pct,workload_params,load_params,have_psi,psi_cpu_some_us,"
	"psi_cpu_full_us,psi_io_some_us,psi_io_full_us,psi_memory_some_us,psi_memory_full_us,"
	"steal_us,foreign_cpu_us,majflt,pswpin,sectors_read,sectors_written,start_dirty_bytes,"
	"start_writeback_bytes,start_cpu_speed,value,score,outlier,likely_fluke,metrics,"
	"ref_cpu_speed,ref_mem_gbps,ref_disk_mbps,drift_cpu_speed_pct,drift_mem_gbps_pct,"
	"drift_disk_mbps_pct,drift_warning,effect,effect_ci_low,effect_ci_high,holm_p,decided_by,"
	"verdict,machine_sessions_cov,verdict_note,secondary\n";

static void run_row(FILE *f, const struct ct_report_block *b, const struct ct_report_cell *c,
		    const struct ct_run *r)
{
	const struct ct_monitors *m = &r->mon;
	long v = rp_value_of(c, r);
	const struct ct_report_flag *fl = rp_flag_of(c, v);
	bool fluke = fl && fl->likely_fluke;
	fprintf(f, "%lld,", (long long)r->session_id);
	field(f, c->label);
	fputc(',', f);
	field(f, r->workload);
	fputc(',', f);
	field(f, b->load);
	fprintf(f, ",%u,%u,%s,", r->seq, r->block, ct_run_status_name(r->status));
	field(f, r->reason);
	fprintf(f, ",%lld,%lld,", (long long)r->started_at, (long long)r->wall_ns);
	num(f, ct_run_time_s(r));
	fprintf(f, ",%lld,%lld,", (long long)r->user_us, (long long)r->sys_us);
	num(f, ct_run_cpu_pct(r));
	fprintf(f, ",%d,%llu,", r->exit_code, (unsigned long long)r->load_work);
	num(f, r->load_unit_scale);
	fputc(',', f);
	num(f, ct_run_loads(r));
	fprintf(f, ",%lld,%lld,", (long long)r->load_user_us, (long long)r->load_sys_us);
	num(f, ct_run_lcpu_pct(r));
	fputc(',', f);
	field(f, r->workload_params);
	fputc(',', f);
	field(f, r->load_params);
	fprintf(f, ",%d", m->have_psi);
	for (int i = 0; i < 3; i++)
		for (int j = 0; j < 2; j++) {
			fputc(',', f);
			if (m->have_psi)
				fprintf(f, "%lld", (long long)m->psi_us[i][j]);
		}
	fprintf(f, ",%lld,%lld,%lld,%lld,%lld,%lld,", (long long)m->steal_us,
		(long long)m->foreign_cpu_us, (long long)m->majflt, (long long)m->pswpin,
		(long long)m->sectors_read, (long long)m->sectors_written);
	if (m->start_dirty_bytes >= 0)
		fprintf(f, "%lld", (long long)m->start_dirty_bytes);
	fputc(',', f);
	if (m->start_writeback_bytes >= 0)
		fprintf(f, "%lld", (long long)m->start_writeback_bytes);
	fputc(',', f);
	if (m->start_cpu_speed >= 0)
		num(f, m->start_cpu_speed);
	fputc(',', f);
	if (v >= 0)
		num(f, c->values[v]);
	fputc(',', f);
	if (v >= 0 && c->scores)
		num(f, c->scores[v]);
	fprintf(f, ",%d,%d,", v >= 0 && c->outlier && c->outlier[v], fluke);
	/* the workload's own figures as name=value;name=value */
	if (r->nmetrics) {
		fputc('"', f);
		for (unsigned i = 0; i < r->nmetrics; i++) {
			fprintf(f, "%s%s=", i ? ";" : "", r->metrics[i].name);
			num(f, r->metrics[i].value);
		}
		fputc('"', f);
	}
}

/* The host's drift of a run's row: its session's reference (the medians
 * of the references it took), its config's drift against the baseline's
 * and whether it warns for the run's load; then the row's end. */
static void drift_cols(FILE *f, const struct ct_report *rep, const struct ct_report_block *b,
		       size_t j, const struct ct_run *r)
{
	const struct ct_report_session_ref *s = NULL;
	const struct ct_report_drift *d =
		rep->drift && j < rep->nconfigs && rep->drift[j].compared ? &rep->drift[j] : NULL;
	bool warn = false;

	for (size_t i = 0; i < rep->nsession_refs && !s; i++)
		if (rep->session_refs[i].session_id == r->session_id)
			s = &rep->session_refs[i];
	for (int i = 0; i < CT_REF_NFIGS; i++) {
		fputc(',', f);
		if (s)
			num(f, s->ref.median[i]);
	}
	for (int i = 0; i < CT_REF_NFIGS; i++) {
		fputc(',', f);
		if (d)
			num(f, d->pct[i]);
	}
	for (size_t i = 0; d && i < d->nwarnings; i++)
		warn |= !strcmp(d->warnings[i].load, b->load);
	fprintf(f, ",%d", warn);
}

/* A command's other figures against the baseline, as text prints them:
 * "p99 ns: -2.1% [-15.1%, +8.9%] Holm p=0.69 no significant difference"
 * for each, joined by "; " (Holm-adjusted among themselves, never
 * deciding the verdict); "" when there are none. */
static const char *secondary_verdicts(const struct ct_report *rep, const struct ct_report_cell *c,
				      char *buf, size_t len)
{
	size_t off = 0;
	char *mem = NULL;
	size_t mlen = 0;
	FILE *m = open_memstream(&mem, &mlen);

	buf[0] = '\0';
	if (!m)
		return buf;
	for (unsigned k = 0; k < rep->nextra; k++) {
		const struct ct_report_extra *x = &rep->extra[k];
		const struct ct_stats_comparison *v = &c->extra_cmp[k];

		if (!x->secondary || v->decided_by == CT_TEST_NONE)
			continue;
		fprintf(m, "%s%s%s%s: ", off++ ? "; " : "", x->metric, *x->unit ? " " : "",
			x->unit);
		rp_effect(m, v, " [");
		fprintf(m, " Holm p=%.2g %s", v->p_adj,
			ct_report_outcome(rep, v, x->higher_better));
	}
	fclose(m);
	snprintf(buf, len, "%s", mem ? mem : "");
	free(mem);
	return buf;
}

/* The verdict of a run's config against the baseline for the run's load,
 * as text prints it (empty for the baseline): the effect and its interval
 * (a ratio or a difference), Holm's p, the test that decided, the word,
 * the machine's spread of sessions when it decided, and what the verdict
 * says of sessions; then the row's end. */
static void verdict_cols(FILE *f, const struct ct_report *rep, const struct ct_report_block *b,
			 const struct ct_report_cell *c)
{
	const struct ct_stats_comparison *v = &c->cmp;
	bool by = v->decided_by != CT_TEST_NONE;
	char note[1536];

	if (!c->compared) {
		fputs(",,,,,,,,,\n", f);
		return;
	}
	fputc(',', f);
	num(f, v->effect);
	fputc(',', f);
	num(f, v->effect_low);
	fputc(',', f);
	num(f, v->effect_high);
	fputc(',', f);
	if (by)
		num(f, v->p_adj);
	fprintf(f, ",%s,", by ? ct_report_test_name(v) : "");
	field(f, ct_report_verdict(rep, c));
	fputc(',', f);
	if (v->decided_by == CT_TEST_ACROSS)
		num(f, ct_stats_between_cov(&v->between));
	fputc(',', f);
	field(f, by ? rp_scope_note(rep, b, c, note, sizeof(note)) : "");
	fputc(',', f);
	field(f, secondary_verdicts(rep, c, note, sizeof(note)));
	fputc('\n', f);
}

static void numbers_csv(FILE *f, const struct ct_report *rep)
{
	const struct ct_report_block *b = &rep->blocks[0];

	fputs("dataset,index,value,outlier\n", f);
	for (size_t i = 0; i < b->ncells; i++)
		for (size_t k = 0; k < b->cells[i].n; k++) {
			const struct ct_report_cell *c = &b->cells[i];

			field(f, c->label);
			fprintf(f, ",%zu,", k);
			num(f, c->values[k]);
			fprintf(f, ",%d\n", c->outlier && c->outlier[k]);
		}
}

int ct_report_print_csv(FILE *f, const struct ct_report *rep)
{
	if (rep->kind == CT_REPORT_NUMBERS) {
		numbers_csv(f, rep);
		return 0;
	}
	fputs(run_header, f);
	for (size_t i = 0; i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].ncells; j++) {
			const struct ct_report_cell *c = &rep->blocks[i].cells[j];

			for (size_t k = 0; k < c->nruns; k++) {
				run_row(f, &rep->blocks[i], c, &c->runs[k]);
				drift_cols(f, rep, &rep->blocks[i], j, &c->runs[k]);
				verdict_cols(f, rep, &rep->blocks[i], c);
			}
		}
	return 0;
}

int ct_report_sessions_csv(FILE *f, const struct ct_session_rec *recs, size_t n)
{
	fputs("id,label,workload,profile,status,started_at_ns,ended_at_ns,runs,failed,group_id,"
	      "order,order_seed,uuid,hostname,machine_id,argv\n",
	      f);
	for (size_t i = 0; i < n; i++) {
		const struct ct_session_rec *r = &recs[i];

		fprintf(f, "%lld,", (long long)r->id);
		field(f, r->label);
		fputc(',', f);
		field(f, r->workload);
		fputc(',', f);
		field(f, r->profile);
		fprintf(f, ",%s,%lld,", ct_session_status_name(r->status),
			(long long)r->started_at);
		if (r->ended_at)
			fprintf(f, "%lld", (long long)r->ended_at);
		fprintf(f, ",%u,%u,", r->nruns, r->nfailed);
		if (r->group_id)
			fprintf(f, "%lld", (long long)r->group_id);
		fputc(',', f);
		field(f, r->order);
		fputc(',', f);
		if (r->order[0])
			fprintf(f, "%llu", (unsigned long long)r->order_seed);
		fprintf(f, ",%s,", r->uuid);
		field(f, r->owner.host);
		fprintf(f, ",%s,", r->owner.machine);
		field(f, r->argv);
		fputc('\n', f);
	}
	return 0;
}

int ct_report_sysinfo_csv(FILE *f, const struct ct_sysinfo *si, const char *dir)
{
	const char *const rows[][2] = {
		{ "kernel_release", si->kernel_release },
		{ "kernel_version", si->kernel_version },
		{ "cmdline", si->cmdline },
		{ "preemption", si->preempt },
		{ "cpu", si->cpu_model },
		{ "work_dir", dir },
		{ "filesystem", si->fs_type },
		{ "filesystem_source", si->fs_source },
		{ "block_device", si->block_dev },
		{ "io_scheduler", si->iosched },
	};

	fputs("name,value\n", f);
	for (size_t i = 0; i < CT_ARRAY_SIZE(rows); i++) {
		fprintf(f, "%s,", rows[i][0]);
		field(f, rows[i][1]);
		fputc('\n', f);
	}
	fprintf(f, "cpus,%u\n", si->ncpus);
	fprintf(f, "ram_bytes,%llu\n", (unsigned long long)si->ram_bytes);
	fprintf(f, "swap_bytes,%llu\n", (unsigned long long)si->swap_bytes);
	for (unsigned i = 0; i < si->nsysctl; i++) {
		field(f, si->sysctl[i].name);
		fputc(',', f);
		field(f, si->sysctl[i].value);
		fputc('\n', f);
	}
	fprintf(f, "fingerprint,%s\n", si->fingerprint);
	return 0;
}

/* A row per point: its series, the session, and the change that starts
 * at it (empty when none). */
int ct_history_print_csv(FILE *f, const struct ct_history *h)
{
	fputs("load,machine,index,session,uuid,started_at_ns,commit,commit_time_ns,label,runs,"
	      "median,low,high,change_effect,change_low,change_high,change_p,change_worse,"
	      "change_acknowledged,params\n",
	      f);
	for (size_t i = 0; i < h->nseries; i++) {
		const struct ct_history_series *s = &h->series[i];

		for (size_t p = 0; p < s->npoints; p++) {
			const struct ct_history_point *pt = &s->points[p];
			const struct ct_history_change *c = NULL;

			for (size_t k = 0; k < s->nchanges; k++)
				if (s->changes[k].at == p)
					c = &s->changes[k];
			field(f, s->load);
			fputc(',', f);
			field(f, s->machine);
			/* numbered from 1, as the text's # */
			fprintf(f, ",%zu,%lld,%s,%lld,%s,", p + 1, (long long)pt->session_id,
				pt->uuid, (long long)pt->started_at, pt->commit);
			if (pt->commit_time)
				fprintf(f, "%lld", (long long)pt->commit_time);
			fputc(',', f);
			field(f, pt->label);
			fprintf(f, ",%zu,", pt->n);
			num(f, pt->median);
			fputc(',', f);
			num(f, pt->low);
			fputc(',', f);
			num(f, pt->high);
			fputc(',', f);
			if (c) {
				num(f, c->effect);
				fputc(',', f);
				if (c->have_effect)
					num(f, c->low);
				fputc(',', f);
				if (c->have_effect)
					num(f, c->high);
				fputc(',', f);
				num(f, c->p);
				fprintf(f, ",%d,%d,", c->worse, c->acked);
			} else {
				fputs(",,,,,,", f);
			}
			field(f, s->params);
			fputc('\n', f);
		}
	}
	return ferror(f) ? -EIO : 0;
}

int ct_fleet_print_csv(FILE *f, const struct ct_fleet *fl)
{
	static const char *const scopes[] = { [CT_SCOPE_NONE] = "",
					      [CT_SCOPE_SESSION] = "session",
					      [CT_SCOPE_SESSIONS] = "sessions",
					      [CT_SCOPE_ACROSS] = "across-sessions",
					      [CT_SCOPE_MACHINE] = "machine" };

	fputs("machine,hostname,machine_id,label,session,uuid,started_at_ns,sessions,load,runs,"
	      "mean,baseline_session,effect,effect_low,effect_high,holm_p,decided_by,outcome,"
	      "scope\n",
	      f);
	for (size_t k = 0; k < fl->nrows; k++) {
		const struct ct_fleet_row *w = &fl->rows[k];

		for (size_t l = 0; l < fl->nloads; l++) {
			const struct ct_fleet_cell *c = &w->cells[l];
			bool by = c->compared && c->cmp.decided_by != CT_TEST_NONE;

			if (!c->n)
				continue;
			field(f, w->machine);
			fputc(',', f);
			field(f, w->host);
			fprintf(f, ",%s,", w->machine_id);
			field(f, w->label);
			fprintf(f, ",%lld,%s,%lld,%zu,", (long long)w->session_id, w->uuid,
				(long long)w->started_at, w->nsessions);
			field(f, fl->loads[l]);
			fprintf(f, ",%zu,", c->n);
			num(f, c->mean);
			fputc(',', f);
			if (w->base >= 0)
				fprintf(f, "%lld", (long long)fl->rows[w->base].session_id);
			fputc(',', f);
			num(f, by ? c->cmp.effect : NAN);
			fputc(',', f);
			num(f, by ? c->cmp.effect_low : NAN);
			fputc(',', f);
			num(f, by ? c->cmp.effect_high : NAN);
			fputc(',', f);
			num(f, by ? c->cmp.p_adj : NAN);
			fprintf(f, ",%s,", by ? ct_report_test_name(&c->cmp) : "");
			field(f, w->base < 0 ? "baseline" : c->compared ? c->verdict : "");
			fprintf(f, ",%s\n", c->compared ? scopes[c->scope] : "");
		}
	}
	return ferror(f) ? -EIO : 0;
}

int ct_report_why_csv(FILE *f, const struct ct_report *rep)
{
	static const char *const groups[] = { "budget", "tree", "cgroup", "machine" };

	fputs("load,label,baseline,baseline_load,counter,group,unit,baseline_runs,runs,"
	      "baseline_median,median,shift,low,high,effect,p,p_adjusted,tested,ranked,rank,rho,"
	      "follows\n",
	      f);
	for (size_t i = 0; i < rep->nblocks; i++) {
		const struct ct_report_block *b = &rep->blocks[i];
		const char *base = b->base_cell >= 0 ? b->cells[b->base_cell].label : b->base.label;

		for (size_t j = 0; j < b->ncells; j++) {
			const struct ct_report_cell *c = &b->cells[j];
			const struct ct_why *w = c->why;

			for (size_t k = 0; w && k < w->nrows; k++) {
				const struct ct_why_row *r = &w->rows[k];
				size_t rank = 0;

				for (size_t m = 0; m < w->nranked && !rank; m++)
					rank = w->ranked[m] == k ? m + 1 : 0;
				field(f, b->load);
				fputc(',', f);
				field(f, c->label);
				fputc(',', f);
				field(f, *w->base_load ? c->label : base);
				fprintf(f, ",%s,%s,%s,", w->base_load, r->info->name,
					groups[r->info->group]);
				field(f, r->info->unit);
				fprintf(f, ",%zu,%zu,", r->nbase, r->n);
				num(f, r->nbase ? r->base_median : NAN);
				fputc(',', f);
				num(f, r->n ? r->median : NAN);
				fputc(',', f);
				num(f, r->shift);
				fputc(',', f);
				num(f, r->low);
				fputc(',', f);
				num(f, r->high);
				fputc(',', f);
				num(f, r->effect);
				fputc(',', f);
				num(f, r->p);
				fputc(',', f);
				num(f, r->p_adj);
				fprintf(f, ",%d,%d,", r->tested, r->ranked);
				if (rank)
					fprintf(f, "%zu", rank);
				fputc(',', f);
				num(f, r->rho);
				fprintf(f, ",%d\n", r->follows);
			}
		}
	}
	return 0;
}
