/*
 * libFuzzer target: fio's JSON output as contend import fio reads it, with
 * the figure chosen by the first byte. Any input either fails with one
 * line, or gives at least one job, each with at least one run, every run
 * holding the chosen figure, finite, under its judged name.
 */
#include "contend/import.h"
#include "contend/run.h"
#include "contend/util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const metrics[] = { "iops", "bw", "clat_p50", "read_clat_p99" };
	static const char *const keys[] = { "iops", "bw_kib", "clat_p50_us", "clat_p99_us" };
	char err[CT_ERRLEN] = "";
	struct ct_fio f = { 0 };
	unsigned m;
	double v;

	if (!size)
		return 0;
	m = data[0] % 4;
	if (ct_fio_parse((const char *)data + 1, size - 1, "fuzz", metrics[m], NULL, &f, err,
			 sizeof(err))) {
		if (!err[0] || strchr(err, '\n'))
			abort();
		ct_fio_free(&f);
		return 0;
	}
	if (!f.n)
		abort();
	for (size_t i = 0; i < f.n; i++) {
		if (!f.jobs[i].n)
			abort();
		for (size_t k = 0; k < f.jobs[i].n; k++)
			if (ct_run_metric(&f.jobs[i].runs[k], keys[m], &v) || !isfinite(v))
				abort();
	}
	ct_fio_free(&f);
	return 0;
}
