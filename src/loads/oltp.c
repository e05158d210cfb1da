/*
 * The oltp engine as a background load: the same transactions, pool and
 * group commit as the oltp workload, on its own smaller files, running
 * until it is stopped. The Loads column counts committed transactions.
 */
#include "contend/oltp.h"
#include "loads.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int oltp_check(const struct ct_env *env, const char *dir, char *err, size_t len)
{
	static const struct ct_oltp_opts none;
	struct ct_oltp_params p;
	int rc = ct_oltp_resolve(env->oltp ? env->oltp : &none, dir, env->ncpus, env->quick, true,
				 &p, err, len);

	if (!rc && p.buffered)
		rc = ct_err(err, len, -EINVAL,
			    "oltp load: --buffered applies to the oltp workload only");
	return rc;
}

static int oltp_prepare(struct ct_load *l, char *err, size_t len)
{
	static const struct ct_oltp_opts none;
	const struct ct_oltp_opts *opts = l->env->oltp ? l->env->oltp : &none;
	struct ct_oltp_params *p = calloc(1, sizeof(*p));
	int rc;

	if (!p)
		return ct_err(err, len, -ENOMEM, "out of memory");
	rc = ct_oltp_resolve(opts, l->dir, l->env->ncpus, l->env->quick, true, p, err, len);
	if (!rc && p->buffered)
		rc = ct_err(err, len, -EINVAL,
			    "oltp load: --buffered applies to the oltp workload only");
	if (!rc)
		rc = ct_oltp_create(p, err, len);
	if (rc) {
		free(p);
		return rc;
	}
	l->nworkers = 1;
	l->size = p->data_size;
	ct_oltp_describe(p, l->params, sizeof(l->params));
	l->priv = p;
	return 0;
}

static int oltp_work(struct ct_load *l, unsigned i)
{
	struct ct_oltp_result *res = malloc(sizeof(*res));
	char err[CT_ERRLEN];
	int rc;

	if (!res)
		return ct_load_fail(l, "oltp: out of memory");
	/* duration 0: runs until the harness stops it, counting commits */
	rc = ct_oltp_run(l->priv, res, &l->shm->work, err, sizeof(err));
	free(res);
	return ct_load_fail(l, "%s", rc ? err : "oltp: the engine stopped");
}

static void oltp_cleanup(struct ct_load *l)
{
	if (!l->priv)
		return;
	if (!l->env->keep_files)
		ct_oltp_remove(l->priv);
	free(l->priv);
	l->priv = NULL;
}

const struct ct_load_ops ct_load_oltp = {
	.name = "oltp",
	.summary = "the oltp engine in the background: random O_DIRECT reads, group commit",
	.flags = CT_LOAD_PROFILED,
	.options = ct_oltp_options,
	.work_unit = "transactions",
	.unit_scale = 1,
	.check = oltp_check,
	.prepare = oltp_prepare,
	.work = oltp_work,
	.cleanup = oltp_cleanup,
};
