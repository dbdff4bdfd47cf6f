"""An independent reading of Holistic Trace Analysis' idle-time and temporal
breakdowns, from the raw trace JSON, following HTA's loader and analyzers
(shared/reference/hta.md A.1-A.2) step by step in plain Python: the
reference tests/hta/check.py compares `gpuprof idle --format json` with.

Nothing here calls gpuprof. Times are HTA's: microseconds, Python floats or
ints exactly as json.load gives them, rounded the way HTA rounds.
"""
import bisect
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
                         tid=tid if isinstance(tid, int) else -1,
                         pid=e.get("pid") if isinstance(e.get("pid"), int) else -1))
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
            keep = [r for r in cpu if r["ts"] >= t0 and r["end"] <= t1]
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
    keep.sort(key=lambda r: r["i"])
    return dev, filt, keep


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
    dev, filt, _ = select(rows, dist)
    return dict(rounded=rounded, filter=filt, device_events=len(dev), temporal=temporal(dev),
                idle=idle_per_stream(dev, threshold))


STATS_LAUNCH = ["cudaLaunchKernel", "cudaLaunchKernelExC",
                "runFunction - job_prep_and_submit_for_execution"]
STATS_MEMORY = ["cudaMemsetAsync", "cudaMemcpyAsync"]
ATEN_LAUNCH = ["cudaMemsetAsync", "cudaMemcpyAsync", "cudaLaunchKernel", "cudaLaunchKernelExC",
               "cuLaunchKernel", "runFunction - job_prep_and_submit_for_execution",
               "hipLaunchKernel", "hipExtModuleLaunchKernel", "hipMemsetAsync", "hipMemcpyAsync",
               "hipMemcpyWithStream", "cuLaunchKernelEx"]


def launch_stats(trace_df, memory=True, runtime_cutoff=50, delay_cutoff=100):
    """HTA's cuda_kernel_launch_stats: pairs (cpu, gpu) of one correlation
    in inner-merge order, and the flags of its visualisation."""
    names = STATS_LAUNCH + (STATS_MEMORY if memory else [])
    corrs = {r["corr"] for r in trace_df if r["name"] in names}
    cpu = [r for r in trace_df if r["stream"] == -1 and r["corr"] in corrs]
    gpu = [r for r in trace_df if r["stream"] != -1 and r["corr"] in corrs]
    by = {}
    for g in gpu:
        by.setdefault(g["corr"], []).append(g)
    out = []
    for c in cpu:
        for g in by.get(c["corr"], []):
            cd, gd = c["end"] - c["ts"], g["end"] - g["ts"]
            delay = max(g["ts"] - c["ts"] - cd, 0)
            out.append(dict(corr=c["corr"], cpu=cd, gpu=gd, delay=delay,
                            short=cd <= runtime_cutoff and gd < cd, runtime=cd > runtime_cutoff,
                            delayed=delay > delay_cutoff))
    return out


def aten_ops(trace_df, dev):
    """HTA's get_aten_op_kernels_and_delay: rows (op, sequence, count,
    mean op delay, mean runtime delay), by count then name and sequence."""
    # by start, then end descending: scanning back from the last op that
    # starts at or before a call, the first that ends at or after it is
    # the latest start and, of equal starts, the innermost
    ops = sorted((r for r in trace_df if r["name"].startswith("aten::")),
                 key=lambda o: (o["ts"], -o["end"]))
    starts = [o["ts"] for o in ops]
    first_dev = {}
    for d in dev:
        first_dev.setdefault(d["corr"], d)
    inst = {}
    order = []
    for r in trace_df:
        if r["name"] not in ATEN_LAUNCH or r["corr"] < 0 or r["stream"] != -1:
            continue
        d = first_dev.get(r["corr"])
        if d is None:
            continue
        op = next((o for o in reversed(ops[:bisect.bisect_right(starts, r["ts"])])
                   if o["end"] >= r["end"]), None)
        if op is None:
            continue
        key = op["i"]
        if key not in inst:
            inst[key] = (op["name"], [])
            order.append(key)
        inst[key][1].append((d["name"], r["ts"] - op["ts"], d["ts"] - r["ts"]))
    groups = {}
    for key in order:
        name, ls = inst[key]
        seq = " -> ".join(n for n, _, _ in ls)
        groups.setdefault((name, seq), []).append((ls[0][1], ls[0][2]))
    rows = [(name, seq, len(v), sum(a for a, _ in v) / len(v), sum(b for _, b in v) / len(v))
            for (name, seq), v in groups.items()]
    rows.sort(key=lambda x: (x[0].encode(), x[1].encode()))
    rows.sort(key=lambda x: -x[2])
    return rows


