/* import_meta: the members of a trace's top-level object other than
 * traceEvents (kineto_load reads them with imp_meta_member): the schema and
 * PyTorch versions, the framework, deviceProperties, distributedInfo and
 * the rest that tr_meta keeps; anything else is skipped. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kineto/import_internal.h"

/* Reads a number into *v (INT64_MIN stays when it is not an integer). */
static int meta_int(struct jscan *j, int64_t *v)
{
	struct jstr s;
	if (jscan_kind(*j->p) != JK_NUMBER)
		return jscan_skip(j);
	int rc = jscan_number(j, &s);
	if (!rc && jnum_i64(s.s, s.len, v))
		*v = INT64_MIN;
	return rc;
}

/* Reads a string (or a number, kept as its text) into a pool id. */
static int meta_str(struct imp *m, uint32_t *id)
{
	struct jscan *j = &m->j;
	struct jstr s;
	int rc;
	if (*j->p == '"')
		rc = jscan_string(j, &s);
	else if (jscan_kind(*j->p) == JK_NUMBER)
		rc = jscan_number(j, &s);
	else
		return jscan_skip(j);
	if (rc)
		return rc;
	*id = imp_intern(m, &s);
	if (*id == TR_NONE)
		return err_set(m->e, ERR_NOMEM, m->t->path, -1, "out of memory"), JS_ERR;
	return JS_OK;
}

/* Walks the members of an object at j->p, calling member() for each key with
 * j->p at its value (member must consume the value). Non-objects are
 * skipped. */
static int walk_object(struct imp *m, int (*member)(struct imp *, const struct jstr *, void *),
		       void *ctx)
{
	struct jscan *j = &m->j;
	int rc;
	if (*j->p != '{')
		return jscan_skip(j);
	j->p++;
	if ((rc = jscan_ws(j)))
		return rc;
	if (*j->p == '}') {
		j->p++;
		return JS_OK;
	}
	for (;;) {
		struct jstr k = {0};
		bool closed;
		if ((rc = jscan_ws(j)))
			return rc;
		if (*j->p != '"')
			return jscan_error(j, j->p, "expected a string key");
		if ((rc = jscan_string(j, &k)) || (rc = jscan_colon(j)) ||
		    (rc = member(m, &k, ctx)) || (rc = jscan_next(j, '}', &closed)))
			return rc;
		if (closed)
			return JS_OK;
	}
}

static int device_member(struct imp *m, const struct jstr *k, void *ctx)
{
	struct tr_device_prop *d = ctx;
	static const struct {
		const char *key;
		size_t off;
	} ints[] = {
	    {"id", offsetof(struct tr_device_prop, id)},
	    {"totalGlobalMem", offsetof(struct tr_device_prop, total_global_mem)},
	    {"computeMajor", offsetof(struct tr_device_prop, compute_major)},
	    {"computeMinor", offsetof(struct tr_device_prop, compute_minor)},
	    {"numSms", offsetof(struct tr_device_prop, num_sms)},
	    {"maxThreadsPerBlock", offsetof(struct tr_device_prop, max_threads_per_block)},
	    {"maxThreadsPerMultiprocessor", offsetof(struct tr_device_prop, max_threads_per_sm)},
	    {"regsPerBlock", offsetof(struct tr_device_prop, regs_per_block)},
	    {"regsPerMultiprocessor", offsetof(struct tr_device_prop, regs_per_sm)},
	    {"warpSize", offsetof(struct tr_device_prop, warp_size)},
	    {"sharedMemPerBlock", offsetof(struct tr_device_prop, shared_mem_per_block)},
	    {"sharedMemPerMultiprocessor", offsetof(struct tr_device_prop, shared_mem_per_sm)},
	    {"sharedMemPerBlockOptin", offsetof(struct tr_device_prop, shared_mem_per_block_optin)},
	};
	if (IMP_KEY(k, "name"))
		return meta_str(m, &d->name);
	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
		if (imp_key_is(k, ints[i].key, strlen(ints[i].key)))
			return meta_int(&m->j, (int64_t *)(void *)((char *)d + ints[i].off));
	return jscan_skip(&m->j);
}

static void device_init(struct tr_device_prop *d)
{
	int64_t *f = &d->id;
	memset(d, 0, sizeof *d);
	for (int64_t *p = f; p <= &d->shared_mem_per_block_optin; p++)
		*p = INT64_MIN;
	d->name = 0;
}

