/* complete: `gpuprof completion bash|zsh|fish`, shell completion scripts
 * generated from the commands' table (main.c), the registry's views and
 * every option declaration (the global ones, each command's): commands,
 * verbs (export's formats, ncu's and nsys's views), subcommands (nsys
 * analyze), options, the choices of an enum option, files where a file
 * goes. Nothing here lists a command or an option by hand.
 *
 * The bash and zsh scripts share their data functions (POSIX sh `case`
 * over "CONTEXT/OPTION"), each with its own driver; fish gets `complete`
 * lines with conditions from a state function of the same logic. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

const char *const cmd_completion_shells[] = {"bash", "zsh", "fish", NULL};

const char cmd_completion_help[] =
    "Usage: gpuprof completion bash|zsh|fish\n"
    "\n"
    "Print the shell completion script for bash, zsh or fish: commands,\n"
    "their verbs and options, the choices of options such as --format, and\n"
    "files where a file goes. `make install` puts them where the shells look;\n"
    "without it:\n"
    "  bash: source <(gpuprof completion bash)           (in ~/.bashrc)\n"
    "  zsh:  gpuprof completion zsh > ~/.zfunc/_gpuprof  (~/.zfunc in fpath,\n"
    "        before compinit)\n"
    "  fish: gpuprof completion fish > ~/.config/fish/completions/gpuprof.fish\n";

#define CPL_MAX (2 * CLI_MAX_COMMANDS + 1)
#define CPL_WORDS 2048

/* A completion context: a command, a subcommand ("nsys.analyze"), or
 * `help` (c NULL: its operand is a command's name). */
struct cpl {
	const struct cmd *c;
	char key[64];
};

struct cpl_all {
	struct cpl v[CPL_MAX];
	size_t n;
	char commands[CPL_WORDS]; /* every command's name, and help */
	char globals[CPL_WORDS];  /* every global option's spelling */
};

static void add_word(char *buf, const char *w)
{
	size_t n = strlen(buf);
	snprintf(buf + n, CPL_WORDS - n, "%s%s", n ? " " : "", w);
}

/* The spellings of the options v[0..n) ("--top -n"). */
static void opt_words(const struct vo *v, size_t n, char *buf)
{
	buf[0] = 0;
	for (size_t k = 0; k < n; k++) {
		char w[VO_NAME_MAX + 2];
		if (v[k].lname) {
			snprintf(w, sizeof w, "--%s", v[k].lname);
			add_word(buf, w);
		}
		if (v[k].sname) {
			snprintf(w, sizeof w, "-%c", v[k].sname);
			add_word(buf, w);
		}
	}
}

static void cpl_build(struct cpl_all *a, const struct cmd_list *l)
{
	a->n = 0;
	a->commands[0] = 0;
	for (size_t i = 0; i < l->n; i++) {
		const struct cmd *c = &l->v[i];
		add_word(a->commands, c->name);
		a->v[a->n].c = c;
		snprintf(a->v[a->n++].key, sizeof a->v[0].key, "%s", c->name);
		for (const struct cmd *s = c->sub; s; s = s->next) {
			a->v[a->n].c = s;
			snprintf(a->v[a->n++].key, sizeof a->v[0].key, "%s", s->name);
			char *sp = strchr(a->v[a->n - 1].key, ' ');
			if (sp)
				*sp = '.';
		}
	}
	add_word(a->commands, "help");
	a->v[a->n].c = NULL;
	snprintf(a->v[a->n++].key, sizeof a->v[0].key, "help");
	opt_words(cli_globals, cli_nglobals, a->globals);
}

/* The word of subcommand s ("analyze"), or NULL. */
static const char *sub_word(const struct cmd *s)
{
	const char *sp = s ? strchr(s->name, ' ') : NULL;
	return sp ? sp + 1 : NULL;
}

/* Operand k (0, 1, or 2 for any later one) of context x: its words into
 * buf; true when files complete there too. */
