/* views internals: what every computed view holds, shared by view*.c only.
 * A view's results are its own: each view declares their struct in the
 * file that computes it and keeps it behind priv, so no view (and nothing
 * here) reads another view's results. */
#ifndef GP_VIEWS_VIEW_INT_H
#define GP_VIEWS_VIEW_INT_H

#include "tbprof/session.h"
#include "views/view.h"

/* What every view has, whatever its family. */
struct view {
	enum view_kind kind;
	const struct view_decl *decl;
	struct view_opts o;
	const struct trace *t;	       /* VIEW_FAMILY_TRACE: ts[0] */
	struct ses *ses;	       /* t's shared analyses (links, steps, tree) */
	const struct trace *const *ts; /* VIEW_MANY: every trace given */
	struct ses *const *ss;	       /* VIEW_MANY: the session of each (the caller's) */
	size_t nts;
	void *priv;	  /* the view's results: made by its decl's compute, freed by its free */
	bool emit_failed; /* see view_emit_failed */
};

/* The input of a view of a family that is not a trace's, handed to its
 * compute (which keeps what it needs in its results); it outlives the view. */
struct view_source {
	struct ncu_report *ncu; /* VIEW_FAMILY_NCU: the report read */
	struct nsys_sql *nsys;	/* VIEW_FAMILY_NSYS: the open export */
	const char *path;	/* VIEW_FAMILY_NSYS: the export's path as the user gave it */
	/* A view of two inputs (the diffs, BASE and NEW): the fields above are
	 * BASE's, these NEW's; NULL when the view was given one input (the
	 * server's generic routes), which such a view refuses with ERR_USAGE. */
	struct ncu_report *ncu_new;   /* VIEW_FAMILY_NCU */
	const struct nsys_jv *nsys_a; /* VIEW_FAMILY_NSYS: BASE's analysis.json */
	const struct nsys_jv *nsys_b; /* NEW's */
	const char *path_new;	      /* NEW as the user gave it */
};

/* The end of every view_compute*: v (calloc'd, its family's fields set)
 * gets d's identity and the options o, then d's compute runs on src; *out =
 * v, or v is freed and the error returned. */
int view_start(struct view *v, const struct view_decl *d, const struct view_opts *o,
	       const struct view_source *src, struct view **out, struct err *e);

/* A compute's first step: v's priv = size zeroed bytes, its results (its
 * decl's free frees them, also when the compute fails later); NULL, with
 * ERR_NOMEM in e, when out of memory. */
void *view_results_new(struct view *v, size_t size, struct err *e);

/* The origin of every trace view's times: the start of the file's trace
 * (its first event, `info`'s first_ts_ns; for a --step/--range window, the
 * start of the file it was cut from), 0 for a trace without events.
 * view_trace_start_text: its decimal text in buf (exact, for the
 * trace_start_ns keys: a JSON reader's doubles would round it), or NULL
 * for a trace without events. */
int64_t view_trace_start(const struct trace *t);
const char *view_trace_start_text(const struct trace *t, char *buf, size_t n);

/* The declarations of the registry, one per line of views/views.def. */
#define V(name, KIND) extern const struct view_decl view_##name##_decl;
#include "views/views.def"
#undef V

/* The options several trace views share, declared once: --top N as a row
 * cap, and --tb-compat with the help line naming the quirks that view
 * reproduces. */
#define VIEW_OPT_TOP_ROWS                                                                          \
	{                                                                                          \
		.lname = "top", .api = "top", .type = VO_COUNT,                                    \
		.off = offsetof(struct view_opts, top), .metavar = "N",                            \
		.help = "only the first N rows"                                                    \
	}
/* --top N / -n N, default 20, 0 for every row (help: which tables) */
#define VIEW_OPT_TOP_20(text)                                                                      \
	{                                                                                          \
		.lname = "top", .sname = 'n', .api = "top", .type = VO_COUNT,                      \
		.off = offsetof(struct view_opts, top), .metavar = "N", .def = "20", .help = text  \
	}
#define VIEW_OPT_TB_COMPAT(text)                                                                   \
	{                                                                                          \
		.lname = "tb-compat", .api = "tb_compat", .type = VO_FLAG,                         \
		.off = offsetof(struct view_opts, tb_compat), .help = text                         \
	}

#define VIEW_NC(a) ((int)(sizeof a / sizeof a[0]))

#endif
