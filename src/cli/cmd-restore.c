/*
 * `contend restore`: puts back every knob a contend changed and did not
 * restore (it was killed, or the machine went down), from the journal in
 * the store, one line per knob. Also the journal check `contend run` makes
 * before it changes anything, so a second session never journals a value
 * the first one left behind as if it were the original.
 */
#include "cli.h"
#include "contend/knob.h"
#include "contend/store.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static const char usage[] =
	"usage: contend restore [--db PATH] [--force]\n"
	"\n"
	"Writes back the original value of every knob in the store's journal and\n"
	"reads it back. Entries from an earlier boot are cleared without writing:\n"
	"the reboot already reset them.\n"
	"\n"
	"  --db PATH  results store holding the knob journal\n"
	"  --force    also restore knobs a running contend holds";

int cli_check_journal(struct ct_store *st, char *err, size_t len)
{
	return ct_knob_journal_check(st, err, len);
}

int cmd_restore(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "db", required_argument, NULL, 'd' },
		{ "force", no_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct ct_knob_restored *rs = NULL;
	const char *db = NULL;
	struct ct_store *st;
	char err[CT_ERRLEN] = "";
	bool force = false;
	unsigned bad = 0;
	size_t n = 0;
	int c, rc;

	optind = 1;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			db = optarg;
			break;
		case 'f':
			force = true;
			break;
		case 'h':
			printf("%s\n", usage);
			return 0;
		default:
			fprintf(stderr, "%s\n", usage);
			return CT_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		cli_error("unexpected argument '%s'", argv[optind]);
		return CT_EXIT_USAGE;
	}
	rc = cli_open_store(db, &st);
	if (rc)
		return rc;
	rc = ct_knob_restore_all(st, force, &rs, &n, err, sizeof(err));
	ct_store_close(st);
	if (rc)
		return cli_fail(rc, err);
	if (!n)
		printf("nothing to restore\n");
	for (size_t i = 0; i < n; i++) {
		const struct ct_knob_restored *r = &rs[i];
		const struct ct_journal_entry *e = &r->entry;

		switch (r->how) {
		case CT_RESTORE_DONE:
			printf("restored %s (%s): %s -> %s\n", e->knob, e->path,
			       *r->before ? r->before : "?", e->original);
			break;
		case CT_RESTORE_EARLIER_BOOT:
			printf("cleared %s (%s): changed in an earlier boot, left at its boot value"
			       " %s (was %s before that change)\n",
			       e->knob, e->path, *r->before ? r->before : "?", e->original);
			break;
		case CT_RESTORE_GONE:
			printf("cleared %s (%s): no longer exists\n", e->knob, e->path);
			break;
		case CT_RESTORE_HELD:
			cli_error("not restored %s (%s): %s; --force restores it anyway", e->knob,
				  e->path, r->err);
			bad++;
			break;
		case CT_RESTORE_FAILED:
			cli_error("%s (kept in the journal)", r->err);
			bad++;
			break;
		}
	}
	free(rs);
	return bad ? CT_EXIT_ENV : CT_EXIT_OK;
}
