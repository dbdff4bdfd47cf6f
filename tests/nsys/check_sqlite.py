"""`gpuprof nsys FILE.sqlite VIEW` checks (imported by tests/nsys/check.py).

Real exports (shared data): every number gpuprof prints is recomputed here
with SQL run by python3's sqlite3 module on the same file (opened read-only)
and compared exactly for counts, totals, min, max and bytes; means compare
within 1e-9 relative. Tiny exports are built here at test time (never copied
from the shared folder) for golden values, schema variants (text vs textId,
a named domain) and the `steps` iteration analysis. The text tables of
`kernels` and `nvtx` on the real exports: no exponent notation, and the
durations of every row are the SQL's, formatted by hand (fmt_dur).
"""
import json
import os
import re
import sqlite3
import subprocess
from collections import defaultdict

EXPORTS = ["EasyCUDA__nsys_easy__2023.4.4", "flameox__nsight-2025.5.2", "gemm__profile__2025.1.3",
           "nsys-ai__mfu_2gpu_after__2026.2.1", "nsys-ai__mfu_2gpu_before__2026.2.1",
           "test-cuda__report1__2026.1.1"]


def gp(gpuprof, *args):
    return subprocess.run([gpuprof, "nsys"] + list(args), capture_output=True, text=True)


def tables(db):
    return {r[0] for r in db.execute("select name from sqlite_master where type='table'")}


def stats_of(durs):
    durs = sorted(durs)
    return {"instances": len(durs), "total_ns": sum(durs), "min_ns": durs[0], "max_ns": durs[-1]}


def compare_rows(ok, label, got_rows, want, key, count_key="instances", extra=()):
    got = {tuple(r[k] for k in key): r for r in got_rows}
    ok(f"{label}: row set", sorted(got) == sorted(want), f"{sorted(got)[:5]} vs {sorted(want)[:5]}")
    bad = []
    for k, w in want.items():
        g = got.get(k)
        if not g:
            continue
        fields = [(count_key, "instances"), ("total_ns", "total_ns"), ("min_ns", "min_ns"), ("max_ns", "max_ns")]
        fields += [(f, f) for f in extra]
        for gk, wk in fields:
            if wk in w and g[gk] != w[wk]:
                bad.append((k, gk, g[gk], w[wk]))
    ok(f"{label}: values", not bad, str(bad[:3]))
    total = sum(w["total_ns"] for w in want.values())
    pct = sum(r["time_pct"] for r in got_rows) if got_rows and "time_pct" in got_rows[0] else None
    if pct is not None and total:
        ok(f"{label}: percentages sum to 100", abs(pct - 100) < 1e-6, pct)


