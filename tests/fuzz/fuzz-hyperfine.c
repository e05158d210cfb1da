/*
 * libFuzzer target: hyperfine exports as contend import reads them. Any
 * input either fails with one line, or gives at least one result, each with
 * a command and at least one time, every time positive and finite, and
 * exit codes (when there are any) one a time.
 */
#include "contend/import.h"
#include "contend/util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[CT_ERRLEN] = "";
	struct ct_hyperfine h;

	if (ct_hyperfine_parse((const char *)data, size, &h, err, sizeof(err))) {
		if (!err[0] || strchr(err, '\n'))
			abort();
		return 0;
	}
	if (!h.n)
		abort();
	for (size_t i = 0; i < h.n; i++) {
		if (!h.results[i].n)
			abort();
		for (size_t k = 0; k < h.results[i].n; k++)
			if (!(h.results[i].times[k] > 0) || !isfinite(h.results[i].times[k]))
				abort();
	}
	ct_hyperfine_free(&h);
	return 0;
}
