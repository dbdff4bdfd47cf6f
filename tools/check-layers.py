#!/usr/bin/env python3
"""check-layers: the layer rules of src/, checked (`make check-layers`).

Reads every `#include "..."` of the .c and .h files under src/ and fails,
naming FILE:LINE and the rule, when one crosses a boundary the table below
forbids. An area is a folder of src/; `#include "area/x.h"` names its area,
a bare `#include "x.h"` must name a file beside the includer. An area may
always include itself and core/. A folder missing from the table fails too:
a new area gets its row (and the reason for each dependency) here.

It also fails when a .c file of src/ is over MAX_FILE_LINES lines or a
function over MAX_FUNC_LINES lines (from the line of its opening brace to
the line of its closing one).

  tools/check-layers.py [SRC]     check (SRC defaults to src)
  tools/check-layers.py --rules   print the table
"""
import os
import re
import sys

MAX_FILE_LINES = 800
MAX_FUNC_LINES = 150

ANY = "*"  # every area (but those of NEVER)

# area: (the areas it may include besides itself and core, why)
RULES = {
    "core": ((), "primitives (arena, string pool, err, sort, vec, lru): libc only"),
    "io": ((), "byte sources, gzip, file-kind sniffing, output files that appear whole"),
    "json": ((), "the JSON tokenizer"),
    "pb": ((), "protobuf wire format, read and write"),
    "report": ((), "tables into text/CSV/JSON, JSON string and number writers"),
    "trace": ((), "the trace model and its builder API: no reader, no analysis"),
    "kineto": (("io", "json", "trace"),
               "the Kineto reader: bytes from io, tokens from json, fills the model"),
    "ncu": (("io", "pb"), "the Nsight Compute reader and its model: protobuf records"),
    "nsys": (("io", "json"), "the Nsight Systems reader and its NVTX analyses: files through io; "
             "json checks a stored analysis.json"),
    "tbprof": (("trace", "json"),
               "torch-tb-profiler analyses of the model; stored JSON text (an "
               "operator's Input Dims) parsed with json"),
    "hta": (("trace",),
            "where the GPU waits, Holistic Trace Analysis' analyses and the like "
            "(idle time, launches, syncs, FLOPs): the model only, never tbprof's definitions"),
    "export": (("trace", "pb", "report"),
               "writers know models only (the call stacks are the model's, "
               "trace/stacks): pprof through pb, chrome's JSON strings through "
               "report's writers"),
    "fleet": (("io", "json", "report", "trace", "tbprof"),
              "rank summaries: a worker's part of the distributed analysis written "
              "and read back (tbprof's model, json's tokens, report's strings)"),
    "synth": ((), "the synthetic trace generator: writes its JSON text itself"),
    "views": (("report", "trace", "tbprof", "hta", "ncu", "nsys"),
              "views compute analyses of the models and write them through report; "
              "exports are commands, not views"),
    "input": (("io", "kineto", "ncu", "nsys", "trace"),
              "the registry of input kinds: sniff with io, load with each reader"),
    "server": ((ANY,), "the HTTP server: anything but the command line"),
    "wasm": (("io", "input", "report", "server", "tbprof", "trace", "views"),
             "the WebAssembly build's stand-ins (make wasm): io's gzip interface on "
             "io/inflate, libc calls and libraries absent there, the static site's "
             "file kinds from input's registry, and its API (site_api.c): loaded "
             "inputs' sessions answered through views with the server's query "
             "parsing and answers (server/srv_query, server/srv_answer, no socket)"),
    "cli": ((ANY,), "the command line: anything"),
}
# areas no other area may include, whatever the table says
NEVER = {"cli": "only the command line parses argv, prints and exits"}
# readers never include one another (the table is checked against this)
READERS = ("kineto", "ncu", "nsys")

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def table_errors():
    """The table's own consistency: readers apart, NEVER respected."""
    errs = []
    for r in READERS:
        for other in RULES[r][0]:
            if other in READERS:
                errs.append("rule table: reader %s may not include reader %s" % (r, other))
    for area, (deps, _) in RULES.items():
        for n in NEVER:
            if n in deps:
                errs.append("rule table: %s may not include %s (%s)" % (area, n, NEVER[n]))
    return errs


def allowed(area, target):
    if target == area or target == "core":
        return True
    if target in NEVER:
        return False
    deps = RULES[area][0]
    return ANY in deps or target in deps


def may_text(area):
    """What area may include besides itself and core, in words."""
    deps = RULES[area][0]
    if ANY in deps:
        never = [n for n in NEVER if n != area]
        return "anything" + (" but " + ", ".join(never) if never else "")
    return ", ".join(deps) if deps else "nothing else"


