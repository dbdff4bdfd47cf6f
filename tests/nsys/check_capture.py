"""Checks for the capture recipes of examples/capture/ (imported by
tests/nsys/check.py): the exact push/pop sequence of nvtx_capture.py with a
recording backend and with a stand-in `nvtx` module, its errors, the ncu
argument vector of ncu_recipe.py, and that the sequence, written as Nsight's
nvtx_pushpop_trace CSV (one time unit per push or pop), is what
`gpuprof nsys analyze` takes as iterations and scoped ranges. Every recipe
compiles (py_compile). Standard library only.
"""
import contextlib
import importlib
import io
import json
import os
import py_compile
import subprocess
import sys
import types

HERE = os.path.dirname(os.path.abspath(__file__))
CAPTURE = os.path.join(HERE, "..", "..", "examples", "capture")


class Recorder:
    def __init__(self):
        self.events = []

    def push(self, name):
        self.events.append(("push", name))

    def pop(self):
        self.events.append(("pop",))


def load(name):
    sys.dont_write_bytecode = True  # nothing written into examples/
    sys.path.insert(0, CAPTURE)
    try:
        return importlib.import_module(name)
    finally:
        sys.path.pop(0)


def loop(nc, rec, syncs, n, stop_at=None):
    """The loop of train_nvtx.py (two warmup passes without ranges)."""
    cap = nc.NvtxCapture("profile-target", nvtx=rec, sync=lambda: syncs.append(len(rec.events)))
    for _ in range(2):
        pass
    with cap:
        for i in cap.iterate(range(n)):
            with cap.range("forward"):
                with cap.range("attention"):
                    pass
            with cap.range("backward"):
                pass
            if i == stop_at:
                break


def pushpop_csv(events):
    """The nvtx_pushpop_trace CSV of events: time advances by 10 per event."""
    rows, stack, t, next_id = [], [], 0, 1
    for ev in events:
        t += 10
        if ev[0] == "push":
            parent = stack[-1]["id"] if stack else None
            r = {"name": ev[1], "start": t, "id": next_id, "parent": parent, "lvl": len(stack), "child": 0,
                 "nchild": 0}
            next_id += 1
            if stack:
                stack[-1]["nchild"] += 1
            stack.append(r)
        else:
            r = stack.pop()
            r["end"] = t
            if stack:
                stack[-1]["child"] += r["end"] - r["start"]
            rows.append(r)
    rows.sort(key=lambda r: r["id"])
    out = ["Start (ns),End (ns),Duration (ns),DurChild (ns),DurNonChild (ns),Name,PID,TID,Lvl,NumChild,RangeId,ParentId"]
    for r in rows:
        d = r["end"] - r["start"]
        out.append(f"{r['start']},{r['end']},{d},{r['child']},{d - r['child']},:{r['name']},7,7,{r['lvl']},"
                   f"{r['nchild']},{r['id']},{'' if r['parent'] is None else r['parent']}")
    return "\n".join(out) + "\n"


