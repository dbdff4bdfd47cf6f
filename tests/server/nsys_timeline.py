"""API tests of GET /api/file/ID/nsys/timeline (called by tests/server/check.sh
from the repository root with GPUPROF set; python3 only, no network).

On tests/nsys/check_sqlite.py's make_timeline export (its rows are known:
see there) every lane, event, merged span, flow and link is checked against
values computed by hand; windows, and errors. On ../shared/data/nsys/exports
(skipped when absent) the whole-export answer's kernel, memory, CUDA API and
NVTX events (items + span counts) and launch flows are counted against SQL
run by python3's sqlite3 on the same file. Closing line
"nsys_timeline: N passed, N failed".
"""
import glob
import json
import os
import sqlite3
import sys
import tempfile
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "nsys"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_sqlite  # noqa: E402
import serve  # noqa: E402  (tests/server/serve.py)

passed = failed = 0


def ok(what, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL server nsys_timeline: {what}: {str(detail)[:400]}")


def get(url):
    try:
        with urllib.request.urlopen(url) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def spans(lane):
    """The lane's merged spans (its "spans" columns) as (depth, col, ts,
    end, count, busy_ns) rows."""
    sp = lane["spans"]
    return list(zip(sp["depth"], sp["col"], sp["ts"], sp["end"], sp["count"], sp["busy_ns"]))


def flows(d):
    """The answer's flow arrows (its "flows" columns) as one object each:
    {kind, id, cat, name, from: {track, ts, row, depth}, to: {...}}."""
    f = d["flows"]
    end = lambda e, i: {k: e[k][i] for k in ("track", "ts", "row", "depth")}
    return [{"kind": f["kind"][i], "id": f["id"][i], "cat": f["cat"][i], "name": f["name"][i],
             "from": end(f["from"], i), "to": end(f["to"], i)} for i in range(len(f["id"]))]


def count(lanes, source, kind=None):
    """Events of lanes of source in the answer: events one by one plus the
    counts of merged spans (kind: only events of that kind, no spans)."""
    n = 0
    for l in lanes:
        if l["source"] != source:
            continue
        for it in l["items"]:
            if it["type"] != "event":
                raise SystemExit(f"item {it}: the merged spans are the lane's spans columns")
            n += kind is None or it["kind"] == kind
        if kind is None:
            n += sum(l["spans"]["count"])
    return n


def tiny(base, tl_id, trace_id):
    T = f"{base}api/file/{tl_id}/nsys/timeline"
    st, d = get(T + "?px=100&flows=1")
    ok("whole: HTTP 200", st == 200, d)
    if st != 200:
        return
    tl = d["timeline"]
    ok("whole: window relative to the first event",
       (tl["trace_start_ns"], tl["trace_end_ns"], tl["start_ns"], tl["end_ns"], tl["px"]) ==
       (check_sqlite.TL_SHIFT, check_sqlite.TL_SHIFT + 1000, 0, 1000, 100), tl)
    lanes = d["lanes"]
    got = [(l["track"], l["pid"], l["tid"], l["process"], l["thread"], l["source"], l["gpu"], l["events"], l["depths"])
           for l in lanes]
    ok("whole: lanes", got == [
        (0, "100", "101", "python3", "MainThread", "nvtx", False, 7, 3),
        (1, "100", "101", "python3", "MainThread", "cuda_api", False, 6, 1),
        (2, "100", "102", "python3", "", "cuda_api", False, 10, 1),
        (3, "0", "7", "GPU 0", "stream 7 (context 1)", "kernels", True, 4, 1),
        (4, "0", "7", "GPU 0", "stream 7 (context 1)", "memory", True, 2, 1),
        (5, "0", "8", "GPU 0", "stream 8 (context 1)", "kernels", True, 10, 1)], got)
    if len(lanes) != 6:
        return
    nv = [(i["depth"], i["row"], i["ts"], i["dur"], i["kind"], i["name"]) for i in lanes[0]["items"]]
    ok("whole: NVTX ranges nested", nv == [
        (0, 0, 0, 1000, "nvtx", "profile-target"), (1, 1, 100, 300, "nvtx", "iteration 0"),
        (2, 2, 110, 90, "nvtx", "stage"), (2, 3, 210, 90, "nvtx", "stage"),
        (1, 4, 500, 400, "nvtx", "iteration 1"), (2, 5, 510, 190, "nvtx", "stage"),
        (2, 6, 710, 90, "nvtx", "MyDomain:net")], nv)
    ok("whole: NVTX busy = the capture range", lanes[0]["busy_ns"] == 1000, lanes[0]["busy_ns"])
    api = [(i["row"], i["ts"], i["dur"], i["kind"], i["name"]) for i in lanes[1]["items"]]
    ok("whole: CUDA API calls", api == [
        (7, 120, 10, "cuda_runtime", "cudaLaunchKernel"), (8, 220, 10, "cuda_runtime", "cudaLaunchKernel"),
        (9, 520, 10, "cuda_runtime", "cudaLaunchKernel"), (10, 720, 10, "cuda_runtime", "cudaMemcpyAsync"),
        (11, 780, 10, "cuda_runtime", "cudaMemsetAsync"), (12, 950, 10, "cuda_runtime", "cudaLaunchKernel")], api)
    # ten 1 ns calls at 280..289 (10 ns a column): one span in column 28
    sp = spans(lanes[2])
    ok("whole: short driver calls merged", sp == [(0, 28, 280, 290, 10, 10)] and lanes[2]["items"] == [], sp)
    k7 = [(i["row"], i["ts"], i["dur"], i["kind"], i["name"]) for i in lanes[3]["items"]]
    ok("whole: stream 7 kernels", k7 == [(23, 150, 40, "kernel", "kern_a"), (24, 240, 60, "kernel", "kern_b"),
                                         (25, 560, 40, "kernel", "kern_a"), (26, 970, 20, "kernel", "kern_b")], k7)
    m7 = [(i["row"], i["ts"], i["dur"], i["kind"], i["name"]) for i in lanes[4]["items"]]
    ok("whole: stream 7 memory", m7 == [(27, 740, 20, "gpu_memcpy", "[CUDA memcpy Host-to-Device]"),
                                        (28, 800, 10, "gpu_memset", "[CUDA memset]")], m7)
    # 2 ns kernels at 300 + 3 i: columns 30 (300..309), 31 (312..318), 32 (321..327)
    sp = spans(lanes[5])
    ok("whole: short kernels merged per column", sp == [
        (0, 30, 300, 311, 4, 8), (0, 31, 312, 320, 3, 6), (0, 32, 321, 329, 3, 6)], sp)
    ok("whole: stream 8 busy and items", (lanes[5]["busy_ns"], lanes[5]["items_shown"]) == (20, 3), lanes[5])
    ok("whole: kernels = the KERNEL table's 14 rows", count(lanes, "kernels") == 14, count(lanes, "kernels"))
    ok("whole: no counters, not truncated", d["counters"] == [] and d["truncated"] is False, d["truncated"])
    fl = {f["id"]: (f["kind"], f["from"]["track"], f["from"]["ts"], f["from"]["row"], f["to"]["track"], f["to"]["ts"], f["to"]["row"])
          for f in flows(d)}
    ok("flows: total", (d["flows_total"], d["flows_truncated"], len(flows(d))) == (16, False, 16), d["flows_total"])
    ok("flows: ends", fl.get(1) == ("launch", 1, 120, 7, 3, 150, 23) and fl.get(4) == ("launch", 1, 720, 10, 4, 740, 27)
       and fl.get(6) == ("launch", 1, 780, 11, 4, 800, 28) and fl.get(109) == ("launch", 2, 289, 22, 5, 327, 38), fl)
    st, d2 = get(T + "?px=100")
    ok("no flows unless asked", st == 200 and "flows" not in d2, list(d2))
    # a window: [300, 330) at 30 columns (1 ns each): the 2 ns kernels one by one
    st, d = get(T + "?start_ns=300&end_ns=330&px=30&flows=1")
    L = d.get("lanes", [])
    ok("window: header", st == 200 and (d["timeline"]["start_ns"], d["timeline"]["end_ns"]) == (300, 330), d.get("timeline"))
    ev = {l["track"]: l["events"] for l in L}
    ok("window: events per lane", ev == {0: 2, 1: 0, 2: 0, 3: 0, 4: 0, 5: 10}, ev)
    k8 = [(i["type"], i["ts"], i["dur"], i["name"]) for l in L if l["track"] == 5 for i in l["items"]]
    ok("window: kernels drawn one by one", k8 == [("event", 300 + 3 * i, 2, "tiny_k") for i in range(10)], k8)
    ok("window: flows with an end in it", d.get("flows_total") == 10 and
       sorted(f["id"] for f in flows(d)) == list(range(100, 110)), d.get("flows_total"))
    st, d = get(T + "?start_ns=280&end_ns=290&px=10")
    drv = [(i["type"], i["ts"], i["dur"], i["kind"], i["name"]) for l in d.get("lanes", []) if l["track"] == 2 for i in l["items"]]
    ok("window: driver calls one by one", drv == [("event", 280 + i, 1, "cuda_driver", "cuLaunchKernel") for i in range(10)], drv)
    # links
    st, d = get(T + "?links=11")
    ok("links: a call's activity", st == 200 and [(x["rel"], x["row"], x["track"], x["ts"], x["dur"], x["kind"], x["name"]) for x in d["links"]]
       == [("launched", 28, 4, 800, 10, "gpu_memset", "[CUDA memset]")], d)
    st, d = get(T + "?links=23")
    ok("links: a kernel's launch", st == 200 and [(x["rel"], x["row"], x["ts"], x["name"]) for x in d["links"]]
       == [("launcher", 7, 120, "cudaLaunchKernel")], d)
    st, d = get(T + "?links=0")
    ok("links: an NVTX range has none", st == 200 and d["links"] == [], d)
    for q, want in (("start_ns=5&end_ns=4", 400), ("start_ns=5&end_ns=5", 400), ("px=0", 400), ("px=9000", 400),
                    ("start_ns=1ms", 400), ("bogus=1", 400), ("links=-1", 400), ("links=39", 400),
                    ("start_ns=9223372036854775807", 400)):
        st, d = get(f"{T}?{q}")
        ok(f"error {q}", st == want and d.get("error", {}).get("status") == want, (st, d))
    st, d = get(f"{base}api/file/{trace_id}/nsys/timeline")
    ok("a trace is not an export", st == 400 and "not an Nsight Systems" in d["error"]["message"], d)
    st, d = get(f"{base}api/file/99/nsys/timeline")
    ok("no such file", st == 404, d)


def shared_exports(base, ids):
    for path, fid in ids:
        name = os.path.basename(path)
        db = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
        tabs = {r[0] for r in db.execute("select name from sqlite_master where type='table'")}

        def rows(t, where=""):
            return db.execute(f"select count(*) from {t} {where}").fetchone()[0] if t in tabs else 0
        st, d = get(f"{base}api/file/{fid}/nsys/timeline?px=2000&flows=1")
        ok(f"{name}: HTTP 200", st == 200, d)
        if st != 200:
            continue
        L = d["lanes"]
        ok(f"{name}: kernels", count(L, "kernels") == rows("CUPTI_ACTIVITY_KIND_KERNEL"),
           (count(L, "kernels"), rows("CUPTI_ACTIVITY_KIND_KERNEL")))
        ok(f"{name}: memory operations", count(L, "memory") == rows("CUPTI_ACTIVITY_KIND_MEMCPY") + rows("CUPTI_ACTIVITY_KIND_MEMSET"),
           count(L, "memory"))
        ok(f"{name}: CUDA API calls", count(L, "cuda_api") == rows("CUPTI_ACTIVITY_KIND_RUNTIME"),
           (count(L, "cuda_api"), rows("CUPTI_ACTIVITY_KIND_RUNTIME")))
        ok(f"{name}: NVTX ranges", count(L, "nvtx") == rows("NVTX_EVENTS", "where eventType in (59, 60, 70, 71) and end is not null"),
           count(L, "nvtx"))
        ok(f"{name}: lane events = what they show", all(l["events"] == len(l["items"]) + sum(l["spans"]["count"])
                                                      for l in L), "")
        gpu = [t for t in ("CUPTI_ACTIVITY_KIND_KERNEL", "CUPTI_ACTIVITY_KIND_MEMCPY", "CUPTI_ACTIVITY_KIND_MEMSET") if t in tabs]
        launches = 0
        if gpu and "CUPTI_ACTIVITY_KIND_RUNTIME" in tabs:
            u = " union all ".join(f"select correlationId, globalPid from {t}" for t in gpu)
            launches = db.execute(f"select count(*) from ({u}) o where exists (select 1 from CUPTI_ACTIVITY_KIND_RUNTIME r "
                                  "where r.correlationId = o.correlationId and (r.globalTid & -16777216) = o.globalPid)").fetchone()[0]
        ok(f"{name}: launch flows", d["flows_total"] == launches, (d["flows_total"], launches))
        db.close()


def main():
    gp = os.environ["GPUPROF"]
    shared = os.environ.get("GPUPROF_SHARED", "../shared")
    tmp = tempfile.mkdtemp(prefix="gpuprof-nsys-tl.")
    db = os.path.join(tmp, "tl.sqlite")
    check_sqlite.make_timeline(db)
    before = os.path.getmtime(db), os.path.getsize(db)
    exports = sorted(glob.glob(os.path.join(shared, "data", "nsys", "exports", "*.sqlite")))
    if not exports:
        print(f"nsys_timeline: no {shared}/data/nsys/exports: checked on the tiny export only")
    p, base, text = serve.start([db, "examples/tiny.json"] + exports, tmp)
    ok("server starts", base, text)
    if base:
        try:
            tiny(base, 1, 2)
            shared_exports(base, [(x, 3 + i) for i, x in enumerate(exports)])
        finally:
            p.terminate()
            ok("server stops", p.wait(10) == 0, p.returncode)
    else:
        p.kill()
    ok("export untouched", (os.path.getmtime(db), os.path.getsize(db)) == before and not os.path.exists(db + "-journal"), "")
    print(f"nsys_timeline: {passed} passed, {failed} failed")


main()