def rule_text(area):
    may = may_text(area)
    if ANY not in RULES[area][0]:
        may = "core, " + may
    return "%s may include %s (%s)" % (area, may, RULES[area][1])


def print_rules():
    print("area     may include (besides itself and core)        why")
    for area, (_, why) in RULES.items():
        print("  %-7s %-44s %s" % (area, may_text(area), why))
    print("never included by another area: " +
          "; ".join("%s (%s)" % kv for kv in NEVER.items()))
    print("readers, never including one another: " + ", ".join(READERS))
    print("limits: a .c file of src/ at most %d lines, a function at most %d" %
          (MAX_FILE_LINES, MAX_FUNC_LINES))


def strip_code(text):
    """text with comments, string and character literals blanked and
    preprocessor lines emptied; newlines kept, so line numbers hold."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if line_start and c == "#":  # a directive, with its continuations
            while i < n and text[i] != "\n":
                if text[i] == "\\" and i + 1 < n and text[i + 1] == "\n":
                    out.append("\n")
                    i += 2
                    continue
                i += 1
            continue
        line_start = False
        if c == "\n":
            line_start = True
            out.append(c)
            i += 1
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            while i < n and text[i] != "\n":
                i += 1
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(text):
    """(name, first line, last line) of each function body: a top-level
    brace that follows a closing parenthesis."""
    code = strip_code(text)
    found = []
    depth = 0
    start = None
    name = "?"
    line = 1
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        elif c == "{":
            if depth == 0:
                before = code[:i].rstrip()
                if before.endswith(")"):
                    start = line
                    name = function_name(before)
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0 and start is not None:
                found.append((name, start, line))
                start = None
    return found


def function_name(before):
    """The identifier before the parameter list that ends `before`."""
    depth = 0
    for k in range(len(before) - 1, -1, -1):
        if before[k] == ")":
            depth += 1
        elif before[k] == "(":
            depth -= 1
            if depth == 0:
                m = re.search(r"([A-Za-z_]\w*)\s*$", before[:k])
                return m.group(1) if m else "?"
    return "?"


def check(src):
    errs = table_errors()
    areas = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    for area in areas:
        if area not in RULES:
            errs.append("%s/%s/: area %s has no row in the layer table (tools/check-layers.py)"
                        % (src, area, area))
    for area in areas:
        folder = os.path.join(src, area)
        for fname in sorted(os.listdir(folder)):
            if not fname.endswith((".c", ".h")):
                continue
            path = os.path.join(folder, fname)
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            errs += check_includes(src, area, path, text)
            if fname.endswith(".c"):
                errs += check_sizes(path, text)
    return errs


def check_includes(src, area, path, text):
    errs = []
    if area not in RULES:
        return errs
    for no, line in enumerate(text.splitlines(), 1):
        m = INCLUDE.match(line)
        if not m:
            continue
        inc = m.group(1)
        if "/" not in inc:
            if not os.path.exists(os.path.join(os.path.dirname(path), inc)):
                errs.append('%s:%d: #include "%s": a bare include names a file of %s/; '
                            'another area\'s header is included as "area/%s"'
                            % (path, no, inc, area, inc))
            continue
        target = inc.split("/", 1)[0]
        if target in ("..", "."):
            errs.append('%s:%d: #include "%s": include by area ("area/file.h"), not by '
                        'relative path' % (path, no, inc))
            continue
        if not os.path.isdir(os.path.join(src, target)):
            errs.append('%s:%d: #include "%s": no area %s in %s/' % (path, no, inc, target, src))
            continue
        if not allowed(area, target):
            why = NEVER.get(target)
            errs.append('%s:%d: #include "%s": %s%s' % (
                path, no, inc, rule_text(area),
                "; %s is never included (%s)" % (target, why) if why else ""))
    return errs


def check_sizes(path, text):
    errs = []
    nlines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if nlines > MAX_FILE_LINES:
        errs.append("%s: %d lines: a .c file has at most %d (split it by topic)"
                    % (path, nlines, MAX_FILE_LINES))
    for name, first, last in functions(text):
        n = last - first + 1
        if n > MAX_FUNC_LINES:
            errs.append("%s:%d: function %s is %d lines: at most %d (split it into helpers)"
                        % (path, first, name, n, MAX_FUNC_LINES))
    return errs


def main(argv):
    if len(argv) > 1 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) > 1 and argv[1] == "--rules":
        print_rules()
        return 0
    src = argv[1] if len(argv) > 1 else "src"
    if not os.path.isdir(src):
        print("check-layers: no folder %s" % src, file=sys.stderr)
        return 2
    errs = check(src)
    for e in errs:
        print(e)
    print("check-layers: %d problem%s" % (len(errs), "" if len(errs) == 1 else "s"))
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