def launches(path, memory=True):
    rows, rounded, dist = rows_of(load(path))
    dev, filt, keep = select(rows, dist)
    return dict(pairs=launch_stats(keep, memory), aten=aten_ops(keep, dev))


QUEUE_LAUNCH = ["cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
                "cudaMemcpyAsync", "cudaMemsetAsync",
                "runFunction - job_prep_and_submit_for_execution", "hipLaunchKernel",
                "hipExtModuleLaunchKernel", "hipMemcpyAsync", "hipMemsetAsync",
                "hipMemcpyWithStream"]


def describe(xs):
    """pandas' describe() by hand: count, mean, std (n - 1), min, 25%, 50%,
    75%, max (None where pandas has NaN)."""
    v = sorted(xs)
    n = len(v)
    if not n:
        return dict(count=0, mean=None, std=None, min=None, p25=None, p50=None, p75=None,
                    max=None)
    mean = sum(v) / n
    std = math.sqrt(sum((x - mean) ** 2 for x in v) / (n - 1)) if n > 1 else None

    def q(p):
        h = (n - 1) * p
        lo = int(h)
        return v[lo] if lo + 1 >= n else v[lo] + (v[lo + 1] - v[lo]) * (h - lo)
    return dict(count=n, mean=mean, std=std, min=v[0], p25=q(0.25), p50=q(0.5), p75=q(0.75),
                max=v[-1])


def memcpy_kind(name):
    if name[:6] == "Memset":
        return "Memset"
    return name[:11] if name[:6] == "Memcpy" else "Memcpy Unknown"


def counters(path, max_queue_length=1024):
    """HTA's trace_counters: queue length series per stream (ts, length),
    its describe(), blocked time per stream with a point at the maximum;
    memcpy bandwidth series per kind and describe() of its points > 0.
    Equal ts keep the concatenated order (a stable sort)."""
    doc = load(path)
    evs = [e for e in doc.get("traceEvents", []) if isinstance(e, dict)]
    rows, rounded, dist = rows_of(doc)
    dev, filt, keep = select(rows, dist)
    dur = (max(r["ts"] for r in keep) - min(r["ts"] for r in keep)) if keep else 0
    gpu_corr = {r["corr"] for r in rows if is_gpu(r)}
    calls = [r for r in keep if r["stream"] == -1 and r["name"] in QUEUE_LAUNCH and
             r["corr"] >= 0 and r["corr"] in gpu_corr]
    by_corr = {}
    for d in dev:
        by_corr.setdefault(d["corr"], []).append(d)
    ids = {c["corr"] for c in calls}
    pts = [(d["stream"], c["ts"], 1, d["i"]) for c in calls for d in by_corr.get(c["corr"], [])]
    pts += [(d["stream"], d["ts"], -1, d["i"]) for d in dev if d["corr"] in ids]
    pts.sort(key=lambda p: (p[0], p[1]))
    ql, ql_rows = {}, {}
    for s, ts, delta, i in pts:
        series = ql.setdefault(s, [])
        series.append((ts, (series[-1][1] if series else 0) + delta))
        ql_rows.setdefault(s, []).append((ts, series[-1][1], i))
    blocked = {}
    for s, series in ql.items():
        at = [i for i, (_, n) in enumerate(series) if n >= max_queue_length]
        if at:
            tot = sum(series[i + 1][0] - series[i][0] for i in at if i + 1 < len(series))
            blocked[s] = (tot, tot / dur if dur else None)
    mem = [d for d in dev if ktype(d["name"]) == "memory"]
    bw_pts = []
    for side in (0, 1):
        for d in mem:
            args = evs[d["i"]].get("args") or {}
            bw = args.get("memory bandwidth (GB/s)")
            bw = float(bw) if isinstance(bw, (int, float)) else None
            end = d["end"] if d["end"] != d["ts"] else d["ts"] + 1
            bw_pts.append((memcpy_kind(d["name"]).encode(), end if side else d["ts"],
                           None if bw is None else (-bw if side else bw), d["i"]))
    bw_pts.sort(key=lambda p: (p[0], p[1]))
    bws, bw_rows, sums = {}, {}, {}
    for k, ts, v, i in bw_pts:
        k = k.decode()
        bw_rows.setdefault(k, []).append(i)
        if v is not None:
            sums[k] = sums.get(k, 0.0) + v
        bws.setdefault(k, []).append((ts, None if v is None else sums.get(k, 0.0)))
    return dict(rounded=rounded, filter=filt, trace_duration=dur, queue=ql, queue_rows=ql_rows,
                bw_rows=bw_rows,
                queue_desc={s: describe([n for _, n in v]) for s, v in ql.items()},
                blocked=blocked, bw=bws,
                bw_desc={k: describe([x for _, x in v if x is not None and x > 0])
                         for k, v in bws.items()})