def real_exports(gpuprof, data, ok):
    for name in EXPORTS:
        path = os.path.join(data, "exports", name + ".sqlite")
        db = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
        t = tables(db)
        r = gp(gpuprof, path, "info", "--format", "json")
        info = json.loads(r.stdout)["export"] if r.returncode == 0 else {}
        want_ver = db.execute("select value from META_DATA_EXPORT where name='EXPORT_PRODUCT_VERSION'").fetchone()[0]
        ok(f"{name} info: version", info.get("product_version") == want_ver, info)
        for key, tab in (("kernels", "CUPTI_ACTIVITY_KIND_KERNEL"), ("memcpy", "CUPTI_ACTIVITY_KIND_MEMCPY"),
                         ("cuda_api_calls", "CUPTI_ACTIVITY_KIND_RUNTIME"), ("nvtx_events", "NVTX_EVENTS")):
            want = db.execute(f"select count(*) from {tab}").fetchone()[0] if tab in t else None
            ok(f"{name} info: {key}", info.get(key) == want, (info.get(key), want))
        # kernels
        r = gp(gpuprof, path, "kernels", "--format", "json")
        if "CUPTI_ACTIVITY_KIND_KERNEL" not in t:
            ok(f"{name} kernels: missing table is an empty one", r.returncode == 0 and len(r.stderr.splitlines()) == 1
               and "no CUPTI_ACTIVITY_KIND_KERNEL table" in r.stderr and json.loads(r.stdout)["kernels"] == [],
               r.stderr)
        else:
            want = defaultdict(list)
            for nm, d in db.execute("select s.value, k.end - k.start from CUPTI_ACTIVITY_KIND_KERNEL k "
                                    "join StringIds s on s.id = k.demangledName"):
                want[(nm,)].append(d)
            compare_rows(ok, f"{name} kernels", json.loads(r.stdout)["kernels"],
                         {k: stats_of(v) for k, v in want.items()}, ["name"])
        # memory operations
        r = gp(gpuprof, path, "memcpy", "--format", "json")
        if "CUPTI_ACTIVITY_KIND_MEMCPY" not in t and "CUPTI_ACTIVITY_KIND_MEMSET" not in t:
            ok(f"{name} memcpy: missing table is an empty one", r.returncode == 0
               and json.loads(r.stdout)["memory_operations"] == [], r.stderr)
        else:
            want = defaultdict(lambda: [[], 0])
            if "CUPTI_ACTIVITY_KIND_MEMCPY" in t:
                for lab, d, b in db.execute("select o.label, m.end - m.start, m.bytes from CUPTI_ACTIVITY_KIND_MEMCPY m "
                                            "join ENUM_CUDA_MEMCPY_OPER o on o.id = m.copyKind"):
                    want[(f"[CUDA memcpy {lab}]",)][0].append(d)
                    want[(f"[CUDA memcpy {lab}]",)][1] += b
            if "CUPTI_ACTIVITY_KIND_MEMSET" in t:
                for d, b in db.execute("select end - start, bytes from CUPTI_ACTIVITY_KIND_MEMSET"):
                    want[("[CUDA memset]",)][0].append(d)
                    want[("[CUDA memset]",)][1] += b
            w2 = {k: dict(stats_of(v[0]), bytes=v[1]) for k, v in want.items()}
            compare_rows(ok, f"{name} memcpy", json.loads(r.stdout)["memory_operations"], w2, ["operation"],
                         count_key="count", extra=("bytes",))
        # CUDA API
        r = gp(gpuprof, path, "api", "--format", "json")
        if "CUPTI_ACTIVITY_KIND_RUNTIME" not in t:
            ok(f"{name} api: missing table is an empty one", r.returncode == 0
               and json.loads(r.stdout)["cuda_api"] == [], r.stderr)
        else:
            want = defaultdict(list)
            for nm, d in db.execute("select s.value, r.end - r.start from CUPTI_ACTIVITY_KIND_RUNTIME r "
                                    "join StringIds s on s.id = r.nameId"):
                want[(nm,)].append(d)
            compare_rows(ok, f"{name} api", json.loads(r.stdout)["cuda_api"],
                         {k: stats_of(v) for k, v in want.items()}, ["name"], count_key="calls")
        # per GPU / stream
        r = gp(gpuprof, path, "gpus", "--format", "json")
        if "CUPTI_ACTIVITY_KIND_KERNEL" in t or "CUPTI_ACTIVITY_KIND_MEMCPY" in t:
            got = {(x["scope"], x["kind"]): (x["count"], x["total_ns"]) for x in json.loads(r.stdout)["gpus"]}
            want = {}
            for kind, tab in (("kernel", "CUPTI_ACTIVITY_KIND_KERNEL"), ("memcpy", "CUPTI_ACTIVITY_KIND_MEMCPY"),
                              ("memset", "CUPTI_ACTIVITY_KIND_MEMSET")):
                if tab not in t:
                    continue
                for dev, c, s in db.execute(f"select deviceId, count(*), sum(end-start) from {tab} group by 1"):
                    want[(f"GPU {dev}", kind)] = (c, s)
                for dev, sm, c, s in db.execute(f"select deviceId, streamId, count(*), sum(end-start) from {tab} group by 1, 2"):
                    want[(f"GPU {dev} stream {sm}", kind)] = (c, s)
            ok(f"{name} gpus: per GPU and stream", got == want, f"{sorted(got.items())[:4]} vs {sorted(want.items())[:4]}")
        # NVTX
        r = gp(gpuprof, path, "nvtx", "--format", "json")
        if "NVTX_EVENTS" not in t:
            ok(f"{name} nvtx: missing table is an empty one", r.returncode == 0 and "NVTX_EVENTS" in r.stderr
               and json.loads(r.stdout)["nvtx_ranges"] == [], r.stderr)
        else:
            rows = json.loads(r.stdout)["nvtx_ranges"]
            want = defaultdict(list)
            for nm, d in db.execute("select coalesce(s.value, e.text), e.end - e.start from NVTX_EVENTS e "
                                    "left join StringIds s on s.id = e.textId "
                                    "where e.eventType = 59 and e.end is not null"):
                want[(nm, "PushPop")].append(d)
            compare_rows(ok, f"{name} nvtx", rows, {k: stats_of(v) for k, v in want.items()}, ["range", "style"])
            # projection: operations whose launching call lies inside some range
            ops = db.execute(
                "select count(*) from (select distinct o.correlationId, o.globalPid from ("
                "select correlationId, globalPid from CUPTI_ACTIVITY_KIND_KERNEL union all "
                "select correlationId, globalPid from CUPTI_ACTIVITY_KIND_MEMCPY union all "
                "select correlationId, globalPid from CUPTI_ACTIVITY_KIND_MEMSET) o "
                "join CUPTI_ACTIVITY_KIND_RUNTIME r on r.correlationId = o.correlationId "
                "and (r.globalTid & -16777216) = o.globalPid)").fetchone()[0]
            ok(f"{name} nvtx: some GPU work projected", sum(x["gpu_ops"] for x in rows) > 0 and ops > 0, ops)
        db.close()
    # a .nsys-rep is refused with the export command
    rep = os.path.join(data, "exports", "test-cuda__report1__2026.1.1.nsys-rep")
    r = gp(gpuprof, rep, "kernels")
    ok(".nsys-rep refused", r.returncode == 2 and len(r.stderr.splitlines()) == 1
       and "nsys export --type sqlite" in r.stderr, r.stderr)


