/*
 * Where a command's report goes and in which format: --format and -o FILE
 * for every command that prints results. The format is --format's, or the
 * extension of -o's file (.json, .csv, .md, .html), or text. A file is
 * written whole or not at all: into a temporary file beside it, renamed
 * over it only once everything was written and flushed, so a reader (a CI
 * gate, a web server) never sees half a report, and an earlier report
 * survives a failed write.
 */
#include "cli.h"
#include "opts.h"
#include "contend/util.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const struct ct_option_choice cli_formats[] = {
	{ "text", CT_FORMAT_TEXT },
	{ "json", CT_FORMAT_JSON },
	{ "csv", CT_FORMAT_CSV },
	{ "md", CT_FORMAT_MD },
	{ NULL, 0 },
};
const struct ct_option_choice cli_formats_html[] = {
	{ "text", CT_FORMAT_TEXT }, { "json", CT_FORMAT_JSON }, { "csv", CT_FORMAT_CSV },
	{ "md", CT_FORMAT_MD },	    { "html", CT_FORMAT_HTML }, { NULL, 0 },
};

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n > t && !strcmp(s + n - t, tail);
}

static int infer(const char *path, enum ct_report_format *fmt)
{
	static const struct {
		const char *ext;
		enum ct_report_format fmt;
	} exts[] = {
		{ ".json", CT_FORMAT_JSON }, { ".csv", CT_FORMAT_CSV },	 { ".md", CT_FORMAT_MD },
		{ ".html", CT_FORMAT_HTML }, { ".htm", CT_FORMAT_HTML },
	};

	const char *base = strrchr(path, '/'), *dot;

	for (size_t i = 0; i < CT_ARRAY_SIZE(exts); i++)
		if (ends_with(path, exts[i].ext)) {
			*fmt = exts[i].fmt;
			return 0;
		}
	/* no extension, or .txt: text; any other names a format there is not */
	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	if (!dot || dot == base || !dot[1] || !strcmp(dot, ".txt"))
		return 0;
	return -ENOENT;
}

/* The directory of path (for the temporary file and the early check). */
static void dir_of(const char *path, char *buf, size_t len)
{
	char copy[4096];

	snprintf(copy, sizeof(copy), "%s", path);
	snprintf(buf, len, "%s", dirname(copy));
}

int cli_out_setup(struct cli_out *o, const char *cmd, int format, const char *path, bool html)
{
	char dir[4096], q[96];

	o->fmt = CT_FORMAT_TEXT;
	o->path = path;
	o->f = stdout;
	o->tmp[0] = '\0';
	if (format != CLI_FORMAT_AUTO) {
		o->fmt = (enum ct_report_format)format;
	} else if (path && infer(path, &o->fmt)) {
		return cli_usage_error(
			cmd,
			"no format has the extension of -o %s: give .json, .csv, .md%s, "
			".txt or none, or --format",
			ct_quote(path, q, sizeof(q)), html ? ", .html" : "");
	}
	if (o->fmt == CT_FORMAT_HTML && !html)
		return cli_usage_error(cmd,
				       "--format html is for run, compare and report; use json, "
				       "csv, md or text");
	if (!path)
		return 0;
	if (!*path)
		return cli_usage_error(cmd, "-o needs a file name");
	dir_of(path, dir, sizeof(dir));
	if (access(dir, W_OK)) {
		int e = errno;

		cli_error("%s: cannot write %s in '%s': %s", cmd, ct_quote(path, q, sizeof(q)), dir,
			  strerror(e));
		return e == ENOENT || e == ENOTDIR ? CT_EXIT_USAGE : CT_EXIT_ENV;
	}
	return 0;
}

int cli_out_open(struct cli_out *o, const char *cmd)
{
	char dir[4096], base[4096], copy[4096], q[96];
	mode_t mask;
	int fd;

	if (!o->path)
		return 0;
	dir_of(o->path, dir, sizeof(dir));
	snprintf(copy, sizeof(copy), "%s", o->path);
	snprintf(base, sizeof(base), "%s", basename(copy));
	if ((size_t)snprintf(o->tmp, sizeof(o->tmp), "%s/.%s.XXXXXX", dir, base) >=
	    sizeof(o->tmp)) {
		o->tmp[0] = '\0';
		return cli_usage_error(cmd, "the -o path is too long");
	}
	fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;

		o->tmp[0] = '\0';
		cli_error("%s: cannot write %s: %s", cmd, ct_quote(o->path, q, sizeof(q)),
			  strerror(e));
		return CT_EXIT_ENV;
	}
	/* the mode a plain create would have given */
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask) || !(o->f = fdopen(fd, "w"))) {
		int e = errno;

		close(fd);
		unlink(o->tmp);
		o->tmp[0] = '\0';
		o->f = stdout;
		cli_error("%s: cannot write %s: %s", cmd, ct_quote(o->path, q, sizeof(q)),
			  strerror(e));
		return CT_EXIT_ENV;
	}
	return 0;
}

int cli_out_close(struct cli_out *o, const char *cmd, bool keep)
{
	char q[96];
	int e = 0;

	if (!o->tmp[0]) {
		if (fflush(stdout) || ferror(stdout)) {
			cli_error("%s: cannot write the report: %s", cmd, strerror(errno));
			return CT_EXIT_ENV;
		}
		return 0;
	}
	if (fflush(o->f) || ferror(o->f) || fsync(fileno(o->f)))
		e = errno ? errno : EIO;
	if (fclose(o->f) && !e)
		e = errno;
	o->f = stdout;
	if (!e && keep && rename(o->tmp, o->path))
		e = errno;
	if (e || !keep)
		unlink(o->tmp);
	o->tmp[0] = '\0';
	if (e) {
		cli_error("%s: cannot write %s: %s", cmd, ct_quote(o->path, q, sizeof(q)),
			  strerror(e));
		return CT_EXIT_ENV;
	}
	return 0;
}

int cli_out_report(struct cli_out *o, const struct ct_report *rep, const char *cmd)
{
	switch (o->fmt) {
	case CT_FORMAT_JSON:
		return ct_report_print_json(o->f, rep, cmd);
	case CT_FORMAT_CSV:
		/* why's rows are its counters; compare --why keeps its runs */
		return !strcmp(cmd, "why") ? ct_report_why_csv(o->f, rep)
					   : ct_report_print_csv(o->f, rep);
	case CT_FORMAT_MD:
		return ct_report_print_md(o->f, rep);
	case CT_FORMAT_HTML:
		return ct_report_print_html(o->f, rep, cmd);
	case CT_FORMAT_TEXT:
		break;
	}
	return 0;
}
