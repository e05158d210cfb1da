/*
 * The one list of loads that exist. Adding a load: write src/loads/NAME.c
 * ending in "const struct ct_load_ops ct_load_NAME", add it here and to
 * meson.build. Order is the order of listings; the default suite is the
 * loads whose ops have CT_LOAD_DEFAULT, in this order.
 */
#ifndef CONTEND_LOADS_H
#define CONTEND_LOADS_H

#include "contend/load.h"

#define CT_LOADS(X) \
	X(none)     \
	X(process)  \
	X(io)       \
	X(io_other) \
	X(read)     \
	X(list)     \
	X(mem)      \
	X(ctar)     \
	X(xtar)     \
	X(dbench)   \
	X(oltp)     \
	X(null)

#define CT_LOAD_DECLARE(n) extern const struct ct_load_ops ct_load_##n;
CT_LOADS(CT_LOAD_DECLARE)
#undef CT_LOAD_DECLARE

#endif
