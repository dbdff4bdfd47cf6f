"""Checks of gpuprof's exports (run by tests/export/check.sh).

Expected values were computed by hand from the traces in this folder:
nest.json (thread pid 1/tid 1, times in ns):
  A [0,10000]; B [2000,5000] and C [2000,3000] share a start (B, the longer,
  is the parent although C comes first in the file); D [5000,5500] starts
  exactly at B's end (a sibling under A); E [8000,12000] partially overlaps
  A: clipped to [8000,10000] under A; F [9000,9001] (1 ns) inside E;
  G [11000,12000] a root.  Self: A 10000-3000-500-2000 = 4500, B 2000,
  C 1000, D 500, E 2000-1 = 1999, F 1, G 1000 (sum 11000 = roots A + G).
  pid 2/tid 1 (same tid, another process): B/E pair H [0,4500] with
  I [1000,2000] inside: H 3500, I 1000.
ties.json: P and Q both [100000,105000] (Q, later in the file, is the
  child), Z [105000,105000] zero length inside R [105000,105002], f;g h
  [105001,105002] inside R.
gpu.json: aten::mm [0,10000] > cudaLaunchKernel [1000,3000] (launches gemm,
  20000 ns on device 0 stream 7) and cudaMemcpyAsync [4000,5000] (launches
  a 250 ns memcpy); kernel "orphan" (1000 ns) has no launcher.
"""
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from decimal import Decimal

GP = sys.argv[1]
SHARED = sys.argv[2] if len(sys.argv) > 2 else ""
HERE = os.path.dirname(os.path.abspath(__file__))
TMP = tempfile.mkdtemp(prefix="gpuprof-export-")
PROTOC = shutil.which("protoc")
GO = shutil.which("go")
passed = failed = 0