def make_tiny(path, textid):
    """A small export with the harness NVTX structure (capture range, two
    iterations, a named-domain range and a repeated 'stage' name)."""
    db = sqlite3.connect(path)
    db.executescript("""
    create table StringIds(id integer primary key, value text not null);
    create table META_DATA_EXPORT(name text, value text);
    create table ENUM_CUDA_MEMCPY_OPER(id integer primary key, name text, label text);
    create table CUPTI_ACTIVITY_KIND_RUNTIME(start int, end int, eventClass int, globalTid int, correlationId int, nameId int, returnValue int, callchainId int);
    create table CUPTI_ACTIVITY_KIND_KERNEL(start int, end int, deviceId int, contextId int, streamId int, correlationId int, globalPid int, demangledName int, shortName int, mangledName int);
    create table CUPTI_ACTIVITY_KIND_MEMCPY(start int, end int, deviceId int, contextId int, streamId int, correlationId int, globalPid int, bytes int, copyKind int);
    """)
    db.execute("create table NVTX_EVENTS(start int, end int, eventType int, rangeId int, category int, color int, text text, "
               "globalTid int, endGlobalTid int, domainId int" + (", textId int" if textid else "") + ")")
    db.executemany("insert into StringIds values (?, ?)", [(1, "kern_a"), (2, "kern_b"), (3, "cudaLaunchKernel"),
                                                          (4, "cudaMemcpyAsync"), (10, "iteration 0"), (11, "iteration 1")])
    db.execute("insert into META_DATA_EXPORT values ('EXPORT_PRODUCT_VERSION', '2025.1.3.140')")
    db.execute("insert into ENUM_CUDA_MEMCPY_OPER values (1, 'CUDA_MEMCPY_KIND_HTOD', 'Host-to-Device')")
    gtid = (1 << 56) | (100 << 24) | 101
    gpid = (1 << 56) | (100 << 24)
    def nv(start, end, text, etype=59, dom=0):
        sid = {"iteration 0": 10, "iteration 1": 11}.get(text) if textid else None
        cols = "start, end, eventType, text, globalTid, domainId" + (", textId" if textid else "")
        vals = [start, end, etype, None if sid else text, gtid, dom] + ([sid] if textid else [])
        db.execute(f"insert into NVTX_EVENTS({cols}) values ({', '.join('?' * len(vals))})", vals)
    nv(0, 0, "MyDomain", etype=75, dom=5)
    nv(0, 1000, "profile-target")
    nv(100, 400, "iteration 0")
    nv(110, 200, "stage")
    nv(210, 300, "stage")
    nv(500, 900, "iteration 1")
    nv(510, 700, "stage")
    nv(710, 800, "net", dom=5)
    # runtime calls and their GPU work: (api start, api end, corr, kind, op start, op end)
    work = [(120, 130, 1, "k1", 150, 190), (220, 230, 2, "k2", 240, 300), (520, 530, 3, "k1", 560, 600),
            (720, 730, 4, "mc", 740, 760), (950, 960, 5, "k2", 970, 990)]
    for a0, a1, c, kind, s, e in work:
        db.execute("insert into CUPTI_ACTIVITY_KIND_RUNTIME(start, end, globalTid, correlationId, nameId) values (?,?,?,?,?)",
                   (a0, a1, gtid, c, 4 if kind == "mc" else 3))
        if kind == "mc":
            db.execute("insert into CUPTI_ACTIVITY_KIND_MEMCPY values (?,?,0,1,7,?,?,4096,1)", (s, e, c, gpid))
        else:
            n = 1 if kind == "k1" else 2
            db.execute("insert into CUPTI_ACTIVITY_KIND_KERNEL values (?,?,0,1,7,?,?,?,?,?)", (s, e, c, gpid, n, n, n))
    db.commit()
    db.close()


