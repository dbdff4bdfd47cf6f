/* pass_int: private to src/kineto/pass*.c. The second pass over a trace's
 * text (pass_walk.c): its top-level members and each element of its
 * traceEvents, as spans of the source bytes, handed to the callbacks of a
 * slice (pass.c) or a merge (pass_merge.c). */
#ifndef GP_KINETO_PASS_INT_H
#define GP_KINETO_PASS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core/err.h"
#include "json/jscan.h"

/* One member of an event: its key (without quotes) and value spans. */
struct kp_member {
	const char *k; /* the key's text; its opening quote is k[-1] */
	size_t klen;
	const char *v, *vend; /* the value's bytes */
};

enum kp_field { KPF_PH, KPF_NAME, KPF_TS, KPF_DUR, KPF_PID, KPF_ID, KPF_BIND_ID, KPF_COUNT };

/* One element of traceEvents as the walk found it. */
struct kp_ev {
	int64_t off;	     /* of its first byte in the (decompressed) source */
	const char *p0, *p1; /* its bytes */
	bool object;	     /* an object (else any other value, copied or not) */
	int f[KPF_COUNT];    /* member index of each field, -1 when absent */
	int tid;	     /* member index of tid, -1 */
	struct kp_member *m; /* members in order */
	size_t nm;
	const char **rep;  /* per member: a replacement value (NUL-terminated), or NULL */
	const char *extra; /* members written after the last (e.g. "args": {...}), or NULL */
};
/* A rep[] value that leaves the member out. */
extern const char kp_drop_member[];

struct kp_cb {
	void *ctx;
	/* A top-level member other than traceEvents: its key and its bytes
	 * from the key's opening quote to the value's end. */
	int (*member)(void *ctx, const struct jstr *key, const char *p0, const char *p1);
	int (*events_begin)(void *ctx, bool object_form);
	int (*event)(void *ctx, struct kp_ev *ev);
	int (*events_end)(void *ctx);
};

/* Walks the trace at path (gzip inflated); false *truncated unless it
 * ends inside its events or its object. Errors: the reader's messages. */
int kp_walk(const char *path, const struct kp_cb *cb, bool *truncated, struct err *e);

/* The value of member i as a string (text between quotes, not decoded);
 * false when it is not a string. */
bool kp_str(const struct kp_ev *ev, int i, struct jstr *s);
/* Member i's value as µs -> ns / as an integer; false when absent or not
 * such a number. */
bool kp_us(const struct kp_ev *ev, int i, int64_t *ns);
bool kp_int(const struct kp_ev *ev, int i, int64_t *v);

/* Writes ev: its bytes as they are, or, when some rep[] or extra is set,
 * "{" and its members with those values, then extra. */
int kp_write_event(FILE *out, const struct kp_ev *ev);

#endif
