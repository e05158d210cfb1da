/* STUB: to be written. */
#include "loads.h"

const struct ct_load_ops ct_load_process = {
	.name = "process",
	.summary = "stub",
	.work_unit = "units",
	.unit_scale = 1,
};