def ok(cond, what, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL export: %s%s" % (what, (": " + str(detail)) if detail else ""))


def gp(*args):
    r = subprocess.run([GP, "-q"] + list(args), capture_output=True)
    return r.returncode, r.stdout, r.stderr


# ---- go tool pprof (Debian golang-go): offline, its caches in TMP ----

def go_pprof(*args):
    env = dict(os.environ, HOME=TMP, GOCACHE=os.path.join(TMP, "gocache"), GOPATH=
               os.path.join(TMP, "gopath"), GOTOOLCHAIN="local", GOPROXY="off", GOFLAGS="")
    return subprocess.run([GO, "tool", "pprof"] + list(args), capture_output=True, text=True,
                          env=env, cwd=TMP)


UNITS = {"ns": 1, "us": 1000, "\u00b5s": 1000, "ms": 10**6, "s": 10**9, "mins": 60 * 10**9,
         "hrs": 3600 * 10**9}


def to_ns(v):
    m = re.match(r"^(-?[\d.]+)([a-z\u00b5]+)$", v)
    return int(round(Decimal(m.group(1)) * UNITS[m.group(2)])) if m else None


def top_rows(text):
    """go tool pprof -top rows: name -> (flat ns, cum ns, count of rows)."""
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^ *(\S+) +\S+% +\S+% +(\S+) +\S+%  (.*)$", line)
        if m and to_ns(m.group(1)) is not None:
            n = rows.get(m.group(3), (0, 0, 0))[2]
            rows[m.group(3)] = (to_ns(m.group(1)), to_ns(m.group(2)), n + 1)
    return rows


def trace(name):
    return os.path.join(HERE, name)


# ---- protoc text format -> nested dicts of lists ----

def parse_text(text):
    root = {}
    stack = [root]
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if line == "}":
            stack.pop()
        elif line.endswith("{"):
            d = {}
            stack[-1].setdefault(line[:-1].strip(), []).append(d)
            stack.append(d)
        else:
            k, v = line.split(":", 1)
            v = v.strip()
            if v.startswith('"'):
                v = decode_c_string(v[1:-1])
            else:
                v = int(v)
            stack[-1].setdefault(k.strip(), []).append(v)
    return root


def decode_c_string(s):
    out = bytearray()
    i = 0
    b = s.encode("latin-1", "backslashreplace") if False else s.encode("utf-8")
    while i < len(b):
        c = b[i]
        if c == 0x5C:
            n = b[i + 1]
            esc = {ord("n"): 10, ord("t"): 9, ord("r"): 13, ord('"'): 34, ord("'"): 39, 0x5C: 0x5C}
            if n in esc:
                out.append(esc[n])
                i += 2
            elif 0x30 <= n <= 0x37:
                j = i + 1
                while j < len(b) and j < i + 4 and 0x30 <= b[j] <= 0x37:
                    j += 1
                out.append(int(b[i + 1:j], 8))
                i = j
            else:
                out.append(n)
                i += 2
        else:
            out.append(c)
            i += 1
    return out.decode("utf-8", "replace")


def decode_pprof(path):
    """The Profile as dicts, after checking pprof's structural rules."""
    with open(path, "rb") as f:
        raw = f.read()
    ok(raw[:2] == b"\x1f\x8b", "pprof output is gzip", path)
    data = gzip.decompress(raw)
    r = subprocess.run([PROTOC, "-I" + HERE, "--decode=perftools.profiles.Profile",
                        "profile.proto"], input=data, capture_output=True, cwd=HERE)
    ok(r.returncode == 0, "protoc decodes the profile", r.stderr.decode()[:300])
    p = parse_text(r.stdout.decode())
    st = p.get("string_table", [])
    ok(st and st[0] == "", "string_table[0] is empty")
    ns = len(st)

    errs = []

    def sidx(v, what):
        if not (0 <= v < ns):
            errs.append("string index %s=%d out of range" % (what, v))
    types = p.get("sample_type", [])
    ok([st[t.get("type", [0])[0]] for t in types] == ["calls", "time"] and
       [st[t.get("unit", [0])[0]] for t in types] == ["count", "nanoseconds"],
       "sample types calls/count, time/nanoseconds")
    ok(st[p.get("default_sample_type", [0])[0]] == "time", "default_sample_type is time")
    funcs = {}
    for fn in p.get("function", []):
        fid = fn.get("id", [0])[0]
        if fid == 0 or fid in funcs:
            errs.append("function id %d zero or repeated" % fid)
        for k in ("name", "system_name", "filename"):
            sidx(fn.get(k, [0])[0], k)
        funcs[fid] = (st[fn.get("name", [0])[0]], st[fn.get("filename", [0])[0]])
    locs = {}
    for lo in p.get("location", []):
        lid = lo.get("id", [0])[0]
        if lid == 0 or lid in locs:
            errs.append("location id %d zero or repeated" % lid)
        lines = lo.get("line", [])
        for ln in lines:
            if ln.get("function_id", [0])[0] not in funcs:
                errs.append("line of location %d names no function" % lid)
        locs[lid] = funcs.get(lines[-1].get("function_id", [0])[0]) if lines else None
    samples = []
    bad = 0
    for s in p.get("sample", []):
        vals = s.get("value", [])
        if len(vals) != len(types):
            bad += 1
        ids = s.get("location_id", [])
        if any(i not in locs for i in ids):
            bad += 1
        labels = {}
        for lb in s.get("label", []):
            key = st[lb.get("key", [0])[0]]
            if "str" in lb:
                sidx(lb["str"][0], "label str")
                labels[key] = st[lb["str"][0]]
            else:
                labels[key] = lb.get("num", [0])[0]
        path = tuple(locs[i][0] for i in reversed(ids) if i in locs)
        samples.append((path, vals, labels))
    ok(bad == 0, "every sample has 2 values and existing locations", bad)
    ok(not errs, "ids nonzero and unique, references resolve, string indexes in range",
       errs[:5])
    return p, samples


def by_path(samples, key=lambda lb: ()):
    out = {}
    for path, vals, labels in samples:
        k = key(labels) + (";".join(path),)
        c, v = out.get(k, (0, 0))
        out[k] = (c + vals[0], v + vals[1])
    return out


NEST = {
    (1, 1, "A"): (1, 4500), (1, 1, "A;B"): (1, 2000), (1, 1, "A;B;C"): (1, 1000),
    (1, 1, "A;D"): (1, 500), (1, 1, "A;E"): (1, 1999), (1, 1, "A;E;F"): (1, 1),
    (1, 1, "G"): (1, 1000), (2, 1, "H"): (1, 3500), (2, 1, "H;I"): (1, 1000),
}
# go tool pprof -top of nest.json, per function: (flat = self, cum =
# inclusive) in ns, from the times in the docstring
NEST_TOP = {"A": (4500, 10000), "B": (2000, 3000), "C": (1000, 1000), "D": (500, 500),
            "E": (1999, 2000), "F": (1, 1), "G": (1000, 1000), "H": (3500, 4500),
            "I": (1000, 1000)}

NEST_FOLDED = ("A 4500\nA;B 2000\nA;B;C 1000\nA;D 500\nA;E 1999\nA;E;F 1\nG 1000\n"
               "H 3500\nH;I 1000\n")


def check_pprof():
    if not PROTOC:
        print("skip export: protoc not installed (Debian protobuf-compiler): pprof decoding checks skipped")
        return
    out = os.path.join(TMP, "nest.pb.gz")
    rc, _, err = gp("export", "pprof", trace("nest.json"), "-o", out)
    ok(rc == 0, "export pprof nest.json", err.decode())
    p, samples = decode_pprof(out)
    got = by_path(samples, lambda lb: (lb.get("pid"), lb.get("tid")))
    ok(got == NEST, "pprof samples of nest.json (self ns, counts, pid/tid labels)", got)
    cats = {lb.get("category") for _, _, lb in samples}
    ok(cats == {"cpu_op", "user_annotation"}, "category labels", cats)
    # cum = inclusive: every sample containing A adds up to A's duration
    cum_a = sum(v[1] for path, v, _ in samples if "A" in path)
    ok(cum_a == 10000, "pprof cum of A = its duration", cum_a)
    total = sum(v[1] for _, v, _ in samples)
    ok(total == 11000 + 4500, "self times sum to the roots' durations", total)
    ok(p.get("duration_nanos", [0])[0] == 12000, "duration_nanos = trace span",
       p.get("duration_nanos"))
    st = p["string_table"]
    ok(len(st) == len(set(st)), "string table has no duplicates")
    funcs = {(st[f["name"][0]], st[f["filename"][0]]) for f in p["function"]}
    ok(len(funcs) == len(p["function"]) == 9, "one function per (name, category)", funcs)
    # --threads: the thread is the root frame
    out2 = os.path.join(TMP, "nest-threads.pb.gz")
    gp("export", "pprof", "--threads", trace("nest.json"), "-o", out2)
    _, s2 = decode_pprof(out2)
    got2 = by_path(s2)
    ok(got2.get(("trainer (pid 1) / main (tid 1);A;E;F",)) == (1, 1) and
       got2.get(("pid 2 / tid 1;H",)) == (1, 3500), "--threads root frames", got2)
    # ties: equal intervals nest in input order; zero-length events count
    out3 = os.path.join(TMP, "ties.pb.gz")
    gp("export", "pprof", trace("ties.json"), "-o", out3)
    _, s3 = decode_pprof(out3)
    got3 = by_path(s3)
    want3 = {("P",): (1, 0), ("P;Q",): (1, 5000), ("R",): (1, 1), ("R;Z",): (1, 0),
             ("R;f;g h",): (1, 1)}
    ok(got3 == want3, "ties.json samples", got3)
    # --gpu: kernels under their launch, with device/stream labels
    out4 = os.path.join(TMP, "gpu.pb.gz")
    gp("export", "pprof", "--gpu", trace("gpu.json"), "-o", out4)
    _, s4 = decode_pprof(out4)
    got4 = by_path(s4)
    want4 = {("aten::mm",): (1, 7000), ("aten::mm;cudaLaunchKernel",): (1, 2000),
             ("aten::mm;cudaLaunchKernel;gemm",): (1, 20000),
             ("aten::mm;cudaMemcpyAsync",): (1, 1000),
             ("aten::mm;cudaMemcpyAsync;Memcpy HtoD",): (1, 250), ("orphan",): (1, 1000)}
    ok(got4 == want4, "--gpu samples", got4)
    gl = [lb for path, _, lb in s4 if path and path[-1] == "gemm"]
    ok(gl and gl[0].get("device") == 0 and gl[0].get("stream") == 7 and
       gl[0].get("category") == "kernel" and gl[0].get("pid") == 1,
       "GPU leaf labels (device, stream, category, launching thread)", gl)
    # top's numbers are pprof's: total = cum, self = flat, per function
    rc, tout, _ = gp("top", "--gpu", "-n", "0", "--format", "json", trace("gpu.json"))
    top = {(r["name"], r["category"]): (r["calls"], r["total_ns"], r["self_ns"])
           for r in json.loads(tout)["top_total"]}
    cum, flat, calls = {}, {}, {}
    for path, vals, lb in s4:
        for fn in set(path):
            cum[fn] = cum.get(fn, 0) + vals[1]
        flat[path[-1]] = flat.get(path[-1], 0) + vals[1]
        calls[path[-1]] = calls.get(path[-1], 0) + vals[0]
    fromp = {k[0]: (calls.get(k[0], 0), cum.get(k[0], 0), flat.get(k[0], 0)) for k in top}
    ok({k[0]: v for k, v in top.items()} == fromp and fromp["aten::mm"][1] == 30250,
       "top --gpu totals/self/calls equal pprof cum/flat/counts", (top, fromp))
    # determinism: the same bytes twice
    out5 = os.path.join(TMP, "nest2.pb.gz")
    gp("export", "pprof", trace("nest.json"), "-o", out5)
    ok(open(out, "rb").read() == open(out5, "rb").read(), "pprof output is byte-identical")
    if GO:
        # every node (-nodefraction=0: F's 1 ns is not dropped), in ns
        r = go_pprof("-top", "-symbolize=none", "-unit=nanoseconds", "-nodefraction=0",
                     "-nodecount=1000", out)
        rows = {k: v[:2] for k, v in top_rows(r.stdout).items()}
        total = re.search(r"Total samples = (\d+)ns", r.stdout)
        ok(r.returncode == 0 and total and int(total.group(1)) == 15500,
           "go tool pprof -top: total samples 15500 ns (self times of A, G and H's thread)",
           r.stdout[-400:] + r.stderr[-400:])
        ok(rows == NEST_TOP, "go tool pprof -top reads the profile: flat and cum of every function",
           rows)


def check_folded():
    rc, out, err = gp("export", "folded", trace("nest.json"))
    ok(rc == 0 and out.decode() == NEST_FOLDED, "folded nest.json", out.decode())
    rc, out, _ = gp("export", "folded", "--unit", "us", trace("ties.json"))
    ok(out.decode() == "P;Q 5.000\nR 0.001\nR;f:g h 0.001\n", "folded --unit us, ';' sanitized",
       out.decode())
    line = re.compile(r"^[^;\n]+(;[^;\n]+)* \d+$")
    rc, out, _ = gp("export", "folded", "--threads", "--gpu", trace("gpu.json"))
    lines = out.decode().splitlines()
    ok(lines and all(line.match(x) for x in lines), "folded lines are 'a;b;c N'", lines)
    ok(len(lines) == len({x.rsplit(" ", 1)[0] for x in lines}), "folded stacks are merged")
    rc, _, err = gp("export", "folded", "--unit", "ms", trace("nest.json"))
    ok(rc == 2, "folded --unit ms is a usage error", rc)


def check_speedscope_doc(doc, what):
    ok(doc.get("$schema") == "https://www.speedscope.app/file-format-schema.json",
       what + ": $schema")
    frames = doc.get("shared", {}).get("frames")
    ok(isinstance(frames, list) and all(isinstance(f.get("name"), str) for f in frames),
       what + ": shared.frames with names")
    units = {"none", "nanoseconds", "microseconds", "milliseconds", "seconds", "bytes"}
    profs = doc.get("profiles")
    ok(isinstance(profs, list) and profs, what + ": profiles")
    errs = []
    for p in profs:
        if p.get("type") != "evented" or p.get("unit") not in units or \
                not isinstance(p.get("name"), str):
            errs.append("header of " + str(p.get("name")))
            continue
        stack, last = [], None
        for e in p["events"]:
            if not (0 <= e["frame"] < len(frames)):
                errs.append("frame out of range")
            if last is not None and e["at"] < last:
                errs.append("at decreases in " + p["name"])
            last = e["at"]
            if e["type"] == "O":
                stack.append(e["frame"])
            elif e["type"] == "C":
                if not stack or stack.pop() != e["frame"]:
                    errs.append("unbalanced close in " + p["name"])
            else:
                errs.append("bad event type")
        if stack:
            errs.append("unclosed frames in " + p["name"])
        if p["events"] and (p["startValue"] > p["events"][0]["at"] or
                            p["endValue"] < p["events"][-1]["at"]):
            errs.append("start/endValue do not cover the events")
    ok(not errs, what + ": evented profiles valid (frames in range, ordered, balanced)",
       errs[:5])
    return frames, profs


def check_speedscope():
    rc, out, err = gp("export", "speedscope", trace("nest.json"))
    ok(rc == 0, "export speedscope", err)
    doc = json.loads(out)
    frames, profs = check_speedscope_doc(doc, "nest.json")
    names = [f["name"] for f in frames]
    p1 = [p for p in profs if p["name"] == "trainer (pid 1) / main (tid 1)"]
    ok(len(p1) == 1 and len(profs) == 2, "one profile per thread", [p["name"] for p in profs])
    if p1:
        ev = [(e["type"], names[e["frame"]], e["at"]) for e in p1[0]["events"]]
        want = [("O", "A", 0), ("O", "B", 2000), ("O", "C", 2000), ("C", "C", 3000),
                ("C", "B", 5000), ("O", "D", 5000), ("C", "D", 5500), ("O", "E", 8000),
                ("O", "F", 9000), ("C", "F", 9001), ("C", "E", 10000), ("C", "A", 10000),
                ("O", "G", 11000), ("C", "G", 12000)]
        ok(ev == want, "speedscope events of nest.json (E clipped at A's end)", ev)
    rc, out2, _ = gp("export", "speedscope", trace("nest.json"))
    ok(out == out2, "speedscope output is deterministic")
    rc, _, _ = gp("export", "speedscope", "--gpu", trace("gpu.json"))
    ok(rc == 2, "speedscope --gpu is a usage error")


def check_top():
    rc, out, err = gp("top", "--format", "json", trace("nest.json"))
    ok(rc == 0, "top --format json", err)
    doc = json.loads(out)
    text = json.dumps(doc)
    ok('"self_ns": 15500' in text, "top: all self time = 15500 ns", text[:300])
    # the table top_self (the document's "columns" member lists its keys)
    rows = doc.get("top_self") if isinstance(doc, dict) else None
    ok(isinstance(rows, list) and rows and rows[0].get("name") == "A" and
       rows[0].get("self_ns") == 4500 and rows[0].get("total_ns") == 10000,
       "top by self: A first, 4500 self, 10000 total", str(rows)[:300])


# names.json (pid 100/tid 0 a CPU thread; GPU 0 is pid 0, stream 7; GPU 1
# is pid 1, stream 0; times in ns): the profiler span [0,100000] (category
# Trace, its own track) is left out by default. aten::add(a) [0,10000] >
# cudaLaunchKernel [1000,3000] (launches cutlass::Kernel2<float>, 20000 on
# device 0 stream 7); aten::add(b) [20000,26000] > cudaLaunchKernel
# [21000,22000] (launches cutlass::Kernel2<half>, 4000 on device 0 stream
# 7); cutlass::Kernel2<double> (1000, device 1 stream 0) has no launcher.
# Names that differ only inside (...) or <...> stay apart.
NAMES_TOP = {"aten::add(a)": (8000, 10000), "aten::add(b)": (5000, 6000),
             "cudaLaunchKernel": (3000, 3000), "cutlass::Kernel2<float>": (20000, 20000),
             "cutlass::Kernel2<half>": (4000, 4000), "cutlass::Kernel2<double>": (1000, 1000)}
# --gpu: the kernels under their launch (cum of the ops = host + GPU time)
NAMES_TOP_GPU = dict(NAMES_TOP, **{"aten::add(a)": (8000, 30000),
                                   "aten::add(b)": (5000, 10000),
                                   "cudaLaunchKernel": (3000, 27000)})
# -tagfocus=KEY=VALUE on the default export: the total samples, in ns
NAMES_FOCUS = {"device=0": 24000, "device=1": 1000, "stream=0": 1000, "stream=7": 24000,
               "pid=0": 24000, "pid=100": 16000, "tid=0": 17000, "tid=7": 24000,
               "category=kernel": 25000, "category=cpu_op": 13000}


def check_names():
    """Names, labels and the profiler span, read by the real go tool pprof."""
    out = os.path.join(TMP, "names.pb.gz")
    rc, _, err = gp("export", "pprof", trace("names.json"), "-o", out)
    ok(rc == 0, "export pprof names.json", err.decode())
    if PROTOC:
        p, samples = decode_pprof(out)
        st = p["string_table"]
        ok(all(f.get("system_name", [0])[0] == 0 for f in p["function"]),
           "functions have a name and no system_name")
        units = {st[lb["key"][0]]: st[lb.get("num_unit", [0])[0]]
                 for s in p["sample"] for lb in s.get("label", []) if "str" not in lb}
        ok(units == {"pid": "pid", "tid": "tid", "device": "device", "stream": "stream"},
           "numeric labels carry their key as unit", units)
        got = by_path(samples, lambda lb: (lb.get("pid"), lb.get("device"), lb.get("stream")))
        want = {(100, None, None, "aten::add(a)"): (1, 8000),
                (100, None, None, "aten::add(a);cudaLaunchKernel"): (1, 2000),
                (100, None, None, "aten::add(b)"): (1, 5000),
                (100, None, None, "aten::add(b);cudaLaunchKernel"): (1, 1000),
                (0, 0, 7, "cutlass::Kernel2<float>"): (1, 20000),
                (0, 0, 7, "cutlass::Kernel2<half>"): (1, 4000),
                (1, 1, 0, "cutlass::Kernel2<double>"): (1, 1000)}
        ok(got == want, "names.json samples: no profiler span, pid/device/stream 0 kept", got)
        keep = os.path.join(TMP, "names-keep.pb.gz")
        gp("export", "pprof", "--keep-profiler-span", trace("names.json"), "-o", keep)
        _, sk = decode_pprof(keep)
        gk = by_path(sk, lambda lb: (lb.get("pid"), lb.get("tid")))
        ok(gk.get(("Spans", "PyTorch Profiler", "PyTorch Profiler (0)")) == (1, 100000) and
           len(gk) == len(want) + 1, "--keep-profiler-span keeps the span (string pid/tid)", gk)
    # folded and speedscope leave the span out the same way
    rc, fo, _ = gp("export", "folded", trace("names.json"))
    ok(b"PyTorch Profiler" not in fo and b"cutlass::Kernel2<half> 4000\n" in fo,
       "folded: no profiler span", fo)
    rc, fk, _ = gp("export", "folded", "--keep-profiler-span", trace("names.json"))
    ok(b"PyTorch Profiler (0) 100000\n" in fk, "folded --keep-profiler-span", fk)
    rc, ss, _ = gp("export", "speedscope", trace("names.json"))
    doc = json.loads(ss) if rc == 0 else {"shared": {"frames": []}, "profiles": []}
    names = [f["name"] for f in doc["shared"]["frames"]]
    profs = [(p["name"], len(p["events"])) for p in doc["profiles"]]
    ok(len(names) == 6 and "PyTorch Profiler (0)" not in names and
       profs == [("pid 100 / tid 0", 8), ("pid 0 / tid 7", 4), ("pid 1 / tid 0", 2)],
       "speedscope: no profiler span frame, no profile for its track", (names, profs))
    rc, ss, _ = gp("export", "speedscope", "--keep-profiler-span", trace("names.json"))
    profs = [(p["name"], len(p["events"])) for p in json.loads(ss)["profiles"]]
    ok(rc == 0 and profs[0] == ("pid Spans / tid PyTorch Profiler", 2) and len(profs) == 4,
       "speedscope --keep-profiler-span: the span's profile", profs)
    # top: the same operations and numbers, the span only on request
    rc, tj, _ = gp("top", "-n", "0", "--format", "json", trace("names.json"))
    top = {r["name"]: (r["self_ns"], r["total_ns"]) for r in json.loads(tj)["top_total"]}
    ok(top == NAMES_TOP, "top names.json: self and total of every operation", top)
    rc, tk, _ = gp("top", "-n", "0", "--keep-profiler-span", "--format", "json",
                   trace("names.json"))
    tkr = {r["name"]: (r["self_ns"], r["total_ns"]) for r in json.loads(tk)["top_total"]}
    ok(tkr == dict(NAMES_TOP, **{"PyTorch Profiler (0)": (100000, 100000)}),
       "top --keep-profiler-span", tkr)
    if not GO:
        print("skip export: go not installed (Debian golang-go): go tool pprof checks skipped")
        return
    r = go_pprof("-top", out)  # default flags: names must survive as written
    rows = top_rows(r.stdout)
    ok(r.returncode == 0 and {k: v[:2] for k, v in rows.items()} == NAMES_TOP and
       all(v[2] == 1 for v in rows.values()),
       "go tool pprof -top (default flags): every distinct name once, flat/cum by hand",
       r.stdout + r.stderr)
    outg = os.path.join(TMP, "names-gpu.pb.gz")
    gp("export", "pprof", "--gpu", trace("names.json"), "-o", outg)
    r = go_pprof("-top", "-unit=ns", "-nodefraction=0", outg)
    rows = {k: v[:2] for k, v in top_rows(r.stdout).items()}
    ok(rows == NAMES_TOP_GPU, "go tool pprof -top of --gpu: flat/cum by hand", rows)
    rc, tj, _ = gp("top", "--gpu", "-n", "0", "--format", "json", trace("names.json"))
    top = {r["name"]: (r["self_ns"], r["total_ns"]) for r in json.loads(tj)["top_total"]}
    ok(top == rows, "top --gpu self/total = go tool pprof flat/cum", (top, rows))
    for focus, want in sorted(NAMES_FOCUS.items()):
        r = go_pprof("-top", "-unit=ns", "-tagfocus=" + focus, out)
        m = re.search(r"Showing nodes accounting for (\d+)ns", r.stdout)
        ok(r.returncode == 0 and m and int(m.group(1)) == want,
           "go tool pprof -tagfocus=%s: %d ns" % (focus, want), r.stdout[-500:] + r.stderr)
    r = go_pprof("-top", "-unit=ns", "-tagfocus=device=0", "-tagfocus=stream=7", out)
    rows = {k: v[:2] for k, v in top_rows(r.stdout).items()}
    ok(rows == {"cutlass::Kernel2<float>": (20000, 20000), "cutlass::Kernel2<half>": (4000, 4000)},
       "-tagfocus=device=0: the kernels of device 0", rows)
    r = go_pprof("-raw", out)
    raw = [(int(m.group(1)), int(m.group(2)), m.group(3).split())
           for m in re.finditer(r"^ +(\d+) +(\d+): ([\d ]+)$", r.stdout, re.M)]
    labels = re.findall(r"device:\[(\d+) device\]", r.stdout)
    ok(r.returncode == 0 and sorted(v for _, v, _ in raw) ==
       [1000, 1000, 2000, 4000, 5000, 8000, 20000] and all(c == 1 for c, _, _ in raw) and
       sorted(labels) == ["0", "0", "1"], "go tool pprof -raw: 7 samples, values and device labels",
       r.stdout[:1500])
    r = go_pprof("-tags", out)
    ok(re.search(r"device: Total 25\.0us\n +24\.0us \(96\.00%\): 0\n +1\.0us \( 4\.00%\): 1\n",
                 r.stdout) is not None, "go tool pprof -tags lists device 0 and 1", r.stdout)


def check_terminal():
    """export pprof refuses a terminal as its output (as gzip does)."""
    import pty
    import select
    for extra in ([], ["-o", "-"]):
        master, slave = pty.openpty()
        r = subprocess.run([GP, "-q", "export", "pprof", trace("names.json")] + extra,
                           stdout=slave, stderr=subprocess.PIPE)
        os.close(slave)
        got = b""
        while select.select([master], [], [], 0.2)[0]:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                break
            if not chunk:
                break
            got += chunk
        os.close(master)
        ok(r.returncode == 2 and got == b"" and r.stderr ==
           b"gpuprof: export: pprof data not written to a terminal "
           b"(give -o FILE or redirect standard output)\n",
           "export pprof %s to a terminal: one line, exit 2, nothing written" % " ".join(extra),
           (r.returncode, got[:80], r.stderr))
    master, slave = pty.openpty()
    r = subprocess.run([GP, "-q", "export", "folded", trace("names.json")], stdout=slave,
                       stderr=subprocess.PIPE)
    os.close(slave)
    got = os.read(master, 65536) if select.select([master], [], [], 2)[0] else b""
    os.close(master)
    ok(r.returncode == 0 and b"cutlass::Kernel2<half> 4000" in got,
       "export folded still writes text to a terminal", (r.returncode, got[:200]))


# ---- real traces: invariant and determinism ----

def root_ns_per_thread(path):
    """Sum of top-level durations per (pid, tid), computed independently:
    events (X, and B/E pairs) sorted by (ts, longer first, file order); an
    event is top-level when it starts at or after the end of the current
    top-level event (nested and clipped events never extend it). The
    profiler's own span (category Trace) is no call and is left out."""
    with gzip.open(path, "rb") as f:
        doc = json.load(f, parse_float=Decimal, parse_int=Decimal)
    evs = doc["traceEvents"] if isinstance(doc, dict) else doc
    tracks = {}
    open_b = {}
    for i, e in enumerate(evs):
        ph = e.get("ph")
        if ph not in ("X", "B", "E") or "ts" not in e or \
                str(e.get("cat", "")).lower() == "trace":
            continue
        key = (e.get("pid"), e.get("tid"))
        ts = int(Decimal(e["ts"]) * 1000)
        if ph == "X":
            dur = int(Decimal(e.get("dur", 0)) * 1000)
            tracks.setdefault(key, []).append((ts, -max(dur, 0), i))
        elif ph == "B":
            open_b.setdefault(key, []).append((ts, i))
        elif open_b.get(key):
            bts, bi = open_b[key].pop()
            tracks.setdefault(key, []).append((bts, -max(ts - bts, 0), bi))
    out = {}
    for key, ev in tracks.items():
        ev.sort()
        end = None
        tot = 0
        for ts, ndur, _ in ev:
            if end is None or ts >= end:
                tot += -ndur
                end = ts - ndur
        def norm(v):
            return int(v) if isinstance(v, Decimal) else v
        out[(norm(key[0]), norm(key[1]))] = tot
    return out


def check_shared_go(name, path, out, prof):
    """go tool pprof -top (default flags) shows every distinct function name
    we wrote, with gpuprof top's self and total as flat and cum."""
    if not GO:
        return
    st = prof["string_table"]
    names = {st[f["name"][0]] for f in prof["function"]}
    r = go_pprof("-top", "-unit=ns", "-nodecount=100000", "-nodefraction=0", out)
    rows = top_rows(r.stdout)
    shown = [k for k in rows]
    lines = [x for x in names if "\n" not in x]
    ok(r.returncode == 0 and len(rows) == len(names) and set(lines) <= set(shown) and
       all(v[2] == 1 for v in rows.values()),
       name + ": go tool pprof -top shows each of the %d distinct names" % len(names),
       (len(rows), len(names), sorted(set(lines) - set(shown))[:5]))
    rc, tj, _ = gp("top", "-n", "0", "--format", "json", path)
    top = json.loads(tj)["top_total"] if rc == 0 else []
    cats = {}
    for t in top:
        cats.setdefault(t["name"], []).append(t)
    # names that are one operation (one category): flat = self, cum = total
    bad = [(k, rows.get(k), (v[0]["self_ns"], v[0]["total_ns"])) for k, v in cats.items()
           if len(v) == 1 and k in rows and rows[k][:2] != (v[0]["self_ns"], v[0]["total_ns"])]
    one = sum(1 for k, v in cats.items() if len(v) == 1 and k in rows)
    ok(rc == 0 and not bad and one > 0.9 * len(cats),
       name + ": top self/total = go tool pprof flat/cum for %d operations" % one, bad[:5])


def check_shared():
    d = os.path.join(SHARED, "data", "torch-large")
    if not os.path.isdir(d):
        print("skip export: no shared data at %s: real-trace checks skipped" % d)
        return
    if not PROTOC:
        return
    for name in sorted(os.listdir(d)):
        if not name.endswith(".json.gz"):
            continue
        path = os.path.join(d, name)
        out = os.path.join(TMP, name + ".pb.gz")
        rc, _, err = gp("export", "pprof", path, "-o", out)
        ok(rc == 0, "export pprof " + name, err.decode()[-300:])
        if rc:
            continue
        prof, samples = decode_pprof(out)
        check_shared_go(name, path, out, prof)
        got = {}
        for _, vals, lb in samples:
            k = (lb.get("pid"), lb.get("tid"))
            got[k] = got.get(k, 0) + vals[1]
        want = {k: v for k, v in root_ns_per_thread(path).items() if v or k in got}
        bad = {k: (got.get(k), want.get(k)) for k in set(got) | set(want)
               if got.get(k, 0) != want.get(k, 0)}
        ok(not bad, name + ": self times sum to the top-level durations per thread",
           list(bad.items())[:5])
        out2 = os.path.join(TMP, name + ".2.pb.gz")
        gp("export", "pprof", path, "-o", out2)
        ok(open(out, "rb").read() == open(out2, "rb").read(), name + ": pprof is deterministic")
        rc, f1, _ = gp("export", "folded", "--threads", path)
        rc2, f2, _ = gp("export", "folded", "--threads", path)
        ok(rc == 0 and f1 == f2, name + ": folded is deterministic")
        tot = sum(int(x.rsplit(b" ", 1)[1]) for x in f1.splitlines())
        ok(tot == sum(got.values()), name + ": folded total = pprof total", tot)
        rc, s1, _ = gp("export", "speedscope", path)
        if rc == 0:
            check_speedscope_doc(json.loads(s1), name)
        else:
            ok(False, "export speedscope " + name)
        os.unlink(out)
        os.unlink(out2)


try:
    check_folded()
    check_pprof()
    check_speedscope()
    check_top()
    check_names()
    check_terminal()
    check_shared()
finally:
    shutil.rmtree(TMP, ignore_errors=True)
print("export: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
