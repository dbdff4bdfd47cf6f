"""Stage hta, `gpuprof counters`: HTA's expected queue-length numbers on its
MTIA trace (test_get_mtia_queue_length_stats) and the never-negative rule
on its negative_queue_length_values_check trace; on every HTA trace and the
fixtures, every table equal to tests/hta/oracle.py's reading of the raw
JSON."""
import glob
import gzip
import json
import os
import subprocess
import tempfile

import oracle

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "..", "..", "shared", "data", "torch", "hta")
DESC = ("count", "mean", "std", "min", "p25", "p50", "p75", "max")


def near(a, b, us=False):
    if a is None or b is None:
        return a is None and b is None
    scale = 1000 if us else 1
    return abs(a - b * scale) <= 1e-9 * max(1.0, abs(b * scale))


def ns(us):
    """HTA's microseconds (int, or a float of a whole number) as exact ns."""
    return int(us) * 1000 if us == int(us) else round(us * 1000)


def run(gpuprof, path, *args):
    p = subprocess.run([gpuprof, "counters", "--format", "json", *args, path],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{path}: exit {p.returncode}: {p.stderr.strip()}")
    return json.loads(p.stdout)


def compare(gpuprof, check, label, path, maxq=1024):
    want = oracle.counters(path, maxq)
    got = run(gpuprof, path, "--series", "--max-queue-length", str(maxq))
    check(f"{label}: trace duration", got["selection"]["trace_duration_ns"] ==
          ns(want["trace_duration"]), f"{got['selection']} vs {want['trace_duration']}")
    qs = [r["stream"] for r in got["queue_length"]]
    check(f"{label}: queue streams", qs == sorted(want["queue"]), f"{qs} vs {sorted(want['queue'])}")
    for r in got["queue_length"]:
        w = want["queue_desc"].get(r["stream"], {})
        mean = [k for k in DESC if not near(r[k], w.get(k))]
        check(f"{label}: queue_length {r['stream']}", not mean, f"{mean}: {r} vs {w}")
    series = [(r["stream"], r["ts_ns"], r["queue_length"]) for r in got["queue_series"]]
    wseries = [(s, ns(ts), n) for s in sorted(want["queue"]) for ts, n in want["queue"][s]]
    check(f"{label}: queue series", series == wseries,
          f"first differing {next((i for i, (a, b) in enumerate(zip(series, wseries)) if a != b), None)}"
          f" of {len(series)} / {len(wseries)}")
    check(f"{label}: queue never negative", all(n >= 0 for _, _, n in series))
    bl = {r["stream"]: (r["duration_at_max_queue_length_ns"],
                        r["relative_duration_at_max_queue_length"]) for r in got["blocked"]}
    check(f"{label}: blocked streams", sorted(bl) == sorted(want["blocked"]),
          f"{bl} vs {want['blocked']}")
    for s, (tot, rel) in want["blocked"].items():
        g = bl.get(s, (None, None))
        check(f"{label}: blocked {s}", g[0] == ns(tot) and near(g[1], rel), f"{g} vs {tot, rel}")
    kinds = [r["memcpy_kind"] for r in got["memcpy_bw"]]
    wk = [k for k in sorted(want["bw"], key=str.encode) if want["bw_desc"][k]["count"]]
    check(f"{label}: memcpy kinds", kinds == wk, f"{kinds} vs {wk}")
    for r in got["memcpy_bw"]:
        w = want["bw_desc"].get(r["memcpy_kind"], {})
        bad = [k for k in DESC if not near(r[k if k == "count" else k + "_gbps"], w.get(k))]
        check(f"{label}: memcpy_bw {r['memcpy_kind']}", not bad, f"{bad}: {r} vs {w}")
    bw = [(r["memcpy_kind"], r["ts_ns"], r["memory_bw_gbps"]) for r in got["bw_series"]]
    wbw = [(k, ns(ts), v) for k in sorted(want["bw"], key=str.encode) for ts, v in want["bw"][k]]
    check(f"{label}: bw series", len(bw) == len(wbw) and all(
        a[0] == b[0] and a[1] == b[1] and near(a[2], b[2]) for a, b in zip(bw, wbw)),
          f"{len(bw)} / {len(wbw)}")
    return got


def hta_expected(gpuprof, check, path):
    """HTA's test_get_mtia_queue_length_stats, to its places=2 (5 for the
    ratio): streams (0,1), (0,102); stream 102's describe(); blocked at
    max_queue_length=1: 1060 us, 0.000079 of the trace (HTA keeps the last
    stream of the rank, 102)."""
    got = run(gpuprof, path, "--max-queue-length", "1")
    check("mtia counters: streams", [(r["rank"], r["stream"]) for r in got["queue_length"]] ==
          [(0, 1), (0, 102)], f"{got['queue_length']}")
    s102 = next((r for r in got["queue_length"] if r["stream"] == 102), {})
    want = dict(count=6, mean=0.5, std=0.547723, min=0, p25=0, p50=0.5, p75=1, max=1)
    bad = [k for k, v in want.items() if abs(s102.get(k, 1e9) - v) >= 0.005]
    check("mtia counters: stream 102 describe()", not bad, f"{bad}: {s102}")
    last = got["blocked"][-1] if got["blocked"] else {}
    check("mtia counters: blocked at 1", last.get("stream") == 102 and
          last.get("duration_at_max_queue_length_ns") == 1060000 and
          abs(last.get("relative_duration_at_max_queue_length", 1) - 0.000079) < 5e-6, f"{last}")


def never_negative(gpuprof, check, path):
    """HTA's test_generate_trace_with_counters: no negative point, 6 queue
    streams, 4 memcpy kinds, 12000 counter points or more."""
    got = run(gpuprof, path, "--series")
    check("negative_queue: queue >= 0", all(r["queue_length"] >= 0 for r in got["queue_series"]))
    check("negative_queue: bw >= 0", all(r["memory_bw_gbps"] is None or r["memory_bw_gbps"] >= 0
                                         for r in got["bw_series"]))
    check("negative_queue: 6 streams", len(got["queue_length"]) == 6)
    check("negative_queue: 4 kinds", [r["memcpy_kind"] for r in got["memcpy_bw"]] ==
          ["Memcpy DtoD", "Memcpy DtoH", "Memcpy HtoD", "Memset"])
    check("negative_queue: >= 12000 points",
          len(got["queue_series"]) + len(got["bw_series"]) >= 12000)


def want_events(want, pid_of):
    """HTA's counter events (convert_time_series_to_events) of the oracle's
    series: queue length per stream, then bandwidth per kind."""
    out = []
    for s in sorted(want["queue"]):
        for ts, n, row in want["queue_rows"][s]:
            out.append({"pid": pid_of(row), "ts": ts, "args": {"Queue Length": n}, "ph": "C",
                        "name": "Queue Length", "id": s})
    for k in sorted(want["bw"], key=str.encode):
        for (ts, v), row in zip(want["bw"][k], want["bw_rows"][k]):
            if v is not None:
                out.append({"pid": pid_of(row), "ts": ts, "args": {"Memcpy BW": v}, "ph": "C",
                            "name": k})
    return out


def overlay(gpuprof, check, label, path):
    """`trace overlay counters`: valid JSON, the trace's events unchanged
    then HTA's counter events of the oracle's series; read back by gpuprof
    with the same counters tables."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "with_counters.json.gz")
        p = subprocess.run([gpuprof, "-q", "trace", "overlay", "counters", path, "-o", out],
                           capture_output=True, text=True)
        check(f"{label}: overlay exit 0", p.returncode == 0, p.stderr.strip())
        if p.returncode:
            return None
        with gzip.open(out, "rt", encoding="utf-8") as f:
            got = json.load(f)
        src = oracle.load(path)
        n = len(src["traceEvents"])
        check(f"{label}: overlay keeps the events", got["traceEvents"][:n] == src["traceEvents"])
        evs = [e for e in src["traceEvents"] if isinstance(e, dict)]
        want = want_events(oracle.counters(path), lambda i: evs[i].get("pid"))
        added = got["traceEvents"][n:]
        bad = next((i for i, (a, b) in enumerate(zip(added, want)) if a != b), None)
        check(f"{label}: overlay counter events", len(added) == len(want) and bad is None,
              f"{len(added)} / {len(want)}, first differing {bad}: "
              f"{added[bad] if bad is not None else ''} vs {want[bad] if bad is not None else ''}")
        check(f"{label}: overlay read back", run(gpuprof, out, "--series") ==
              run(gpuprof, path, "--series") or False)
        return added


def queue_full_rule(gpuprof, check):
    """summary's queue_full rule on a queue 1,100 launches deep, by hand:
    launches at 0, 1, ... 1099 us; their kernels 10 us each from 2000 us
    on. The queue reaches 1024 at the 1024th launch (1023 us) and falls
    under it when the 77th kernel starts (2000 + 760 = 2760 us): 1737 us
    full, of HTA's trace duration 0 .. 12990 us (the last kernel's
    start): 13.4 %."""
    def summary(path, *args):
        p = subprocess.run([gpuprof, "-q", "summary", "--format", "json", "--table",
                            "recommendations", *args, path], capture_output=True, text=True)
        # (one table asked: its rows alone)
        return json.loads(p.stdout) if p.returncode == 0 else None
    ev = [{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
           "ts": i, "dur": 0.5, "args": {"correlation": i + 1}} for i in range(1100)]
    ev += [{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 2000 + 10 * i,
            "dur": 10, "args": {"device": 0, "stream": 7, "correlation": i + 1}}
           for i in range(1100)]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump({"schemaVersion": 1, "traceEvents": ev}, f)
    try:
        got = summary(f.name)
        rows = [r for r in got or [] if r.get("rule") == "queue_full"]
        want = ("GPU stream 7's launch queue is full (1024 launches outstanding) 13.4% of the "
                "trace (1.737 ms): the CPU waits for the GPU to drain it, so the GPU's own work "
                "is the bottleneck, not the launches; 'gpuprof counters' has the queue lengths.")
        check("summary rule queue_full", [r["text"] for r in rows] == [want], f"{rows}")
        got = summary(f.name, "--tb-compat")
        check("summary rule queue_full: not under --tb-compat", got is not None and
              all("launch queue" not in json.dumps(r) for r in got), f"{got}")
    finally:
        os.unlink(f.name)


def run_all(gpuprof, check):
    queue_full_rule(gpuprof, check)
    for f in sorted(glob.glob(os.path.join(HERE, "fixtures", "*.json"))):
        compare(gpuprof, check, "counters " + os.path.basename(f), f)
        overlay(gpuprof, check, "counters " + os.path.basename(f), f)
        compare(gpuprof, check, "counters (max 2) " + os.path.basename(f), f, 2)
    traces = sorted(glob.glob(os.path.join(DATA, "**", "*.json.gz"), recursive=True))
    traces = [t for t in traces if "memory_timeline" not in t and "_et.json" not in t]
    for t in traces:
        label = "counters " + os.path.relpath(t, DATA)
        try:
            compare(gpuprof, check, label, t)
            if "mtia_trace_single_rank" in t:
                compare(gpuprof, check, label + " (max 1)", t, 1)
                overlay(gpuprof, check, label, t)
                hta_expected(gpuprof, check, t)
            if "negative_queue_length_values_check" in t:
                never_negative(gpuprof, check, t)
                added = overlay(gpuprof, check, label, t) or []
                # HTA's test_generate_trace_with_counters on the overlaid trace
                check("negative_queue: overlay >= 12000 counter events", len(added) >= 12000)
                check("negative_queue: overlay counter names", {e["name"] for e in added} ==
                      {"Queue Length", "Memcpy DtoH", "Memcpy HtoD", "Memcpy DtoD", "Memset"})
        except RuntimeError as e:
            check(label, False, str(e))
