"""Stage hta, part critical-path: `gpuprof critical-path` against HTA's own
expectations (HTA's tests/test_critical_path_analysis.py, on its test
traces in ../shared/data/torch/hta; skipped when absent) and against the
hand-computed expectations of tests/hta/fixtures/critpath-*.json (written
in tests/hta/fixtures/README.md).

HTA names events by their position in traceEvents; gpuprof by name and
time: an event here is found by (name, start) in the raw JSON.
"""
import gzip
import json
import os
import subprocess
import tempfile

SIMPLE_ADD_ANNOTATION = "[param|pytorch.model.alex_net|0|0|0|measure|forward]"
OP, DEP, LAUNCH, KK, SYNC = ("critical_path_operator", "critical_path_dependency",
                             "critical_path_kernel_launch_delay",
                             "critical_path_kernel_kernel_delay", "critical_path_sync_dependency")


def load_raw(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt") as f:
        return json.load(f)["traceEvents"]


class Graph:
    """The JSON of `critical-path --all-edges`, with nodes found by event."""

    def __init__(self, gpuprof, path, *args):
        p = subprocess.run([gpuprof, "critical-path", "--format", "json", "--all-edges", *args,
                            path], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"{path}: exit {p.returncode}: {p.stderr.strip()}")
        self.j = json.loads(p.stdout)
        self.t0 = int(self.j["critical_path"]["trace_start_ns"])
        self.edges = self.j["edges"]
        self.by_uv = {(e["u"], e["v"]): e for e in self.edges}
        self.node = {}
        for e in self.edges:
            self.node[(e["from"], e["from_node"], e["from_ns"])] = e["u"]
            self.node[(e["to"], e["to_node"], e["to_ns"])] = e["v"]

    def ns(self, us):
        return round(us * 1000) - self.t0

    def nodes_of(self, ev):
        """(start node, end node) of a raw event (HTA's whole-us times)."""
        return (self.node.get((ev["name"], "start", self.ns(ev["ts"]))),
                self.node.get((ev["name"], "end", self.ns(ev["ts"] + ev["dur"]))))


def runtime_of(raw, k):
    corr = k["args"]["correlation"]
    return next(e for e in raw if e.get("ph") == "X" and e.get("cat") == "cuda_runtime" and
                e.get("args", {}).get("correlation") == corr)


def simple_add(gpuprof, check, path):
    """HTA's test_critical_path_basic_add and test_critical_path_overlaid_trace
    (HTA runs them with CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE=1)."""
    raw = load_raw(path)
    g = Graph(gpuprof, path, "--annotation", SIMPLE_ADD_ANNOTATION, "--instance", "1",
              "--zero-weight-launch-edges")
    relu, clamp, launch = raw[286], raw[287], raw[1005]
    check("simple_add: event names", (relu["name"], clamp["name"], launch["name"]) ==
          ("aten::relu_", "aten::clamp_min_", "cudaLaunchKernel"))
    ids = [g.nodes_of(e) for e in (relu, clamp, launch)]
    check("simple_add: node ids", ids == [(57, 62), (58, 61), (59, 60)], f"{ids}")
    for (u, v, w, ev) in ((57, 58, 15, relu), (58, 59, 14, clamp), (59, 60, 17, launch),
                          (60, 61, 15, clamp), (61, 62, 32, relu)):
        e = g.by_uv.get((u, v), {})
        check(f"simple_add: edge {u}->{v} weight {w}us", e.get("weight_ns") == w * 1000, f"{e}")
        check(f"simple_add: edge {u}->{v} attributed to {ev['name']}",
              (e.get("event"), e.get("event_ns")) == (ev["name"], g.ns(ev["ts"])), f"{e}")
    fft, ampere = raw[1051], raw[1067]
    ks, ke = g.nodes_of(fft)
    rs, _ = g.nodes_of(runtime_of(raw, fft))
    e = g.by_uv.get((rs, ks), {})
    check("simple_add: launch delay 27us", (e.get("type"), e.get("weight_ns")) == (LAUNCH, 27000),
          f"{e}")
    k2s, _ = g.nodes_of(ampere)
    e = g.by_uv.get((ke, k2s), {})
    check("simple_add: kernel-kernel 7us", (e.get("type"), e.get("weight_ns")) == (KK, 7000), f"{e}")
    r2s, _ = g.nodes_of(runtime_of(raw, ampere))
    e = g.by_uv.get((r2s, k2s), {})
    check("simple_add: zero-weight launch edge", (e.get("type"), e.get("weight_ns")) == (LAUNCH, 0),
          f"{e}")
    _, k3e = g.nodes_of(raw[1275])
    _, se = g.nodes_of(raw[1281])
    e = g.by_uv.get((k3e, se), {})
    check("simple_add: device sync edge", (e.get("type"), e.get("weight_ns")) == (SYNC, 0), f"{e}")
    bad = [e for e in g.edges if (e["type"] in (OP, KK)) != (e["event"] != "")]
    check("simple_add: operator and kernel-kernel edges (only) attributed", not bad, f"{bad[:1]}")
    cp = g.j["critical_path"]
    check("simple_add: 315 critical nodes", cp["path_nodes"] == 315, f"{cp['path_nodes']}")
    check("simple_add: 159 critical events", cp["path_events"] == 159, f"{cp['path_events']}")
    crit = [e for e in g.edges if e["critical"]]
    check("simple_add: 314 critical edges", len(crit) == 314 == len(g.j["path"]), f"{len(crit)}")
    shown = [e for e in crit if e["type"] in (DEP, LAUNCH, SYNC)]
    check("simple_add: 21 critical edges of the default types", len(shown) == 21, f"{len(shown)}")
    share = sum(r["share_pct"] for r in g.j["summary"])
    check("simple_add: summary sums to 100%", abs(share - 100) < 1e-6, f"{share}")


def end_to_end(gpuprof, check, path, golden):
    """HTA's EndToEndTestCase: annotation '', data_load_events ['data_load'];
    the golden's critical events and its flow edges."""
    g = Graph(gpuprof, path, "--annotation", "", "--data-load", "data_load")
    gold = load_raw(golden)
    crit = [e for e in gold if e.get("ph") == "X" and e.get("args", {}).get("critical")]
    keys = {(e["name"], "start", g.ns(e["ts"])) for e in crit} | \
           {(e["name"], "end", g.ns(e["ts"] + e["dur"])) for e in crit}
    cp = g.j["critical_path"]
    check("end_to_end: critical events = golden's", cp["path_events"] == len(crit),
          f"{cp['path_events']} vs {len(crit)}")
    mine = {(p[s], p[s + "_node"], p[s + "_ns"]) for p in g.j["path"] for s in ("from", "to")}
    check("end_to_end: every path node is a golden critical event's", mine <= keys,
          f"{sorted(mine - keys)[:3]}")
    flows = {}
    for e in gold:
        if e.get("cat") == "critical_path" and e["ph"] == "f":
            flows[e["args"]["type"]] = flows.get(e["args"]["type"], 0) + 1
    shown = {}
    for e in g.j["path"]:
        if e["type"] in (DEP, LAUNCH, SYNC):
            shown[e["type"]] = shown.get(e["type"], 0) + 1
    check("end_to_end: critical edges by type = golden's flows", shown == flows,
          f"{shown} vs {flows}")


def overlay(gpuprof, path, *args):
    """`gpuprof trace overlay critical-path`'s output, parsed."""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "overlaid.json.gz")
        p = subprocess.run([gpuprof, "trace", "overlay", "critical-path", path, *args, "-o", out],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"overlay {path}: exit {p.returncode}: {p.stderr.strip()}")
        return load_raw(out), Graph(gpuprof, out, *args)


