/*
 * Signals the session reacts to (SIGINT, SIGTERM, SIGHUP, SIGQUIT). The handler only
 * records the signal and writes a byte to a self-pipe, so the main loop can
 * poll() the foreground's pidfd and the pipe together and do the real work -
 * killing, reaping, restoring, marking the session - outside the handler.
 */
#ifndef CONTEND_SIGNALS_H
#define CONTEND_SIGNALS_H

#include "contend/common.h"

/* Installs the handlers (idempotent); ignores SIGPIPE. */
int ct_signals_install(void) CT_WUR;
/* Read end of the self-pipe, readable once a signal has arrived; -1 before
 * install. */
int ct_signals_fd(void);
/* The first signal received, or 0. Safe to call anywhere, including long
 * loops in prepare steps that want to give up early. */
int ct_signals_pending(void);

#endif
