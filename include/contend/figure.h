/*
 * A benchmark's own figure, read from what it printed (mmtests' extraction
 * scripts, LKP's key metrics): `--figure NAME=REGEX:DIR[:UNIT][:AGG]` is the
 * number the first group of REGEX captures on a line it matches, the last
 * such line's unless AGG says otherwise; `--figure-json NAME=PATH:DIR...` is
 * the number at PATH in the JSON document the command printed ("jobs.0.
 * read.iops"). DIR says which way is better, higher or lower; UNIT is how
 * reports name it; AGG (last, first, sum, mean, min, max) joins several
 * matches. Numbers take the multipliers --load-work's do (ct_parse_scaled).
 */
#ifndef CONTEND_FIGURE_H
#define CONTEND_FIGURE_H

#include "contend/common.h"
#include "contend/run.h"

#include <regex.h>

enum ct_figure_agg {
	CT_FIGURE_LAST,
	CT_FIGURE_FIRST,
	CT_FIGURE_SUM,
	CT_FIGURE_MEAN,
	CT_FIGURE_MIN,
	CT_FIGURE_MAX,
	CT_FIGURE_NAGG
};
/* their words, as a spec writes them */
extern const char *const ct_figure_agg_names[CT_FIGURE_NAGG];

struct ct_figure_spec {
	struct ct_figure_def def; /* name, unit, direction */
	bool json;		  /* pattern is a JSON path, not a regex */
	enum ct_figure_agg agg;
	char *pattern; /* owned */
	regex_t re;    /* compiled when !json */
};

/* Parses "NAME=PATTERN:higher|lower[:UNIT][:AGG]" (json: PATTERN is a
 * path) into *out, compiling a regex. The direction is the last field
 * "higher" or "lower" followed by at most a unit and an aggregate, so a
 * pattern may hold colons. 0, or -EINVAL (-ENOMEM) with one line in err
 * naming the figure and what is wrong (no direction, a regex without a
 * group, a path with an empty step, a name or unit that is not one). */
int ct_figure_spec_parse(const char *arg, bool json, struct ct_figure_spec *out, char *err,
			 size_t len) CT_WUR;
void ct_figure_spec_free(struct ct_figure_spec *f);

/* The figure's value in text (n bytes; NUL bytes in it end nothing):
 * 0 with *v; -ENOENT when nothing matched (a JSON document that is not
 * there or lacks the path), -EINVAL when what matched is not a number; err
 * says which, naming the figure. */
int ct_figure_read(const struct ct_figure_spec *f, const char *text, size_t n, double *v, char *err,
		   size_t len) CT_WUR;

/* The contents of path, at most max bytes (*out malloc'd, NUL-terminated,
 * *n its length): 0, -EFBIG when it is longer, -errno. */
int ct_figure_slurp(const char *path, size_t max, char **out, size_t *n) CT_WUR;

#endif