TL_SHIFT = 1000000  # make_timeline's clock: the tiny export's times + 1 ms


def make_timeline(path):
    """The tiny export plus what a timeline shows (tests/server/nsys_timeline.py):
    every time shifted by TL_SHIFT ns (the answer is relative to the first
    event); process and thread names; a memset (corr 6, launched by
    cudaMemsetAsync at 780); a second thread (tid 102) with ten 1 ns driver
    calls cuLaunchKernel at 280 + i (corr 100 + i) launching ten 2 ns kernels
    tiny_k at 300 + 3 i on stream 8 (context 1)."""
    make_tiny(path, True)
    db = sqlite3.connect(path)
    db.execute("create table CUPTI_ACTIVITY_KIND_MEMSET(start int, end int, deviceId int, contextId int, streamId int, "
               "correlationId int, globalPid int, value int, bytes int)")
    db.execute("create table PROCESSES(globalPid int, pid int, name text)")
    db.execute("create table ThreadNames(nameId int, priority int, globalTid int)")
    gtid = (1 << 56) | (100 << 24) | 101
    gtid2 = (1 << 56) | (100 << 24) | 102
    gpid = (1 << 56) | (100 << 24)
    db.executemany("insert into StringIds values (?, ?)", [(20, "MainThread"), (21, "cuLaunchKernel"),
                                                          (22, "cudaMemsetAsync"), (23, "tiny_k")])
    db.execute("insert into PROCESSES values (?, 100, 'python3')", (gpid,))
    db.execute("insert into ThreadNames values (20, 0, ?)", (gtid,))
    db.execute("insert into CUPTI_ACTIVITY_KIND_RUNTIME(start, end, globalTid, correlationId, nameId) values (780, 790, ?, 6, 22)", (gtid,))
    db.execute("insert into CUPTI_ACTIVITY_KIND_MEMSET values (800, 810, 0, 1, 7, 6, ?, 0, 256)", (gpid,))
    for i in range(10):
        db.execute("insert into CUPTI_ACTIVITY_KIND_RUNTIME(start, end, globalTid, correlationId, nameId) values (?,?,?,?,21)",
                   (280 + i, 281 + i, gtid2, 100 + i))
        db.execute("insert into CUPTI_ACTIVITY_KIND_KERNEL values (?,?,0,1,8,?,?,23,23,23)", (300 + 3 * i, 302 + 3 * i, 100 + i, gpid))
    for t in ("CUPTI_ACTIVITY_KIND_RUNTIME", "CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY",
              "CUPTI_ACTIVITY_KIND_MEMSET", "NVTX_EVENTS"):
        db.execute(f"update {t} set start = start + {TL_SHIFT}, end = end + {TL_SHIFT}")
    db.commit()
    db.close()


