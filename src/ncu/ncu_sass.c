/* ncu_sass: nvdisasm's output read back into ncu's rows, the --binary
 * architecture of a cubin and where nvdisasm is (see ncu_sass.h).
 *
 * nvdisasm prints one instruction a line: spaces, the address as a C
 * comment in hex (b00e7bb40 between slash-star and star-slash), spaces, an optional predicate
 * (`@P0`, `@!UP1`), the instruction, then ` ;` (or `;` right after it, as
 * in `BRA 0x120;`). ncu's Source column shows the predicate in a field of
 * 6 characters and no semicolon: `@P0   EXIT`, `      EXIT`. Other lines
 * (`.headerflags`, labels, blank lines) carry no instruction. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ncu/ncu_sass.h"

#define PRED_WIDTH 6
/* the longest instruction text kept (nvdisasm's lines are < 200 bytes) */
#define SASS_MAX_TEXT 1024

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

static int hexval(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
				      : -1;
}

void ncu_sass_format(const char *pred, size_t plen, const char *insn, size_t ilen, char *buf,
		     size_t n)
{
	if (!n)
		return;
	int pad = plen < PRED_WIDTH ? (int)(PRED_WIDTH - plen) : 1;
	snprintf(buf, n, "%.*s%*s%.*s", (int)plen, pred, pad, "", (int)ilen, insn);
}

/* The row of one line [s, end), or false when it holds no instruction. */
static bool parse_line(const char *s, const char *end, uint64_t *addr, char *buf, size_t bn)
{
	while (s < end && is_space(*s))
		s++;
	if (end - s < 5 || s[0] != '/' || s[1] != '*')
		return false;
	s += 2;
	uint64_t a = 0;
	int digits = 0;
	for (; s < end && hexval(*s) >= 0; s++, digits++) {
		if (digits >= 16)
			return false; /* more than 64 bits */
		a = a << 4 | (uint64_t)hexval(*s);
	}
	if (!digits || end - s < 2 || s[0] != '*' || s[1] != '/')
		return false;
	s += 2;
	while (s < end && is_space(*s))
		s++;
	const char *pred = s;
	size_t plen = 0;
	if (s < end && *s == '@') {
		while (s < end && !is_space(*s))
			s++;
		plen = (size_t)(s - pred);
		while (s < end && is_space(*s))
			s++;
	}
	const char *e = end;
	while (e > s && is_space(e[-1]))
		e--;
	if (e > s && e[-1] == ';')
		e--;
	while (e > s && is_space(e[-1]))
		e--;
	if (e == s)
		return false;
	*addr = a;
	ncu_sass_format(pred, plen, s, (size_t)(e - s), buf, bn);
	return true;
}

int ncu_sass_parse(const char *text, size_t n, size_t max_rows, struct arena *a,
		   struct ncu_sass_line **rows, size_t *nrows)
{
	size_t lines = 1;
	for (size_t i = 0; i < n; i++)
		lines += text[i] == '\n';
	if (lines > max_rows)
		lines = max_rows;
	*nrows = 0;
	*rows = lines ? arena_array(a, lines, sizeof **rows) : NULL;
	if (lines && !*rows)
		return ERR_NOMEM;
	const char *p = text, *end = text + n;
	char buf[SASS_MAX_TEXT];
	while (p < end && *nrows < lines) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end;
		uint64_t addr;
		if (parse_line(p, le, &addr, buf, sizeof buf)) {
			char *t = arena_strndup(a, buf, strlen(buf));
			if (!t)
				return ERR_NOMEM;
			(*rows)[*nrows].addr = addr;
			(*rows)[(*nrows)++].text = t;
		}
		p = nl ? nl + 1 : end;
	}
	return 0;
}

bool ncu_sass_arch(uint32_t sm_revision, uint32_t elf_flags, char *buf, size_t n)
{
	uint32_t major = sm_revision >> 16, minor = sm_revision & 0xffff;
	if (major >= 3 && major < 100 && minor < 10) {
		snprintf(buf, n, "SM%u%u", major, minor);
		return true;
	}
	uint32_t sm = elf_flags & 0xff; /* EF_CUDA_SM, the ABI before CUDA 13 */
	if (sm >= 30 && sm < 1000) {
		snprintf(buf, n, "SM%u", sm);
		return true;
	}
	return false;
}

static bool executable(const char *p)
{
	struct stat st;
	return !stat(p, &st) && S_ISREG(st.st_mode) && !access(p, X_OK);
}

enum ncu_nvdisasm_from ncu_nvdisasm_find(const char *opt, char *buf, size_t n, char *why, size_t wn)
{
	const char *env = getenv("GPUPROF_NVDISASM");
	const char *given = opt && *opt ? opt : env && *env ? env : NULL;
	why[0] = 0;
	if (given) {
		/* a name without a folder is the current folder's (never looked
		 * up in $PATH by the start) */
		const char *dot = strchr(given, '/') ? "" : "./";
		if (executable(given) && strlen(given) + 2 < n) {
			snprintf(buf, n, "%s%s", dot, given);
			return given == opt ? NCU_NVD_OPTION : NCU_NVD_ENV;
		}
		snprintf(why, wn, "%s '%s' is not an executable file",
			 given == opt ? "--nvdisasm" : "GPUPROF_NVDISASM", given);
		return NCU_NVD_NONE;
	}
	const char *path = getenv("PATH");
	while (path && *path) {
		const char *colon = strchr(path, ':');
		size_t len = colon ? (size_t)(colon - path) : strlen(path);
		/* an empty entry is the current folder */
		int w = snprintf(buf, n, "%.*s/nvdisasm", (int)(len ? len : 1), len ? path : ".");
		if (w > 0 && (size_t)w < n && executable(buf))
			return NCU_NVD_PATH;
		path += len + (colon != NULL);
	}
	buf[0] = 0;
	return NCU_NVD_NONE;
}
