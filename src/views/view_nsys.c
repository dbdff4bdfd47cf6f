/* view_nsys: the Nsight Systems SQLite tables (see view_nsys.h), moved
 * from cli/cmd_nsys.c unchanged. */
#include <string.h>

#include "views/view_nsys.h"

#define STAT_COLS(count_key, count_title)                                                          \
	{"time_pct", "Time", REP_PCT}, {"total_ns", "Total", REP_DUR_NS},                          \
	    {count_key, count_title, REP_INT}, {"avg_ns", "Avg", REP_FDUR_NS},                     \
	    {"med_ns", "Med", REP_FDUR_NS}, {"min_ns", "Min", REP_DUR_NS},                         \
	    {"max_ns", "Max", REP_DUR_NS},                                                         \
	{                                                                                          \
		"stddev_ns", "StdDev", REP_FDUR_NS                                                 \
	}
#define STAT_VALS(r)                                                                               \
	rep_f((r)->pct), rep_i((r)->total_ns), rep_i((r)->instances), rep_f((r)->avg_ns),          \
	    rep_f((r)->med_ns), rep_i((r)->min_ns), rep_i((r)->max_ns), rep_f((r)->stddev_ns)

/* What a row is about first (the tables' habit), then nsys stats's columns. */
static const struct rep_col kern_cols[] = {{"name", "Name", REP_STR},
					   STAT_COLS("instances", "Instances")};
static const struct rep_col api_cols[] = {{"name", "Name", REP_STR}, STAT_COLS("calls", "Calls")};
static const struct rep_col mem_cols[] = {{"operation", "Operation", REP_STR},
					  STAT_COLS("count", "Count"),
					  {"bytes", "Bytes", REP_BYTES}};
static const struct rep_col nvtx_cols[] = {{"range", "Range", REP_STR},
					   {"style", "Style", REP_STR},
					   STAT_COLS("instances", "Instances"),
					   {"gpu_ops", "GPU ops", REP_INT},
					   {"gpu_projected_ns", "GPU projected", REP_DUR_NS},
					   {"gpu_op_time_ns", "GPU op time", REP_DUR_NS}};
static const struct rep_col gpu_cols[] = {{"scope", "GPU / stream", REP_STR},
					  {"kind", "Kind", REP_STR},
					  {"count", "Count", REP_INT},
					  {"total_ns", "Total", REP_DUR_NS},
					  {"bytes", "Bytes", REP_BYTES}};

int nsys_view_table(struct report *r, enum nsys_sql_view view, const struct nsys_sql_table *t)
{
	const struct rep_col *cols;
	int ncols;
	const char *name, *title;
	switch (view) {
	case NSYS_SQL_KERNELS:
		cols = kern_cols, ncols = 9, name = "kernels", title = "GPU kernels";
		break;
	case NSYS_SQL_API:
		cols = api_cols, ncols = 9, name = "cuda_api", title = "CUDA API calls";
		break;
	case NSYS_SQL_MEMCPY:
		cols = mem_cols, ncols = 10, name = "memory_operations",
		title = "GPU memory operations";
		break;
	case NSYS_SQL_NVTX:
		cols = nvtx_cols, ncols = 13, name = "nvtx_ranges",
		title = "NVTX ranges (host time; GPU work launched inside)";
		break;
	default:
		cols = gpu_cols, ncols = 5, name = "gpus",
		title = "GPU work per GPU and per stream";
		break;
	}
	if (rep_table_begin(r, name, title, cols, ncols))
		return -1;
	for (size_t i = 0; i < t->n; i++) {
		const struct nsys_sql_row *w = &t->v[i];
		struct rep_val v[13];
		if (view == NSYS_SQL_DEVICES) {
			struct rep_val d[] = {rep_s(w->group), rep_s(w->name), rep_i(w->instances),
					      rep_i(w->total_ns), rep_i(w->bytes)};
			memcpy(v, d, sizeof d);
		} else {
			/* the name first (nvtx: range, style), then the statistics */
			size_t k = 0;
			v[k++] = rep_s(w->name);
			if (view == NSYS_SQL_NVTX)
				v[k++] = rep_s(w->group);
			struct rep_val st[] = {STAT_VALS(w)};
			memcpy(v + k, st, sizeof st);
			k += sizeof st / sizeof st[0];
			if (view == NSYS_SQL_MEMCPY) {
				v[k] = rep_i(w->bytes);
			} else if (view == NSYS_SQL_NVTX) {
				v[k] = rep_i(w->gpu_ops);
				v[k + 1] = rep_i(w->proj_ns);
				v[k + 2] = rep_i(w->gpu_time_ns);
			}
		}
		if (rep_row(r, v))
			return -1;
	}
	return rep_table_end(r);
}

int nsys_view_info(struct report *r, struct nsys_sql *s, struct arena *a, const char *path)
{
	static const char *const tables[] = {"CUPTI_ACTIVITY_KIND_KERNEL",
					     "CUPTI_ACTIVITY_KIND_MEMCPY",
					     "CUPTI_ACTIVITY_KIND_MEMSET",
					     "CUPTI_ACTIVITY_KIND_RUNTIME",
					     "NVTX_EVENTS",
					     "TARGET_INFO_GPU"};
	static const char *const keys[] = {"kernels",	     "memcpy",	    "memset",
					   "cuda_api_calls", "nvtx_events", "gpus"};
	rep_kv_begin(r, "export", "Nsight Systems SQLite export");
	rep_kv(r, "path", "Path", REP_STR, rep_s(path));
	const char *v = nsys_sql_version(s, a);
	rep_kv(r, "product_version", "Nsight Systems version", REP_STR, rep_s(v));
	for (int i = 0; i < 6; i++) {
		int64_t n = nsys_sql_count(s, tables[i]);
		rep_kv(r, keys[i], tables[i], REP_INT, n >= 0 ? rep_i(n) : rep_null());
	}
	return rep_kv_end(r);
}

int nsys_view_compute(struct nsys_sql *s, struct arena *a, enum nsys_sql_view view,
		      struct nsys_sql_table *t, struct err *e)
{
	switch (view) {
	case NSYS_SQL_KERNELS:
		return nsys_sql_kernels(s, a, t, e);
	case NSYS_SQL_MEMCPY:
		return nsys_sql_memcpy(s, a, t, e);
	case NSYS_SQL_API:
		return nsys_sql_api(s, a, t, e);
	case NSYS_SQL_NVTX:
		return nsys_sql_nvtx(s, a, t, e);
	case NSYS_SQL_DEVICES:
		return nsys_sql_devices(s, a, t, e);
	default:
		return err_set(e, ERR_USAGE, NULL, -1, "not a table view");
	}
}
