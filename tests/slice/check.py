"""Checks of `gpuprof trace slice|merge` (tests/slice/check.sh).

Every expected value is read from the JSON independently of gpuprof (the
json module) or listed by hand from the fixtures:

- slice keeps every original field: the kept events are, dict for dict and
  in order, the source's events at hand-listed positions; each kept event's
  line of the source appears in the slice byte for byte; top-level keys
  are the source's;
- --step A-B keeps the hand-listed events of those steps (rank0.json and
  the three steps of steps3.json: 1-2, 2-3, 1-3, 3-3);
- --clip changes only the ts/dur of the events crossing the window's edges
  (hand-computed values), --from/--to with a unit count from the start;
- `gpuprof summary|ops|kernels|memory SLICE` prints what `gpuprof VIEW
  --step N TRACE` prints, for single steps and ranges A-B. The one
  exception is the summary's "Input anomalies" section: a --step window reports the anomalies of the whole file (its
  counts are the file's, trace/window.h), the slice those of its own bytes;
  the section is compared after removing it, for every step of every real
  trace with steps. Memory's "Trace start (ns)" line is the other: times
  count from the start of the file read (docs/cli.md), the source's first
  event for --step, the slice's own first event for the slice;
- on the real traces every event of the slice is an event of the source
  (multiset of dicts), every metadata event and top-level key is kept, and
  the flows kept have all their events;
- merge: event counts (sum of the inputs', less their process_name and
  process_sort_index events, plus two per process), pids disjoint between
  ranks, the hand-checked time shift of baseTimeNanoseconds (2.5 ms between
  the fixtures; the exact difference of the bases on two real ranks), flow
  ids kept apart.
"""
import collections
import gzip
import json
import os
import subprocess
import sys
import tempfile
from decimal import Decimal

GPUPROF = sys.argv[1]
SHARED = sys.argv[2]
HERE = os.path.dirname(os.path.abspath(__file__))
R0 = os.path.join(HERE, "rank0.json")
R1 = os.path.join(HERE, "rank1.json")
S3 = os.path.join(HERE, "steps3.json")
passed = failed = 0


def check(label, got, want):
    global passed, failed
    if got == want:
        passed += 1
    else:
        failed += 1
        g, w = repr(got), repr(want)
        print(f"FAIL slice: {label}: got {g[:400]}, want {w[:400]}")


def run(*args, ok=True):
    p = subprocess.run([GPUPROF, *args], capture_output=True)
    if ok and p.returncode != 0:
        print(f"FAIL slice: gpuprof {' '.join(args)}: exit {p.returncode}: {p.stderr.decode()[:300]}")
    return p


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rb") as f:
        return json.loads(f.read().decode("utf-8"), parse_float=Decimal)


def canon(e):
    """e as text to compare: numbers by value (2.50 and 2.5 alike)."""
    return json.dumps(e, sort_keys=True, default=lambda d: str(d.normalize()))


def without_origin(text):
    """Memory's text without its "Trace start (ns)" line (the file's own
    first event: the slice's is later than the source's)."""
    return b"".join(l for l in text.splitlines(True) if not l.startswith(b"  Trace start (ns):"))


def without_anomalies(text):
    """The summary's text up to its "Input anomalies" section."""
    i = text.find(b"\nInput anomalies\n")
    return text if i < 0 else text[:i]


tmp = tempfile.mkdtemp(prefix="gpuprof-slice-")
out = os.path.join(tmp, "s.json")


def slice_(*args, name="s.json"):
    path = os.path.join(tmp, name)
    run("trace", "slice", *args, "-o", path)
    return path


# ---- the fixture, by hand
src = load(R0)
ev = src["traceEvents"]
raw_lines = [l.rstrip("\n").rstrip(",") for l in open(R0, encoding="utf-8") if l.startswith("  {")]
check("fixture: one line per event", len(raw_lines), len(ev))


def same_top(label, got, want):
    check(f"{label}: top-level keys", {k: v for k, v in got.items() if k != "traceEvents"},
          {k: v for k, v in want.items() if k != "traceEvents"})


def kept(label, path, idx, edits=None, source=None):
    """The slice at path is the source's events (rank0.json's unless source
    is given) at positions idx, in order, with edits {position: {field:
    value}}."""
    source = source or src
    d = load(path)
    want = []
    for i in idx:
        e = json.loads(json.dumps(source["traceEvents"][i], default=str), parse_float=Decimal)  # a copy
        for k, v in (edits or {}).get(i, {}).items():
            e[k] = v
        want.append(e)
    check(f"{label}: events", [canon(e) for e in d["traceEvents"]], [canon(e) for e in want])
    same_top(label, d, source)
    return d


