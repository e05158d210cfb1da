/*
 * contend why (include/contend/report.h, docs/statistics.md "Why"): each
 * compared config's stored counters against its baseline's - the time
 * budget of the foreground's tasks first, then the counters that moved,
 * ranked, and those whose run-to-run variation follows the judged figure.
 */
#include "contend/report.h"
#include "contend/util.h"
#include "internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The counters of runs ids[0..n). */
static int side_counters(struct ct_store *st, const int64_t *ids, size_t n,
			 struct ct_counters **out, char *err, size_t len)
{
	struct ct_counters *cs = calloc(n ? n : 1, sizeof(*cs));
	int rc = 0;

	*out = NULL;
	if (!cs)
		return ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n && !rc; i++)
		if (ids[i])
			rc = ct_store_run_counters(st, ids[i], &cs[i], err, len);
	if (rc) {
		free(cs);
		return rc;
	}
	*out = cs;
	return 0;
}

/* A side's values of counter name, and the judged figure of the same
 * runs; returns how many runs have it. */
static size_t values_of(const struct ct_counters *cs, const double *figs, size_t n,
			const char *name, double *v, double *fig)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!ct_counters_get(&cs[i], name, &v[k]))
			fig[k++] = figs[i];
	return k;
}

static double median_of(const double *x, size_t n, double *scratch)
{
	memcpy(scratch, x, n * sizeof(*x));
	return ct_stats_median(scratch, n);
}

/* The median absolute deviation, scaled to a normal's sd (1.4826). */
static double mad_of(const double *x, size_t n, double *scratch)
{
	double m = median_of(x, n, scratch);

	for (size_t i = 0; i < n; i++)
		scratch[i] = fabs(x[i] - m);
	return 1.4826 * ct_stats_median(scratch, n);
}

/* One counter: its medians, shift, effect and test. */
static int test_row(struct ct_why_row *w, const double *a, size_t na, const double *b, size_t nb,
		    double confidence, double *scratch)
{
	struct ct_stats_shift sh;
	struct ct_stats_ttest t;
	double sa, sb, spread;
	int rc;

	w->nbase = na;
	w->n = nb;
	w->p = w->p_adj = 1;
	w->shift = w->low = w->high = w->effect = NAN;
	if (na)
		w->base_median = median_of(a, na, scratch);
	if (nb)
		w->median = median_of(b, nb, scratch);
	if (na < CT_WHY_MIN_RUNS || nb < CT_WHY_MIN_RUNS)
		return 0;
	rc = ct_stats_hodges_lehmann(b, nb, a, na, confidence, &sh);
	if (rc == -EINVAL) /* nothing to rank: the medians' difference, exactly */
		sh = (struct ct_stats_shift){ .estimate = w->median - w->base_median,
					      .low = w->median - w->base_median,
					      .high = w->median - w->base_median };
	else if (rc)
		return rc;
	w->shift = sh.estimate;
	w->low = sh.low;
	w->high = sh.high;
	sa = mad_of(a, na, scratch);
	sb = mad_of(b, nb, scratch);
	spread = sqrt((sa * sa + sb * sb) / 2);
	w->effect = spread > 0	   ? w->shift / spread
		    : w->shift > 0 ? INFINITY
		    : w->shift < 0 ? -INFINITY
				   : 0;
	w->tested = true;
	rc = ct_stats_welch(b, nb, a, na, &t);
	if (!rc)
		w->p = t.p;
	else if (rc == -EINVAL) /* neither side varies: only a difference tells */
		w->p = w->base_median == w->median ? 1 : 0;
	else
		return rc;
	return 0;
}

/* Whether a tested row clears its floors: the counter's own and 1% of the
 * larger median. */
static bool clears_floor(const struct ct_why_row *w)
{
	double big = fmax(fabs(w->base_median), fabs(w->median));

	return fabs(w->shift) >= w->info->floor && fabs(w->shift) >= CT_WHY_REL_FLOOR * big;
}

static const struct ct_why_row *sort_rows;

static int by_effect(const void *a, const void *b)
{
	double x = fabs(sort_rows[*(const size_t *)a].effect),
	       y = fabs(sort_rows[*(const size_t *)b].effect);

	return (x < y) - (x > y);
}

