/* fleet/summary_read2: what version 2 of the rank summary adds, read and
 * checked (summary_rd.h): the process groups and each call's group,
 * sequence number and lead-in values, which the distributed view keeps;
 * the steps' bounds, breakdowns and GPU busy times, the kernel summary and
 * the memory peaks, which it checks (type and range, the byte offset of a
 * value at fault) but does not keep. */
#include "fleet/summary_rd.h"

#include <stdlib.h>

static int one_group_member(struct rd *d, const struct jstr *k, size_t i)
{
	int64_t v;
	uint32_t id;
	if (fleet_rd_is_key(k, "pg"))
		return fleet_rd_str(d, "groups[].pg", false, &d->groups[d->ngroups]);
	if (fleet_rd_is_key(k, "ranks"))
		return fleet_rd_str(d, "groups[].ranks", false, &id);
	if (fleet_rd_is_key(k, "size"))
		return fleet_rd_int(d, "groups[].size", 0, INT64_MAX, false, 0, &v);
	return fleet_rd_skip(d);
}

static int one_group(struct rd *d, const struct jstr *k, size_t i)
{
	if (fleet_rd_grow((void **)&d->groups, &d->cap_groups, d->ngroups + 1, sizeof *d->groups))
		return fleet_rd_nomem(d);
	d->groups[d->ngroups] = 0;
	const char *at = (jscan_ws(&d->j), d->j.p);
	int rc = fleet_rd_walk(d, true, "groups[]", one_group_member);
	if (rc)
		return rc;
	if (!d->groups[d->ngroups])
		return fleet_rd_bad(d, at, "groups[]: needs pg (a non-empty name)");
	d->ngroups++;
	return 0;
}

int fleet_rd_groups(struct rd *d)
{
	if (d->groups) {
		free(d->groups);
		d->groups = NULL;
		d->ngroups = d->cap_groups = 0;
	}
	/* an empty list still counts as read */
	if (fleet_rd_grow((void **)&d->groups, &d->cap_groups, 1, sizeof *d->groups))
		return fleet_rd_nomem(d);
	return fleet_rd_walk(d, false, "groups", one_group);
}

int fleet_rd_node2(struct rd *d, const struct jstr *k, struct dist_node *n)
{
	static const char *const lead[] = {"compute", "input", "idle"};
	if (d->version < 2)
		return 1;
	int64_t v;
	if (fleet_rd_is_key(k, "group")) {
		if (!d->groups)
			return fleet_rd_bad(d, d->j.p, "collectives: \"groups\" must come first");
		int rc = fleet_rd_int(d, "group", 0, (int64_t)d->ngroups - 1, false, 0, &v);
		if (rc)
			return rc;
		n->pg = d->groups[v];
		return 0;
	}
	if (fleet_rd_is_key(k, "seq"))
		return fleet_rd_int(d, "seq", 0, RD_TIME_MAX, false, 0, &n->seq);
	int64_t *dst[] = {&n->compute, &n->input, &n->idle};
	for (int q = 0; q < 3; q++)
		if (fleet_rd_is_key(k, lead[q])) {
			d->node_seen |= 8u << q;
			return fleet_rd_int(d, lead[q], 0, RD_TIME_MAX, false, 0, dst[q]);
		}
	return 1;
}

int fleet_rd_node2_done(struct rd *d, const struct dist_node *n, const char *at)
{
	unsigned lead = d->node_seen & 56u;
	if (lead && lead != 56u)
		return fleet_rd_bad(d, at, "collectives[]: compute, input and idle come together");
	if (n->seq >= 0 && !n->pg)
		return fleet_rd_bad(d, at, "collectives[]: a seq needs the call's group");
	return 0;
}

