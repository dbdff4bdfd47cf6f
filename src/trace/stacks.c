/* stacks: temporal nesting per track -> a tree of distinct stacks with
 * count, self and inclusive ns per node (see stacks.h for the rules). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hmap.h"
#include "core/strpool.h"
#include "trace/stacks.h"
#include "trace/check.h"
#include "trace/link.h"

#define STK_MAX_ITEMS ((size_t)1 << 31)

const char *stk_kind_label(uint8_t kind)
{
	return kind == STK_THREAD_KIND ? "thread" : tr_kind_label((enum tr_kind)kind);
}

static int nomem(struct err *e)
{
	return err_set(e, ERR_NOMEM, "", -1, "out of memory building stacks");
}

/* ---- frames: (a, kind) -> index; a is a name id, or a track for
 * STK_THREAD_KIND frames (whose names live in p->arena) ---- */

struct fkey {
	uint32_t a;
	uint8_t kind;
};

static uint64_t fhash(struct fkey k)
{
	return hmap_hash(((uint64_t)k.a << 8) | k.kind);
}

struct build {
	struct stk_profile *p;
	struct tr_links links;
	bool have_links;
};

struct frame_want {
	const struct stk_profile *p;
	struct fkey k;
};

static bool frame_eq(const void *ctx, uint32_t i)
{
	const struct frame_want *w = ctx;
	return w->p->frames[i].key == w->k.a && w->p->frames[i].kind == w->k.kind;
}

static uint32_t frame_find(const struct stk_profile *p, struct fkey k)
{
	struct frame_want w = {p, k};
	uint32_t f = hmap_get(&p->fmap, fhash(k), frame_eq, &w);
	return f != HMAP_NONE ? f : STK_NONE;
}

size_t stk_track_name(const struct trace *t, uint32_t track, char *buf, size_t size)
{
	const struct tr_track *tk = &t->tracks.v[track];
	char pb[32], tb[32];
	const char *pid = tr_id_text(t, &tk->pid, pb, sizeof pb);
	const char *tid = tr_id_text(t, &tk->tid, tb, sizeof tb);
	uint32_t pn = tk->process < t->procs.n ? t->procs.v[tk->process].name : 0;
	const char *tn = tk->thread_name ? tr_str(t, tk->thread_name) : NULL;
	int n = snprintf(buf, size, "%s%spid %s%s / %s%stid %s%s", pn ? tr_str(t, pn) : "",
			 pn ? " (" : "", pid, pn ? ")" : "", tn ? tn : "", tn ? " (" : "", tid,
			 tn ? ")" : "");
	if (n < 0)
		n = 0;
	if (size && (size_t)n >= size)
		n = (int)size - 1;
	return (size_t)n;
}

static const char *track_name(struct stk_profile *p, uint32_t track, uint32_t *len)
{
	char buf[1024];
	size_t n = stk_track_name(p->t, track, buf, sizeof buf);
	*len = (uint32_t)n;
	return arena_strndup(&p->arena, buf, n);
}

static uint32_t frame_get(struct build *b, uint32_t a, uint8_t kind)
{
	struct stk_profile *p = b->p;
	struct frame_want w = {p, {a, kind}};
	uint64_t h = fhash(w.k);
	uint32_t f;
	size_t slot = hmap_slot(&p->fmap, h, frame_eq, &w, &f);
	if (slot == SIZE_MAX || f != HMAP_NONE)
		return f;
	if (p->nframes >= STK_MAX_ITEMS)
		return STK_NONE;
	if (p->nframes == p->frames_cap) {
		size_t nc = p->frames_cap ? p->frames_cap * 2 : 256;
		struct stk_frame *nf = realloc(p->frames, nc * sizeof *nf);
		if (!nf)
			return STK_NONE;
		p->frames = nf;
		p->frames_cap = nc;
	}
	struct stk_frame *fr = &p->frames[p->nframes];
	memset(fr, 0, sizeof *fr);
	fr->kind = kind;
	fr->key = a;
	if (kind == STK_THREAD_KIND) {
		fr->name = track_name(p, a, &fr->len);
		if (!fr->name)
			return STK_NONE;
	} else {
		fr->name = tr_str(p->t, a);
		fr->len = strpool_len(&p->t->pool, a);
	}
	f = (uint32_t)p->nframes++;
	hmap_set(&p->fmap, slot, h, f);
	return f;
}

