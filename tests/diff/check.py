"""Checks of `gpuprof diff` against values computed here independently:

- identical inputs: every delta 0, every status "same", exit 0;
- a kernel scaled by synth --scale-kernel: the deltas of each kernel equal
  the difference of `gpuprof kernels` of each side, computed apart; the
  scaled kernel's total exactly doubles; gates trip and pass at the exact
  thresholds, and --min-abs keeps a small row from tripping;
- a step slowed by synth --slow-step: `gpuprof steps` of each side differ
  in that step only, by the amount; the delta of the mean, the medians,
  the Mann-Whitney U and its p-value recomputed here (normal
  approximation with the tie correction, or the exact distribution by
  counting arrangements);
- the tb-profiler samples resnet50_num_workers_0 and _4 from the shared
  data folder (skipped when absent): the DataLoader part is the largest
  change of the steps, an improvement;
- when Debian's python3-scipy is importable by ${PYTHON:-/usr/bin/python3},
  the p-values against scipy.stats.mannwhitneyu (skipped otherwise).

Usage: check.py GPUPROF SHARED_DATA_DIR. Standard library only. The last
line is "diff: N passed, N failed".
"""
import itertools
import json
import math
import os
import subprocess
import sys
import tempfile

from scipy_mwu import check_p

gp, shared = sys.argv[1], sys.argv[2]
passed = failed = 0


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL diff: " + what)


