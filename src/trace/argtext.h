/* argtext: reading the raw JSON text an event's arguments keep ("Input
 * Dims", "Input type", "Concrete Inputs", the trace model stores them as
 * written): a cursor over the text, and the size in bytes of an element of
 * a PyTorch dtype name. Shared by the analyses that read shapes
 * (tbprof/dist's message sizes, hta/flops). Depends on libc only.
 */
#ifndef GP_TRACE_ARGTEXT_H
#define GP_TRACE_ARGTEXT_H

#include <stdbool.h>
#include <stddef.h>

/* A cursor over raw JSON text. */
struct tr_cur {
	const char *p, *end;
};

static inline void tr_cur_ws(struct tr_cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\n' || *c->p == '\r' || *c->p == '\t'))
		c->p++;
}

/* Skips blanks, then ch when it is next: whether it was. */
static inline bool tr_cur_eat(struct tr_cur *c, char ch)
{
	tr_cur_ws(c);
	if (c->p < c->end && *c->p == ch) {
		c->p++;
		return true;
	}
	return false;
}

/* Bytes of one element of the dtype named type[0..len) ("c10::BFloat16",
 * "float", "long int", ScalarType names such as "BFloat16"); 0 when
 * unknown. tb_only: only the names torch-tb-profiler's table knows. */
int tr_dtype_size(const char *type, size_t len, bool tb_only);

#endif