def run_all(gpuprof, tmp, ok):
    for f in sorted(os.listdir(CAPTURE)):
        if f.endswith(".py"):
            try:
                py_compile.compile(os.path.join(CAPTURE, f), cfile=os.path.join(tmp, f + "c"), doraise=True)
                ok(f"capture: {f} compiles", True)
            except py_compile.PyCompileError as e:
                ok(f"capture: {f} compiles", False, str(e))
    nc = load("nvtx_capture")
    rec, syncs = Recorder(), []
    loop(nc, rec, syncs, 2)
    one = [("push", "forward"), ("push", "attention"), ("pop",), ("pop",), ("push", "backward"), ("pop",)]
    want = ([("push", "profile-target"), ("push", "iteration 0")] + one + [("pop",), ("push", "iteration 1")] + one
            + [("pop",), ("pop",)])
    ok("capture: push/pop sequence", rec.events == want, rec.events)
    ok("capture: synchronized as the capture opens and closes", syncs == [0, len(want) - 1], syncs)

    # a loop left by break: the iteration, then the capture, are closed
    rec, syncs = Recorder(), []
    loop(nc, rec, syncs, 5, stop_at=0)
    ok("capture: break closes the iteration first",
       rec.events == [("push", "profile-target"), ("push", "iteration 0")] + one + [("pop",), ("pop",)], rec.events)

    # explicit indexes, sync each iteration
    rec, syncs = Recorder(), []
    cap = nc.NvtxCapture("my range", nvtx=rec, sync=lambda: syncs.append(len(rec.events)), sync_each_iteration=True)
    with cap:
        with cap.iteration(3):
            pass
        with cap.iteration():
            pass
    ok("capture: explicit and following indexes",
       rec.events == [("push", "my range"), ("push", "iteration 3"), ("pop",), ("push", "iteration 4"), ("pop",),
                      ("pop",)], rec.events)
    ok("capture: sync_each_iteration", syncs == [0, 2, 4, 5], syncs)

    def raises(label, exc, fn):
        try:
            fn()
            ok(label, False, "no exception")
        except exc:
            ok(label, True)

    raises("capture: '@' refused", ValueError, lambda: nc.NvtxCapture("a@b", nvtx=Recorder()))
    cap = nc.NvtxCapture(nvtx=Recorder())
    raises("capture: iteration outside the capture", RuntimeError, lambda: cap.iteration(0).__enter__())

    def nested():
        with cap:
            with cap.iteration(0):
                with cap.iteration(1):
                    pass
    raises("capture: iterations do not nest", RuntimeError, nested)

    # the default backend: the `nvtx` package when PyTorch is absent
    calls = []
    fake = types.ModuleType("nvtx")
    fake.push_range = lambda name: calls.append(("push", name))
    fake.pop_range = lambda: calls.append(("pop",))
    saved = {k: sys.modules.get(k) for k in ("nvtx", "torch")}
    sys.modules["nvtx"], sys.modules["torch"] = fake, None  # None: `import torch` fails
    try:
        with nc.NvtxCapture() as c:
            for _ in c.iterate("a"):
                pass
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    ok("capture: through the nvtx package",
       calls == [("push", "profile-target"), ("push", "iteration 0"), ("pop",), ("pop",)], calls)

    # what gpuprof makes of the sequence
    rec, syncs = Recorder(), []
    loop(nc, rec, syncs, 3)
    d = os.path.join(tmp, "capture_run")
    os.makedirs(os.path.join(d, "stats"))
    with open(os.path.join(d, "manifest.yaml"), "w") as f:
        f.write("capture_range: profile-target\nrun_id: capture\nworkload:\n  iterations: 3\n")
    with open(os.path.join(d, "stats", "nsys_nvtx_pushpop_trace.csv"), "w") as f:
        f.write(pushpop_csv(rec.events))
    with open(os.path.join(d, "stats", "nsys_nvtx_gpu_proj_trace.csv"), "w") as f:
        f.write("")
    r = subprocess.run([gpuprof, "nsys", "analyze", "--run-dir", d, "--from-csv", "--nsys-version", "2025.1.3"],
                       capture_output=True, text=True)
    ok("capture: analysed", r.returncode == 0, r.stderr)
    if r.returncode == 0:
        a = json.load(open(os.path.join(d, "analysis.json")))
        its = [(i["index"], i["host"]["inclusive_ns"], i["host"]["exclusive_ns"]) for i in a["iterations"]]
        # an iteration: pushed at t, popped 7 events later (70); forward (30,
        # around attention's 10) and backward (10) are its children: exclusive 30
        ok("capture: three iterations", its == [(0, 70, 30), (1, 70, 30), (2, 70, 30)], its)
        hr = [(h["name"], h["instances"], h["inclusive"]["total_ns"]) for h in a["host_ranges"]]
        ok("capture: scoped ranges", hr == [("backward", 3, 30), ("forward", 3, 90), ("forward.attention", 3, 30),
                                             ("profile-target", 1, 250)], hr)

    nr = load("ncu_recipe")
    argv = nr.ncu_argv("out/r", ["python", "t.py", "--x"])
    ok("ncu recipe: argument vector", argv == [
        "ncu", "--target-processes", "all", "--nvtx", "--nvtx-include", "profile-target/", "--set", "full",
        "--import-source", "yes", "--launch-count", "20", "--export", "out/r", "--force-overwrite", "python", "t.py",
        "--x"], argv)
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        rc = nr.main(["--out", "a b", "--print", "--", "prog", "it's"])
    ok("ncu recipe: --print quotes",
       rc == 0 and buf.getvalue() == "ncu --target-processes all --nvtx --nvtx-include profile-target/ --set full "
       "--import-source yes --launch-count 20 --export 'a b' --force-overwrite prog 'it'\"'\"'s'\n", buf.getvalue())
    raises("ncu recipe: '/' in the range refused", ValueError, lambda: nr.ncu_argv("o", ["p"], "a/b"))
