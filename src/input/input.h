/* input: the registry of input kinds, and the loaded input.
 *
 * gpuprof is given files of several kinds: PyTorch profiler traces, Nsight
 * Compute reports, Nsight Systems exports and their analyses, profiling run
 * directories. The table in input.c is the one place that says which kinds
 * exist, how each is recognised (by the first bytes of the file, after gzip
 * is inflated, or by being a directory), which reader loads it, how its
 * value is freed, and what to tell someone who gives it to a command that
 * reads another kind. Both front ends load through it: the CLI (cli/load.c:
 * every trace command, and `serve`) and the server (uploads; every served
 * file holds a struct input), so a kind is recognised and loaded the same
 * way everywhere.
 *
 * The name: an input is what the user hands gpuprof, whatever its kind;
 * the readers (kineto/, ncu/, nsys/) turn bytes into models, and this area
 * only decides which reader gets which input. It sits above every reader:
 * it includes core, io, kineto, ncu, nsys and trace, never views, cli or
 * server, and no reader includes it (the byte signatures readers share are
 * in io/sniff.h).
 *
 * Adding an input format takes exactly:
 *   1. its reader in a folder of its own, src/NAME/ (on core, io, json, pb;
 *      never on another reader) with a load and a free function; its byte
 *      signature goes into io/sniff.c when another reader names the format
 *      in its messages, else into its own folder;
 *   2. in this header, one value in enum input_kind (its place is the order
 *      the signatures are tried in: before any kind whose bytes its own are
 *      a special case of) and, when its value is of a new type, one member
 *      of the union in struct input;
 *   3. one row in input.c's table: name, what, hint, the sniff test, and
 *      load, free and count, the few-line adapters from struct input to
 *      the reader's functions written beside the table;
 *   4. its samples in tests/unit/test_input.c.
 * The Makefile builds every src/ folder as it finds it. With that, `gpuprof
 * serve` loads the new kind (the file list names it by the row's name) and
 * every trace command says what it is when given one. Views of it, and
 * their pages, are the views' business (views/, web/).
 */
#ifndef GP_INPUT_INPUT_H
#define GP_INPUT_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/err.h"
#include "kineto/kineto.h"

struct trace;
struct ncu_report;

/* In the order the kinds are tried in (see input.c's table). */
enum input_kind {
	INPUT_UNKNOWN,	     /* bytes no row recognises (handed to the default reader) */
	INPUT_RUN_DIR,	     /* a directory: a profiling run (analysis.json, stats/) */
	INPUT_NCU,	     /* an Nsight Compute report (.ncu-rep) */
	INPUT_NSYS,	     /* an Nsight Systems SQLite export */
	INPUT_NSYS_REP,	     /* an Nsight Systems .nsys-rep: recognised, not read */
	INPUT_NSYS_ANALYSIS, /* analysis.json of `nsys analyze` (JSON: before traces) */
	INPUT_RANK_SUMMARY,  /* a rank summary of `gpuprof rank-summary` (JSON: before
				traces); read by `gpuprof dist` and the server's
				distributed view, again for each answer */
	INPUT_TRACE,	     /* a PyTorch profiler (Kineto) trace, JSON */
	INPUT_KIND_COUNT
};
#define INPUT_BIT(k) (1u << (k))

struct input_opts {
	unsigned accept;	  /* INPUT_BIT()s of the kinds the caller reads; 0 = all */
	const char *name;	  /* what errors and lists call the input (an upload's
				   * name); NULL = its path */
	int64_t max_bytes;	  /* an analysis.json held in memory at most; 0 = 256 MiB */
	struct kineto_opts trace; /* the trace reader's options */
};

/* A loaded input: the kind of value it holds is its tag. */
struct input {
	enum input_kind kind; /* never INPUT_UNKNOWN once loaded; INPUT_RUN_DIR
			       * loads as the INPUT_NSYS_ANALYSIS it holds */
	char *path;	      /* as given, without a directory's trailing '/' */
	char *name;	      /* opts.name, else path */
	int64_t bytes;	      /* the file's size (an analysis: its JSON's); -1 unknown */
	/* >= 0: a descriptor of the input that path reaches through its
	 * /proc/self/fd link (an upload of the server, which has no name, read
	 * again for each answer), closed by input_free; set by the owner after
	 * the load; -1 when none */
	int copy_fd;
	union {
		struct trace *trace;	/* INPUT_TRACE */
		struct ncu_report *ncu; /* INPUT_NCU */
		struct {		/* INPUT_NSYS_ANALYSIS: its bytes, checked */
			char *json;
			size_t len;
		} analysis;
		/* INPUT_NSYS holds nothing: the export is opened at path for
		 * each answer */
	};
};

