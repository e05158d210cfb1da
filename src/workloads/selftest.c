/* STUB: to be written. */
#include "workloads.h"

#include <unistd.h>

static void stub_exec(struct ct_workload *w)
{
	_exit(127);
}

const struct ct_workload_ops ct_workload_selftest = {
	.name = "selftest",
	.summary = "stub",
	.exec = stub_exec,
};
