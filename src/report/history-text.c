/*
 * The history's text and the words every history printer shares: per
 * series a table of its sessions (the order, the session, when it ran,
 * the commit, the label, the runs, the median and its interval), each
 * change point between the rows it falls between, with its effect, its
 * test and the facts that changed across it.
 */
#include "contend/history.h"
#include "contend/report.h"
#include "internal.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <time.h>

const char *ct_history_date(int64_t ns, char *buf, size_t len)
{
	time_t t = (time_t)(ns / 1000000000);
	struct tm tm;

	if (!ns || !localtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%d %H:%M", &tm))
		snprintf(buf, len, "-");
	return buf;
}

const char *rp_history_word(const struct ct_history_change *c)
{
	return c->effect == 0 ? "no change" : c->worse ? "worse" : "better";
}

/* "+8.1% [+6.0%, +10.2%]", or "+8.1%" without an interval */
void rp_history_effect(FILE *f, const struct ct_history_change *c)
{
	fprintf(f, "%+.1f%%", 100 * c->effect);
	if (c->have_effect)
		fprintf(f, " [%+.1f%%, %+.1f%%]", 100 * c->low, 100 * c->high);
}

static void change_lines(FILE *f, const struct ct_history_series *s,
			 const struct ct_history_change *c, size_t num, double confidence)
{
	const struct ct_history_point *pt = &s->points[c->at];
	char d[32];

	fprintf(f, "  ---- change %zu at session %lld (%s): ", num, (long long)pt->session_id,
		ct_history_date(pt->started_at, d, sizeof(d)));
	rp_history_effect(f, c);
	fprintf(f, ", %s; p %.2g; %zu sessions before, %zu after%s\n", rp_history_word(c), c->p,
		c->nbefore, c->nafter, c->acked ? "; acknowledged" : "");
	if (!c->nfacts) {
		fprintf(f, "       no recorded fact differs across it (the same kernel, "
			   "settings and host)\n");
	} else {
		fprintf(f, "       what changed:");
		for (size_t i = 0; i < c->nfacts; i++)
			fprintf(f, "%s %s %s -> %s", i ? ";" : "", c->facts[i].name,
				c->facts[i].before[0] ? c->facts[i].before : "(unknown)",
				c->facts[i].after[0] ? c->facts[i].after : "(unknown)");
		fprintf(f, "\n");
	}
	if (c->host_largest >= 0) {
		fprintf(f, "       the host's references across it:");
		for (int i = 0, k = 0; i < CT_REF_NFIGS; i++)
			if (!isnan(c->host_pct[i]))
				fprintf(f, "%s %s %+.1f%%", k++ ? "," : "", ct_ref_fig_names[i],
					c->host_pct[i]);
		fprintf(f, "%s\n",
			c->host_moved ? "; the host moved at least half as much as the figure: "
					"the change may be the host's"
				      : "");
	}
	if (c->why) {
		char a[64], b[64];

		snprintf(a, sizeof(a), "sessions %lld-%lld", (long long)c->why_from[1],
			 (long long)c->why_to[1]);
		snprintf(b, sizeof(b), "sessions %lld-%lld", (long long)c->why_from[0],
			 (long long)c->why_to[0]);
		ct_why_print(f, c->why, a, b, s->load, confidence, false);
	}
}

int ct_history_print_text(FILE *f, const struct ct_history *h)
{
	fprintf(f, "history of %s: %zu sessions by %s; %s in %s, %s is better\n", h->workload,
		h->nsessions, h->by_commit ? "commit time" : "start time", h->figure, h->unit,
		h->higher_better ? "higher" : "lower");
	if (h->mixed_params)
		fprintf(f, "the sessions ran the workload with other parameters: a series for each "
			   "set\n");
	for (size_t i = 0; i < h->nparam_changes; i++) {
		const struct ct_history_param_change *c = &h->param_changes[i];
		char d[32];

		fprintf(f,
			"  %s on %s: the parameters changed at session %lld (%s): '%s' -> '%s'\n",
			c->load, c->machine, (long long)c->session_id,
			ct_history_date(c->started_at, d, sizeof(d)), c->before, c->after);
	}
	for (size_t i = 0; i < h->nseries; i++) {
		const struct ct_history_series *s = &h->series[i];
		size_t c = 0;

		fprintf(f, "\n%s: machine %s, ", s->load, s->machine[0] ? s->machine : "(unknown)");
		if (h->mixed_params)
			fprintf(f, "parameters '%s', ", s->params);
		fprintf(f, "%zu sessions, %zu change point%s\n", s->npoints, s->nchanges,
			s->nchanges == 1 ? "" : "s");
		fprintf(f, "  %4s %8s  %-16s  %-12s  %-20s %5s %10s  %s\n", "#", "session",
			"started", "commit", "label", "runs", "median", "interval");
		for (size_t p = 0; p < s->npoints; p++) {
			const struct ct_history_point *pt = &s->points[p];
			char d[32], m[32], lo[32], hi[32];

			while (c < s->nchanges && s->changes[c].at == p) {
				change_lines(f, s, &s->changes[c], c + 1, h->confidence);
				c++;
			}
			fprintf(f, "  %4zu %8lld  %-16s  %-12.12s  %-20.20s %5zu %10s  [%s, %s]\n",
				p + 1, (long long)pt->session_id,
				ct_history_date(pt->started_at, d, sizeof(d)),
				pt->commit[0] ? pt->commit : "-", pt->label, pt->n,
				rp_fmt_time(pt->median, m, sizeof(m)),
				rp_fmt_time(pt->low, lo, sizeof(lo)),
				rp_fmt_time(pt->high, hi, sizeof(hi)));
		}
	}
	return ferror(f) ? -EIO : 0;
}