static bool cpl_slot(const struct cpl_all *a, const struct cpl *x, int k, char *buf)
{
	buf[0] = 0;
	if (!x->c) { /* help COMMAND */
		if (k == 0)
			snprintf(buf, CPL_WORDS, "%s", a->commands);
		return false;
	}
	const char *verbs[VIEW_COUNT + 16];
	size_t nv = cli_cmd_verbs(x->c, verbs, sizeof verbs / sizeof verbs[0]);
	bool files = x->c->operands == CMD_FILES;
	int verb_at = !nv ? -1 : x->c->verb_after_operand ? 1 : 0;
	for (const struct cmd *s = x->c->sub; k == 0 && s; s = s->next)
		add_word(buf, sub_word(s));
	if (k == verb_at) {
		for (size_t i = 0; i < nv; i++)
			add_word(buf, verbs[i]);
		return false;
	}
	if (verb_at == 1)
		return files && k == 0; /* nsys FILE.sqlite [VIEW] */
	return files;
}

/* The kind of file an option's value is: 'f' (FILE, TRACE, REPORT), 'd'
 * (DIR), or 0. */
static char value_files(const struct vo *o)
{
	if (o->type == VO_FLAG || !o->metavar)
		return 0;
	if (!strcmp(o->metavar, "DIR"))
		return 'd';
	return !strcmp(o->metavar, "FILE") || !strcmp(o->metavar, "TRACE") ||
		       !strcmp(o->metavar, "REPORT")
		   ? 'f'
		   : 0;
}

/* The listed choices of an enum option ("op op+shape"); "" for others. */
static const char *value_words(const struct vo *o, char *buf)
{
	buf[0] = 0;
	if (o->type == VO_ENUM)
		for (const struct vo_value *e = o->vals; e->name; e++)
			if (!e->hidden)
				add_word(buf, e->name);
	return buf;
}

static const struct vo *cpl_opts(const struct cpl *x, size_t *n)
{
	*n = 0;
	return x->c ? cli_cmd_opts(x->c, n) : NULL;
}

/* `OPT_PATTERN) return 0 ;;` over the options with a value, with prefix
 * ("ops/") or none (the globals). */
static void sh_arg_arm(FILE *f, const char *prefix, const struct vo *v, size_t n)
{
	const char *sep = "\t";
	for (size_t k = 0; k < n; k++) {
		if (v[k].type == VO_FLAG)
			continue;
		if (v[k].lname)
			fprintf(f, "%s%s--%s", sep, prefix, v[k].lname), sep = "|";
		if (v[k].sname)
			fprintf(f, "%s%s-%c", sep, prefix, v[k].sname), sep = "|";
	}
	if (*sep == '|')
		fputs(") return 0 ;;\n", f);
}

static void sh_value_arms(FILE *f, const char *prefix, const struct vo *v, size_t n)
{
	char words[CPL_WORDS];
	for (size_t k = 0; k < n; k++) {
		char kind = value_files(&v[k]);
		value_words(&v[k], words);
		if (v[k].type == VO_FLAG || (!kind && !words[0]))
			continue;
		const char *sep = "\t";
		if (v[k].lname)
			fprintf(f, "%s%s--%s", sep, prefix, v[k].lname), sep = "|";
		if (v[k].sname)
			fprintf(f, "%s%s-%c", sep, prefix, v[k].sname);
		fprintf(f, ") _gpuprof_w='%s' _gpuprof_f=%s ;;\n", words,
			kind == 'f'   ? "f"
			: kind == 'd' ? "d"
				      : "");
	}
}

/* The arms of `case $2` for the global options, then `case $1/$2` with
 * those of every context's options. */
static void sh_arms(FILE *f, const struct cpl_all *a,
		    void (*arm)(FILE *f, const char *prefix, const struct vo *v, size_t n))
{
	arm(f, "", cli_globals, cli_nglobals);
	fputs("\tesac\n\tcase $1/$2 in\n", f);
	for (size_t i = 0; i < a->n; i++) {
		size_t n;
		const struct vo *v = cpl_opts(&a->v[i], &n);
		char prefix[80];
		snprintf(prefix, sizeof prefix, "%s/", a->v[i].key);
		arm(f, prefix, v, n);
	}
}

/* The data functions of the bash and zsh scripts, and the walk over the
 * words before the cursor. */
