/*
 * Conventions shared by every part of libcontend: the error-buffer idiom,
 * warn_unused_result, and the exit codes of docs/architecture.md, which the
 * CLI picks from the library's negative errno return values.
 */
#ifndef CONTEND_COMMON_H
#define CONTEND_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#define CT_WUR		 __attribute__((warn_unused_result))
#define CT_PRINTF(a, b)	 __attribute__((format(printf, a, b)))
#define CT_ERRLEN	 256
#define CT_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* contend's version and the commit it was built from, "0.1.0+git251.505d21b1a2c3"
 * (scripts/version; "0.1.0" built outside git). */
extern const char ct_version[];

enum ct_exit {
	CT_EXIT_OK = 0,
	CT_EXIT_REGRESSION = 1,
	CT_EXIT_USAGE = 2,
	CT_EXIT_ENV = 3,
	CT_EXIT_INTERRUPTED = 4,
	/* a search ended without its answer (bisect: no first bad commit) */
	CT_EXIT_NO_ANSWER = 5,
};

/* Formats into err (if non-NULL) and returns rc, so callers write
 * "return ct_err(err, len, -EINVAL, "bad size '%s'", s);". */
int ct_err(char *err, size_t len, int rc, const char *fmt, ...) CT_PRINTF(4, 5);

/* A closed set's words (statuses, roles, answers), indexed by value: the
 * table is the only place they are written. ct_enum_name(): the word of v,
 * "unknown" past the table's n; ct_enum_parse(): the value of word s,
 * -EINVAL for a word that is none of them. */
const char *ct_enum_name(const char *const *names, size_t n, unsigned v);
int ct_enum_parse(const char *const *names, size_t n, const char *s, unsigned *out) CT_WUR;

/* Maps a library return code to an exit code: input errors (-EINVAL,
 * -ENOENT, -ENOTDIR, -ERANGE) are 2, -EINTR is 4, everything else 3. */
int ct_exit_code(int rc);

#endif
