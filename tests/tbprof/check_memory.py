"""Checks `gpuprof memory --tb-compat --format json` against torch-tb-profiler's
Memory view numbers in the shared data folder:

- cases/*.json (the upstream test cases with [memory] records,
  test_memory_view and test_memory_curve): the asserted values
  (*.expected.json, within float_tolerance), and every memory number of the
  full reference dumps (*.reference.json): memory_statistics_raw (all devices, all rows),
  memory_peaks, and the served tables ui.memory_stats_KB,
  ui.memory_curve_ms_MB (step-plot form, device list, peaks, first_ts) and
  ui.memory_events_ms_KB, after the plugin's unit conversion and rounding;
- the four ResNet-50 sample traces: memory_statistics_raw and memory_peaks
  of samples/*.reference.json.gz.

gpuprof gives ns and bytes; the plugin's µs value is ns / 1000. Standard
library only. Usage: check_memory.py GPUPROF DATA_DIR. The closing line is
"tbmemory: N passed, N failed".
"""
import gzip
import json
import math
import os
import subprocess
import sys

PASS = 0
FAIL = 0
KB = 1 / 1024            # the plugin's Canonicalizer factors (input B, µs)
MB = 1 / (1024 * 1024)
MS = 1 / 1000


def ok(what, problems):
    """One check: passes when problems is empty."""
    global PASS, FAIL
    if not problems:
        PASS += 1
        print(f"ok   {what}")
        return
    FAIL += 1
    print(f"FAIL {what}:")
    for p in problems[:12]:
        print(f"       {p}")
    if len(problems) > 12:
        print(f"       ... {len(problems) - 12} more")


def run(gpuprof, trace, *opts):
    out = subprocess.run([gpuprof, "memory", "--tb-compat", "--format", "json", "-q", *opts, trace],
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"memory {' '.join(opts)} {trace}: exit {out.returncode}: {out.stderr}")
    return json.loads(out.stdout)


def tb_device(name):
    """gpuprof's device name -> the plugin's key."""
    return "CPU" if name == "cpu" else "GPU" + name.split(":")[1]


def display_round(v):
    """The plugin's DisplayRounder(ndigits=2)."""
    a = abs(v)
    if a >= 0.01 or v == 0:
        return round(v, 2)
    return round(v, abs(math.floor(math.log10(a))))


def us(ns):
    return None if ns is None else ns / 1000


class Memory:
    """gpuprof's Memory view of one trace, per device (plugin names)."""

    def __init__(self, gpuprof, trace):
        base = run(gpuprof, trace)
        self.info = base["memory"]
        self.peaks = base["peaks"]
        self.stats, self.curve, self.curve_step, self.events = {}, {}, {}, {}
        for p in self.peaks:
            dev, key = p["device"], tb_device(p["device"])
            self.stats[key] = run(gpuprof, trace, "--device", dev)["operators"]
            self.curve[key] = run(gpuprof, trace, "--device", dev, "--curve")["curve"]
            self.curve_step[key] = run(gpuprof, trace, "--device", dev, "--curve",
                                       "--step-plot")["curve"]
            self.events[key] = run(gpuprof, trace, "--device", dev, "--events")["events"]

    def raw_stats(self):
        """{device: {name: the plugin's 7 numbers}}, devices with rows only."""
        out = {}
        for dev, rows in self.stats.items():
            if rows:
                out[dev] = {r["name"]: [r["self_size_increase_bytes"], r["self_allocation_size_bytes"],
                                        r["self_allocation_count"], r["size_increase_bytes"],
                                        r["allocation_size_bytes"], r["allocation_count"], r["calls"]]
                            for r in rows}
        return out

    def peak_map(self):
        """The plugin's memory_peaks: "type:id" -> peak Total Allocated."""
        out = {}
        for p in self.peaks:
            if p["peak_allocated_bytes"] is None:
                continue
            dev = p["device"]
            out[dev] = p["peak_allocated_bytes"]
        return out


def cmp_stats_raw(want, got):
    probs = []
    if sorted(want) != sorted(got):
        probs.append(f"devices {sorted(want)} != {sorted(got)}")
    for dev in want:
        w, g = want[dev], got.get(dev, {})
        for name in sorted(set(w) | set(g)):
            if w.get(name) != g.get(name):
                probs.append(f"{dev} {name}: want {w.get(name)}, got {g.get(name)}")
    return probs


