/*
 * What the store's files share: the backends' ops tables, and the readers
 * of the text that stores of schema 3 to 5 kept, for their migration.
 */
#ifndef CONTEND_STORE_INTERNAL_H
#define CONTEND_STORE_INTERNAL_H

#include "contend/store.h"

extern const struct ct_store_ops ct_store_sqlite;

/* Metrics as schema 3 wrote them, "name=value name=value"; "" is none.
 * -EPROTO for a word that is not name=number. */
int ct_store_metrics_parse_v3(const char *text, struct ct_run *r) CT_WUR;
/* A series as schema 3 wrote it, numbers separated by spaces. *out
 * malloc'd (NULL when empty). */
int ct_store_series_parse_v3(const char *text, double **out, size_t *n) CT_WUR;

#endif