def without_critical(e):
    if "critical" not in e.get("args", {}):
        return e
    a = dict(e["args"])
    del a["critical"]
    return dict(e, args=a)


def flows(events):
    return sorted((e["ph"], e["pid"], e["tid"], e["ts"], json.dumps(e["args"], sort_keys=True))
                  for e in events if e.get("cat") == "critical_path")


def overlays(gpuprof, check, path, golden):
    """HTA's test_critical_path_overlaid_trace counts, and its end-to-end
    golden: the same events flagged critical (by position) and the same
    flow events (ids and order aside); the rest of the trace unchanged; the
    overlaid trace read back gives the same path."""
    raw = load_raw(path)
    args = ["--annotation", SIMPLE_ADD_ANNOTATION, "--instance", "1", "--zero-weight-launch-edges"]
    for all_edges, want in ((True, 314), (False, 21)):
        ev, back = overlay(gpuprof, path, *args, *(["--all-edges"] if all_edges else []))
        crit = sum(e.get("args", {}).get("critical", 0) for e in ev if e.get("ph") == "X")
        check(f"overlay simple_add (all edges {all_edges}): 159 critical events", crit == 159,
              f"{crit}")
        fc = sum(1 for e in ev if e.get("ph") == "f" and e.get("cat") == "critical_path" and
                 e["args"]["critical"])
        check(f"overlay simple_add (all edges {all_edges}): {want} critical edges", fc == want,
              f"{fc}")
        check(f"overlay simple_add (all edges {all_edges}): the rest unchanged",
              [without_critical(e) for e in ev if e.get("cat") != "critical_path"] == raw)
        if all_edges:
            per = {}
            for e in ev:
                if e.get("cat") == "critical_path":
                    per[e["args"]["type"]] = per.get(e["args"]["type"], 0) + 1
            graph = {}
            for e in back.edges:
                if e["type"] != LAUNCH or e["weight_ns"] != 0:
                    graph[e["type"]] = graph.get(e["type"], 0) + 2
            check("overlay simple_add: flow events per type = 2 x the graph's edges", per == graph,
                  f"{per} vs {graph}")
        check("overlay simple_add: read back, the same path",
              back.j["critical_path"]["path_nodes"] == 315 and
              back.j["critical_path"]["path_events"] == 159)
    ev, _ = overlay(gpuprof, path, "--annotation", "", "--data-load", "data_load")
    gold = load_raw(golden)
    def crit(evs):
        return [i for i, e in enumerate(evs) if e.get("ph") == "X" and e.get("args", {}).get("critical")]
    check("overlay end_to_end: the golden's critical events", crit(ev) == crit(gold),
          f"{len(crit(ev))} vs {len(crit(gold))}")
    check("overlay end_to_end: the golden's flow events", flows(ev) == flows(gold),
          f"{len(flows(ev))} vs {len(flows(gold))}")