# --step 1: [1000, 1125] µs (ProfilerStep#1 stretched to the end of the
# kernel it launched): 0-3 metadata, 4 the global instant (s: g), 5 the
# step, 6 nccl:all_reduce (its NCCL and shape args), 7 the launch, 8/10 its
# ac2g flow, 9 the kernel (runs past the step's host end: kept whole), 11
# the op with an escaped name, 12 the counter, 13/14 the B/E pair (E at
# 1120), 15 long_op (1090-1190, crossing the end: kept whole). Not step 2's
# events (16-20), the "n" event at 1250 nor the instant at 1260.
p = slice_(R0, "--step", "1")
kept("step 1", p, list(range(16)))
text = [l.rstrip(",") for l in open(p, encoding="utf-8").read().split("\n")]
check("step 1: each kept event's bytes", all(raw_lines[i] in text for i in range(16)), True)
check("step 1: top-level members' bytes", '  "customKey": {"nested": [1, 2.50, "x"]}' in text, True)
check("step 1: nccl args", load(p)["traceEvents"][6]["args"]["Collective name"], "allreduce")
# --step 2: [1200, 1300]: the metadata, ProfilerStep#2, the memcpy call,
# its flow, the memcpy, the "n" event at 1250 and the instant at 1260
kept("step 2", slice_(R0, "--step", "2"), [0, 1, 2, 3] + list(range(16, 23)))
# --range: the first user annotation named ProfilerStep#2, as --step 2
# without the stretch (the memcpy is launched inside it anyway)
kept("range", slice_(R0, "--range", "ProfilerStep#2"), [0, 1, 2, 3] + list(range(16, 23)))
# --from/--to in trace µs, --clip: [1000, 1100): the kernel 1095-1125 cut
# to dur 5, the E at 1120 moved to 1100, long_op 1090-1190 cut to dur 10;
# the step ends at 1100 exactly (unchanged). gzip output.
p = slice_(R0, "--from", "1000", "--to", "1100", "--clip", name="c.json.gz")
with open(p, "rb") as f:
    check("clip: gzip output", f.read(2), b"\x1f\x8b")
kept("clip", p, list(range(16)), {9: {"dur": 5}, 14: {"ts": 1100}, 15: {"dur": 10}})
# without --clip the same window keeps them whole
kept("from/to", slice_(R0, "--from", "1000", "--to", "1100"), list(range(16)))
# a unit counts from the trace's first event (1000 µs): 200us-250us is
# [1200, 1250): the step 2 events but the "n" event at 1250 (the end is
# excluded) and the instant at 1260
kept("from/to with units", slice_(R0, "--from", "200us", "--to", "0.25ms"),
     [0, 1, 2, 3] + list(range(16, 21)))
# --step 1-2: from step 1's start to step 2's end, [1000, 1300]: every event
kept("steps 1-2", slice_(R0, "--step", "1-2"), list(range(23)))
# steps3.json, three steps (final ranges in trace µs: [100, 200], [200, 340]
# stretched to the end of the kernel add_2 launched in step 2, [345, 400]):
# 0-2 metadata, 3 warmup (50, before step 1), 4-9 step 1 (its op, launch,
# flow, kernel), 10-15 step 2 (add_2 runs 310-340, after the step's host
# end), 16-21 step 3, 22 an instant at 420 and 23 teardown at 450 (after
# step 3)
s3 = load(S3)
s3_lines = [l.rstrip("\n").rstrip(",") for l in open(S3, encoding="utf-8") if l.startswith("  {")]
check("steps3: one line per event", len(s3_lines), len(s3["traceEvents"]))
for rng, idx in (("1-2", [0, 1, 2] + list(range(4, 16))), ("2-3", [0, 1, 2] + list(range(10, 22))),
                 ("1-3", [0, 1, 2] + list(range(4, 22))), ("3-3", [0, 1, 2] + list(range(16, 22)))):
    p = slice_(S3, "--step", rng)
    kept(f"steps3 {rng}", p, idx, source=s3)
    text = [l.rstrip(",") for l in open(p, encoding="utf-8").read().split("\n")]
    check(f"steps3 {rng}: each kept event's bytes", [i for i in idx if s3_lines[i] not in text], [])
# the views of the slice are those of --step
for path, step in ((R0, "1"), (R0, "2"), (R0, "1-2"), (S3, "1-2"), (S3, "2-3")):
    p = slice_(path, "--step", step)
    for v in ("summary", "ops", "kernels", "memory"):
        a = run(v, "--step", step, path).stdout
        b = run(v, p).stdout
        if v == "summary":
            a, b = without_anomalies(a), without_anomalies(b)
        if v == "memory":
            a, b = without_origin(a), without_origin(b)
        check(f"{os.path.basename(path)} step {step}: {v} prints a table", a.count(b"\n") > 3, True)
        check(f"{os.path.basename(path)} step {step}: {v} of the slice is --step's", b, a)

