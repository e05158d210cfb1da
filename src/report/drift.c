/*
 * The host's drift in the report model (docs/statistics.md, "The host's
 * drift"): the references every session shown took, read once; each
 * session's medians, each side's median of its sessions' medians, how far
 * a config's moved from the baseline's in %, and the loads whose
 * significant effect the largest drift is at least half of. A session
 * without references (an older store, an import) adds nothing and never
 * warns. The printers only format what is here.
 */
#include "contend/report.h"
#include "internal.h"
#include "contend/stats.h"
#include "contend/util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The drift warns when it is at least this share of a load's effect. */
#define DRIFT_SHARE 0.5

/* Per figure, the median over n sets of figures, the NaN ones left out. */
static int medians(const double (*figs)[CT_REF_NFIGS], size_t n, double out[CT_REF_NFIGS])
{
	double *v = malloc((n ? n : 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (int i = 0; i < CT_REF_NFIGS; i++) {
		size_t k = 0;

		for (size_t j = 0; j < n; j++)
			if (!isnan(figs[j][i]))
				v[k++] = figs[j][i];
		out[i] = ct_stats_median(v, k);
	}
	free(v);
	return 0;
}

/* Session id of label in rep->session_refs, its references read and their
 * medians taken on its first mention. */
static int session_ref(struct ct_report *rep, struct ct_store *st, int64_t id, const char *label,
		       const struct ct_report_session_ref **out, char *err, size_t len)
{
	struct ct_report_session_ref *sr;
	double(*figs)[CT_REF_NFIGS];
	int rc;

	for (size_t i = 0; i < rep->nsession_refs; i++)
		if (rep->session_refs[i].session_id == id) {
			*out = &rep->session_refs[i];
			return 0;
		}
	sr = realloc(rep->session_refs, (rep->nsession_refs + 1) * sizeof(*sr));
	if (!sr)
		return ct_err(err, len, -ENOMEM, "out of memory");
	rep->session_refs = sr;
	sr = &rep->session_refs[rep->nsession_refs++];
	memset(sr, 0, sizeof(*sr));
	sr->session_id = id;
	snprintf(sr->label, sizeof(sr->label), "%s", label);
	rc = ct_store_refs(st, id, &sr->refs, &sr->nrefs, err, len);
	if (rc)
		return rc;
	figs = malloc((sr->nrefs ? sr->nrefs : 1) * sizeof(*figs));
	if (!figs)
		return ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t j = 0; j < sr->nrefs; j++)
		memcpy(figs[j], sr->refs[j].fig, sizeof(figs[j]));
	rc = medians((const double(*)[CT_REF_NFIGS])figs, sr->nrefs, sr->ref.median);
	free(figs);
	if (rc)
		return ct_err(err, len, rc, "out of memory");
	sr->ref.nrefs = sr->nrefs;
	sr->ref.nsessions = sr->nrefs > 0;
	rep->have_refs |= sr->nrefs > 0;
	*out = sr;
	return 0;
}

/* The cell of column k (-1: the baseline in no row) under block b. */
static const struct ct_report_cell *cell_of(const struct ct_report_block *b, long k)
{
	return k >= 0 ? &b->cells[k] : &b->base;
}

/* The reference of one side: over the sessions of its cells in every
 * block, each session once, the median of their medians. */
static int side_ref(struct ct_report *rep, struct ct_store *st, long k, struct ct_report_ref *out,
		    char *err, size_t len)
{
	size_t cap = 0, n = 0;
	int64_t *seen;
	double(*figs)[CT_REF_NFIGS];
	int rc = 0;

	for (size_t i = 0; i < rep->nblocks; i++)
		cap += cell_of(&rep->blocks[i], k)->nsessions;
	seen = malloc((cap ? cap : 1) * sizeof(*seen));
	figs = malloc((cap ? cap : 1) * sizeof(*figs));
	if (!seen || !figs)
		rc = ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t i = 0; !rc && i < rep->nblocks; i++) {
		const struct ct_report_cell *c = cell_of(&rep->blocks[i], k);

		for (size_t s = 0; !rc && s < c->nsessions; s++) {
			const struct ct_report_session_ref *sr = NULL;
			size_t m = 0;

			while (m < n && seen[m] != c->sessions[s])
				m++;
			if (m < n)
				continue;
			seen[n++] = c->sessions[s];
			rc = session_ref(rep, st, c->sessions[s], c->label, &sr, err, len);
			if (rc || !sr->nrefs)
				continue;
			memcpy(figs[out->nsessions++], sr->ref.median, sizeof(figs[0]));
			out->nrefs += sr->nrefs;
		}
	}
	if (!rc && medians((const double(*)[CT_REF_NFIGS])figs, out->nsessions, out->median))
		rc = ct_err(err, len, -ENOMEM, "out of memory");
	free(seen);
	free(figs);
	return rc;
}