def tiny_exports(gpuprof, tmp, ok):
    for textid in (False, True):
        label = "tiny (textId)" if textid else "tiny (text)"
        path = os.path.join(tmp, f"tiny_{int(textid)}.sqlite")
        make_tiny(path, textid)
        before = os.path.getmtime(path), os.path.getsize(path)
        r = gp(gpuprof, path, "kernels", "--format", "csv")
        ok(f"{label} kernels golden", r.stdout ==
           "name,time_pct,total_ns,instances,avg_ns,med_ns,min_ns,max_ns,stddev_ns\n"
           "kern_a,50,80,2,40,40,40,40,0\n"
           "kern_b,50,80,2,40,40,20,60,28.284271247461902\n", r.stdout + r.stderr)
        r = gp(gpuprof, path, "memcpy", "--format", "csv")
        ok(f"{label} memcpy golden", r.stdout ==
           "operation,time_pct,total_ns,count,avg_ns,med_ns,min_ns,max_ns,stddev_ns,bytes\n"
           "[CUDA memcpy Host-to-Device],100,20,1,20,20,20,20,0,4096\n", r.stdout + r.stderr)
        r = gp(gpuprof, path, "nvtx", "--format", "json")
        rows = {x["range"]: x for x in json.loads(r.stdout)["nvtx_ranges"]} if r.returncode == 0 else {}
        ok(f"{label} nvtx: named domain", "MyDomain:net" in rows, sorted(rows))
        ok(f"{label} nvtx: stage projection", rows.get("stage", {}).get("instances") == 3
           and rows["stage"]["gpu_ops"] == 3 and rows["stage"]["gpu_projected_ns"] == 40 + 60 + 40
           and rows["stage"]["total_ns"] == 90 + 90 + 190, rows.get("stage"))
        ok(f"{label} nvtx: capture projection", rows.get("profile-target", {}).get("gpu_ops") == 5
           and rows["profile-target"]["gpu_projected_ns"] == 990 - 150
           and rows["profile-target"]["gpu_op_time_ns"] == 40 + 60 + 40 + 20 + 20, rows.get("profile-target"))
        r = gp(gpuprof, path, "steps", "--iterations", "2")
        a = json.loads(r.stdout) if r.returncode == 0 else {}
        its = a.get("iterations", [])
        ok(f"{label} steps: iterations", [(i["index"], i["host"]["inclusive_ns"], i["host"]["exclusive_ns"],
                                           i["gpu_projection"]["projected_ns"], i["gpu_projection"]["gpu_operation_count"])
                                          for i in its] == [(0, 300, 120, 150, 2), (1, 400, 120, 200, 2)], its)
        names = [h["name"] for h in a.get("host_ranges", [])]
        ok(f"{label} steps: host ranges", names == ["MyDomain:net", "profile-target", "stage"], names)
        ok(f"{label} steps: version warning about the export", a.get("warnings") == [] and
           a.get("provenance", {}).get("nsys_version") == "2025.1.3.140", a.get("warnings"))
        r = gp(gpuprof, path, "steps", "--capture-range", "nope")
        ok(f"{label} steps: no capture range", r.returncode == 2 and "found 0" in r.stderr, r.stderr)
        ok(f"{label} file untouched", (os.path.getmtime(path), os.path.getsize(path)) == before
           and not os.path.exists(path + "-journal"), "")
    bare_exports(gpuprof, tmp, ok)
    # bad inputs: not SQLite, a SQLite file of another schema
    bad = os.path.join(tmp, "not.sqlite")
    open(bad, "w").write("Name,Duration (ns)\n")
    r = gp(gpuprof, bad, "kernels")
    ok("not SQLite refused", r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "not a SQLite file" in r.stderr, r.stderr)
    other = os.path.join(tmp, "other.sqlite")
    db = sqlite3.connect(other)
    db.execute("create table t(x)")
    db.commit()
    db.close()
    r = gp(gpuprof, other, "kernels")
    ok("unknown schema refused", r.returncode == 2 and len(r.stderr.splitlines()) == 1 and "unknown schema" in r.stderr, r.stderr)
    r = gp(gpuprof, os.path.join(tmp, "absent.sqlite"), "kernels")
    ok("absent file refused", r.returncode == 2 and len(r.stderr.splitlines()) == 1, r.stderr)


