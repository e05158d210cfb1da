/*
 * libFuzzer target: knob specs as --set and --vary take them. Nothing is
 * read from the system; a spec that parses has a name, at least one value
 * (two or more from --vary only after ct_knobs_prepare), and values without
 * control characters other than tab, as ct_knob_parse documents.
 */
#include "contend/knob.h"
#include "contend/util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s, err[CT_ERRLEN];
	struct ct_knob k;
	bool vary;

	if (!size)
		return 0;
	vary = data[0] & 1;
	s = malloc(size);
	if (!s)
		return 0;
	memcpy(s, data + 1, size - 1);
	s[size - 1] = '\0';
	memset(&k, 0, sizeof(k));
	if (!ct_knob_parse(s, vary, &k, err, sizeof(err))) {
		if (!k.name[0] || k.nvalues < 1 || k.nvalues > CT_KNOB_MAX_VALUES)
			abort();
		for (unsigned i = 0; i < k.nvalues; i++) {
			if (!k.values[i][0])
				abort();
			for (const char *p = k.values[i]; *p; p++)
				if (((unsigned char)*p < 0x20 && *p != '\t') || *p == 0x7f)
					abort();
		}
	} else if (!err[0] || strchr(err, '\n')) {
		abort(); /* a refusal is one line */
	}
	free(s);
	return 0;
}
