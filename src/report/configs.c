/*
 * The configs a report shows: each one's system facts, from its newest
 * run found, the machine its newest session ran on, the sessions and runs
 * shown of it - and the facts in which they differ (kernel, cmdline,
 * scheduler, sysctls...), the first thing a reader of a comparison asks.
 */
#include "model.h"
#include "internal.h"
#include "contend/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The facts of each config shown, from its newest run found, and the
 * sessions and runs shown of it over every load. */
int rp_load_configs(struct ct_report *rep, const struct rp_ctx *x, char *err, size_t len)
{
	char label[128];
	int rc = 0;

	rep->configs = calloc(x->q->nsrc, sizeof(*rep->configs));
	if (!rep->configs)
		return ct_err(err, len, -ENOMEM, "out of memory");
	for (size_t k = 0; k < x->q->nsrc && !rc; k++) {
		struct ct_report_config *c = &rep->configs[rep->nconfigs++];
		int64_t *seen = NULL, newest = 0;
		size_t cap = 0;
		const struct ct_session_rec *r;

		snprintf(c->label, sizeof(c->label), "%s", x->q->src[k].label);
		for (size_t i = 0; i < rep->nblocks; i++)
			cap += rep->blocks[i].cells[k].nsessions;
		seen = malloc((cap ? cap : 1) * sizeof(*seen));
		if (!seen)
			return ct_err(err, len, -ENOMEM, "out of memory");
		for (size_t i = 0; i < rep->nblocks; i++) {
			const struct ct_report_cell *cell = &rep->blocks[i].cells[k];

			c->nruns += cell->n;
			if (cell->nruns && (!newest || cell->session_id == newest ||
					    rp_newer(x, cell->session_id, newest))) {
				newest = cell->session_id;
				c->config_id = cell->runs[cell->nruns - 1].config_id;
			}
			for (size_t s = 0; s < cell->nsessions; s++) {
				size_t m = 0;

				while (m < c->nsessions && seen[m] != cell->sessions[s])
					m++;
				if (m < c->nsessions)
					continue;
				seen[c->nsessions++] = cell->sessions[s];
				c->nunfinished += rp_unfinished(x, cell->sessions[s]);
			}
		}
		free(seen);
		if ((r = ct_store_session_of(x->recs, x->nrecs, newest)))
			ct_report_machine(&r->owner, c->machine, sizeof(c->machine));
		if (c->config_id)
			rc = ct_store_config_get(x->st, c->config_id, label, sizeof(label), &c->si,
						 err, len);
	}
	return rc;
}

/* Adds fact name to the diffs when the configs' values differ. */
static int diff_fact(struct ct_report *rep, const char *name, const char *const *vals)
{
	struct ct_report_diff *d;
	bool differ = false;

	for (size_t k = 1; k < rep->nconfigs; k++)
		differ |= strcmp(vals[k], vals[0]) != 0;
	if (!differ)
		return 0;
	d = realloc(rep->diffs, (rep->ndiffs + 1) * sizeof(*d));
	if (!d)
		return -ENOMEM;
	rep->diffs = d;
	d = &rep->diffs[rep->ndiffs++];
	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	for (size_t k = 0; k < rep->nconfigs; k++)
		snprintf(d->values[k], sizeof(d->values[k]), "%s", vals[k]);
	return 0;
}

static const char *sysctl_of(const struct ct_sysinfo *si, const char *name)
{
	for (unsigned i = 0; i < si->nsysctl; i++)
		if (!strcmp(si->sysctl[i].name, name))
			return si->sysctl[i].value;
	return "";
}

/* The facts in which the configs shown differ, in sysinfo's order, then
 * every sysctl any of them recorded. */
int rp_config_diffs(struct ct_report *rep)
{
	static const char *const names[] = { "kernel release",
					     "kernel version",
					     "cmdline",
					     "preemption",
					     "cpu",
					     "cpus",
					     "ram",
					     "swap",
					     "filesystem",
					     "block device",
					     "io scheduler" };
	char num[CT_REPORT_MAX_ROWS][3][32];
	const char *vals[CT_REPORT_MAX_ROWS];
	int rc = 0;

	if (rep->nconfigs < 2)
		return 0;
	/* the machine first: configs of a fleet's store may come from many */
	for (size_t k = 0; k < rep->nconfigs; k++)
		vals[k] = rep->configs[k].machine;
	rc = diff_fact(rep, "machine", vals);
	for (size_t f = 0; f < CT_ARRAY_SIZE(names) && !rc; f++) {
		for (size_t k = 0; k < rep->nconfigs; k++) {
			const struct ct_sysinfo *si = &rep->configs[k].si;
			const char *const v[] = {
				si->kernel_release, si->kernel_version, si->cmdline, si->preempt,
				si->cpu_model,	    num[k][0],		num[k][1],   num[k][2],
				si->fs_type,	    si->block_dev,	si->iosched
			};

			snprintf(num[k][0], sizeof(num[k][0]), "%u", si->ncpus);
			ct_fmt_size(si->ram_bytes, num[k][1], sizeof(num[k][1]));
			ct_fmt_size(si->swap_bytes, num[k][2], sizeof(num[k][2]));
			vals[k] = rep->configs[k].config_id ? v[f] : "";
		}
		rc = diff_fact(rep, names[f], vals);
	}
	for (size_t k = 0; k < rep->nconfigs && !rc; k++)
		for (unsigned i = 0; i < rep->configs[k].si.nsysctl && !rc; i++) {
			const char *name = rep->configs[k].si.sysctl[i].name;
			bool seen = false;

			for (size_t d = 0; d < rep->ndiffs && !seen; d++)
				seen = !strcmp(rep->diffs[d].name, name);
			for (size_t m = 0; m < k && !seen; m++)
				seen = *sysctl_of(&rep->configs[m].si, name) != '\0';
			if (seen)
				continue;
			for (size_t m = 0; m < rep->nconfigs; m++)
				vals[m] = sysctl_of(&rep->configs[m].si, name);
			rc = diff_fact(rep, name, vals);
		}
	return rc;
}

const char *rp_row_heading(const struct ct_report *rep)
{
	bool own = rep->nconfigs > 0;

	for (size_t d = 0; d < rep->ndiffs; d++)
		if (!strcmp(rep->diffs[d].name, "kernel release"))
			return "Kernel";
	for (size_t k = 0; k < rep->nconfigs && own; k++)
		own = rep->configs[k].config_id &&
		      !strcmp(rep->configs[k].label, rep->configs[k].si.kernel_release);
	return own ? "Kernel" : "Config";
}