# ---- merge of the fixtures
p = os.path.join(tmp, "m.json.gz")
r = run("trace", "merge", R0, R1, "-o", p)
check("merge: no note (both ranks have baseTimeNanoseconds)", r.stderr, b"")
m = load(p)
srcs = [load(R0), load(R1)]
meta_names = ("process_name", "process_sort_index")
procs = [len({canon(e["pid"]) for e in s["traceEvents"] if "pid" in e}) for s in srcs]
want_n = sum(len(s["traceEvents"]) - sum(e.get("ph") == "M" and e.get("name") in meta_names
                                         for e in s["traceEvents"]) for s in srcs) + 2 * sum(procs)
check("merge: event count", len(m["traceEvents"]), want_n)
# pid_base 100 (the largest pid is 10): rank 0's pids as they are, rank 1's
# + 100; the string pid gets "rank N " in front
pids = collections.defaultdict(set)
names = {}
for e in m["traceEvents"]:
    if e.get("ph") == "M" and e["name"] == "process_name":
        names[canon(e["pid"])] = e["args"]["name"]
# rank 0's events come first: its own less its 3 process_name and
# process_sort_index events, plus 2 for each of its 3 processes
n0 = len(srcs[0]["traceEvents"]) - 3 + 2 * procs[0]
for k, part in enumerate((m["traceEvents"][:n0], m["traceEvents"][n0:])):
    for e in part:
        pids[k].add(canon(e["pid"]))
check("merge: rank 0 pids", sorted(pids[0]), sorted(['10', '0', '"rank 0 Traces"']))
check("merge: rank 1 pids", sorted(pids[1]), sorted(['110', '100', '"rank 1 Traces"']))
check("merge: process names", names, {"10": "rank 0 trainer", "0": "rank 0 GPU 0",
                                      '"rank 0 Traces"': "rank 0 Traces", "110": "rank 1 trainer1",
                                      "100": "rank 1 GPU 0", '"rank 1 Traces"': "rank 1 Traces"})
sorts = {canon(e["pid"]): e["args"]["sort_index"] for e in m["traceEvents"]
         if e.get("ph") == "M" and e["name"] == "process_sort_index"}
check("merge: sort indexes by rank", sorts, {"10": 0, "0": 1, '"rank 0 Traces"': 2,
                                             "110": 1000, "100": 1001, '"rank 1 Traces"': 1002})
# rank 1's base is 2.5 ms later: its ts + 2500 µs; ProfilerStep#1 at 1000 -> 3500
st = [e for e in m["traceEvents"] if e.get("name") == "ProfilerStep#1"]
check("merge: time shift", [(e["pid"], e["ts"]) for e in st], [(10, 1000), (110, 3500)])
check("merge: base time", m["baseTimeNanoseconds"], 1700000000000000000)
check("merge: shifts", [r["ts_shift_ns"] for r in m["gpuprofMerge"]["ranks"]], [0, 2500000])
# flow ids: 7 and 9 in both inputs -> id * 2 + rank
flows = sorted((e["pid"], e["id"]) for e in m["traceEvents"] if e.get("ph") in ("s", "f"))
check("merge: flow ids", flows, sorted([(10, 14), (0, 14), (10, 18), (0, 18),
                                        (110, 15), (100, 15), (110, 19), (100, 19)]))
# every other field as it was
for k in range(2):
    got = [e for e in m["traceEvents"] if e.get("name") == "nccl:all_reduce"][k]
    check(f"merge: rank {k} nccl args", got["args"], srcs[k]["traceEvents"][6]["args"])
same_top("merge", {k: v for k, v in m.items() if k != "gpuprofMerge"}, srcs[0])

# ---- real traces
data = os.path.join(SHARED, "data", "torch")
if not os.path.isdir(data):
    print(f"slice: no shared data at {data}: real traces skipped")