int ct_why_judge(struct ct_why *w, const struct ct_why_input *in, size_t n, double confidence)
{
	size_t nmax = 1;
	double *scratch, *x, *y, *p;
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		if (in[i].nbase + in[i].n > nmax)
			nmax = in[i].nbase + in[i].n;
	scratch = malloc(nmax * sizeof(*scratch));
	x = malloc(nmax * sizeof(*x));
	y = malloc(nmax * sizeof(*y));
	p = malloc((n ? n : 1) * sizeof(*p));
	w->rows = calloc(n ? n : 1, sizeof(*w->rows));
	w->ranked = calloc(n ? n : 1, sizeof(*w->ranked));
	w->nrows = w->nranked = w->ntested = 0;
	if (!scratch || !x || !y || !p || !w->rows || !w->ranked)
		rc = -ENOMEM;
	for (size_t i = 0; !rc && i < n; i++) {
		const struct ct_why_input *c = &in[i];
		struct ct_why_row *r = &w->rows[w->nrows++];

		r->info = c->info;
		rc = test_row(r, c->base, c->nbase, c->other, c->n, confidence, scratch);
		r->rho = NAN;
		if (!rc && c->base_fig && c->other_fig && c->nbase >= CT_WHY_MIN_RUNS &&
		    c->n >= CT_WHY_MIN_RUNS) {
			size_t sizes[2] = { c->nbase, c->n };

			memcpy(x, c->base, c->nbase * sizeof(*x));
			memcpy(x + c->nbase, c->other, c->n * sizeof(*x));
			memcpy(y, c->base_fig, c->nbase * sizeof(*y));
			memcpy(y + c->nbase, c->other_fig, c->n * sizeof(*y));
			rc = ct_stats_spearman_within(x, y, sizes, 2, &r->rho);
			r->follows = !rc && fabs(r->rho) >= CT_WHY_FOLLOW_RHO;
		}
		if (!rc && r->tested)
			p[w->ntested++] = r->p;
	}
	if (!rc && w->ntested) {
		rc = ct_stats_holm(p, w->ntested, p);
		for (size_t i = 0, k = 0; !rc && i < w->nrows; i++) {
			struct ct_why_row *r = &w->rows[i];

			if (!r->tested)
				continue;
			r->p_adj = p[k++];
			r->ranked = r->p_adj < (100 - confidence) / 100 && clears_floor(r);
			if (r->ranked)
				w->ranked[w->nranked++] = i;
		}
		sort_rows = w->rows;
		qsort(w->ranked, w->nranked, sizeof(*w->ranked), by_effect);
	}
	free(scratch);
	free(x);
	free(y);
	free(p);
	return rc;
}

