/*
 * Workload registry and the generic init/release around each workload's
 * ops: the workload's own directory under the session's work dir.
 */
#include "contend/workload.h"
#include "contend/util.h"
#include "workloads.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define CT_WORKLOAD_REF(n) &ct_workload_##n,
static const struct ct_workload_ops *const workloads[] = { CT_WORKLOADS(CT_WORKLOAD_REF) };

const struct ct_workload_ops *ct_workload_find(const char *name)
{
	for (size_t i = 0; i < CT_ARRAY_SIZE(workloads); i++)
		if (!strcmp(workloads[i]->name, name))
			return workloads[i];
	return NULL;
}

size_t ct_workload_count(void)
{
	return CT_ARRAY_SIZE(workloads);
}

const struct ct_workload_ops *ct_workload_at(size_t i)
{
	return i < CT_ARRAY_SIZE(workloads) ? workloads[i] : NULL;
}

int ct_workload_init(struct ct_workload *w, const struct ct_workload_ops *ops,
		     const struct ct_env *env, const struct ct_workload_opts *opts, char *err,
		     size_t len)
{
	int rc;

	memset(w, 0, sizeof(*w));
	w->ops = ops;
	w->env = env;
	if (opts)
		w->opts = *opts;
	if ((size_t)snprintf(w->dir, sizeof(w->dir), "%s/wl-%s", env->dir, ops->name) >=
		    sizeof(w->dir) ||
	    (size_t)snprintf(w->out_log, sizeof(w->out_log), "%s/foreground.log", env->dir) >=
		    sizeof(w->out_log) ||
	    (size_t)snprintf(w->err_log, sizeof(w->err_log), "%s/foreground.err", env->dir) >=
		    sizeof(w->err_log))
		return ct_err(err, len, -ENAMETOOLONG, "work directory path too long");
	rc = ct_mkdir_p(w->dir, 0755);
	if (rc)
		return ct_err(err, len, rc, "cannot create '%s': %s", w->dir, strerror(-rc));
	if (ops->prepare) {
		rc = ops->prepare(w, err, len);
		if (rc) {
			if (!env->keep_files)
				(void)ct_rm_rf(w->dir);
			return rc;
		}
	}
	ct_workload_params_suite(&w->opts, w->params, sizeof(w->params));
	return 0;
}

void ct_workload_params_suite(const struct ct_workload_opts *o, char *params, size_t len)
{
	size_t used = strlen(params);

	if (o->suite && used + strlen(o->suite) + 8 < len)
		snprintf(params + used, len - used, "%ssuite=%s", used ? " " : "", o->suite);
}

void ct_workload_release(struct ct_workload *w)
{
	if (!w->ops)
		return;
	if (w->ops->cleanup)
		w->ops->cleanup(w);
	if (!w->env->keep_files)
		(void)ct_rm_rf(w->dir);
	w->ops = NULL;
}
