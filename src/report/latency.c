/*
 * The latency workload's printer, interbench's table with repeated runs:
 * per load a row per config and task - wakeup latency mean, p99 and max in
 * ms (each the mean over the runs), the share of the desired CPU the task
 * got and of its deadlines it met - then what the verdicts judge.
 */
#include "internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

size_t rp_tasks_of(const struct ct_report *rep, char names[][16], size_t max)
{
	const char *p = strstr(rep->params, "tasks=");
	size_t n = 0;

	if (!p || rep->figure_kind != CT_FIGURE_LATENCY)
		return 0;
	p += 6;
	while (*p && *p != ' ' && n < max) {
		size_t w = strcspn(p, ", ");

		snprintf(names[n++], 16, "%.*s", (int)(w < 15 ? w : 15), p);
		p += w;
		if (*p == ',')
			p++;
	}
	return n;
}

void rp_latency_rows(const struct ct_report *rep, rp_latency_row_fn row, void *ctx)
{
	static const char *const names[6] = { "mean_us", "p50_us",  "p99_us",
					      "max_us",	 "cpu_pct", "met_pct" };
	char tasks[8][16], full[64];
	size_t nt = rp_tasks_of(rep, tasks, 8);
	double v[6];

	for (size_t i = 0; i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].ncells; j++) {
			const struct ct_report_cell *c = &rep->blocks[i].cells[j];

			for (size_t t = 0; c->n && t <= nt; t++) {
				const char *task = t < nt ? tasks[t] : "probe";

				for (int k = 0; k < 6; k++) {
					snprintf(full, sizeof(full), "%s_%s", task, names[k]);
					v[k] = rp_metric(c, full);
				}
				if (t == nt && isnan(v[2]))
					break; /* no probe */
				row(ctx, rep->blocks[i].load, c->label,
				    t < nt ? task : "wakeup probe", v);
			}
		}
}

static void cell_value(FILE *f, const struct ct_report_cell *c, const char *task, const char *name,
		       double scale, int decimals)
{
	char full[64];
	double v;

	snprintf(full, sizeof(full), "%s_%s", task, name);
	v = rp_metric(c, full);
	if (isnan(v))
		fprintf(f, " %8s", "-");
	else
		fprintf(f, " %8.*f", decimals, v / scale);
}

void ct_report_print_latency(FILE *f, const struct ct_report *rep)
{
	char tasks[8][16];
	size_t nt = rp_tasks_of(rep, tasks, 8);
	int w = 16;

	for (size_t i = 0; i < rep->nblocks; i++)
		for (size_t j = 0; j < rep->blocks[i].ncells; j++)
			if ((int)strlen(rep->blocks[i].cells[j].label) > w)
				w = (int)strlen(rep->blocks[i].cells[j].label);
	for (size_t i = 0; i < rep->nblocks; i++) {
		const struct ct_report_block *b = &rep->blocks[i];

		fprintf(f, "%s%s:\n", i ? "\n" : "", b->load);
		fprintf(f, "%-*s  %-6s %-7s %8s %8s %8s %8s %8s\n", w, rp_heading(rep), "[runs]",
			"Task", "Mean ms", "p99 ms", "Max ms", "CPU%", "Met%");
		for (size_t j = 0; j < b->ncells; j++) {
			const struct ct_report_cell *c = &b->cells[j];

			if (!c->n)
				fprintf(f, "%-*s  %-6s %s\n", w, c->label, "0",
					c->nruns ? "(every run failed)" : "(no runs)");
			for (size_t t = 0; c->n && t < nt; t++) {
				if (t)
					fprintf(f, "%-*s  %-6s", w, "", "");
				else
					fprintf(f, "%-*s  %-6zu", w, c->label, c->n);
				fprintf(f, " %-7s", tasks[t]);
				cell_value(f, c, tasks[t], "mean_us", 1e3, 3);
				cell_value(f, c, tasks[t], "p99_us", 1e3, 3);
				cell_value(f, c, tasks[t], "max_us", 1e3, 3);
				cell_value(f, c, tasks[t], "cpu_pct", 1, 1);
				cell_value(f, c, tasks[t], "met_pct", 1, 1);
				fputc('\n', f);
			}
			rp_probe_line(f, c);
			rp_failed_runs(f, c);
		}
	}
	fprintf(f, "\nLatency: how late each period began (gaming: how much longer a frame took "
		   "than its work), the mean of the runs' means, p99s and maxima; CPU%%: of the "
		   "share asked for; Met%%: periods done by their deadline\n");
	/* what the verdicts judge, when there are verdicts (two configs or more) */
	if (nt && rep->compared)
		fprintf(f, "Judged: p99 of %s (lower is better)%s\n", tasks[0],
			rep->nextra ? ", and each figure named in the verdicts" : "");
}