static void sh_common(FILE *f, const struct cpl_all *a)
{
	fprintf(f, "_gpuprof_commands='%s'\n_gpuprof_globals='%s'\n\n", a->commands, a->globals);
	fputs("# _gpuprof_arg CONTEXT OPTION: OPTION takes a value\n"
	      "_gpuprof_arg() {\n\tcase $2 in\n",
	      f);
	sh_arms(f, a, sh_arg_arm);
	fputs("\tesac\n\treturn 1\n}\n\n", f);
	fputs("# _gpuprof_value CONTEXT OPTION: the choices (_gpuprof_w) and files\n"
	      "# (_gpuprof_f: f files, d folders) of OPTION's value\n"
	      "_gpuprof_value() {\n\t_gpuprof_w= _gpuprof_f=\n\tcase $2 in\n",
	      f);
	sh_arms(f, a, sh_value_arms);
	fputs("\tesac\n}\n\n# _gpuprof_opts CONTEXT: its options\n_gpuprof_opts() {\n"
	      "\t_gpuprof_f=\n\tcase $1 in\n",
	      f);
	char words[CPL_WORDS];
	for (size_t i = 0; i < a->n; i++) {
		size_t n;
		const struct vo *v = cpl_opts(&a->v[i], &n);
		opt_words(v, n, words);
		fprintf(f, "\t%s) _gpuprof_w='%s' ;;\n", a->v[i].key, words);
	}
	fputs("\t*) _gpuprof_w= ;;\n\tesac\n}\n\n"
	      "# _gpuprof_operand CONTEXT N: what operand N (from 0) is\n"
	      "_gpuprof_operand() {\n\t_gpuprof_w= _gpuprof_f=\n\tcase $1/$2 in\n",
	      f);
	for (size_t i = 0; i < a->n; i++)
		for (int k = 0; k < 3; k++) {
			bool files = cpl_slot(a, &a->v[i], k, words);
			fprintf(f, "\t%s/%s) _gpuprof_w='%s' _gpuprof_f=%s ;;\n", a->v[i].key,
				k == 2 ? "*"
				: k    ? "1"
				       : "0",
				words, files ? "f" : "");
		}
	fputs("\tesac\n}\n\n# _gpuprof_sub CONTEXT WORD: WORD is a subcommand of CONTEXT\n"
	      "_gpuprof_sub() {\n\tcase $1/$2 in\n",
	      f);
	for (size_t i = 0; i < a->n; i++)
		for (const struct cmd *s = a->v[i].c ? a->v[i].c->sub : NULL; s; s = s->next)
			fprintf(f, "\t%s/%s) return 0 ;;\n", a->v[i].key, sub_word(s));
	fputs("\tesac\n\treturn 1\n}\n\n"
	      "# _gpuprof_walk WORD...: the words after gpuprof before the cursor into\n"
	      "# _gpuprof_ctx (the command, \"nsys.analyze\"), _gpuprof_n (operands\n"
	      "# after it) and _gpuprof_pend (an option still waiting for its value)\n"
	      "_gpuprof_walk() {\n"
	      "\t_gpuprof_ctx= _gpuprof_n=0 _gpuprof_pend=\n"
	      "\tlocal w dd=\n"
	      "\tfor w in \"$@\"; do\n"
	      "\t\tif [ -n \"$_gpuprof_pend\" ]; then\n"
	      "\t\t\t[ \"$w\" = = ] || _gpuprof_pend= # bash splits --opt=value\n"
	      "\t\t\tcontinue\n"
	      "\t\tfi\n"
	      "\t\tif [ -z \"$dd\" ]; then\n"
	      "\t\t\tcase $w in\n"
	      "\t\t\t--) dd=1 && continue ;;\n"
	      "\t\t\t--*=*) continue ;;\n"
	      "\t\t\t-?*) _gpuprof_arg \"$_gpuprof_ctx\" \"$w\" && _gpuprof_pend=$w\n"
	      "\t\t\t\tcontinue ;;\n"
	      "\t\t\tesac\n"
	      "\t\tfi\n"
	      "\t\tif [ -z \"$_gpuprof_ctx\" ]; then\n"
	      "\t\t\t_gpuprof_ctx=$w\n"
	      "\t\telif [ \"$_gpuprof_n\" -eq 0 ] && _gpuprof_sub \"$_gpuprof_ctx\" \"$w\"; then\n"
	      "\t\t\t_gpuprof_ctx=$_gpuprof_ctx.$w\n"
	      "\t\telse\n"
	      "\t\t\t_gpuprof_n=$((_gpuprof_n + 1))\n"
	      "\t\tfi\n"
	      "\tdone\n"
	      "\t[ \"$_gpuprof_n\" -gt 2 ] && _gpuprof_n=2\n"
	      "\treturn 0\n"
	      "}\n\n"
	      "# _gpuprof_what CURRENT: _gpuprof_w and _gpuprof_f for the word at the\n"
	      "# cursor, after _gpuprof_walk\n"
	      "_gpuprof_what() {\n"
	      "\tif [ -n \"$_gpuprof_pend\" ]; then\n"
	      "\t\t_gpuprof_value \"$_gpuprof_ctx\" \"$_gpuprof_pend\"\n"
	      "\telif [ -z \"${1%%-*}\" ] && [ -n \"$1\" ]; then\n"
	      "\t\t_gpuprof_opts \"$_gpuprof_ctx\"\n"
	      "\t\t_gpuprof_w=\"$_gpuprof_w $_gpuprof_globals\"\n"
	      "\telif [ -z \"$_gpuprof_ctx\" ]; then\n"
	      "\t\t_gpuprof_w=$_gpuprof_commands _gpuprof_f=\n"
	      "\telse\n"
	      "\t\t_gpuprof_operand \"$_gpuprof_ctx\" \"$_gpuprof_n\"\n"
	      "\tfi\n"
	      "}\n\n",
	      f);
}

