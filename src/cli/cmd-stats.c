/*
 * `contend stats`: ministat's job done right. Each file holds numbers, one
 * per line; the first file is the baseline and every other one is compared
 * with it (Welch's t and Mann-Whitney U side by side, the ratio of means
 * with Fieller's interval, a verdict at the stated confidence). Text with
 * an ASCII dot plot, or JSON with fixed keys for other tools.
 */
#include "cli.h"
#include "opts.h"
#include "contend/report.h"
#include "contend/util.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct dataset {
	const char *name;
	double *v;
	size_t n, cap;
};

struct stats_args {
	const char *output;
	int format; /* enum ct_report_format, or CLI_FORMAT_AUTO */
	double confidence;
	bool paired;
};

static const struct cli_opt stats_opts[] = {
	CLI_FORMAT(struct stats_args, format),
	CLI_OUTPUT(struct stats_args, output, "the report"),
	CLI_NUM_DEF(CLI_OPT_DOUBLE, 0, "confidence", struct stats_args, confidence, "PCT",
		    "confidence level in percent (%D; %R)", 0, 100, CLI_MIN_OPEN | CLI_MAX_OPEN,
		    "95", NULL),
	CLI_FLAG(0, "paired", struct stats_args, paired,
		 "the files are paired line by line (same length): paired t\nand Wilcoxon "
		 "signed-rank instead of Welch and Mann-Whitney"),
	CLI_END,
};

/* Reads one file; prints the error and returns the exit code on bad input. */
static int read_dataset(struct dataset *d)
{
	bool in = !strcmp(d->name, "-");
	FILE *f = in ? stdin : fopen(d->name, "re");
	char *line = NULL, *p, *end;
	size_t cap = 0;
	unsigned lineno = 0;
	int ex = 0;

	if (!f) {
		return cli_usage_error("stats", "cannot read '%s': %s", d->name, strerror(errno));
	}
	while (getline(&line, &cap, f) > 0) {
		char q[96], qn[160];
		bool hex;
		double v;

		lineno++;
		p = line;
		/* a UTF-8 byte order mark, as some editors write one */
		if (lineno == 1 && !strncmp(p, "\xef\xbb\xbf", 3))
			p += 3;
		for (; *p == ' ' || *p == '\t'; p++)
			;
		end = p + strcspn(p, "#\r\n");
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
		if (end == p)
			continue;
		*end = '\0';
		errno = 0;
		/* decimal numbers only: C's 0x10 (16) in a results file is far
		 * likelier a mistake than a measurement */
		hex = strpbrk(p, "xX") != NULL;
		v = hex ? NAN : ct_strtod(p, &end);
		if (hex || *end || end == p || errno == ERANGE || !isfinite(v)) {
			ex = cli_usage_error("stats", "%s line %u: %s is not a decimal number",
					     ct_quote(d->name, qn, sizeof(qn)), lineno,
					     ct_quote(p, q, sizeof(q)));
			break;
		}
		if (d->n == d->cap) {
			size_t ncap = d->cap ? d->cap * 2 : 1024;
			double *nv = realloc(d->v, ncap * sizeof(*nv));

			if (!nv) {
				cli_error("stats: out of memory reading '%s'", d->name);
				ex = CT_EXIT_ENV;
				break;
			}
			d->v = nv;
			d->cap = ncap;
		}
		d->v[d->n++] = v;
	}
	if (!ex && ferror(f))
		ex = cli_usage_error("stats", "cannot read '%s': %s", d->name, strerror(errno));
	free(line);
	if (!in)
		fclose(f);
	if (!ex && d->n == 0)
		ex = cli_usage_error("stats", "'%s' holds no numbers", d->name);
	else if (!ex && d->n == 1)
		ex = cli_usage_error("stats",
				     "'%s' holds one number; at least two are needed for a spread",
				     d->name);
	return ex;
}

/* The model of the datasets, printed as asked. */
static int report(const struct stats_args *a, struct cli_out *o, struct dataset *d, size_t nd)
{
	const char **names = calloc(nd, sizeof(*names));
	const double **values = calloc(nd, sizeof(*values));
	size_t *counts = calloc(nd, sizeof(*counts));
	struct ct_report rep;
	char err[CT_ERRLEN];
	int rc, ex = 0;

	if (!names || !values || !counts) {
		ex = cli_fail(-ENOMEM, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < nd; i++) {
		names[i] = d[i].name;
		values[i] = d[i].v;
		counts[i] = d[i].n;
	}
	rc = ct_report_from_numbers(&rep, names, values, counts, nd, a->confidence, a->paired, err,
				    sizeof(err));
	if (rc) {
		ex = cli_fail(rc, err);
		goto out;
	}
	ex = cli_out_open(o, "stats");
	if (!ex) {
		if (o->fmt == CT_FORMAT_TEXT)
			ct_report_print_numbers(o->f, &rep);
		else
			rc = cli_out_report(o, &rep, "stats");
		ex = cli_out_close(o, "stats", !rc);
		if (rc && !ex)
			ex = cli_fail(rc, "cannot print the report");
	}
	ct_report_release(&rep);
out:
	free(names);
	free(values);
	free(counts);
	return ex;
}

int cmd_stats(int argc, char **argv)
{
	static const char synopsis[] =
		"contend stats [--format F] [-o FILE] [--confidence PCT] [--paired] FILE...";
	static const char intro[] =
		"  each FILE holds numbers, one per line (blank lines and # comments ignored;\n"
		"  - is standard input); the first is the baseline every other one is\n"
		"  compared with";
	struct stats_args a = { .format = CLI_FORMAT_AUTO };
	struct cli_out o;
	struct dataset *d = NULL;
	struct cli_parsed p;
	size_t nd;
	int ex;

	ex = cli_parse("stats", synopsis, intro, stats_opts, &a, argc, argv, &p);
	if (ex)
		return ex == 1 ? 0 : ex;
	ex = cli_out_setup(&o, "stats", a.format, a.output, false);
	if (ex)
		return ex;
	nd = (size_t)(argc - p.rest);
	if (!nd)
		return cli_usage_error("stats", "needs at least one file");
	if (nd > 64)
		return cli_usage_error("stats", "takes at most 64 files");
	d = calloc(nd, sizeof(*d));
	if (!d)
		return cli_fail(-ENOMEM, "out of memory");
	for (size_t i = 0; i < nd && !ex; i++) {
		d[i].name = argv[p.rest + (int)i];
		for (size_t k = 0; k < i && !ex; k++)
			if (!strcmp(d[i].name, "-") && !strcmp(d[k].name, "-"))
				ex = cli_usage_error("stats",
						     "standard input (-) can be read once");
		ex = read_dataset(&d[i]);
		if (!ex && a.paired && d[i].n != d[0].n) {
			cli_error("--paired: '%s' holds %zu numbers, '%s' %zu", d[i].name, d[i].n,
				  d[0].name, d[0].n);
			ex = CT_EXIT_USAGE;
		}
	}
	if (!ex)
		ex = report(&a, &o, d, nd);
	for (size_t i = 0; i < nd; i++)
		free(d[i].v);
	free(d);
	return ex;
}