def cmp_peaks(want, m):
    """want: {"type:id": bytes}; CPU records form one device in gpuprof."""
    probs = []
    got = m.peak_map()
    want_by_dev = {}
    for k, v in want.items():
        t, i = k.split(":")
        dev = "cpu" if t == "0" else f"cuda:{i}"
        want_by_dev[dev] = max(v, want_by_dev.get(dev, v))
    if want_by_dev != got:
        probs.append(f"peaks: want {want_by_dev}, got {got}")
    return probs


def cmp_stats_ui(ui, m):
    probs = []
    rows = ui["rows"]
    got_devs = sorted(d for d, r in m.stats.items() if r)
    if sorted(rows) != got_devs:
        probs.append(f"devices {sorted(rows)} != {got_devs}")
    for dev, want in rows.items():
        got = [[r["name"], r["calls"], display_round(r["size_increase_bytes"] * KB),
                display_round(r["self_size_increase_bytes"] * KB), r["allocation_count"],
                r["self_allocation_count"], display_round(r["allocation_size_bytes"] * KB),
                display_round(r["self_allocation_size_bytes"] * KB)] for r in m.stats.get(dev, [])]
        if want != got:
            probs.append(f"{dev}: want {want}, got {got}")
    default = ui["metadata"]["default_device"]
    gpus = sorted(d for d in got_devs if d.startswith("GPU"))
    mine = gpus[0] if gpus else "CPU"
    if default != mine:
        probs.append(f"default_device {default} != {mine}")
    return probs


def cmp_curve_ui(ui, m):
    probs = []
    md = ui["metadata"]
    devs = sorted(d for d, c in m.curve.items() if c)
    if md["devices"] != devs:
        probs.append(f"devices {md['devices']} != {devs}")
    gpus = [d for d in devs if d.startswith("GPU")]
    if md["default_device"] != (gpus[0] if gpus else "CPU"):
        probs.append(f"default_device {md['default_device']}")
    if md["first_ts"] != us(m.info["profiler_start_ns"]):
        probs.append(f"first_ts {md['first_ts']} != {us(m.info['profiler_start_ns'])}")
    for dev in devs:
        peak = max(p["allocated_bytes"] for p in m.curve[dev])
        want = md["peaks"].get(dev)
        got = "Peak Memory Usage: {:.1f}{}".format(MB * peak, "MB")
        if want != got:
            probs.append(f"{dev} peak label {want!r} != {got!r}")
    for dev in sorted(set(ui["rows"]) | set(devs)):
        want = ui["rows"].get(dev)
        got = [[MS * us(p["time_ns"]), MB * p["allocated_bytes"], MB * p["reserved_bytes"]]
               for p in m.curve_step.get(dev, [])]
        if want != got:
            probs.append(f"{dev}: want {want}, got {got}")
    return probs


def cmp_events_ui(ui, m):
    probs = []

    def r(v):
        return None if v is None else display_round(v)

    devs = sorted(d for d, e in m.events.items() if e)
    if sorted(ui["rows"]) != devs:
        probs.append(f"devices {sorted(ui['rows'])} != {devs}")
    for dev in sorted(set(ui["rows"]) | set(devs)):
        want = ui["rows"].get(dev)
        got = [[e["operator"], r(KB * e["size_bytes"]),
                r(None if e["allocation_time_ns"] is None else MS * us(e["allocation_time_ns"])),
                r(None if e["release_time_ns"] is None else MS * us(e["release_time_ns"])),
                r(None if e["duration_ns"] is None else MS * us(e["duration_ns"]))]
               for e in m.events.get(dev, [])]
        if want != got:
            probs.append(f"{dev}: want {want}, got {got}")
    gpus = [d for d in devs if d.startswith("GPU")]
    if ui["metadata"]["default_device"] != (gpus[0] if gpus else "CPU"):
        probs.append(f"default_device {ui['metadata']['default_device']}")
    return probs


def near(a, b):
    return round(a - b, 7) == 0