static void print_bash(FILE *f, const struct cpl_all *a)
{
	fputs("# bash completion for gpuprof: generated by `gpuprof completion bash`\n"
	      "# from the option declarations (do not edit).\n\n",
	      f);
	sh_common(f, a);
	fputs("_gpuprof() {\n"
	      "\tlocal cur=${COMP_WORDS[COMP_CWORD]} IFS=$' \\t\\n'\n"
	      "\t_gpuprof_walk \"${COMP_WORDS[@]:1:COMP_CWORD-1}\"\n"
	      "\t[ -n \"$_gpuprof_pend\" ] && [ \"$cur\" = = ] && cur=\n"
	      "\t_gpuprof_what \"$cur\"\n"
	      "\tCOMPREPLY=($(compgen -W \"$_gpuprof_w\" -- \"$cur\"))\n"
	      "\tif [ \"$_gpuprof_f\" = f ]; then\n"
	      "\t\tCOMPREPLY+=($(compgen -f -- \"$cur\"))\n"
	      "\t\tcompopt -o filenames 2>/dev/null\n"
	      "\telif [ \"$_gpuprof_f\" = d ]; then\n"
	      "\t\tCOMPREPLY+=($(compgen -d -- \"$cur\"))\n"
	      "\t\tcompopt -o filenames 2>/dev/null\n"
	      "\tfi\n"
	      "\treturn 0\n"
	      "}\n"
	      "complete -F _gpuprof gpuprof\n",
	      f);
}

static void print_zsh(FILE *f, const struct cpl_all *a)
{
	fputs("#compdef gpuprof\n"
	      "# zsh completion for gpuprof: generated by `gpuprof completion zsh`\n"
	      "# from the option declarations (do not edit).\n\n",
	      f);
	sh_common(f, a);
	fputs("_gpuprof() {\n"
	      "\tlocal cur=${words[CURRENT]}\n"
	      "\t_gpuprof_walk \"${(@)words[2,CURRENT-1]}\"\n"
	      "\tif [[ -z $_gpuprof_pend && $cur == --*=* ]]; then\n"
	      "\t\t_gpuprof_pend=${cur%%=*}\n"
	      "\t\tcompset -P '*='\n"
	      "\tfi\n"
	      "\t_gpuprof_what \"$cur\"\n"
	      "\t[[ -n $_gpuprof_w ]] && compadd -- ${=_gpuprof_w}\n"
	      "\tcase $_gpuprof_f in\n"
	      "\tf) _files ;;\n"
	      "\td) _files -/ ;;\n"
	      "\tesac\n"
	      "\treturn 0\n"
	      "}\n\n"
	      "if [ \"$funcstack[1]\" = _gpuprof ]; then\n"
	      "\t_gpuprof \"$@\"\n"
	      "else\n"
	      "\tcompdef _gpuprof gpuprof\n"
	      "fi\n",
	      f);
}

