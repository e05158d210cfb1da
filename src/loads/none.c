/*
 * The reference: no background load at all. Every other load's Ratio is its
 * time divided by the time under this one, so it must cost nothing: no
 * process is started and the harness reports zero work.
 */
#include "loads.h"

static int none_prepare(struct ct_load *l, char *err, size_t len)
{
	l->nworkers = 0;
	return 0;
}

const struct ct_load_ops ct_load_none = {
	.name = "none",
	.summary = "no background load: the reference every ratio is taken against",
	.flags = CT_LOAD_DEFAULT,
	.work_unit = "-",
	.unit_scale = 1,
	.prepare = none_prepare,
};