def cmp_expected(exp, m):
    """The values the upstream tests assert."""
    probs = []
    if "memory_statistics" in exp:
        raw = m.raw_stats()
        want = exp["memory_statistics"]
        if len(raw) != exp["memory_statistics_device_count"]:
            probs.append(f"device count {len(raw)} != {exp['memory_statistics_device_count']}")
        for dev, rows in want.items():
            for name, vals in rows.items():
                g = raw.get(dev, {}).get(name)
                if g is None or len(g) != len(vals) or not all(near(a, b) for a, b in zip(g, vals)):
                    probs.append(f"{dev} {name}: want {vals}, got {g}")
    if "profiler_start_ts" in exp:
        if not near(us(m.info["profiler_start_ns"]), exp["profiler_start_ts"]):
            probs.append(f"profiler_start_ts {us(m.info['profiler_start_ns'])}")
    for key, curves in (("memory_curve_us_B_no_step_plot", m.curve),
                        ("memory_curve_us_B_step_plot", m.curve_step)):
        if key not in exp:
            continue
        for dev, want in exp[key].items():
            got = [[us(p["time_ns"]), p["allocated_bytes"], p["reserved_bytes"]]
                   for p in curves.get(dev, [])]
            if len(got) != len(want) or not all(
                    near(a, b) for gp, wp in zip(got, want) for a, b in zip(gp, wp)):
                probs.append(f"{key} {dev}: want {want}, got {got}")
    return probs


def check_reference(label, ref, m):
    ok(f"{label}: memory_statistics_raw", cmp_stats_raw(ref["memory_statistics_raw"], m.raw_stats()))
    ok(f"{label}: memory_peaks", cmp_peaks(ref["memory_peaks"], m))
    ui = ref.get("ui", {})
    if "memory_stats_KB" in ui:
        ok(f"{label}: ui memory_stats_KB", cmp_stats_ui(ui["memory_stats_KB"], m))
    if "memory_curve_ms_MB" in ui:
        ok(f"{label}: ui memory_curve_ms_MB", cmp_curve_ui(ui["memory_curve_ms_MB"], m))
    if "memory_events_ms_KB" in ui:
        ok(f"{label}: ui memory_events_ms_KB", cmp_events_ui(ui["memory_events_ms_KB"], m))


def main():
    gpuprof, data = sys.argv[1], sys.argv[2]
    tb = os.path.join(data, "tbprof")
    cases = os.path.join(tb, "cases")
    index = json.load(open(os.path.join(cases, "INDEX.json")))
    for entry in index:
        case = entry["case"]
        reff = os.path.join(cases, case + ".reference.json")
        expf = os.path.join(cases, case + ".expected.json")
        if not os.path.exists(reff):
            continue
        ref = json.load(open(reff))
        if not any("memory_statistics_raw" in ref.get(w, {}) for w in ("worker0", "worker1")):
            continue  # the plugin dumps the Memory view only for traces with records
        exp = json.load(open(expf)).get("expected", {}) if os.path.exists(expf) else {}
        for inp in entry["inputs"]:
            worker = "worker1" if ".worker1." in inp else "worker0"
            label = case + ("" if len(entry["inputs"]) == 1 else f" ({worker})")
            m = Memory(gpuprof, os.path.join(cases, inp))
            check_reference(label, ref[worker], m)
            want = {k: v for k, v in exp.items()
                    if k.startswith(("memory_", "profiler_start_ts"))}
            if want:
                ok(f"{label}: asserted values ({', '.join(sorted(want))})", cmp_expected(want, m))
    samples = os.path.join(tb, "samples")
    for run_name in ("resnet50_num_workers_0", "resnet50_num_workers_4"):
        for span in (1, 2):
            path = os.path.join(samples, f"{run_name}.span{span}.reference.json.gz")
            if not os.path.exists(path):
                continue
            dump = json.load(gzip.open(path))
            trace = os.path.join(data, dump["source_trace"])
            if not os.path.exists(trace):
                print(f"skip {run_name} span {span}: no {trace}")
                continue
            check_reference(f"{run_name} span {span}", dump, Memory(gpuprof, trace))
    print(f"tbmemory: {PASS} passed, {FAIL} failed")
    return 1 if FAIL else 0


if __name__ == "__main__":
    sys.exit(main())