def run(*args, cwd):
    p = subprocess.run([gp, "-q", *args], cwd=cwd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def js(*args, cwd):
    rc, out, err = run("--format", "json", *args, cwd=cwd)
    return rc, (json.loads(out) if out else {}), err


def mwu(a, b):
    """U of a and the two-sided p, as docs/diff.md states the test."""
    n1, n2 = len(a), len(b)
    vals = sorted(a + b)
    rank = {}
    i = 0
    ties = 0.0
    while i < len(vals):
        j = i
        while j < len(vals) and vals[j] == vals[i]:
            j += 1
        rank[vals[i]] = (i + 1 + j) / 2
        t = j - i
        ties += t ** 3 - t
        i = j
    u1 = sum(rank[x] for x in a) - n1 * (n1 + 1) / 2
    big = max(u1, n1 * n2 - u1)
    if ties == 0 and min(n1, n2) < 8:
        # count the arrangements: U of every choice of a's positions
        n = n1 + n2
        total = tail = 0
        for pos in itertools.combinations(range(n), n1):
            # pairs a > b: for each a at position p, the b's before it
            u = sum(p - k for k, p in enumerate(pos))
            total += 1
            tail += u >= big - 1e-9
        return u1, min(1.0, 2 * tail / total), "exact"
    n = n1 + n2
    var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    if var <= 0:
        return u1, 1.0, "normal"
    z = (big - n1 * n2 / 2 - 0.5) / math.sqrt(var)
    return u1, min(1.0, math.erfc(z / math.sqrt(2))), "normal"


def per_step(path, cwd):
    _, d, _ = js("steps", path, cwd=cwd)
    return [r for r in d["steps"] if r["step"] != "average"]


def part_row(d, part):
    return next(r for r in d["steps"] if r["part"] == part)


with tempfile.TemporaryDirectory() as t:
    synth = ["synth", "--model", "tiny", "--steps", "6"]
    run(*synth, "-o", "a.json", cwd=t)
    run(*synth, "--scale-kernel", "sgemm=2", "-o", "k.json", cwd=t)
    run(*synth, "--slow-step", "5=3ms", "-o", "s.json", cwd=t)

    # identical inputs
    rc, d, _ = js("diff", "a.json", "a.json", cwd=t)
    ok(rc == 0, "identical inputs: exit %d, want 0" % rc)
    zero = all(
        v == 0
        for tab in d.values()
        if isinstance(tab, list)
        for row in tab
        for k, v in row.items()
        if k.startswith("delta_") and v is not None
    )
    ok(zero, "identical inputs: a delta is not 0")
    ok(all(r["status"] == "same" for r in d["kernels"] + d["ops"]), "identical: a row is not same")
    ok(all(r["verdict"] == "same" for r in d["steps"]), "identical: a step part is not same")

    # a scaled kernel, against `gpuprof kernels` of each side
    kb = {r["name"]: r for r in js("kernels", "a.json", cwd=t)[1]["kernels"]}
    kn = {r["name"]: r for r in js("kernels", "k.json", cwd=t)[1]["kernels"]}
    rc, d, _ = js("diff", "--exact-names", "a.json", "k.json", cwd=t)
    rows = {r["name"]: r for r in d["kernels"]}
    ok(set(rows) == set(kb) == set(kn), "scaled: kernel names differ from gpuprof kernels")
    for name, r in rows.items():
        want = kn[name]["total_ns"] - kb[name]["total_ns"]
        ok(r["delta_total_ns"] == want, "scaled: %s delta %s, want %s" % (name, r["delta_total_ns"], want))
        if "sgemm" in name:
            ok(kn[name]["total_ns"] == 2 * kb[name]["total_ns"], "scaled: %s did not double" % name)
        else:
            ok(want == 0, "scaled: %s changed by %d" % (name, want))
    sg = next(r for n, r in rows.items() if "sgemm" in n)
    ok(d["kernels"][0] is not None and "sgemm" in d["kernels"][0]["name"], "scaled: sgemm is not the top row")
    dt = sg["delta_total_ns"]
    for gate, want in [
        ("kernel[sgemm].total_ns>+99.9%", 1),
        ("kernel[sgemm].total_ns>+100%", 0),
        ("kernel[sgemm].total_ns>+%dns" % (dt - 1), 1),
        ("kernel[sgemm].total_ns>+%dns" % dt, 0),
        ("kernels.calls>+0", 0),
        ("kernel[nosuch].total_ns>+0%", 0),
    ]:
        rc, g, _ = js("diff", "--fail-if", gate, "a.json", "k.json", cwd=t)
        ok(rc == want, "gate %s: exit %d, want %d" % (gate, rc, want))
        ok(g["gates"][0]["verdict"] == ("tripped" if want else g["gates"][0]["verdict"]), "gate %s: verdict" % gate)
    floor_us = dt // 1000
    rc, _, _ = run("diff", "--min-abs", "%dus" % (floor_us + 1), "--fail-if", "kernels.total_ns>+50%", "a.json", "k.json", cwd=t)
    ok(rc == 0, "--min-abs above the delta: exit %d, want 0" % rc)
    rc, _, _ = run("diff", "--min-abs", "%dus" % floor_us, "--fail-if", "kernels.total_ns>+50%", "a.json", "k.json", cwd=t)
    ok(rc == 1, "--min-abs under the delta: exit %d, want 1" % rc)

    # a slowed step, against `gpuprof steps` of each side
    sb, sn = per_step("a.json", t), per_step("s.json", t)
    diffs = [(a["step"], b["total_ns"] - a["total_ns"]) for a, b in zip(sb, sn)]
    ok(diffs == [(s, 3000000 if s == "5" else 0) for s, _ in diffs], "slowed: steps differ as %s" % diffs)
    rc, d, _ = js("diff", "a.json", "s.json", cwd=t)
    tot = part_row(d, "total")
    a = [r["total_ns"] for r in sb]
    b = [r["total_ns"] for r in sn]
    ok(tot["delta_mean_ns"] == 500000, "slowed: delta mean %s, want 3 ms / 6" % tot["delta_mean_ns"])
    u, p, how = mwu(a, b)
    ok(tot["test"] == how and abs(tot["u"] - u) < 1e-9, "slowed: U %s (%s), want %s (%s)" % (tot["u"], tot["test"], u, how))
    ok(abs(tot["p_value"] - p) < 1e-12, "slowed: p %s, want %s" % (tot["p_value"], p))
    ok(tot["verdict"] == "noise", "slowed: one step of six slower is %s, want noise" % tot["verdict"])
    srt = sorted(a)
    ok(tot["base_median_ns"] == round((srt[2] + srt[3]) / 2), "slowed: base median")
    checks = [(a, b, tot)]

    # every step part of a pair of different seeds against this U test
    run(*synth, "--seed", "7", "-o", "c.json", cwd=t)
    sc = per_step("c.json", t)
    rc, d, _ = js("diff", "a.json", "c.json", cwd=t)
    for r in d["steps"]:
        key = r["part"] + "_ns"
        x, y = [s[key] for s in sb], [s[key] for s in sc]
        u, p, how = mwu(x, y)
        ok(r["test"] == how and abs(r["u"] - u) < 1e-9 and abs(r["p_value"] - p) < 1e-12,
           "seeds: %s U %s p %s (%s), want %s %s (%s)" % (r["part"], r["u"], r["p_value"], r["test"], u, p, how))
        checks.append((x, y, r))

    # the real pair: DataLoader first
    base = os.path.join(shared, "torch/tb_plugin_samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz")
    new = os.path.join(shared, "torch/tb_plugin_samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz")
    if os.path.exists(base) and os.path.exists(new):
        rc, d, _ = js("diff", base, new, cwd=t)
        parts = d["steps"]
        ok(parts[0]["part"] == "total" and parts[1]["part"] == "dataloader", "resnet: top change %s, want dataloader" % parts[1]["part"])
        ok(parts[1]["verdict"] == "improvement", "resnet: dataloader is %s" % parts[1]["verdict"])
        ok(max(abs(r["delta_mean_ns"]) for r in parts[1:]) == abs(parts[1]["delta_mean_ns"]), "resnet: dataloader is not the largest delta")
        x = [s["dataloader_ns"] for s in per_step(base, t)]
        y = [s["dataloader_ns"] for s in per_step(new, t)]
        u, p, how = mwu(x, y)
        ok(abs(parts[1]["p_value"] - p) < 1e-12, "resnet: dataloader p %s, want %s" % (parts[1]["p_value"], p))
        checks.append((x, y, parts[1]))
    else:
        print("diff: skipped the resnet50_num_workers pair: not in %s" % shared)

    # per-call tests of the kernel rows, against each launch's duration
    # read from the trace's own JSON (X events of category kernel)
    def launches(path):
        with open(os.path.join(t, path)) as f:
            evs = json.load(f)["traceEvents"]
        by = {}
        for e in evs:
            if e.get("ph") == "X" and e.get("cat") == "kernel":
                by.setdefault(e["name"], []).append(round(e["dur"] * 1000))
        return by

    la = launches("a.json")
    for other, label in [("k.json", "scaled"), ("c.json", "seeds")]:
        lb = launches(other)
        rc, d, _ = js("diff", "--exact-names", "a.json", other, cwd=t)
        for r in d["kernels"]:
            x, y = la.get(r["name"]), lb.get(r["name"])
            if x is None or y is None:
                ok(r["test"] == "none" and r["verdict"] in ("added", "removed"), "%s: %s one side: %s %s" % (label, r["name"], r["test"], r["verdict"]))
                continue
            ok(r["base_calls"] == len(x) and r["new_calls"] == len(y), "%s: %s calls differ from the launches" % (label, r["name"]))
            u, p, how = mwu(x, y)
            ok(r["test"] == how and abs(r["u"] - u) < 1e-9 and abs(r["p_value"] - p) < 1e-12,
               "%s: kernel %s U %s p %s (%s), want %s %s (%s)" % (label, r["name"], r["u"], r["p_value"], r["test"], u, p, how))
            checks.append((x, y, dict(r, part="kernel " + r["name"])))
            if label == "scaled":
                want = "regression" if "sgemm" in r["name"] else "same"
                ok(r["verdict"] == want, "scaled: %s is %s, want %s" % (r["name"], r["verdict"], want))
        if label == "scaled":
            # the scaled kernel is real, so its gate trips; the others trip none
            rc, g, _ = js("diff", "--fail-if", "kernels.total_ns>+50%", "a.json", other, cwd=t)
            ok(rc == 1 and "sgemm" in g["gates"][0]["row"], "scaled: kernels.total_ns>+50%% exit %d" % rc)

    # another seed moves every kernel's durations within their noise: a
    # row whose verdict is noise trips no gate on its total
    rc, d, _ = js("diff", "--exact-names", "a.json", "c.json", cwd=t)
    for r in d["kernels"]:
        if r["verdict"] == "noise":
            rc, g, _ = js("diff", "--exact-names", "--fail-if", "kernel[%s].total_ns>-100%%" % r["name"][:40], "a.json", "c.json", cwd=t)
            ok(g["gates"][0]["verdict"] in ("noise", "tripped") and (g["gates"][0]["verdict"] == "noise") == (rc == 0),
               "seeds: gate on the noise row %s: %s exit %d" % (r["name"], g["gates"][0]["verdict"], rc))
            break

    # sets of rank traces: BASE rank 1 slow in step 5, NEW rank 0 slower in
    # step 5 and rank 1's sgemm scaled; each set's values from each rank's
    # own `gpuprof steps`, `ops`, `kernels` and `memory`
    ranks = ["synth", "--model", "tiny", "--steps", "6", "--ranks", "2"]
    run(*ranks, "--rank", "0", "-o", "r_a0.json", cwd=t)
    run(*ranks, "--rank", "1", "--slow-step", "5=1ms", "-o", "r_a1.json", cwd=t)
    run(*ranks, "--rank", "0", "--slow-step", "5=2ms", "-o", "r_b0.json", cwd=t)
    run(*ranks, "--rank", "1", "--scale-kernel", "sgemm=3", "-o", "r_b1.json", cwd=t)
    sets = [["r_a0.json", "r_a1.json"], ["r_b0.json", "r_b1.json"]]
    rc, d, _ = js("diff", "--exact-names", "--base", *sets[0], "--new", *sets[1], cwd=t)
    ok(rc == 0, "sets: exit %d" % rc)
    for side, paths in enumerate(sets):
        per = [per_step(pth, t) for pth in paths]
        slow = []
        for k in range(len(per[0])):
            rows = [pr[k] for pr in per]
            slow.append(max(rows, key=lambda r: r["total_ns"]))
        tot = [r["total_ns"] for r in slow]
        key = ("base", "new")[side]
        row = part_row(d, "total")
        ok(row[key + "_mean_ns"] == math.floor(sum(tot) / len(tot) + 0.5), "sets: %s mean %s, want the slowest ranks' %s" % (key, row[key + "_mean_ns"], sum(tot) / len(tot)))
        for pr in d["steps"]:
            vals = [r[pr["part"] + "_ns"] for r in slow]
            ok(pr[key + "_mean_ns"] == math.floor(sum(vals) / len(vals) + 0.5), "sets: %s %s mean of the slowest rank's parts" % (key, pr["part"]))
        ops = {}
        kern = {}
        for pth in paths:
            for r in js("ops", pth, cwd=t)[1]["operators"]:
                o = ops.setdefault(r["name"], [0, 0, 0])
                o[0] += r["calls"]; o[1] += r["device_self_ns"]; o[2] += r["host_self_ns"]
            for r in js("kernels", pth, cwd=t)[1]["kernels"]:
                kk = kern.setdefault(r["name"], [0, 0])
                kk[0] += r["calls"]; kk[1] += r["total_ns"]
        got = {r["name"]: [r[key + "_calls"], r[key + "_device_self_ns"], r[key + "_host_self_ns"]] for r in d["ops"]}
        ok(got == ops, "sets: %s ops are not the ranks' sums" % key)
        got = {r["name"]: [r[key + "_calls"], r[key + "_total_ns"]] for r in d["kernels"]}
        ok(got == kern, "sets: %s kernels are not the ranks' sums" % key)
        mem = {}
        for i, pth in enumerate(paths):
            for r in js("memory", pth, cwd=t)[1]["peaks"]:
                mem["rank%d %s" % (i, r["device"])] = [r["peak_allocated_bytes"], r["peak_reserved_bytes"]]
        got = {r["device"]: [r[key + "_peak_allocated_bytes"], r[key + "_peak_reserved_bytes"]] for r in d["memory"]}
        ok(got == mem, "sets: %s memory %s, want %s" % (key, got, mem))
    rc, _, err = run("diff", "--base", *sets[0], "--new", sets[1][0], cwd=t)
    ok(rc == 2 and "as many on each side" in err, "sets of unequal sizes: exit %d %s" % (rc, err.strip()))

    # scipy, when Debian's has it
    check_p(ok, "diff", checks, "part")

print("diff: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
