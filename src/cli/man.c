/* man: the parts of man/gpuprof.1 that come from the declarations (the
 * commands' table, their options, the global options, the environment):
 * the synopsis, each command's `.SS` line and option list, ENVIRONMENT.
 * `gpuprof help --man` prints them between `.\" {{ KEY` and `.\" }}`
 * lines; tools/man.sh puts them into the page (`make man`) or fails when
 * the page differs (`make man-check`). */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

/* s as troff text: '-' as \-, '\' as \e, a non-ASCII character as
 * \[uXXXX] (groff reads the page without a UTF-8 preprocessor). */
static void man_text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		if (*p == '-') {
			fputs("\\-", f);
			p++;
		} else if (*p == '\\') {
			fputs("\\e", f);
			p++;
		} else if (*p < 0x80) {
			fputc(*p++, f);
		} else {
			int len = *p >= 0xf0 ? 4 : *p >= 0xe0 ? 3 : 2;
			unsigned cp = *p++ & (0x3fu >> (len - 1));
			for (int i = 1; i < len && (*p & 0xc0) == 0x80; i++)
				cp = cp << 6 | (*p++ & 0x3fu);
			fprintf(f, "\\[u%04X]", cp);
		}
	}
}

/* "a\fR|\fPb": the listed values of an enum option, or its metavar. */
static void man_values(FILE *f, const struct vo *o, const char *italic)
{
	if (o->type == VO_ENUM && !o->metavar) {
		const char *sep = " ";
		for (const struct vo_value *e = o->vals; e->name; e++) {
			if (e->hidden)
				continue;
			fputs(sep, f);
			man_text(f, e->name);
			sep = "\\fR|\\fP";
		}
	} else if (o->type != VO_FLAG) {
		fprintf(f, " %s", italic);
		man_text(f, o->metavar ? o->metavar : "VALUE");
		fputs("\\fP", f);
	}
}

void app_print_man_line(FILE *f, const char *name, const char *pre, const struct vo *v, size_t n,
			const char *post)
{
	fprintf(f, ".SS %s%s", name, pre);
	for (size_t k = 0; k < n; k++) {
		const struct vo *o = &v[k];
		if (!o->lname && !o->sname)
			continue;
		fputs(o->required ? " " : " \\fR[\\fP", f);
		if (o->sname) {
			fprintf(f, "\\-%c", o->sname);
			if (o->lname)
				fputs("\\fR|\\fP", f);
		}
		if (o->lname) {
			fputs("\\-\\-", f);
			man_text(f, o->lname);
		}
		man_values(f, o, "\\fI");
		if (!o->required)
			fputs("\\fR]\\fP", f);
	}
	fprintf(f, "%s\n", post);
}

/* A view's operands as the man line writes them. */
static const char *view_operands(const struct view_decl *d)
{
	return d->operands	      ? d->operands
	       : d->flags & VIEW_MANY ? " \\fITRACE\\fP..."
				      : " \\fITRACE\\fP";
}

void app_print_view_man_line(FILE *f, const struct view_decl *d)
{
	app_print_man_line(f, d->name, "", d->opts, d->nopts, view_operands(d));
}

/* What follows a command's name: man_pre, then its verbs ("a\fR|\fPb", in
 * brackets when they follow an operand and may be left out). */
static void cmd_pre(const struct cmd *c, char *buf, size_t len)
{
	const char *verbs[VIEW_COUNT + 16];
	size_t n = cli_cmd_verbs(c, verbs, sizeof verbs / sizeof verbs[0]);
	size_t w = (size_t)snprintf(buf, len, "%s", c->man_pre ? c->man_pre : "");
	for (size_t i = 0; i < n && w < len; i++) {
		const char *sep = i ? "\\fR|\\fP" : c->verb_after_operand ? " \\fR[\\fP" : " ";
		w += (size_t)snprintf(buf + w, len - w, "%s%s", sep, verbs[i]);
	}
	if (n && c->verb_after_operand && w < len)
		snprintf(buf + w, len - w, "\\fR]\\fP");
}