def make_bare(path, meta, version):
    """A valid export in which nothing was captured: nsys creates a table
    only for what it captured, so only StringIds and the metadata table
    (META_DATA_EXPORT from 2023.3 on, EXPORT_META_DATA before) exist."""
    db = sqlite3.connect(path)
    db.execute("create table StringIds(id integer primary key, value text not null)")
    db.execute(f"create table {meta}(name text, value text)")
    db.execute(f"insert into {meta} values ('EXPORT_PRODUCT_VERSION', ?)", (version,))
    db.commit()
    db.close()


def bare_exports(gpuprof, tmp, ok):
    """Each table view of an export without its table: an empty table (the
    CSV header alone, an empty JSON list), one note on stderr naming the
    table, exit 0; -q drops the note. info says null for the absent tables;
    steps, an analysis of NVTX ranges, still fails."""
    views = (("kernels", "kernels", "name,time_pct,total_ns,instances,avg_ns,med_ns,min_ns,max_ns,stddev_ns",
              "CUPTI_ACTIVITY_KIND_KERNEL table: no CUDA kernels were captured"),
             ("memcpy", "memory_operations",
              "operation,time_pct,total_ns,count,avg_ns,med_ns,min_ns,max_ns,stddev_ns,bytes",
              "CUPTI_ACTIVITY_KIND_MEMCPY or _MEMSET table: no CUDA memory operations were captured"),
             ("api", "cuda_api", "name,time_pct,total_ns,calls,avg_ns,med_ns,min_ns,max_ns,stddev_ns",
              "CUPTI_ACTIVITY_KIND_RUNTIME table: no CUDA API calls were captured"),
             ("nvtx", "nvtx_ranges", None, "NVTX_EVENTS table: no NVTX ranges were captured"),
             ("gpus", "gpus", "scope,kind,count,total_ns,bytes",
              "CUPTI kernel, memcpy or memset table: no GPU work was captured"))
    for meta, version in (("META_DATA_EXPORT", "2023.4.4.54-1234"), ("EXPORT_META_DATA", "2022.4.1.21-0db2c85")):
        path = os.path.join(tmp, f"bare_{meta}.sqlite")
        make_bare(path, meta, version)
        label = f"bare export ({meta})"
        r = gp(gpuprof, path, "info", "--format", "json")
        info = json.loads(r.stdout)["export"] if r.returncode == 0 else {}
        ok(f"{label} info", info.get("product_version") == version and info.get("kernels", 0) is None
           and info.get("nvtx_events", 0) is None, r.stdout + r.stderr)
        for view, key, header, note in views:
            r = gp(gpuprof, path, view, "--format", "json")
            ok(f"{label} {view}: empty table, exit 0", r.returncode == 0 and json.loads(r.stdout)[key] == [],
               r.stdout + r.stderr)
            ok(f"{label} {view}: the note", r.stderr == f"gpuprof: note: {path}: the export has no {note}; "
               "the table is empty\n", r.stderr)
            r = subprocess.run([gpuprof, "-q", "nsys", path, view, "--format", "csv"], capture_output=True, text=True)
            ok(f"{label} {view}: -q, csv", r.returncode == 0 and r.stderr == "" and
               (header is None or r.stdout == header + "\n"), r.stdout + r.stderr)
        r = gp(gpuprof, path, "steps", "--iterations", "1")
        ok(f"{label} steps still needs NVTX_EVENTS", r.returncode == 2 and len(r.stderr.splitlines()) == 1
           and "NVTX_EVENTS" in r.stderr, r.stderr)


