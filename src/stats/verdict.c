/*
 * Tests and verdict of one comparison; see include/contend/verdict.h.
 */
#include "contend/verdict.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

void ct_verdict_tests(struct ct_verdict *v, const double *base, size_t nb, const double *other,
		      size_t no, const double *pbase, const double *pother, size_t npairs,
		      bool higher_better, double confidence)
{
	memset(v, 0, sizeof(*v));
	v->higher_better = higher_better;
	v->p = NAN;
	v->holm_p = NAN;
	v->test = "Welch";
	v->word = "not enough runs (2 a side needed)";
	if (nb >= 2 && no >= 2) {
		if (!ct_stats_welch(base, nb, other, no, &v->t)) {
			v->ok = true;
			v->p = v->t.p;
			v->have_u =
				!ct_stats_mann_whitney(base, nb, other, no, CT_STATS_AUTO, &v->u);
		} else {
			v->word = "no spread in the values: no test possible";
		}
		v->have_ratio = !ct_stats_fieller(other, no, base, nb, confidence, &v->ratio);
	}
	if (npairs >= 2 && pbase && pother) {
		v->npairs = npairs;
		v->have_pt = !ct_stats_paired_t(pbase, pother, npairs, &v->pt);
		v->have_w = !ct_stats_signed_rank(pbase, pother, npairs, CT_STATS_AUTO, &v->w);
		if (v->have_pt) {
			/* the schedule paired the runs: the paired test decides */
			v->ok = true;
			v->test = "paired t";
			v->p = v->pt.p;
		}
	}
}

size_t ct_verdict_pair(const struct ct_run *a, size_t na, const struct ct_run *b, size_t nb,
		       double *pa, double *pb)
{
	size_t n = 0;

	for (size_t i = 0; i < na; i++) {
		if (a[i].status != CT_RUN_OK)
			continue;
		for (size_t j = 0; j < nb; j++)
			if (b[j].status == CT_RUN_OK && b[j].seq == a[i].seq) {
				pa[n] = ct_run_value(&a[i]);
				pb[n] = ct_run_value(&b[j]);
				n++;
				break;
			}
	}
	return n;
}

static void decide(struct ct_verdict *v, double holm_p, double confidence)
{
	double diff;

	if (!v->ok)
		return;
	v->holm_p = holm_p;
	if (holm_p >= 1 - confidence / 100) {
		v->word = "no significant difference";
		return;
	}
	diff = v->have_pt && v->npairs ? v->pt.diff : v->t.diff; /* base - other */
	if (v->higher_better)
		v->word = diff < 0 ? "better" : "worse";
	else
		v->word = diff > 0 ? "better" : "worse";
}

int ct_verdict_holm(struct ct_verdict *v, size_t n, size_t stride, double confidence)
{
	double *p = malloc((n ? n : 1) * sizeof(*p)), *adj = malloc((n ? n : 1) * sizeof(*adj));
	size_t *idx = malloc((n ? n : 1) * sizeof(*idx)), np = 0;
	int rc = 0;

	if (!p || !adj || !idx) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (v[i * stride].ok) {
			p[np] = v[i * stride].p;
			idx[np++] = i;
		}
	if (np && ct_stats_holm(p, np, adj)) {
		rc = -EINVAL;
		goto out;
	}
	for (size_t k = 0; k < np; k++)
		decide(&v[idx[k] * stride], adj[k], confidence);
out:
	free(p);
	free(adj);
	free(idx);
	return rc;
}

bool ct_verdict_worse(const struct ct_verdict *v)
{
	return v->word && !strcmp(v->word, "worse");
}

static void pct(FILE *f, double r)
{
	fprintf(f, "%+.1f%%", (r - 1) * 100);
}

void ct_verdict_print(FILE *f, const char *load, const char *label, const char *base,
		      const struct ct_verdict *v)
{
	fprintf(f, "%-9s %s vs %s: ", load, label, base);
	if (v->have_ratio && v->ratio.bounded) {
		pct(f, v->ratio.ratio);
		fprintf(f, " [");
		pct(f, v->ratio.low);
		fprintf(f, ", ");
		pct(f, v->ratio.high);
		fprintf(f, "]  ");
	} else if (v->have_ratio) {
		pct(f, v->ratio.ratio);
		fprintf(f, " [unbounded]  ");
	}
	if (!v->ok) {
		fprintf(f, "%s\n", v->word);
		return;
	}
	if (v->t.df > 0)
		fprintf(f, "p=%.2g (Welch), ", v->t.p);
	if (v->have_u)
		fprintf(f, "%.2g (U)", v->u.p);
	else
		fprintf(f, "- (U)");
	if (v->npairs) {
		fprintf(f, "; paired over %zu blocks: ", v->npairs);
		if (v->have_pt)
			fprintf(f, "p=%.2g (paired t), ", v->pt.p);
		if (v->have_w)
			fprintf(f, "%.2g (signed-rank)", v->w.p);
		else
			fprintf(f, "- (signed-rank)");
	}
	fprintf(f, "  Holm p=%.2g by %s: %s\n", v->holm_p, v->test, v->word);
}
