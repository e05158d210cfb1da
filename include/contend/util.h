/*
 * Small helpers that every subsystem needs and none owns: parsing of sizes
 * and durations as users type them, reading small /proc and /sys files,
 * directory creation and removal, the monotonic clock.
 */
#ifndef CONTEND_UTIL_H
#define CONTEND_UTIL_H

#include "contend/common.h"
#include <sys/types.h>

/* Monotonic and wall clocks in nanoseconds. */
int64_t ct_now_ns(void);
int64_t ct_wall_ns(void);

/* "4096", "64K", "1.5G", "2GiB" -> bytes (binary multiples). 0 on success,
 * -EINVAL on anything else (including trailing junk and negatives). */
int ct_parse_size(const char *s, uint64_t *out) CT_WUR;
/* "30", "30s", "500ms", "2m", "1h" -> nanoseconds. */
int ct_parse_duration(const char *s, int64_t *out_ns) CT_WUR;
/* Whole number in [min, max]. */
int ct_parse_uint(const char *s, uint64_t min, uint64_t max, uint64_t *out) CT_WUR;
/* Finite number >= 0, no trailing junk. */
int ct_parse_number(const char *s, double *out) CT_WUR;
/* Positive finite number. */
int ct_parse_double(const char *s, double *out) CT_WUR;
/* The number a benchmark printed at the start of s (n bytes, not
 * necessarily terminated): an optional sign, digits with an optional
 * fraction and exponent, then an optional SI multiplier (k or K, M, G, T:
 * x1000) or binary one (Ki, Mi, Gi, Ti: x1024) - "25.1k", "3Mi"; what
 * follows is ignored ("25.1k ops/s"). 0, or -EINVAL when s does not start
 * with a finite number. --load-work's counters and --figure's figures are
 * both read by it. */
int ct_parse_scaled(const char *s, size_t n, double *out) CT_WUR;

/* strtod(s, end), with an exact fast path for short decimals. */
double ct_strtod(const char *s, char **end);

/* True when s holds a control character (a byte below 0x20, or 0x7f). */
bool ct_has_control(const char *s);

/* The length of the valid UTF-8 sequence at s (2 to 4 bytes, no overlong
 * form, no surrogate, nothing past U+10FFFF), or 0. */
size_t ct_utf8_len(const unsigned char *s);

/*
 * Splits s into words as a shell would, without expanding anything: words
 * are separated by blanks; '...' keeps everything inside it, "..." all
 * but a backslash, which (outside '...') keeps the character after it. *out is one malloc'd block,
 * NULL-terminated (free(*out)). The number of words, -EINVAL for a quote
 * left open, -ENOMEM.
 */
int ct_split_words(const char *s, char ***out) CT_WUR;
/* Appends s to buf at *off (after a space unless *off is 0), in single
 * quotes when a shell would split or expand it; false, buf unchanged past
 * *off, when it does not fit in size. */
bool ct_append_word(char *buf, size_t size, size_t *off, const char *s);
/* s quoted for a message: 'text', with control characters, bytes that are
 * not valid UTF-8 (a binary file's) and the backslash escaped (\n, \t,
 * \xHH, \\) and the end cut to "..." when it does not fit; valid UTF-8
 * characters stay whole. Returns buf. */
const char *ct_quote(const char *s, char *buf, size_t len);

/*
 * Secrets in a command line or a store target: the password of a URI's
 * user information (scheme://user:PASSWORD@host) and the value of a
 * password keyword (a URI's ?password=, a libpq conninfo's password=VALUE
 * or password = 'quoted value'; sslpassword too). ct_hide_secrets copies
 * in to out (len bytes, always terminated) with each one written as
 * CT_SECRET_MASK, whatever its length, and returns how many it hid; a value
 * already hidden is left as it is. ct_blank_secrets overwrites them in
 * place with '*', keeping the length (for memory another process reads,
 * such as this process's own argv in /proc/PID/cmdline), and returns how
 * many it blanked.
 */
#define CT_SECRET_MASK "********"
unsigned ct_hide_secrets(const char *in, char *out, size_t len);
unsigned ct_blank_secrets(char *s);
/* ct_hide_secrets for a command line joined as a shell would split it
 * (ct_append_word's quoting): each word on its own, the line joined again
 * when one was hidden. */
unsigned ct_hide_secrets_cmdline(const char *in, char *out, size_t len);

/* Formats bytes as "1.5 GiB" into buf. Returns buf. */
const char *ct_fmt_size(uint64_t bytes, char *buf, size_t len);

/* Reads a whole small file (at most len-1 bytes) into buf, NUL-terminated,
 * trailing newline stripped. Returns bytes read or -errno. */
ssize_t ct_read_file(const char *path, char *buf, size_t len) CT_WUR;
/* Replaces the content of an existing file (no O_CREAT) with s. 0 or -errno. */
int ct_write_file(const char *path, const char *s) CT_WUR;
/* Reads the first unsigned number of a file. */
int ct_read_u64(const char *path, uint64_t *out) CT_WUR;

/* mkdir -p; 0 or -errno. */
int ct_mkdir_p(const char *path, mode_t mode) CT_WUR;
/* Whether s is a name JSON keys and SQL paths take as they are: 1 to
 * size - 1 of [a-z0-9_] (a metric's, a counter's). */
bool ct_ident_ok(const char *s, size_t size);
/* Room in *p for n elements of size each, growing *cap by doubling (from
 * first); -ENOMEM, *p untouched, when it cannot. */
int ct_grow(void **p, size_t *cap, size_t n, size_t size, size_t first) CT_WUR;
/* rm -rf without following symlinks or crossing devices; 0 or -errno. */
int ct_rm_rf(const char *path);
/* Free bytes available to unprivileged users on the filesystem of path. */
int ct_fs_free(const char *path, uint64_t *out) CT_WUR;
/* True when path lives on tmpfs or ramfs. */
bool ct_fs_is_tmpfs(const char *path);

/* Fills buf with deterministic pseudo-random bytes (xorshift64*), so written
 * data is incompressible; *state carries the generator between calls. */
void ct_fill_random(void *buf, size_t len, uint64_t *state);
/* A random (version 4) UUID in its 36-character text form, from the
 * kernel's random source: ids that never collide across machines. */
int ct_uuid4(char out[37]) CT_WUR;
uint64_t ct_rand64(uint64_t *state);

/* 64-bit FNV-1a over a string, continuing from h (start with CT_FNV_INIT). */
#define CT_FNV_INIT 0xcbf29ce484222325ULL
uint64_t ct_fnv1a(uint64_t h, const char *s);

#endif