def syncs(gpuprof, check, label, path, *args, gpu_gpu=False):
    g = Graph(gpuprof, path, "--zero-weight-launch-edges", *args)
    s = [e for e in g.edges if e["type"] == SYNC]
    check(f"{label}: sync edges, all of weight 0", s and all(e["weight_ns"] == 0 for e in s),
          f"{len(s)}")
    if gpu_gpu:  # a stream wait: kernel end -> kernel start on another stream
        gg = [e for e in s if e["from_node"] == "end" and e["to_node"] == "start"]
        check(f"{label}: a GPU-to-GPU sync edge", len(gg) >= 1, f"{s}")
    return g


def shared(gpuprof, check, base):
    cp = os.path.join(base, "tests", "data", "critical_path")
    if not os.path.isdir(cp):
        print("hta: critical_path traces absent: HTA's critical-path expectations skipped")
        return
    def one(sub):
        d = os.path.join(cp, sub)
        return os.path.join(d, sorted(os.listdir(d))[0])
    try:
        simple_add(gpuprof, check, one("simple_add"))
        end_to_end(gpuprof, check, one("simple_add"),
                   os.path.join(cp, "end_to_end", "simple_add", "output",
                                "overlaid_critical_path_trace.json.gz"))
        overlays(gpuprof, check, one("simple_add"),
                 os.path.join(cp, "end_to_end", "simple_add", "output",
                              "overlaid_critical_path_trace.json.gz"))
        g = syncs(gpuprof, check, "alexnet", one("alexnet"), "--annotation",
                  SIMPLE_ADD_ANNOTATION, "--instance", "1")
        check("alexnet: 5 bound types in the summary", len(g.j["summary"]) == 5,
              f"{g.j['summary']}")
        syncs(gpuprof, check, "cuda_event_sync", one("cuda_event_sync"), "--instance", "0")
        syncs(gpuprof, check, "cuda_event_sync_multi_stream", one("cuda_event_sync_multi_stream"),
              "--annotation", "", gpu_gpu=True)
        for sub, inst in (("ns_resolution_trace", "1"), ("amd_trace", "0")):
            d = os.path.join(base, "tests", "data", sub)
            g = Graph(gpuprof, os.path.join(d, sorted(os.listdir(d))[0]), "--instance", inst)
            check(f"{sub}: a path", g.j["critical_path"]["path_nodes"] >= 2)
    except RuntimeError as e:
        check("critical-path", False, str(e))