# --- HTA's get_frequent_cuda_kernel_sequences, over its call graph ---------

def _sweep_key(opens_at):
    """HTA's order of the ends of the intervals of one thread, as a key: by
    time; at one time the ends (the shorter first, then the later index),
    then the starts (the longer first, then the earlier index); a
    zero-length event's start and end (starts by index, then ends by index
    descending, so they nest) after the starts at that time, or before the
    ends when nothing starts then. HTA's comparator is not a total order
    when an end, a start and a zero-length event share a time (its result
    then follows numpy's and Python's sorts): this key takes the ends, the
    starts, the zero-length events in that case."""
    def key(p):
        i, d, kind, t = p
        if d != 0:
            return (t, 0, d, -i) if kind == 1 else (t, 1, -d, i)
        return (t, 2 if t in opens_at else -1, 0 if kind == -1 else 1, i if kind == -1 else -i)
    return key


def call_graph(df, by_i):
    """HTA's CallGraph over its events table df: {index: node} with parent,
    children, depth, gpu (a device node)."""
    nodes = {}

    def add_edge(parent, child, root, gpu=False):
        if child in nodes:
            return
        if parent not in nodes:
            nodes[parent] = dict(parent=root, children=[child], depth=0, gpu=gpu)
        else:
            nodes[parent]["children"].append(child)
        nodes[child] = dict(parent=parent, children=[], depth=nodes[parent]["depth"] + 1, gpu=gpu)

    # index_correlation: the last CPU event of the correlation, over the
    # whole file (computed before the loader's filter)
    groups = {}
    for r in df:
        groups.setdefault((r["pid"], r["tid"]), []).append(r)
    stacks = []
    for key in sorted(groups):
        g = groups[key]
        streams = {r["stream"] for r in g}
        if all(s > 0 for s in streams) or key[0] == 0 or key[1] == 0:
            continue
        root = -abs(key[1])
        nodes.setdefault(root, dict(parent=-1, children=[], depth=-1, gpu=False))
        cpu = [r for r in g if r["stream"] == -1]
        pts = [(r["i"], r["end"] - r["ts"], -1, r["ts"]) for r in cpu] + \
              [(r["i"], r["end"] - r["ts"], 1, r["end"]) for r in cpu]
        pts.sort(key=_sweep_key({r["ts"] for r in cpu if r["end"] != r["ts"]}))
        stack = []
        for i, _, kind, _ in pts:
            if kind == -1:
                add_edge(stack[-1] if stack else root, i, root)
                stack.append(i)
            elif stack:
                stack.pop()
        ids = {r["i"] for r in g}
        for k in df:
            c = k.get("icorr", -1)
            if k["stream"] > 0 and c > 0 and c in ids:
                add_edge(c, k["i"], root, gpu=True)
        names = [r["name"] for r in g]
        label = ("main" if any(n.startswith("ProfilerStep#") for n in names) else
                 "bwd" if any("autograd::" in n for n in names) else "other")
        stacks.append(dict(label=label, root=root, rows=g))
    two = [s for s in stacks if s["label"] in ("bwd", "main")]
    if len(two) == 2:
        bwd, main = sorted(two, key=lambda s: s["label"])
        parents = []
        for pre in ("## backward ##", "ProfilerStep#"):
            parents = [r["i"] for r in main["rows"] if r["name"].startswith(pre)]
            if parents:
                break
        root = bwd["root"]
        for p in parents:
            if root not in nodes:
                break  # HTA would go on from the other thread's root (and loop)
            pr = by_i[p]
            moved = [c for c in nodes[root]["children"]
                     if by_i[c]["ts"] >= pr["ts"] and by_i[c]["end"] <= pr["end"]
                     and c not in nodes[p]["children"]]
            for c in moved:
                nodes[c]["parent"] = p
                nodes[root]["children"].remove(c)
            nodes[p]["children"].extend(moved)
            if moved and not nodes[root]["children"]:
                del nodes[root]

    def depth(i, d):
        todo = [(i, d)]
        while todo:
            j, dj = todo.pop()
            nodes[j]["depth"] = dj
            todo.extend((c, dj + 1) for c in nodes[j]["children"])

    for r in [k for k in nodes if k < 0]:
        depth(r, -1)
    return nodes


