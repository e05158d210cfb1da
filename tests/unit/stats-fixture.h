/*
 * R's reference values for the statistics' tests: the files of
 * fixtures/stats/ that its R scripts write, read into records of "data
 * CASE KEY v..." (a case's input) and "val CASE KEY v..." (what R
 * computed). Included by each test of src/stats that uses them; the test
 * names its files in stats_fixture_files before including this.
 */
#ifndef CONTEND_TEST_STATS_FIXTURE_H
#define CONTEND_TEST_STATS_FIXTURE_H

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXV	 128
#define REL_STAT 1e-6 /* statistics, R against GSL */
#define REL_P	 1e-4 /* p-values */

struct rec {
	char kind[8], name[32], key[32];
	double v[MAXV];
	size_t n;
};

static struct rec *recs;
static size_t nrecs;

static int load_fixture(void **state)
{
	char path[PATH_MAX], line[8192];
	const char *base = getenv("CT_FIXTURES");
	FILE *f;

	(void)state;
	assert_non_null(base);
	for (size_t file = 0; stats_fixture_files[file]; file++) {
		snprintf(path, sizeof(path), "%s/stats/%s.txt", base, stats_fixture_files[file]);
		f = fopen(path, "r");
		assert_non_null(f);
		while (fgets(line, sizeof(line), f)) {
			struct rec r;
			char *tok, *save = NULL;

			if (line[0] == '#' || line[0] == '\n')
				continue;
			memset(&r, 0, sizeof(r));
			tok = strtok_r(line, " \n", &save);
			snprintf(r.kind, sizeof(r.kind), "%s", tok);
			snprintf(r.name, sizeof(r.name), "%s", strtok_r(NULL, " \n", &save));
			snprintf(r.key, sizeof(r.key), "%s", strtok_r(NULL, " \n", &save));
			while ((tok = strtok_r(NULL, " \n", &save)) && r.n < MAXV)
				r.v[r.n++] = strtod(tok, NULL);
			recs = realloc(recs, (nrecs + 1) * sizeof(*recs));
			assert_non_null(recs);
			recs[nrecs++] = r;
		}
		fclose(f);
	}
	assert_true(nrecs > 0);
	return 0;
}

static int free_fixture(void **state)
{
	(void)state;
	free(recs);
	recs = NULL;
	nrecs = 0;
	return 0;
}

/* NULL when R did not compute it for this case. */
static const struct rec *find(const char *kind, const char *name, const char *key)
{
	for (size_t i = 0; i < nrecs; i++)
		if (!strcmp(recs[i].kind, kind) && !strcmp(recs[i].name, name) &&
		    !strcmp(recs[i].key, key))
			return &recs[i];
	return NULL;
}

static const struct rec *val(const char *name, const char *key)
{
	const struct rec *r = find("val", name, key);

	if (!r)
		fail_msg("fixture has no '%s %s'", name, key);
	return r;
}

/* got within tol of R's want, relative */
static void check(const char *what, double got, double want, double tol)
{
	double err = fabs(got - want);

	if (want == 0 ? got == 0 : err <= tol * fabs(want))
		return;
	fail_msg("%s: got %.17g, R says %.17g (rel err %.3g)", what, got, want,
		 want ? err / fabs(want) : err);
}

#endif
