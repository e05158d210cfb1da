/*
 * libFuzzer target: what the store decodes from its text columns - a run's
 * metrics (a JSON object of names and numbers) and its per-second series (a
 * JSON array of numbers). Whatever a damaged or hostile store holds, the
 * decoders either refuse it or give what they document: metric names of
 * [a-z0-9_], finite values, no name twice; a series that encodes and
 * decodes back to the same numbers; a histogram whose buckets add up to its
 * count, whose percentiles lie within its minimum and maximum, and which
 * encodes and decodes back bucket for bucket.
 */
#include "contend/store.h"

#include <math.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1), *enc;
	double *v = NULL, *w = NULL;
	size_t n = 0, m = 0;
	struct ct_run r;

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	memset(&r, 0, sizeof(r));
	if (!ct_store_metrics_decode(s, &r)) {
		for (unsigned i = 0; i < r.nmetrics; i++) {
			if (!r.metrics[i].name[0] || !isfinite(r.metrics[i].value) ||
			    strspn(r.metrics[i].name, "abcdefghijklmnopqrstuvwxyz0123456789_") !=
				    strlen(r.metrics[i].name))
				abort();
			for (unsigned k = 0; k < i; k++)
				if (!strcmp(r.metrics[k].name, r.metrics[i].name))
					abort();
		}
	}
	if (!ct_store_series_decode(s, &v, &n)) {
		enc = ct_store_series_encode(v, n);
		if (!enc || ct_store_series_decode(enc, &w, &m) || m != n)
			abort();
		/* the same numbers (-0 may come back as 0: the same tps) */
		for (size_t i = 0; i < n; i++)
			if (!(v[i] == w[i]))
				abort();
		free(enc);
	}
	{
		static struct ct_hist h, back;
		uint64_t total = 0;

		if (!ct_store_hist_decode(s, "probe", &h)) {
			for (unsigned i = 0; i < CT_HIST_BUCKETS; i++)
				total += h.b[i];
			if (total != h.count ||
			    (h.count && (h.min > h.max || ct_hist_pct(&h, 50) < h.min ||
					 ct_hist_pct(&h, 99) > h.max)))
				abort();
			memset(&r, 0, sizeof(r));
			snprintf(r.hists[0].name, CT_HIST_NAME, "probe");
			r.hists[0].h = &h;
			r.nhists = 1;
			enc = ct_store_hists_encode(&r);
			if (!enc || ct_store_hist_decode(enc, "probe", &back) ||
			    memcmp(back.b, h.b, sizeof(h.b)) || back.count != h.count)
				abort();
			free(enc);
		}
	}
	free(v);
	free(w);
	free(s);
	return 0;
}
