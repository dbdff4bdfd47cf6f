/* top: the top-level grammar of a Kineto trace, shared by the reader
 * (import.c) and the second pass that writes traces back (pass_walk.c):
 * the states of the walk over `{..., "traceEvents": [EVENT, ...], ...}` or
 * a bare `[EVENT, ...]`, the steps that read only punctuation, and the key
 * of an object member. Each step either moves the state or returns
 * JS_MORE with the state as it was (the caller refills and retries from
 * the same byte). Private to src/kineto/. Depends on json/jscan.h.
 */
#ifndef GP_KINETO_TOP_H
#define GP_KINETO_TOP_H

#include <stdbool.h>

#include "json/jscan.h"

enum kt_state { ST_BEGIN, ST_MEMBER, ST_MEMBER_NEXT, ST_EV_FIRST, ST_EV_ITEM, ST_EV_NEXT, ST_DONE };

/* ST_BEGIN's first part: whitespace, then true when a UTF-8 byte order
 * mark starts the input (skipped: the caller steps again). */
static inline int kt_ws_bom(struct jscan *j, bool *bom)
{
	int rc = jscan_ws(j);
	*bom = !rc && j->p == j->base && j->end - j->p >= 3 && !memcmp(j->p, "\xEF\xBB\xBF", 3);
	if (*bom)
		j->p += 3;
	return rc;
}

/* The state after the events array closed. */
static inline enum kt_state kt_after_events(bool object_form)
{
	return object_form ? ST_MEMBER_NEXT : ST_DONE;
}

/* ST_MEMBER_NEXT, ST_EV_FIRST and ST_EV_NEXT: ',' or the closing bracket
 * of the object or the events array. *events_end: the array closed here. */
static inline int kt_punct(struct jscan *j, enum kt_state *st, bool object_form, bool *events_end)
{
	bool closed;
	int rc;
	*events_end = false;
	switch (*st) {
	case ST_MEMBER_NEXT:
		if ((rc = jscan_next(j, '}', &closed)))
			return rc;
		*st = closed ? ST_DONE : ST_MEMBER;
		return JS_OK;
	case ST_EV_FIRST:
		if ((rc = jscan_ws(j)))
			return rc;
		if (*j->p == ']') {
			j->p++;
			*st = kt_after_events(object_form);
			*events_end = true;
			return JS_OK;
		}
		*st = ST_EV_ITEM;
		return JS_OK;
	case ST_EV_NEXT:
		if ((rc = jscan_next(j, ']', &closed)))
			return rc;
		*st = !closed ? ST_EV_ITEM : kt_after_events(object_form);
		*events_end = closed;
		return JS_OK;
	default:
		return JS_OK;
	}
}

/* A member's key at j->p (after whitespace) and the ':' after it; what
 * names the object in the message ("the trace object", "a trace event"). */
static inline int kt_key(struct jscan *j, struct jstr *k, const char *what)
{
	int rc;
	if ((rc = jscan_ws(j)))
		return rc;
	if (*j->p != '"')
		return jscan_error(j, j->p, "expected a string key in %s", what);
	if ((rc = jscan_string(j, k)) || (rc = jscan_colon(j)))
		return rc;
	return JS_OK;
}

#endif