/* ---- nodes: (parent, frame, device, stream) -> index ---- */

/* Roots (parent STK_NONE) are told apart by their track, other nodes by
 * (parent, frame, device, stream). */
/* A stream as the stacks key it: -1 for none or one outside 32 bits. */
static int32_t stream32(int64_t s)
{
	return s >= INT32_MIN && s <= INT32_MAX ? (int32_t)s : -1;
}

static uint64_t nhash(uint32_t parent, uint32_t frame, uint32_t track, int32_t dev, int32_t stream)
{
	uint64_t h = hmap_mix((uint64_t)parent << 32 | frame) ^
		     hmap_mix((uint64_t)(uint32_t)dev << 32 | (uint32_t)stream);
	return (parent == STK_NONE ? hmap_mix(h ^ track) : h) | 1;
}

struct node_want {
	const struct stk_profile *p;
	uint32_t parent, frame, track;
	int32_t dev, stream;
};

static bool node_eq(const void *ctx, uint32_t i)
{
	const struct node_want *w = ctx;
	const struct stk_node *n = &w->p->nodes[i];
	return n->parent == w->parent && n->frame == w->frame && n->device == w->dev &&
	       n->stream == w->stream && (w->parent != STK_NONE || n->track == w->track);
}

static uint32_t node_get(struct stk_profile *p, uint32_t parent, uint32_t frame, uint32_t track,
			 int32_t dev, int32_t stream)
{
	struct node_want w = {p, parent, frame, track, dev, stream};
	uint64_t h = nhash(parent, frame, track, dev, stream);
	uint32_t id;
	size_t slot = hmap_slot(&p->nmap, h, node_eq, &w, &id);
	if (slot == SIZE_MAX || id != HMAP_NONE)
		return id;
	if (p->nnodes >= STK_MAX_ITEMS)
		return STK_NONE;
	if (p->nnodes == p->nodes_cap) {
		size_t nc = p->nodes_cap ? p->nodes_cap * 2 : 1024;
		struct stk_node *nn = realloc(p->nodes, nc * sizeof *nn);
		if (!nn)
			return STK_NONE;
		p->nodes = nn;
		p->nodes_cap = nc;
	}
	id = (uint32_t)p->nnodes++;
	p->nodes[id] = (struct stk_node){
	    .parent = parent,
	    .frame = frame,
	    .track = track,
	    .depth = parent == STK_NONE ? 0 : p->nodes[parent].depth + 1,
	    .device = dev,
	    .stream = stream,
	};
	hmap_set(&p->nmap, slot, h, id);
	return id;
}

/* ---- the walk ---- */

struct open_ev {
	uint32_t frame, node;
	int64_t end, dur; /* clipped */
	int64_t child_ns; /* summed clipped durations of the children */
	int64_t gpu_ns;	  /* GPU leaf time below it (gpu option) */
	bool outer;	  /* outermost occurrence of its frame on the stack */
};

static bool walkable(const struct trace *t, size_t r)
{
	return t->ev.ph[r] != 'i' && !(t->ev.flags[r] & TRF_UNMATCHED);
}

/* Events of the walk that are no call (see stacks.h). */
static bool left_out(const struct stk_profile *p, size_t r)
{
	return !p->opts.profiler_span && p->t->ev.kind[r] == TR_TRACE_SPAN;
}

/* GPU leaves under the runtime row rt (node parent). */
static int add_gpu_leaves(struct build *b, uint32_t rt, struct open_ev *top, uint32_t track)
{
	uint32_t parent = top->node;
	struct stk_profile *p = b->p;
	const struct trace *t = p->t;
	size_t nd;
	const uint32_t *dev = tr_links_devices(&b->links, rt, &nd);
	for (size_t i = 0; i < nd; i++) {
		uint32_t d = dev[i];
		uint32_t f = frame_get(b, t->ev.name[d], t->ev.kind[d]);
		if (f == STK_NONE)
			return -1;
		int32_t device = -1, stream = -1;
		if (t->ev.aux[d] != TR_NONE && t->ev.aux[d] < t->gpu.n) {
			device = t->gpu.v[t->ev.aux[d]].device;
			stream = stream32(t->gpu.v[t->ev.aux[d]].stream);
		}
		uint32_t nd_ = node_get(p, parent, f, track, device, stream);
		if (nd_ == STK_NONE)
			return -1;
		int64_t dur = tr_dur(t, d);
		if (dur < 0)
			dur = 0;
		struct stk_node *n = &p->nodes[nd_];
		n->count++;
		n->self_ns += dur;
		n->incl_ns += dur;
		p->frames[f].calls++;
		p->frames[f].self_ns += dur;
		if (!p->frames[f].open)
			p->frames[f].total_ns += dur;
		p->gpu_ns += dur;
		p->self_ns += dur;
		top->gpu_ns += dur;
		p->events++;
	}
	return 0;
}