int ct_why_runs(struct ct_store *st, const struct ct_why_side *base,
		const struct ct_why_side *other, double confidence, struct ct_why *w, char *err,
		size_t len)
{
	struct ct_counters *ca = NULL, *cb = NULL;
	struct ct_why_input *in = NULL;
	size_t na = base->n, nb = other->n, ncat, nin = 0;
	const struct ct_counter_info *cat = ct_counter_catalogue(&ncat);
	double *vals = NULL;
	int rc;

	rc = side_counters(st, base->ids, na, &ca, err, len);
	if (!rc)
		rc = side_counters(st, other->ids, nb, &cb, err, len);
	if (!rc) {
		in = calloc(ncat, sizeof(*in));
		/* per counter: the baseline's values and figures, then the other's */
		vals = malloc((ncat * 2 * (na + nb) + 1) * sizeof(*vals));
		if (!in || !vals)
			rc = ct_err(err, len, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; !rc && i < na; i++)
		w->nbase += ca[i].n > 0;
	for (size_t i = 0; !rc && i < nb; i++)
		w->n += cb[i].n > 0;
	w->budget = !rc && w->nbase && w->n;
	for (size_t i = 0; !rc && i < ncat; i++) {
		double *at = vals + i * 2 * (na + nb);
		struct ct_why_input *x = &in[nin];

		x->info = &cat[i];
		x->base = at;
		x->base_fig = at + na;
		x->nbase = values_of(ca, base->figs, na, cat[i].name, at, at + na);
		x->other = at + 2 * na;
		x->other_fig = at + 2 * na + nb;
		x->n = values_of(cb, other->figs, nb, cat[i].name, at + 2 * na, at + 2 * na + nb);
		if (!strcmp(cat[i].name, "t_oncpu") && (x->nbase < w->nbase || x->n < w->n))
			w->budget = false;
		if (x->nbase || x->n)
			nin++;
	}
	if (!rc && (rc = ct_why_judge(w, in, nin, confidence)))
		rc = ct_err(err, len, rc, "cannot judge the counters: %s", strerror(-rc));
	if (!rc && !w->ntested)
		snprintf(w->none, sizeof(w->none), "%s",
			 !w->nbase || !w->n
				 ? "no counters stored with these runs (stored before schema 16, "
				   "or run with --no-counters)"
				 : "fewer than 3 runs a side have counters");
	free(ca);
	free(cb);
	free(in);
	free(vals);
	return rc;
}

void ct_why_free(struct ct_why *w)
{
	if (!w)
		return;
	free(w->rows);
	free(w->ranked);
	free(w);
}

/* A cell's ok runs as a side (its ids into ids, n of them). */
static struct ct_why_side cell_side(const struct ct_report_cell *c, int64_t *ids)
{
	struct ct_why_side sd = { ids, c->values, c->n };

	for (size_t i = 0; i < c->n; i++)
		ids[i] = c->ok && c->ok[i] ? c->ok[i]->id : 0;
	return sd;
}

static int why_cell(struct ct_store *st, const struct ct_report_cell *base,
		    const struct ct_report_cell *c, double confidence, struct ct_why *w, char *err,
		    size_t len)
{
	int64_t *ids = malloc((base->n + c->n + 1) * sizeof(*ids));
	struct ct_why_side a, b;
	int rc;

	if (!ids)
		return ct_err(err, len, -ENOMEM, "out of memory");
	a = cell_side(base, ids);
	b = cell_side(c, ids + base->n);
	rc = ct_why_runs(st, &a, &b, confidence, w, err, len);
	free(ids);
	return rc;
}

int ct_report_why(struct ct_report *rep, struct ct_store *st, char *err, size_t len)
{
	for (size_t i = 0; i < rep->nblocks; i++) {
		struct ct_report_block *bl = &rep->blocks[i];
		const struct ct_report_cell *base =
			bl->base_cell >= 0 ? &bl->cells[bl->base_cell] : &bl->base;

		for (size_t j = 0; j < bl->ncells; j++) {
			struct ct_report_cell *c = &bl->cells[j];
			int rc;

			if (!c->compared || c->why)
				continue;
			c->why = calloc(1, sizeof(*c->why));
			if (!c->why)
				return ct_err(err, len, -ENOMEM, "out of memory");
			rc = why_cell(st, base, c, rep->confidence, c->why, err, len);
			if (rc)
				return rc;
		}
	}
	return 0;
}

int ct_report_why_loads(struct ct_report *rep, struct ct_store *st, const char *base_load,
			char *err, size_t len)
{
	const struct ct_report_block *bb = NULL;

	for (size_t i = 0; i < rep->nblocks && !bb; i++)
		if (!strcmp(rep->blocks[i].load, base_load))
			bb = &rep->blocks[i];
	if (!bb)
		return ct_err(err, len, -ENOENT, "no runs under load '%s' to compare with",
			      base_load);
	for (size_t i = 0; i < rep->nblocks; i++) {
		struct ct_report_block *bl = &rep->blocks[i];

		if (bl == bb)
			continue;
		for (size_t j = 0; j < bl->ncells; j++) {
			struct ct_report_cell *c = &bl->cells[j];
			const struct ct_report_cell *base = NULL;
			int rc;

			for (size_t k = 0; k < bb->ncells && !base; k++)
				if (!strcmp(bb->cells[k].label, c->label))
					base = &bb->cells[k];
			if (!base || !c->n || c->why)
				continue;
			c->why = calloc(1, sizeof(*c->why));
			if (!c->why)
				return ct_err(err, len, -ENOMEM, "out of memory");
			snprintf(c->why->base_load, sizeof(c->why->base_load), "%s", base_load);
			rc = why_cell(st, base, c, rep->confidence, c->why, err, len);
			if (rc)
				return rc;
		}
	}
	return 0;
}

const char *rp_why_value(const struct ct_counter_info *ci, double v, bool sign, char *buf,
			 size_t len)
{
	const char *s = sign && v >= 0 ? "+" : "";

	if (!isfinite(v))
		snprintf(buf, len, "%s", v > 0 ? "+inf" : v < 0 ? "-inf" : "?");
	else if (!strcmp(ci->unit, "s") && (fabs(v) >= 1 || v == 0))
		snprintf(buf, len, "%s%.2f s", s, v);
	else if (!strcmp(ci->unit, "s"))
		snprintf(buf, len, "%s%.1f ms", s, 1000 * v);
	else if (!strcmp(ci->unit, "ms"))
		snprintf(buf, len, "%s%.1f ms", s, v);
	else if (!strcmp(ci->unit, "bytes"))
		snprintf(buf, len, "%s%.1f MiB", s, v / (1024.0 * 1024.0));
	else if (!strcmp(ci->unit, "%"))
		snprintf(buf, len, "%s%.1f%%", s, v);
	else if (fabs(v) < 10000)
		snprintf(buf, len, "%s%.0f", s, v);
	else
		snprintf(buf, len, "%s%.3g", s, v);
	return buf;
}

const struct ct_why_row *rp_why_row(const struct ct_why *w, const char *name)
{
	for (size_t i = 0; i < w->nrows; i++)
		if (!strcmp(w->rows[i].info->name, name))
			return &w->rows[i];
	return NULL;
}

void rp_why_text(const struct ct_why_row *r, struct rp_why_text *t)
{
	rp_why_value(r->info, r->base_median, false, t->base, sizeof(t->base));
	rp_why_value(r->info, r->median, false, t->other, sizeof(t->other));
	rp_why_value(r->info, r->shift, true, t->shift, sizeof(t->shift));
	rp_why_value(r->info, r->low, true, t->low, sizeof(t->low));
	rp_why_value(r->info, r->high, true, t->high, sizeof(t->high));
}

const struct ct_why_row *rp_why_next(const struct ct_why *w, bool budget, size_t *k)
{
	while (budget && *k < w->nrows) {
		const struct ct_why_row *r = &w->rows[(*k)++];

		if (r->info->group == CT_CG_BUDGET && strcmp(r->info->name, "t_lifetime"))
			return r;
	}
	while (!budget && *k < w->nranked) {
		const struct ct_why_row *r = &w->rows[w->ranked[(*k)++]];

		if (r->info->group != CT_CG_BUDGET)
			return r;
	}
	return NULL;
}

static void print_row(FILE *f, const struct ct_why_row *r, size_t rank)
{
	struct rp_why_text t;

	rp_why_text(r, &t);
	if (rank)
		fprintf(f, "  %2zu. ", rank);
	else
		fprintf(f, "      ");
	fprintf(f, "%s %s: %s per run [%s, %s]  (%s; effect %.1f, p %.2g%s)\n",
		ct_counter_direction(r->info, r->shift), r->info->what, t.shift, t.low, t.high,
		r->info->name, r->effect, r->p_adj, r->ranked || rank ? "" : ", not ranked");
}

/* The budget's line: each part that ranked, largest first, and on CPU
 * when it did not. The tasks' other sleep comes last: most of it is a
 * parent waiting for its children (make, a shell), which grows with the
 * wall time whatever made it grow. */
static void print_budget_line(FILE *f, const struct ct_why *w, const char *label, const char *base)
{
	static const char *const parts[] = { "t_blkio",	    "t_cpu_wait", "t_oncpu",  "t_reclaim",
					     "t_thrashing", "t_compact",  "t_swapin", "t_wpcopy" };
	const struct ct_why_row *order[CT_ARRAY_SIZE(parts)], *sleep = rp_why_row(w, "t_sleep");
	size_t n = 0;
	bool oncpu = false;
	char sh[48], lo[48], hi[48];

	for (size_t i = 0; i < CT_ARRAY_SIZE(parts); i++) {
		const struct ct_why_row *r = rp_why_row(w, parts[i]);

		if (r && r->ranked) {
			size_t k = n++;

			while (k > 0 && fabs(order[k - 1]->shift) < fabs(r->shift)) {
				order[k] = order[k - 1];
				k--;
			}
			order[k] = r;
			oncpu |= !strcmp(parts[i], "t_oncpu");
		}
	}
	fprintf(f, "  %s vs %s:", label, base);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s %s %s per run [%s, %s]", i ? "," : "",
			rp_why_value(order[i]->info, order[i]->shift, true, sh, sizeof(sh)),
			order[i]->info->what,
			rp_why_value(order[i]->info, order[i]->low, true, lo, sizeof(lo)),
			rp_why_value(order[i]->info, order[i]->high, true, hi, sizeof(hi)));
	if (!n)
		fprintf(f, " no part of the time budget moved beyond the noise");
	else if (!oncpu)
		fprintf(f, ", on CPU unchanged");
	if (sleep && sleep->ranked)
		fprintf(f, "; %s asleep otherwise (waiting for children, mostly)",
			rp_why_value(sleep->info, sleep->shift, true, sh, sizeof(sh)));
	fputc('\n', f);
}