void cli_print_cmd_man_line(FILE *f, const struct cmd *c)
{
	if (c->is_view) {
		app_print_view_man_line(f, view_get(c->view));
		return;
	}
	char pre[512];
	cmd_pre(c, pre, sizeof pre);
	size_t n;
	const struct vo *v = cli_cmd_opts(c, &n);
	app_print_man_line(f, c->name, pre, v, n, c->man_post ? c->man_post : "");
}

/* A command's operands as the man line writes them. */
static const char *cmd_post(const struct cmd *c)
{
	if (c->is_view)
		return view_operands(view_get(c->view));
	return c->man_post ? c->man_post : "";
}

static void synopsis_line(FILE *f, const struct cmd *c)
{
	size_t n;
	const struct vo *v = cli_cmd_opts(c, &n);
	char pre[512] = "";
	if (!c->is_view)
		cmd_pre(c, pre, sizeof pre);
	fputs("\\fBgpuprof\\fP [\\fIglobal options\\fP] \\fB", f);
	man_text(f, c->name);
	fprintf(f, "\\fP%s", pre);
	bool optional = false;
	for (size_t k = 0; k < n; k++) {
		if (v[k].required) {
			fputs(" \\fB\\-\\-", f);
			man_text(f, v[k].lname);
			fputs("\\fP", f);
			man_values(f, &v[k], "\\fI");
		} else {
			optional |= v[k].lname || v[k].sname;
		}
	}
	fprintf(f, "%s%s\n.br\n", optional ? " [\\fIoptions\\fP]" : "", cmd_post(c));
}

/* The option list of v[0..n): a `.TP` item per option with its help. */
static void option_list(FILE *f, const struct vo *v, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		const struct vo *o = &v[k];
		if (!o->lname && !o->sname)
			continue;
		fputs(".TP\n", f);
		if (o->sname)
			fprintf(f, "\\fB\\-%c\\fP%s", o->sname, o->lname ? ", " : "");
		if (o->lname) {
			fputs("\\fB\\-\\-", f);
			man_text(f, o->lname);
			fputs("\\fP", f);
		}
		man_values(f, o, "\\fI");
		fputc('\n', f);
		for (const char *h = o->help ? o->help : ""; *h;) {
			size_t l = strcspn(h, "\n");
			char line[256];
			snprintf(line, sizeof line, "%.*s", (int)l, h);
			if (line[0] == '.' || line[0] == '\'')
				fputs("\\&", f);
			man_text(f, line);
			fputc('\n', f);
			h += l;
			if (*h)
				h++;
		}
	}
}

static void cmd_parts(FILE *f, const struct cmd *c)
{
	fprintf(f, ".\\\" {{ cmd %s\n", c->name);
	cli_print_cmd_man_line(f, c);
	fputs(".\\\" }}\n", f);
	size_t n;
	const struct vo *v = cli_cmd_opts(c, &n);
	if (n) {
		fprintf(f, ".\\\" {{ opts %s\n", c->name);
		option_list(f, v, n);
		fputs(".\\\" }}\n", f);
	}
}

void cli_print_man_parts(FILE *f, const struct cmd_list *l)
{
	fputs(".\\\" {{ synopsis\n", f);
	for (size_t i = 0; i < l->n; i++) {
		synopsis_line(f, &l->v[i]);
		for (const struct cmd *s = l->v[i].sub; s; s = s->next)
			synopsis_line(f, s);
	}
	fputs("\\fBgpuprof\\fP \\fBhelp\\fP [\\fICOMMAND\\fP]\n.br\n"
	      "\\fBgpuprof\\fP \\fB\\-\\-help\\fP | \\fB\\-\\-version\\fP\n",
	      f);
	fputs(".\\\" }}\n", f);
	for (size_t i = 0; i < l->n; i++) {
		cmd_parts(f, &l->v[i]);
		for (const struct cmd *s = l->v[i].sub; s; s = s->next)
			cmd_parts(f, s);
	}
	fputs(".\\\" {{ environment\n", f);
	for (size_t i = 0; i < cli_nenv; i++)
		fprintf(f, ".TP\n.B %s\n%s\n", cli_env[i].name, cli_env[i].help);
	fputs(".\\\" }}\n", f);
}