def fmt_dur(ns):
    """A duration as the text tables print it, written out here: under 1 us
    "N ns", else thousandths of us, ms or s (the first unit below 1000 once
    rounded, halves up) with three decimals: 15318776 -> "15.319 ms"."""
    if ns < 1000:
        return f"{ns} ns"
    for div, unit in ((1, "us"), (1000, "ms"), (10 ** 6, "s")):
        milli = (ns + div // 2) // div
        if milli < 10 ** 6 or unit == "s":
            return f"{milli // 1000}.{milli % 1000:03d} {unit}"


def text_rows(text, title):
    """The rows of the text table under its title line, as {name: {column:
    cell}}; cells are split at runs of two spaces, the name is what is left
    of the row before its last len(header) - 1 cells."""
    lines = text.split("\n")
    i = lines.index(title)
    header = re.split(r"\s{2,}", lines[i + 1].strip())
    rows = {}
    for line in lines[i + 2:]:
        if not line.strip():
            break
        cells = re.split(r"\s{2,}", line.strip())
        name = "  ".join(cells[: len(cells) - len(header) + 1])
        rows.setdefault(name, []).append(dict(zip(header, [name] + cells[len(cells) - len(header) + 1:])))
    return header, rows


def text_tables(gpuprof, data, ok):
    """`nsys FILE kernels` and `nvtx` as text: no exponent in any number
    cell, and Instances, Total, Min and Max (Avg and Med too for a single
    instance) of every row are the SQL's, formatted here by fmt_dur."""
    exp = re.compile(r"[0-9][eE][+-]?[0-9]")
    for name, view, title, sql, key in (
            ("nsys-ai__mfu_2gpu_after__2026.2.1", "nvtx", "NVTX ranges (host time; GPU work launched inside)",
             "select coalesce(s.value, e.text), e.end - e.start from NVTX_EVENTS e "
             "left join StringIds s on s.id = e.textId where e.eventType = 59 and e.end is not null", "Range"),
            ("nsys-ai__mfu_2gpu_after__2026.2.1", "kernels", "GPU kernels",
             "select s.value, k.end - k.start from CUPTI_ACTIVITY_KIND_KERNEL k "
             "join StringIds s on s.id = k.demangledName", "Name"),
            ("test-cuda__report1__2026.1.1", "kernels", "GPU kernels",
             "select s.value, k.end - k.start from CUPTI_ACTIVITY_KIND_KERNEL k "
             "join StringIds s on s.id = k.demangledName", "Name")):
        path = os.path.join(data, "exports", name + ".sqlite")
        r = gp(gpuprof, path, view)
        label = f"{name} {view} (text)"
        ok(f"{label}: exit 0", r.returncode == 0, r.stderr)
        if r.returncode:
            continue
        header, rows = text_rows(r.stdout, title)
        ok(f"{label}: header", header[0] == key and header[1:4] == (
            ["Style", "Time", "Total"] if view == "nvtx" else ["Time", "Total", "Instances"]), header)
        cells = [c for rs in rows.values() for row in rs for h, c in row.items() if h != key]
        ok(f"{label}: no exponent in {len(cells)} number cells", cells and not any(exp.search(c) for c in cells),
           next((c for c in cells if exp.search(c)), ""))
        db = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
        want = defaultdict(list)
        for nm, d in db.execute(sql):
            want[nm].append(d)
        db.close()
        ok(f"{label}: one row per name", sorted(rows) == sorted(want) and all(len(v) == 1 for v in rows.values()),
           f"{len(rows)} vs {len(want)}")
        bad = []
        for nm, durs in want.items():
            got = rows.get(nm, [{}])[0]
            w = {"Instances": str(len(durs)), "Total": fmt_dur(sum(durs)), "Min": fmt_dur(min(durs)),
                 "Max": fmt_dur(max(durs))}
            if len(durs) == 1:
                w.update(Avg=fmt_dur(durs[0]), Med=fmt_dur(durs[0]))
            for h, v in w.items():
                if got.get(h) != v:
                    bad.append((nm[:60], h, got.get(h), v))
        ok(f"{label}: Instances, Total, Min, Max of {len(want)} rows", not bad, str(bad[:3]))


def run_all(gpuprof, data, tmp, ok):
    tiny_exports(gpuprof, tmp, ok)
    if data:
        real_exports(gpuprof, data, ok)
        text_tables(gpuprof, data, ok)
    return 0, 0
