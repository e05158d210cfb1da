/*
 * What the driver's two files share and nothing above sees.
 */
#ifndef CONTEND_BISECT_INTERNAL_H
#define CONTEND_BISECT_INTERNAL_H

#include "contend/bisection.h"

/* The runs a side a step of role may take: --max-runs, twice that for the
 * regression - good against bad is measured once and every step is read
 * against it, so it takes more runs before it may end the bisection
 * (tests/sim/bisect-sim.c: at 10% of runs flukes, 40 runs a side left the
 * regression unfound in up to 6% of bisections, 80 in under 0.5%). */
unsigned bisect_max(const struct ct_bisector *c, enum ct_bisect_role role);

/* The ok runs of sha in the rows of step seq (driver.c). */
unsigned bisect_runs_in(const struct ct_bisector *c, unsigned seq, const char *sha);

#endif