# Hand-computed (tests/golden/README.md, critical-path-*): per fixture, the
# path as (from, at, to, at, edge type, weight us), the summary as
# {bound: (us, edges)}, and (events with nodes, edges).
S, E = "start", "end"
FIXTURES = {
    "critpath-cpu.json": (
        [("aten::op", S, "cudaLaunchKernel", S, OP, 10),
         ("cudaLaunchKernel", S, "cudaLaunchKernel", E, OP, 10),
         ("cudaLaunchKernel", E, "aten::op", E, OP, 60)],
        {"cpu_bound": (80, 3)}, (3, 5)),
    "critpath-gpu.json": (
        [("gemm_a", S, "gemm_a", E, OP, 70), ("gemm_a", E, "gemm_b", S, KK, 5),
         ("gemm_b", S, "gemm_b", E, OP, 75)],
        {"gpu_compute_bound": (145, 2), "gpu_kernel_kernel_overhead": (5, 1)}, (6, 11)),
    "critpath-sync.json": (
        [("gemm_a", S, "gemm_a", E, OP, 70), ("gemm_a", E, "gemm_b", S, KK, 5),
         ("gemm_b", S, "gemm_b", E, OP, 75),
         ("gemm_b", E, "cudaDeviceSynchronize", E, SYNC, 0),
         ("cudaDeviceSynchronize", E, "aten::add", S, DEP, 0),
         ("aten::add", S, "aten::add", E, OP, 4)],
        {"": (0, 2), "cpu_bound": (4, 1), "gpu_compute_bound": (145, 2),
         "gpu_kernel_kernel_overhead": (5, 1)}, (7, 13)),
    "critpath-stream-wait.json": (
        [("cudaLaunchKernel", S, "producer", S, LAUNCH, 10), ("producer", S, "producer", E, OP, 100),
         ("producer", E, "consumer", S, SYNC, 0), ("consumer", S, "consumer", E, OP, 25)],
        {"": (0, 1), "gpu_compute_bound": (125, 2), "gpu_kernel_launch_overhead": (10, 1)}, (7, 11)),
    "critpath-missing-corr.json": (
        [("aten::op", S, "cudaLaunchKernel", S, OP, 10),
         ("cudaLaunchKernel", S, "cudaLaunchKernel", E, OP, 10),
         ("cudaLaunchKernel", E, "cudaLaunchKernel", S, OP, 20),
         ("cudaLaunchKernel", S, "cudaLaunchKernel", E, OP, 4),
         ("cudaLaunchKernel", E, "aten::op", E, OP, 36)],
        {"cpu_bound": (80, 5)}, (4, 7)),
}


def fixtures(gpuprof, check, here):
    for name, (path, summary, counts) in FIXTURES.items():
        g = Graph(gpuprof, os.path.join(here, "fixtures", name))
        got = [(e["from"], e["from_node"], e["to"], e["to_node"], e["type"], e["weight_ns"] / 1000)
               for e in g.j["path"]]
        check(f"{name}: the path", got == path, f"{got}")
        got = {r["bound_by"]: (r["time_ns"] / 1000, r["edges"]) for r in g.j["summary"]}
        check(f"{name}: the summary", got == summary, f"{got}")
        cp = g.j["critical_path"]
        check(f"{name}: events, edges", (cp["events"], cp["edges"]) == counts,
              f"{cp['events']}, {cp['edges']}")


def run(gpuprof, check, base, here):
    fixtures(gpuprof, check, here)
    shared(gpuprof, check, base)
