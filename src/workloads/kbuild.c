/* STUB: to be written. */
#include "workloads.h"

#include <unistd.h>

static void stub_exec(struct ct_workload *w)
{
	_exit(127);
}

const struct ct_workload_ops ct_workload_kbuild = {
	.name = "kbuild",
	.summary = "stub",
	.exec = stub_exec,
};

int ct_kbuild_generate(const char *dir, double scale, unsigned *nfiles, char *err, size_t len)
{
	return -1;
}