static bool significant(const struct ct_report_cell *c)
{
	return c->compared &&
	       (c->cmp.outcome == CT_OUTCOME_LOWER || c->cmp.outcome == CT_OUTCOME_HIGHER);
}

/* Config k against the baseline: the drift per figure, the largest, and a
 * warning for each load whose significant effect (a ratio) is at most
 * twice the largest drift. */
static int drift_of(struct ct_report *rep, size_t k, struct ct_report_drift *d)
{
	double big = -1;

	d->largest = -1;
	for (int i = 0; i < CT_REF_NFIGS; i++) {
		double a = d->ref.median[i], b = rep->base_ref.median[i];

		d->pct[i] = a > 0 && b > 0 ? (a / b - 1) * 100 : NAN;
		if (!isnan(d->pct[i]) && fabs(d->pct[i]) > big) {
			big = fabs(d->pct[i]);
			d->largest = i;
		}
	}
	for (size_t i = 0; i < rep->nblocks; i++) {
		const struct ct_report_cell *c = &rep->blocks[i].cells[k];
		double eff = (c->cmp.effect - 1) * 100;
		struct ct_report_drift_warning *w;

		d->compared |= c->compared;
		if (d->largest < 0 || !significant(c) || !c->cmp.ratio_scale || !isfinite(eff) ||
		    big < DRIFT_SHARE * fabs(eff))
			continue;
		w = realloc(d->warnings, (d->nwarnings + 1) * sizeof(*w));
		if (!w)
			return -ENOMEM;
		d->warnings = w;
		w = &d->warnings[d->nwarnings++];
		snprintf(w->load, sizeof(w->load), "%s", rep->blocks[i].load);
		w->effect_pct = eff;
	}
	return 0;
}

int rp_drift_build(struct ct_report *rep, struct ct_store *st, char *err, size_t len)
{
	long base = rep->nblocks ? rep->blocks[0].base_cell : -1;
	int rc;

	rep->drift = calloc(rep->nconfigs ? rep->nconfigs : 1, sizeof(*rep->drift));
	if (!rep->drift)
		return ct_err(err, len, -ENOMEM, "out of memory");
	rc = side_ref(rep, st, base, &rep->base_ref, err, len);
	for (size_t k = 0; !rc && k < rep->nconfigs && rep->nblocks; k++) {
		struct ct_report_drift *d = &rep->drift[k];

		snprintf(d->label, sizeof(d->label), "%s", rep->configs[k].label);
		rc = side_ref(rep, st, (long)k, &d->ref, err, len);
		if (!rc && drift_of(rep, k, d))
			rc = ct_err(err, len, -ENOMEM, "out of memory");
	}
	return rc;
}

void rp_drift_release(struct ct_report *rep)
{
	for (size_t k = 0; rep->drift && k < rep->nconfigs; k++)
		free(rep->drift[k].warnings);
	free(rep->drift);
	rep->drift = NULL;
	for (size_t i = 0; i < rep->nsession_refs; i++)
		free(rep->session_refs[i].refs);
	free(rep->session_refs);
	rep->session_refs = NULL;
	rep->nsession_refs = 0;
	memset(&rep->base_ref, 0, sizeof(rep->base_ref));
	rep->have_refs = false;
}