else:
    def steps_of(path):
        d = json.loads(run("steps", "--format", "json", path, ok=False).stdout or b"{}")
        found = []

        def walk(x):
            if isinstance(x, dict):
                s = x.get("step")
                if isinstance(s, str) and s.isdigit() and s not in found:
                    found.append(s)
                for v in x.values():
                    walk(v)
            elif isinstance(x, list):
                for v in x:
                    walk(v)
        walk(d)
        return found

    # the traces with steps up to 1.3 MB (of 4 MB; the larger ones take
    # the stage's time and add no other kind of event), their first and
    # last steps
    traces = [os.path.join(dp, f) for dp, _, fs in os.walk(data) for f in fs
              if (f.endswith(".json") or f.endswith(".json.gz"))
              and os.path.getsize(os.path.join(dp, f)) < 1300000]
    for path in sorted(traces):
        steps = steps_of(path)
        steps = sorted(set(steps[:1] + steps[-1:]), key=steps.index)
        if not steps:
            continue
        label = os.path.relpath(path, data)
        source = load(path)
        sev = source["traceEvents"] if isinstance(source, dict) else source
        counts = collections.Counter(canon(e) for e in sev)
        metas = collections.Counter(canon(e) for e in sev if isinstance(e, dict) and e.get("ph") == "M")
        for step in steps:
            p = slice_(path, "--step", step, name="real.json.gz")
            for v in ("summary", "ops", "kernels"):
                a = run(v, "--step", step, path).stdout
                b = run(v, p).stdout
                if v == "summary":
                    a, b = without_anomalies(a), without_anomalies(b)
                check(f"{label} step {step}: {v}", b, a)
            d = load(p)
            got = collections.Counter(canon(e) for e in d["traceEvents"])
            check(f"{label} step {step}: every event is the source's", got - counts, collections.Counter())
            check(f"{label} step {step}: every metadata event", metas - got, collections.Counter())
            if isinstance(source, dict):
                same_top(f"{label} step {step}", d, source)
            fl = collections.defaultdict(int)
            for e in d["traceEvents"]:
                if e.get("ph") in ("s", "t", "f"):
                    fl[(e.get("cat"), canon(e.get("id")))] += 1
            whole = collections.defaultdict(int)
            for e in sev:
                if isinstance(e, dict) and e.get("ph") in ("s", "t", "f"):
                    whole[(e.get("cat"), canon(e.get("id")))] += 1
            check(f"{label} step {step}: flows kept whole",
                  [k for k, n in fl.items() if n != whole[k]], [])
    # two real ranks with baseTimeNanoseconds: the second one's ts shifted
    # by the exact difference of the bases
    a = os.path.join(data, "hta/tests/data/nccl_parser_config/nccl_data.json.gz")
    b = os.path.join(data, "hta/tests/data/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz")
    if os.path.exists(a) and os.path.exists(b):
        p = os.path.join(tmp, "real-merge.json.gz")
        run("trace", "merge", a, b, "-o", p)
        m = load(p)
        sa, sb = load(a), load(b)
        base = min(sa["baseTimeNanoseconds"], sb["baseTimeNanoseconds"])
        shift = [Decimal(s["baseTimeNanoseconds"] - base) / 1000 for s in (sa, sb)]
        check("real merge: shifts", [r["ts_shift_ns"] for r in m["gpuprofMerge"]["ranks"]],
              [s["baseTimeNanoseconds"] - base for s in (sa, sb)])
        check("real merge: ranks", [r["rank"] for r in m["gpuprofMerge"]["ranks"]],
              [sa["distributedInfo"]["rank"], sb["distributedInfo"]["rank"]])
        n = [len(s["traceEvents"]) - sum(e.get("ph") == "M" and e.get("name") in meta_names
                                         for e in s["traceEvents"]) for s in (sa, sb)]
        mev = [e for e in m["traceEvents"] if not (e.get("ph") == "M" and e.get("name") in meta_names)]
        check("real merge: events", len(mev), sum(n))
        parts = (mev[:n[0]], mev[n[0]:])
        for k, (s, part) in enumerate(zip((sa, sb), parts)):
            orig = [e for e in s["traceEvents"] if not (e.get("ph") == "M" and e.get("name") in meta_names)]
            bad = 0
            for o, g in zip(orig, part):
                want = dict(o)
                if "ts" in o and shift[k]:
                    want["ts"] = o["ts"] + shift[k]
                for f in ("pid", "id", "bind_id"):
                    want.pop(f, None)
                got = {f: v for f, v in g.items() if f not in ("pid", "id", "bind_id")}
                if canon(got) != canon(want):
                    bad += 1
                    if bad < 3:
                        print(f"slice: real merge: rank {k}: {canon(got)[:300]} != {canon(want)[:300]}")
            check(f"real merge: rank {k}: every event shifted by its base, other fields as they were", bad, 0)
        pa = {canon(e["pid"]) for e in parts[0] if "pid" in e}
        pb = {canon(e["pid"]) for e in parts[1] if "pid" in e}
        check("real merge: pids of the ranks disjoint", pa & pb, set())
# ---- trace overlay: the usage errors (the views' own overlays are checked
# by their stages); nothing is written
ov = os.path.join(tmp, "ov.json")
for args, msg in ((["trace", "overlay"], b"overlay needs a view and a TRACE"),
                  (["trace", "overlay", "idle", R0], b"the view 'idle' adds nothing to a trace"),
                  (["trace", "overlay", "nosuch", R0], b"no view named 'nosuch'")):
    p = run(*args, "-o", ov, ok=False)
    check(f"{' '.join(args[:3])}: exit 2 and its message",
          (p.returncode, msg in p.stderr, os.path.exists(ov)), (2, True, False))
print(f"slice: {passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
