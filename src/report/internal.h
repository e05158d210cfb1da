/*
 * What the report layer's printers share and nothing above sees.
 */
#ifndef CONTEND_REPORT_INTERNAL_H
#define CONTEND_REPORT_INTERNAL_H

#include "contend/report.h"

#include <stdio.h>

/* Seconds as contest printed them (two decimals), more for short runs. */
const char *rp_fmt_time(double s, char *buf, size_t len);
/* A ratio as a signed percentage change: 1.106 -> "+10.6%". */
void rp_pct(FILE *f, double r);

#endif
