/*
 * The one list of foreground workloads. Adding one: write
 * src/workloads/NAME.c ending in "const struct ct_workload_ops
 * ct_workload_NAME", add it here and to meson.build.
 */
#ifndef CONTEND_WORKLOADS_H
#define CONTEND_WORKLOADS_H

#include "contend/workload.h"

#define CT_WORKLOADS(X) \
	X(kbuild)       \
	X(cmd)          \
	X(oltp)         \
	X(latency)      \
	X(pgbench)      \
	X(selftest)

#define CT_WORKLOAD_DECLARE(n) extern const struct ct_workload_ops ct_workload_##n;
CT_WORKLOADS(CT_WORKLOAD_DECLARE)
#undef CT_WORKLOAD_DECLARE

#endif