/* Closes the top of the stack (accounting into nodes when b is set). */
static int pop(struct build *b, struct open_ev *st, size_t *depth, const struct stk_visit *v)
{
	struct open_ev *o = &st[--*depth];
	if (v)
		return v->close(v->ctx, o->frame, o->end);
	struct stk_profile *wp = b->p;
	wp->frames[o->frame].open--;
	int64_t self = o->dur - o->child_ns;
	struct stk_node *n = &wp->nodes[o->node];
	n->self_ns += self;
	n->incl_ns += o->dur + o->gpu_ns;
	struct stk_frame *f = &wp->frames[o->frame];
	f->self_ns += self;
	if (o->outer)
		f->total_ns += o->dur + o->gpu_ns;
	wp->self_ns += self;
	if (*depth) {
		st[*depth - 1].child_ns += o->dur;
		st[*depth - 1].gpu_ns += o->gpu_ns;
	} else {
		wp->root_ns += o->dur;
		if (n->parent != STK_NONE && wp->nodes[n->parent].frame != STK_NONE)
			wp->nodes[n->parent].incl_ns += o->dur + o->gpu_ns; /* the track frame */
	}
	return 0;
}

struct walk {
	struct build *b;	   /* stk_build, or NULL */
	const struct stk_visit *v; /* stk_walk_track, or NULL */
	const struct stk_profile *p;
	struct open_ev *st;
	size_t cap;
};

static int walk(struct walk *w, const uint32_t *rows, size_t n, uint32_t track)
{
	const struct stk_profile *p = w->p;
	const struct trace *t = p->t;
	struct build *b = w->b;
	size_t depth = 0;
	uint32_t base = STK_NONE; /* node under which the roots hang */
	for (size_t i = 0; i < n; i++) {
		uint32_t r = rows[i];
		if (b && b->have_links && tr_is_device((enum tr_kind)t->ev.kind[r])) {
			uint32_t rt = b->links.launcher[r];
			if (rt != TR_NONE && walkable(t, rt))
				continue; /* a leaf under its launch */
		}
		int64_t ts = t->ev.ts[r], dur = tr_dur(t, r);
		if (dur < 0)
			dur = 0;
		int64_t end = ts + dur;
		while (depth && w->st[depth - 1].end <= ts)
			if (pop(b, w->st, &depth, w->v))
				return -1;
		uint32_t f;
		if (b) {
			f = frame_get(b, t->ev.name[r], t->ev.kind[r]);
			if (f == STK_NONE)
				return -1;
			b->p->events++;
		} else {
			f = frame_find(p, (struct fkey){t->ev.name[r], t->ev.kind[r]});
			if (f == STK_NONE)
				continue; /* not in the profile (cannot happen for its trace) */
		}
		if (depth && end > w->st[depth - 1].end) {
			if (b) {
				b->p->clipped++;
				b->p->clipped_ns += end - w->st[depth - 1].end;
			}
			end = w->st[depth - 1].end;
			dur = end - ts;
		}
		uint32_t node = STK_NONE;
		if (b) {
			struct stk_profile *wp = b->p;
			if (base == STK_NONE) {
				uint32_t root;
				if (wp->opts.merge_tracks && !wp->opts.threads) {
					if (wp->track_root[0] == STK_NONE)
						wp->track_root[0] = node_get(wp, STK_NONE, STK_NONE,
									     STK_NONE, -1, -1);
					root = wp->track_root[0];
				} else {
					root = node_get(wp, STK_NONE, STK_NONE, track, -1, -1);
					wp->track_root[track] = root;
				}
				if (root == STK_NONE)
					return -1;
				base = root;
				if (wp->opts.threads) {
					uint32_t tf = frame_get(b, track, STK_THREAD_KIND);
					if (tf == STK_NONE)
						return -1;
					base = node_get(wp, root, tf, track, -1, -1);
					if (base == STK_NONE)
						return -1;
				}
			}
			uint32_t parent = depth ? w->st[depth - 1].node : base;
			int32_t dev = -1, stream = -1;
			if (tr_is_device((enum tr_kind)t->ev.kind[r]) && t->ev.aux[r] < t->gpu.n) {
				dev = t->gpu.v[t->ev.aux[r]].device;
				stream = stream32(t->gpu.v[t->ev.aux[r]].stream);
			}
			node = node_get(wp, parent, f, track, dev, stream);
			if (node == STK_NONE)
				return -1;
			wp->nodes[node].count++;
			wp->frames[f].calls++;
		}
		if (depth == w->cap) {
			size_t nc = w->cap ? w->cap * 2 : 64;
			struct open_ev *ns = realloc(w->st, nc * sizeof *ns);
			if (!ns)
				return -1;
			w->st = ns;
			w->cap = nc;
		}
		w->st[depth++] = (struct open_ev){
		    .frame = f, .node = node, .end = end, .dur = dur, .outer = !p->frames[f].open};
		if (b)
			b->p->frames[f].open++;
		if (w->v && w->v->open(w->v->ctx, f, ts))
			return -1;
		if (b && b->have_links && t->ev.kind[r] == TR_RUNTIME &&
		    add_gpu_leaves(b, r, &w->st[depth - 1], track))
			return -1;
	}
	while (depth)
		if (pop(b, w->st, &depth, w->v))
			return -1;
	return 0;
}