/* One row of the registry. */
struct input_row {
	enum input_kind kind;
	const char *name; /* short, stable: the file list's "kind", tests */
	const char *what; /* the kind in a sentence: "this is WHAT, not ..." */
	const char *hint; /* which command reads it, after a wrong-kind message */
	bool dir;	  /* recognised by being a directory */
	bool (*sniff)(const void *p, size_t n); /* or by its first bytes */
	/* its reader reopens the file for each answer: an upload must keep a
	 * descriptor of it (copy_fd) */
	bool by_name;
	/* Fills in's value from in->path (and may set in->kind, in->bytes);
	 * NULL: recognised, never loaded. */
	int (*load)(struct input *in, const struct input_opts *o, struct err *e);
	void (*free)(struct input *in);
	int64_t (*count)(const struct input *in); /* events, results; -1 none */
};

/* Row k; the INPUT_UNKNOWN row for a k out of range. */
const struct input_row *input_row(enum input_kind k);
const char *input_kind_name(enum input_kind k);

/* What a file is, and whether its bytes are gzip (a message's byte offset
 * then counts inflated bytes). */
struct input_sniff {
	enum input_kind kind;
	bool gzip;
};
/* The kind of the first n bytes of a file (gzip bytes are inflated
 * first); INPUT_UNKNOWN when no row recognises them. */
enum input_kind input_sniff_bytes(const void *p, size_t n);
/* The kind of path: a directory is INPUT_RUN_DIR, a regular file is
 * sniffed by its first bytes; anything else ("-", a pipe, a device: read
 * once, by its reader) and a path that cannot be read are INPUT_UNKNOWN. */
struct input_sniff input_sniff_path(const char *path);

/* Loads path as the kind sn says it is (INPUT_UNKNOWN: as a trace when
 * the caller accepts traces, else as the first kind it accepts, so that
 * reader's message says what it expected). A kind the caller does not
 * accept, or one that is never loaded, is ERR_FORMAT at byte 0: "this is
 * an SQLite file, not a PyTorch trace; `gpuprof nsys FILE` reads ...".
 * Errors name opts.name when given. On failure *in is empty (kind
 * INPUT_UNKNOWN; input_free is harmless). */
int input_load(const char *path, struct input_sniff sn, const struct input_opts *o,
	       struct input *in, struct err *e);
/* input_load of input_sniff_path(path). */
int input_open(const char *path, const struct input_opts *o, struct input *in, struct err *e);
/* The push form of input_open, for a caller that reads the file itself
 * and hands its bytes over in order (the static site reads a File's
 * stream): input_push_begin sniffs path and takes the kinds whose reader
 * has a push form (a PyTorch trace, not gzip: kineto_push); NULL for the
 * others (input_open reads them) or when memory is out. o and e must
 * outlive the push; size is the file's. input_push_room and
 * input_push_data are kineto_push_room's and kineto_push_data's;
 * input_push_end loads *in as input_open would (errors name opts.name,
 * *in empty on failure) and frees p. */
struct input_push;
struct input_push *input_push_begin(const char *path, const struct input_opts *o, int64_t size,
				    struct err *e);
char *input_push_room(struct input_push *p, size_t n);
int input_push_data(struct input_push *p, size_t n);
int input_push_end(struct input_push *p, struct input *in);
/* An empty input: what a failed load leaves, and what input_free leaves;
 * input_free does nothing to it. */
static inline void input_init(struct input *in)
{
	*in = (struct input){.kind = INPUT_UNKNOWN, .bytes = -1, .copy_fd = -1};
}
/* Frees in's value, its copy and its strings; leaves it empty. */
void input_free(struct input *in);
/* The row's count of in: a trace's events, a report's results; -1 none. */
int64_t input_count(const struct input *in);

/* The value of in when it is of that kind, else NULL. */
static inline struct trace *input_trace(const struct input *in)
{
	return in->kind == INPUT_TRACE ? in->trace : NULL;
}
static inline struct ncu_report *input_ncu(const struct input *in)
{
	return in->kind == INPUT_NCU ? in->ncu : NULL;
}
/* The export's path. */
static inline const char *input_nsys_path(const struct input *in)
{
	return in->kind == INPUT_NSYS ? in->path : NULL;
}
static inline const char *input_analysis(const struct input *in, size_t *len)
{
	bool is = in->kind == INPUT_NSYS_ANALYSIS;
	*len = is ? in->analysis.len : 0;
	return is ? in->analysis.json : NULL;
}

#endif