int fleet_rd_seq_done(struct rd *d)
{
	size_t at;
	int64_t want;
	int rc = dist_seq_check(d->w, &at, &want);
	if (rc < 0)
		return fleet_rd_nomem(d);
	if (!rc)
		return 0;
	const struct dist_node *x = &d->w->nodes[at];
	return fleet_rd_bad(d, d->node_at[at],
			    "collectives[]: seq %lld in group '%s' where %lld was due: a group's "
			    "calls are numbered one by one",
			    (long long)x->seq, strpool_get(&d->r->pool, x->pg), (long long)want);
}

/* An object whose members are all integers in [0, 2^61] (a breakdown, a
 * rest or types of the kernel summary). */
static int int_member(struct rd *d, const struct jstr *k, size_t i)
{
	int64_t v;
	return fleet_rd_int(d, "a time or count", 0, RD_TIME_MAX, false, 0, &v);
}

static int busy_member(struct rd *d, const struct jstr *k, size_t i)
{
	int64_t v;
	if (fleet_rd_is_key(k, "gpu"))
		return fleet_rd_int(d, "gpu_busy[].gpu", INT64_MIN + 1, INT64_MAX, false, 0, &v);
	return int_member(d, k, i);
}

static int one_busy(struct rd *d, const struct jstr *k, size_t i)
{
	return fleet_rd_walk(d, true, "gpu_busy[]", busy_member);
}

int fleet_rd_step2(struct rd *d, const struct jstr *k)
{
	int64_t v;
	if (d->version < 2)
		return 1;
	if (fleet_rd_is_key(k, "start") || fleet_rd_is_key(k, "end"))
		return fleet_rd_int(d, "steps[] bound", -RD_TIME_MAX, RD_TIME_MAX, false, 0, &v);
	if (fleet_rd_is_key(k, "breakdown"))
		return fleet_rd_walk(d, true, "breakdown", int_member);
	if (fleet_rd_is_key(k, "gpu_busy"))
		return fleet_rd_walk(d, false, "gpu_busy", one_busy);
	return 1;
}

static int top_kernel_member(struct rd *d, const struct jstr *k, size_t i)
{
	uint32_t id;
	if (fleet_rd_is_key(k, "name"))
		return fleet_rd_str(d, "kernels.top[].name", false, &id);
	return int_member(d, k, i);
}

static int one_top_kernel(struct rd *d, const struct jstr *k, size_t i)
{
	return fleet_rd_walk(d, true, "kernels.top[]", top_kernel_member);
}

static int kernels_member(struct rd *d, const struct jstr *k, size_t i)
{
	if (fleet_rd_is_key(k, "top"))
		return fleet_rd_walk(d, false, "kernels.top", one_top_kernel);
	if (fleet_rd_is_key(k, "rest") || fleet_rd_is_key(k, "types"))
		return fleet_rd_walk(d, true, "kernels", int_member);
	return int_member(d, k, i); /* top_n */
}

/* null, or the value walked by fn as an object (obj) or array. */
static int nullable_walk(struct rd *d, bool obj, const char *what, fleet_rd_member_fn fn)
{
	int rc = jscan_ws(&d->j);
	if (rc)
		return fleet_rd_js_fail(d, rc);
	if (*d->j.p == 'n')
		return fleet_rd_skip(d); /* the tokenizer checks that it is null */
	return fleet_rd_walk(d, obj, what, fn);
}

int fleet_rd_kernels(struct rd *d)
{
	return nullable_walk(d, true, "kernels", kernels_member);
}

static int memory_member(struct rd *d, const struct jstr *k, size_t i)
{
	uint32_t id;
	int64_t v;
	if (fleet_rd_is_key(k, "device"))
		return fleet_rd_str(d, "memory[].device", false, &id);
	return fleet_rd_int(d, "memory[] peak", 0, INT64_MAX, true, -1, &v);
}

static int one_memory(struct rd *d, const struct jstr *k, size_t i)
{
	return fleet_rd_walk(d, true, "memory[]", memory_member);
}

int fleet_rd_memory(struct rd *d)
{
	return nullable_walk(d, false, "memory", one_memory);
}