/* "deviceProperties": [ {...}, ... ] (re-read whole on refill). */
static int read_devices(struct imp *m)
{
	struct jscan *j = &m->j;
	struct tr_meta *meta = &m->t->meta;
	int rc;
	meta->ndevices = 0;
	if (*j->p != '[')
		return jscan_skip(j);
	j->p++;
	for (size_t i = 0;; i++) {
		if ((rc = jscan_ws(j)))
			return rc;
		if (*j->p == ']' && i == 0) {
			j->p++;
			return JS_OK;
		}
		struct tr_device_prop d;
		device_init(&d);
		if ((rc = walk_object(m, device_member, &d)))
			return rc;
		struct tr_device_prop *nd =
		    arena_array(&m->t->arena, meta->ndevices + 1, sizeof *nd);
		if (!nd)
			return err_set(m->e, ERR_NOMEM, m->t->path, -1, "out of memory"), JS_ERR;
		if (meta->ndevices)
			memcpy(nd, meta->devices, meta->ndevices * sizeof *nd);
		nd[meta->ndevices++] = d;
		meta->devices = nd;
		bool closed;
		if ((rc = jscan_next(j, ']', &closed)))
			return rc;
		if (closed)
			return JS_OK;
	}
}

static int dist_member(struct imp *m, const struct jstr *k, void *ctx)
{
	struct tr_meta *meta = &m->t->meta;
	(void)ctx;
	if (IMP_KEY(k, "backend"))
		return meta_str(m, &meta->dist_backend);
	if (IMP_KEY(k, "rank"))
		return meta_int(&m->j, &meta->dist_rank);
	if (IMP_KEY(k, "world_size"))
		return meta_int(&m->j, &meta->dist_world_size);
	if (IMP_KEY(k, "pg_count"))
		return meta_int(&m->j, &meta->dist_pg_count);
	if (IMP_KEY(k, "nccl_version"))
		return meta_str(m, &meta->dist_nccl_version);
	return jscan_skip(&m->j);
}

/* Looks for "torch_version" anywhere inside an unknown metadata value. */
static int find_torch_version(struct imp *m, const struct jstr *k, void *ctx)
{
	int *depth = ctx;
	if (IMP_KEY(k, "torch_version") && *m->j.p == '"' && !m->t->meta.torch_version)
		return meta_str(m, &m->t->meta.torch_version);
	if (*m->j.p == '{' && *depth < 8) {
		(*depth)++;
		int rc = walk_object(m, find_torch_version, depth);
		(*depth)--;
		return rc;
	}
	return jscan_skip(&m->j);
}

int imp_meta_member(struct imp *m, const struct jstr *k)
{
	struct tr_meta *meta = &m->t->meta;
	struct jscan *j = &m->j;
	if (IMP_KEY(k, "schemaVersion"))
		return meta_int(j, &meta->schema_version);
	if (IMP_KEY(k, "deviceProperties"))
		return read_devices(m);
	if (IMP_KEY(k, "distributedInfo")) {
		meta->has_dist = *j->p == '{';
		return walk_object(m, dist_member, NULL);
	}
	if (IMP_KEY(k, "displayTimeUnit"))
		return meta_str(m, &meta->display_time_unit);
	if (IMP_KEY(k, "baseTimeNanoseconds"))
		return meta_int(j, &meta->base_time_ns);
	if (IMP_KEY(k, "traceName"))
		return meta_str(m, &meta->trace_name);
	if (IMP_KEY(k, "Framework"))
		return meta_str(m, &meta->framework);
	if (IMP_KEY(k, "torch_version"))
		return meta_str(m, &meta->torch_version);
	if (IMP_KEY(k, "cuda_runtime_version"))
		return meta_str(m, &meta->cuda_runtime_version);
	if (IMP_KEY(k, "cuda_driver_version"))
		return meta_str(m, &meta->cuda_driver_version);
	if (IMP_KEY(k, "cupti_version"))
		return meta_str(m, &meta->cupti_version);
	if (IMP_KEY(k, "hip_runtime_version"))
		return meta_str(m, &meta->hip_runtime_version);
	if (IMP_KEY(k, "roctracer_version"))
		return meta_str(m, &meta->roctracer_version);
	if (*j->p == '{') {
		int depth = 0;
		return walk_object(m, find_torch_version, &depth);
	}
	return jscan_skip(j);
}