def seq_graph(path):
    """The events table and call graph the sequences of one trace read."""
    rows, rounded, dist = rows_of(load(path))
    last = {}
    for r in rows:
        if not is_gpu(r) and r["corr"] != -1:
            last[r["corr"]] = r["i"]
    for r in rows:
        if is_gpu(r) and r["corr"] != -1 and r["corr"] in last:
            r["icorr"] = last[r["corr"]]
    _, _, df = select(rows, dist)
    by_i = {r["i"]: r for r in df}
    return df, by_i, call_graph(df, by_i)


def sequences(graph, operator=None, min_len=3):
    """HTA's frequent kernel sequences: [(pattern, kernels, count, gpu, cpu,
    first ts)] in HTA's order, the candidates and their least depth, and the
    instances (index, pattern key, events)."""
    df, by_i, nodes = graph
    op = operator if operator else "ProfilerStep#"
    cand = [r for r in df if op in r["name"]]
    depth = {r["i"]: nodes[r["i"]]["depth"] if r["i"] in nodes else -1 for r in cand}
    dmin = min(depth.values()) if cand else None

    def below(i):
        out, todo = [], [i]
        while todo:
            j = todo.pop()
            out.append(j)
            todo.extend(nodes[j]["children"] if j in nodes and not nodes[j]["gpu"] else [])
        return out

    pats, order, inst = {}, [], []
    for r in cand:
        if depth[r["i"]] != dmin or r["i"] not in nodes:
            continue
        sub = below(r["i"])
        ks = sorted((by_i[j] for j in sub if j in nodes and nodes[j]["gpu"]),
                    key=lambda k: (k["ts"], k["i"]))
        if len(ks) < min_len:
            continue
        key = tuple([r["name"] if operator else "ProfilerStep"] + [k["name"] for k in ks])
        if key not in pats:
            pats[key] = [0, 0, 0, r["ts"], len(order)]
            order.append(key)
        p = pats[key]
        p[0] += 1
        p[1] += sum(k["end"] - k["ts"] for k in ks)
        p[2] += r["end"] - r["ts"]
        inst.append((r["i"], key, sorted(sub)))
    out = [("|".join(k), len(k) - 1, pats[k][0], pats[k][1], pats[k][2], pats[k][3])
           for k in order]
    out.sort(key=lambda x: x[0])
    out.sort(key=lambda x: -x[2])
    return dict(patterns=out, candidates=len(cand), depth=dmin, instances=inst, by_i=by_i)
