/* folded: Brendan Gregg's collapsed stacks ("a;b;c 123"), self time per
 * distinct stack, for flamegraph.pl, speedscope, inferno and friends. */
#include <inttypes.h>
#include <stdlib.h>

#include "export/export.h"

/* Writes a frame name so that flamegraph.pl reads it back as one frame:
 * ';' separates frames and the last whitespace run separates the count. */
static void put_frame(FILE *out, const struct stk_frame *f)
{
	if (!f->len) {
		fputs("[unnamed]", out);
		return;
	}
	for (uint32_t i = 0; i < f->len; i++) {
		unsigned char c = (unsigned char)f->name[i];
		if (c == ';')
			c = ':';
		else if (c < 0x20 || c == 0x7f)
			c = ' ';
		putc(c, out);
	}
}

int fold_write(const struct stk_profile *p, FILE *out, enum fold_unit unit, struct err *e)
{
	size_t cap = 0;
	uint32_t *path = NULL;
	for (size_t i = 0; i < p->nnodes; i++) {
		const struct stk_node *n = &p->nodes[i];
		if (n->frame == STK_NONE || n->self_ns <= 0)
			continue;
		if (n->depth > cap) {
			size_t nc = n->depth * 2;
			uint32_t *np = realloc(path, nc * sizeof *np);
			if (!np) {
				free(path);
				return err_set(e, ERR_NOMEM, "", -1,
					       "out of memory writing stacks");
			}
			path = np;
			cap = nc;
		}
		size_t k = 0;
		for (uint32_t x = (uint32_t)i; x != STK_NONE && p->nodes[x].frame != STK_NONE;
		     x = p->nodes[x].parent)
			path[k++] = p->nodes[x].frame;
		while (k--) {
			put_frame(out, &p->frames[path[k]]);
			putc(k ? ';' : ' ', out);
		}
		if (unit == FOLD_US)
			fprintf(out, "%" PRId64 ".%03" PRId64 "\n", n->self_ns / 1000,
				n->self_ns % 1000);
		else
			fprintf(out, "%" PRId64 "\n", n->self_ns);
	}
	free(path);
	return 0;
}
