/*
 * libFuzzer target: the number, size and duration parsers. ct_strtod is
 * checked against the C library's strtod, which it must equal bit for bit
 * and stop where it stops (its fast path is Clinger's: at most 15 digits
 * times an exact power of ten, one rounding); the others must not crash,
 * and what they accept must hold their documented ranges (ct_parse_scaled,
 * a benchmark's number, a finite one).
 */
#include "contend/util.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), *e1 = NULL, *e2 = NULL;
	double a, b, d;
	uint64_t u;
	int64_t ns;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	a = ct_strtod(s, &e1);
	b = strtod(s, &e2);
	if (e1 != e2 || (memcmp(&a, &b, sizeof(a)) && !(isnan(a) && isnan(b))))
		abort();
	if (!ct_parse_size(s, &u) && size && s[0] == '-')
		abort(); /* negatives are refused */
	if (!ct_parse_duration(s, &ns) && ns < 0)
		abort();
	if (!ct_parse_uint(s, 3, 1000, &u) && (u < 3 || u > 1000))
		abort();
	if (!ct_parse_double(s, &d) && !isfinite(d))
		abort();
	/* a benchmark's number (--figure, --load-work): finite, and read from
	 * the bytes given alone (data is not terminated) */
	if (!ct_parse_scaled((const char *)data, size, &d) && !isfinite(d))
		abort();
	free(s);
	return 0;
}