/* s's first line as a fish single-quoted string's contents. */
static void fish_text(FILE *f, const char *s)
{
	for (; s && *s && *s != '\n'; s++) {
		if (*s == '\'' || *s == '\\')
			fputc('\\', f);
		fputc(*s, f);
	}
}

/* `complete` lines for the options v[0..n), under condition cond (NULL:
 * everywhere). */
static void fish_opts(FILE *f, const char *cond, const struct vo *v, size_t n)
{
	char words[CPL_WORDS];
	for (size_t k = 0; k < n; k++) {
		if (!v[k].lname && !v[k].sname)
			continue;
		fputs("complete -c gpuprof", f);
		if (cond)
			fprintf(f, " -n '%s'", cond);
		if (v[k].sname)
			fprintf(f, " -s %c", v[k].sname);
		if (v[k].lname)
			fprintf(f, " -l %s", v[k].lname);
		if (v[k].type != VO_FLAG) {
			char kind = value_files(&v[k]);
			fputs(kind ? " -r -F" : " -r -f", f);
			if (*value_words(&v[k], words))
				fprintf(f, " -a '%s'", words);
		}
		fputs(" -d '", f);
		fish_text(f, v[k].help);
		fputs("'\n", f);
	}
}

static void print_fish(FILE *f, const struct cpl_all *a)
{
	fputs("# fish completion for gpuprof: generated by `gpuprof completion fish`\n"
	      "# from the option declarations (do not edit).\n\n"
	      "function __gpuprof_arg -a ctx opt\n"
	      "    switch $opt\n",
	      f);
	for (size_t k = 0; k < cli_nglobals; k++) {
		const struct vo *o = &cli_globals[k];
		if (o->type == VO_FLAG)
			continue;
		fprintf(f, "        case --%s%s%c\n            return 0\n", o->lname,
			o->sname ? " -" : "", o->sname ? o->sname : ' ');
	}
	fputs("    end\n    switch \"$ctx/$opt\"\n", f);
	for (size_t i = 0; i < a->n; i++) {
		size_t n;
		const struct vo *v = cpl_opts(&a->v[i], &n);
		for (size_t k = 0; k < n; k++) {
			if (v[k].type == VO_FLAG)
				continue;
			fputs("        case", f);
			if (v[k].lname)
				fprintf(f, " %s/--%s", a->v[i].key, v[k].lname);
			if (v[k].sname)
				fprintf(f, " %s/-%c", a->v[i].key, v[k].sname);
			fputs("\n            return 0\n", f);
		}
	}
	fputs("    end\n    return 1\nend\n\n"
	      "function __gpuprof_sub -a ctx w\n    switch \"$ctx/$w\"\n",
	      f);
	for (size_t i = 0; i < a->n; i++)
		for (const struct cmd *s = a->v[i].c ? a->v[i].c->sub : NULL; s; s = s->next)
			fprintf(f, "        case %s/%s\n            return 0\n", a->v[i].key,
				sub_word(s));
	fputs("    end\n    return 1\nend\n\n"
	      "# the command line before the cursor: the context (command, \"nsys.analyze\"),\n"
	      "# operands after it (2: two or more), an option waiting for its value\n"
	      "function __gpuprof_state\n"
	      "    set -g __gpuprof_ctx ''\n"
	      "    set -g __gpuprof_n 0\n"
	      "    set -g __gpuprof_pend ''\n"
	      "    set -l dd 0\n"
	      "    set -l toks (commandline -opc)\n"
	      "    set -e toks[1]\n"
	      "    for w in $toks\n"
	      "        if test -n \"$__gpuprof_pend\"\n"
	      "            set __gpuprof_pend ''\n"
	      "            continue\n"
	      "        end\n"
	      "        if test $dd -eq 0\n"
	      "            switch $w\n"
	      "                case --\n"
	      "                    set dd 1\n"
	      "                    continue\n"
	      "                case '--*=*'\n"
	      "                    continue\n"
	      "                case '-?*'\n"
	      "                    __gpuprof_arg \"$__gpuprof_ctx\" $w; and set __gpuprof_pend $w\n"
	      "                    continue\n"
	      "            end\n"
	      "        end\n"
	      "        if test -z \"$__gpuprof_ctx\"\n"
	      "            set __gpuprof_ctx $w\n"
	      "        else if test $__gpuprof_n -eq 0; and __gpuprof_sub $__gpuprof_ctx $w\n"
	      "            set __gpuprof_ctx $__gpuprof_ctx.$w\n"
	      "        else if test $__gpuprof_n -lt 2\n"
	      "            set __gpuprof_n (math $__gpuprof_n + 1)\n"
	      "        end\n"
	      "    end\n"
	      "end\n\n"
	      "# in context ctx (any operand)\n"
	      "function __gpuprof_in -a ctx\n"
	      "    __gpuprof_state\n"
	      "    test \"$__gpuprof_ctx\" = \"$ctx\"\n"
	      "end\n\n"
	      "# at operand n of context ctx ('' 0: the command)\n"
	      "function __gpuprof_at -a ctx n\n"
	      "    __gpuprof_state\n"
	      "    test \"$__gpuprof_ctx\" = \"$ctx\"; and test \"$__gpuprof_n\" = \"$n\"; "
	      "and test -z \"$__gpuprof_pend\"\n"
	      "end\n\n"
	      "complete -c gpuprof -f\n",
	      f);
	for (size_t i = 0; i < a->n; i++) {
		const struct cmd *c = a->v[i].c;
		fprintf(f, "complete -c gpuprof -n '__gpuprof_at \"\" 0' -a %s -d '", a->v[i].key);
		fish_text(f, c ? cli_cmd_summary(c) : "help for the tool or a command");
		fputs("'\n", f);
		for (const struct cmd *s = c ? c->sub : NULL; s; s = s->next)
			i++; /* (a subcommand is not a command of its own) */
	}
	fish_opts(f, NULL, cli_globals, cli_nglobals);
	char words[CPL_WORDS];
	for (size_t i = 0; i < a->n; i++) {
		char cond[128];
		size_t n;
		const struct vo *v = cpl_opts(&a->v[i], &n);
		snprintf(cond, sizeof cond, "__gpuprof_in %s", a->v[i].key);
		fish_opts(f, cond, v, n);
		for (int k = 0; k < 3; k++) {
			bool files = cpl_slot(a, &a->v[i], k, words);
			if (!files && !words[0])
				continue;
			fprintf(f, "complete -c gpuprof -n '__gpuprof_at %s %d'%s", a->v[i].key, k,
				files ? " -F" : "");
			if (words[0])
				fprintf(f, " -a '%s'", words);
			fputc('\n', f);
		}
	}
}

int cmd_completion(struct app *app, int argc, char **argv)
{
	if (argc != 2)
		return app_usage(app, "completion", "give one shell: bash, zsh or fish");
	int k = 0;
	while (cmd_completion_shells[k] && strcmp(argv[1], cmd_completion_shells[k]))
		k++;
	if (!cmd_completion_shells[k]) {
		char mean[96];
		return app_usage(
		    app, "completion", "unknown shell '%s'%s (bash, zsh or fish)", argv[1],
		    app_did_you_mean(argv[1], cmd_completion_shells, 3, mean, sizeof mean));
	}
	struct cmd_list *l = malloc(sizeof *l);
	struct cpl_all *a = malloc(sizeof *a);
	struct err e = {0};
	int rc = !l || !a ? err_set(&e, ERR_NOMEM, NULL, -1, "out of memory") : 0;
	if (!rc)
		rc = app_out_open(app, &e);
	if (!rc) {
		cli_commands(l);
		cpl_build(a, l);
		if (k == 0)
			print_bash(app->out, a);
		else if (k == 1)
			print_zsh(app->out, a);
		else
			print_fish(app->out, a);
		rc = app_out_close(app, true, &e);
	}
	free(a);
	free(l);
	return rc ? app_fail(app, &e) : 0;
}
