/*
 * A shell command line for the unit tests that make real repositories
 * and files to test against (test-git.c, test-bisect.c): the test's own
 * text, never a user's.
 */
#ifndef CONTEND_TEST_SHELL_H
#define CONTEND_TEST_SHELL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Runs the formatted command through /bin/sh: system()'s status. */
static int sh(const char *fmt, ...) CT_PRINTF(1, 2);
static int sh(const char *fmt, ...)
{
	char cmd[2048];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	assert_true(n > 0 && n < (int)sizeof(cmd));
	return system(cmd);
}

#endif