void ct_why_print(FILE *f, const struct ct_why *w, const char *label, const char *base,
		  const char *load, double confidence, bool all)
{
	/* against the same config under another load: the loads name the sides */
	const char *bn = *w->base_load ? w->base_load : base, *on = *w->base_load ? load : label;
	size_t shown = 0, nf = 0;
	size_t ncat;

	(void)ct_counter_catalogue(&ncat);
	if (*w->base_load)
		fprintf(f,
			"Why %s under load %s differs from %s under load %s (%zu and %zu runs "
			"with counters):\n",
			label, load, base, w->base_load, w->n, w->nbase);
	else
		fprintf(f,
			"Why %s differs from %s under load %s (%zu and %zu runs with counters):\n",
			label, base, *load ? load : "-", w->n, w->nbase);
	if (!w->ntested) {
		fprintf(f, "  nothing to say: %s\n\n", w->none);
		return;
	}
	if (w->budget) {
		fprintf(f, "  %-44s %10s %10s  %s - %s [%g%% CI]\n", "the tasks' time per run", bn,
			on, on, bn, confidence);
		const struct ct_why_row *r;

		for (size_t k = 0; (r = rp_why_next(w, true, &k));) {
			struct rp_why_text t;

			rp_why_text(r, &t);
			fprintf(f, "  %-44.44s %10s %10s  %s [%s, %s]%s\n", r->info->what, t.base,
				t.other, t.shift, t.low, t.high, r->ranked ? "  *" : "");
		}
		fprintf(f, "  (medians; the memory stalls overlap on CPU and blocked; * ranked)\n");
		print_budget_line(f, w, on, bn);
	} else {
		fprintf(f, "  no time budget: delay accounting was not read for every run (it "
			   "needs root; --no-counters stores none)\n");
	}
	fprintf(f, "  the counters that moved (%zu tested, Holm-adjusted, %g%%):\n", w->ntested,
		confidence);
	for (size_t k = 0; all || shown < CT_WHY_SHOWN;) {
		const struct ct_why_row *r = rp_why_next(w, false, &k);

		if (!r)
			break;
		print_row(f, r, ++shown);
	}
	if (!shown)
		fprintf(f, "      none beyond the noise\n");
	for (size_t i = 0; all && i < w->nrows; i++)
		if (w->rows[i].tested && !w->rows[i].ranked)
			print_row(f, &w->rows[i], 0);
	for (size_t i = 0; i < w->nrows; i++)
		nf += w->rows[i].follows && w->rows[i].info->group != CT_CG_BUDGET;
	if (nf) {
		fprintf(f, "  following the figure within each config (rank correlation, "
			   "descriptive):");
		for (size_t i = 0, k = 0; i < w->nrows; i++)
			if (w->rows[i].follows && w->rows[i].info->group != CT_CG_BUDGET)
				fprintf(f, "%s %s (%+.2f)", k++ ? "," : "", w->rows[i].info->name,
					w->rows[i].rho);
		fprintf(f, "\n");
	}
	if (rp_why_row(w, "pf_task_clock") && !rp_why_row(w, "pf_cycles"))
		fprintf(f, "  perf counted software events only in these runs: no hardware counter "
			   "(cycles, instructions)\n");
	fprintf(f, "\n");
}

void ct_report_print_why(FILE *f, const struct ct_report *rep, bool all)
{
	for (size_t i = 0; i < rep->nblocks; i++) {
		const struct ct_report_block *bl = &rep->blocks[i];
		const struct ct_report_cell *base =
			bl->base_cell >= 0 ? &bl->cells[bl->base_cell] : &bl->base;

		for (size_t j = 0; j < bl->ncells; j++)
			if (bl->cells[j].why)
				ct_why_print(f, bl->cells[j].why, bl->cells[j].label, base->label,
					     bl->load, rep->confidence, all);
	}
}
