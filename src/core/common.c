/*
 * The error-buffer idiom and the mapping from library return codes to the
 * exit codes of docs/architecture.md, kept in one place so every command
 * agrees on what is the user's fault and what is the machine's.
 */
#include "contend/common.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

int ct_err(char *err, size_t len, int rc, const char *fmt, ...)
{
	va_list ap;

	if (err && len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return rc;
}

int ct_exit_code(int rc)
{
	if (rc >= 0)
		return CT_EXIT_OK;
	switch (-rc) {
	case EINVAL:
	case ENOENT:
	case ENOTDIR:
	case ERANGE:
		return CT_EXIT_USAGE;
	case EINTR:
		return CT_EXIT_INTERRUPTED;
	default:
		return CT_EXIT_ENV;
	}
}

const char *ct_enum_name(const char *const *names, size_t n, unsigned v)
{
	return v < n && names[v] ? names[v] : "unknown";
}

int ct_enum_parse(const char *const *names, size_t n, const char *s, unsigned *out)
{
	for (size_t i = 0; s && i < n; i++)
		if (names[i] && !strcmp(s, names[i])) {
			*out = (unsigned)i;
			return 0;
		}
	return -EINVAL;
}
