/*
 * What the driver's two files share and nothing above sees.
 */
#ifndef CONTEND_BISECT_INTERNAL_H
#define CONTEND_BISECT_INTERNAL_H

#include "contend/bisection.h"

/* The ok runs of sha in the rows of step seq (driver.c). */
unsigned bisect_runs_in(const struct ct_bisector *c, unsigned seq, const char *sha);

#endif