int stk_track_rows(const struct stk_profile *p, uint32_t **rows, size_t **first)
{
	if (tr_track_order(p->t, rows, first))
		return -1;
	/* drop the events that are no call, keeping the order */
	size_t *f = *first, w = 0;
	for (size_t k = 0; k < p->t->tracks.n; k++) {
		size_t lo = f[k], hi = f[k + 1];
		f[k] = w;
		for (size_t i = lo; i < hi; i++)
			if (!left_out(p, (*rows)[i]))
				(*rows)[w++] = (*rows)[i];
	}
	f[p->t->tracks.n] = w;
	return 0;
}

int stk_build(const struct trace *t, const struct stk_opts *o, struct stk_profile *p, struct err *e)
{
	memset(p, 0, sizeof *p);
	p->t = t;
	p->opts = *o;
	arena_init(&p->arena);
	p->min_ts = t->min_ts;
	p->max_end = t->max_end;
	struct build b = {.p = p};
	uint32_t *rows = NULL;
	size_t *first = NULL;
	int rc = 0;
	p->track_root = malloc((t->tracks.n ? t->tracks.n : 1) * sizeof *p->track_root);
	if (!p->track_root)
		goto oom;
	memset(p->track_root, 0xff, (t->tracks.n ? t->tracks.n : 1) * sizeof *p->track_root);
	if (o->gpu) {
		if ((rc = tr_links_build(t, true, &b.links, e)))
			goto out;
		b.have_links = true;
	}
	if (stk_track_rows(p, &rows, &first))
		goto oom;
	struct walk w = {.b = &b, .p = p};
	for (size_t k = 0; k < t->tracks.n; k++) {
		if (walk(&w, rows + first[k], first[k + 1] - first[k], (uint32_t)k)) {
			free(w.st);
			goto oom;
		}
	}
	free(w.st);
	goto out;
oom:
	rc = nomem(e);
out:
	free(rows);
	free(first);
	if (b.have_links)
		tr_links_free(&b.links);
	if (rc)
		stk_free(p);
	return rc;
}

void stk_free(struct stk_profile *p)
{
	free(p->frames);
	free(p->nodes);
	free(p->track_root);
	hmap_free(&p->fmap);
	hmap_free(&p->nmap);
	arena_free(&p->arena);
	memset(p, 0, sizeof *p);
}

int stk_walk_track(const struct stk_profile *p, const uint32_t *rows, size_t n,
		   const struct stk_visit *v)
{
	struct walk w = {.v = v, .p = p};
	int rc = walk(&w, rows, n, STK_NONE);
	free(w.st);
	return rc;
}

uint32_t stk_frame_of(const struct stk_profile *p, size_t r)
{
	return frame_find(p, (struct fkey){p->t->ev.name[r], p->t->ev.kind[r]});
}
