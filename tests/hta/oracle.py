"""An independent reading of Holistic Trace Analysis' idle-time and temporal
breakdowns, from the raw trace JSON, following HTA's loader and analyzers
(shared/reference/hta.md A.1-A.2) step by step in plain Python: the
reference tests/hta/check.py compares `gpuprof idle --format json` with.

Nothing here calls gpuprof. Times are HTA's: microseconds, Python floats or
ints exactly as json.load gives them, rounded the way HTA rounds.
"""
import gzip
import json
import math
import re

KERNEL_CATS = {"kernel", "Kernel", "gpu_memset", "Memset", "gpu_memcpy", "Memcpy",
               "mtia_ccp_events"}
COMM = re.compile(r"(^nccl.*)|(^hip)|(^hccl)|(.*ncclKernel.*)")
MEMORY = re.compile(r"(^(hip)?Memcpy)|(^(hip)?Memset)|(^dma)")
NOT_COMPUTE = re.compile(
    r"(^nccl)|(.*Memcpy)|(.*Memset)|(.*dma)|(^.*Sync)|(^Stream Wait Event)|(cuda.*LaunchKernel)"
    r"|(^runFunction)|(^hip)|(^job_exe)|(^packet)|(^pe_exe)|(^cpum_exe_subgraph)|(^hccl)"
    r"|(^collective_subgraph_execution)")
STEP = re.compile(r"^ProfilerStep#(\d+)")
CPU_MTIA = re.compile(r"(^cpu_op)|(^user_annotation$)|(^(.+)_runtime)")
KERNEL_CAT_PATTERN = re.compile("(kernel)|(gpu_mem.+)|(mtia_ccp_events)")


def load(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def _int_or(v, default):
    try:
        return int(v)
    except (TypeError, ValueError):
        return default


def rows_of(doc):
    """HTA's events table: complete events with a category, times rounded
    when the ts column is floating point (a fractional or missing ts)."""
    evs = [e for e in doc.get("traceEvents", []) if isinstance(e, dict)]
    rounded = any(not isinstance(e.get("ts"), int) or isinstance(e.get("ts"), bool) for e in evs)
    rows = []
    for i, e in enumerate(evs):
        if e.get("dur") is None or e.get("cat") is None or e["cat"] in ("Trace",
                                                                        "gpu_user_annotation"):
            continue
        ts, dur = e["ts"], e["dur"]
        if rounded:
            end = math.floor(ts + dur)
            ts = math.ceil(ts)
        else:
            end = ts + dur
        args = e.get("args") if isinstance(e.get("args"), dict) else {}
        tid = e.get("tid")
        rows.append(dict(i=i, ts=ts, end=end, cat=e["cat"], name=e.get("name", ""),
                         stream=_int_or(args.get("stream", -1), -1),
                         corr=_int_or(args.get("correlation", -1), -1),
                         tid=tid if isinstance(tid, int) else -1))
    return rows, rounded, doc.get("distributedInfo", {})


def is_gpu(r):
    return (r["stream"] >= 0 and r["corr"] >= 0) or r["name"] in ("Event Sync", "Context Sync")


def ktype(name):
    if COMM.match(name):
        return "comm"
    if MEMORY.match(name):
        return "memory"
    return "other" if NOT_COMPUTE.match(name) else "compute"


def select(rows, dist):
    """The device rows HTA keeps (stream != -1), each with rt_ts, and the
    filter that ran."""
    rt = {}
    for r in rows:
        if not is_gpu(r) and r["corr"] >= 0:
            rt[r["corr"]] = r["ts"]  # the last one wins
    steps = {r["name"] for r in rows if STEP.match(r["name"])}
    filt = "none"
    keep = list(rows)
    if len(steps) >= 2:
        backend = dist.get("backend") if isinstance(dist, dict) else None
        if isinstance(backend, str) and "mtia:hccl" in backend:
            filt = "mtia"
            cpu = [r for r in rows if CPU_MTIA.match(r["cat"])]
            st = [r for r in cpu if STEP.match(r["name"])]
            t0, t1 = min(s["ts"] for s in st), max(s["end"] for s in st)
            ids = {r["corr"] for r in cpu if r["ts"] >= t0 and r["end"] <= t1} - {-1}
            keep = []
            for r in rows:
                if MEMORY.match(r["name"]) and any(s["ts"] <= r["ts"] <= s["end"] for s in st):
                    if r["stream"] == -1:
                        r = dict(r, stream=r["tid"])
                    keep.append(r)
                elif KERNEL_CAT_PATTERN.match(r["cat"]) and r["corr"] in ids:
                    keep.append(r)
        else:
            filt = "cuda"
            cpu = [r for r in rows if not is_gpu(r)]
            last = max(r["ts"] for r in cpu if STEP.match(r["name"]))
            cpu = [r for r in cpu if r["ts"] < last]
            ids = {r["corr"] for r in cpu}
            keep = [r for r in rows if is_gpu(r) and r["corr"] in ids] + cpu
    dev = [dict(r, rt_ts=rt.get(r["corr"]) if r["corr"] >= 0 and is_gpu(r) else None)
           for r in keep if r["stream"] != -1]
    dev.sort(key=lambda r: r["i"])
    return dev, filt


def merge(iv):
    out = []
    for ts, end in sorted(iv, key=lambda x: x[0]):
        if out and ts <= out[-1][1]:
            out[-1][1] = max(out[-1][1], end)
        else:
            out.append([ts, end])
    return out


def temporal(dev):
    if not dev:
        return None
    m = merge([(r["ts"], r["end"]) for r in dev])
    kt = m[-1][1] - m[0][0]
    idle = kt - sum(b - a for a, b in m)
    mc = merge([(r["ts"], r["end"]) for r in dev if ktype(r["name"]) == "compute"])
    comp = sum(b - a for a, b in mc)
    return dict(idle=idle, compute=comp, non_compute=kt - comp - idle, kernel_time=kt)


def idle_per_stream(dev, threshold=30):
    """[(stream, category, idle_time, ratio, gaps)], streams in order of
    first appearance, categories host_wait, kernel_wait, other."""
    kern = [r for r in dev if r["cat"] in KERNEL_CATS]
    streams = []
    for r in kern:
        if r["stream"] not in streams:
            streams.append(r["stream"])
    out = []
    for s in streams:
        ks = sorted((r for r in kern if r["stream"] == s), key=lambda r: r["ts"])  # stable
        gaps = {"other": []}
        for prev, r in zip(ks, ks[1:]):
            gap = r["ts"] - prev["end"]
            if r["rt_ts"] is not None and r["rt_ts"] > prev["end"]:
                c = "host_wait"
            elif gap < threshold:
                c = "kernel_wait"
            else:
                c = "other"
            gaps.setdefault(c, []).append(gap)
        whole = sum(sum(g) for g in gaps.values())
        for c in ("host_wait", "kernel_wait", "other"):
            if c in gaps:
                tot = sum(gaps[c])
                out.append((s, c, tot, tot / whole if whole else None, gaps[c]))
    return out


def analyse(path, threshold=30):
    rows, rounded, dist = rows_of(load(path))
    dev, filt = select(rows, dist)
    return dict(rounded=rounded, filter=filt, device_events=len(dev), temporal=temporal(dev),
                idle=idle_per_stream(dev, threshold))
