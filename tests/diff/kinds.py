"""Checks of `gpuprof diff` of two Nsight Compute reports and of two Nsight
Systems analyses, against values found here apart from the diff:

- the synthetic pair of tests/ncu/mkreport.py --diff-pair is what the
  script writes today (the golden cases ncu-diff-* read the committed
  copies);
- the real pair of one program in the shared data folder (SASSScope's
  probe_timer_only, captured twice: basic set on an RTX 3080 Ti with NCU
  2025.3, basic + SourceCounters on an RTX 3060 with NCU 2025.4): every
  base/new/delta of the launch equals what ncu's own raw.csv export of each
  report says (duration and registers exactly, percents to ncu's 2
  decimals); skipped when the shared folder is absent;
- every shared report against itself: all deltas 0, every status "same",
  a 0% gate passes, exit 0;
- the JSON output carries each gate with observed value, threshold and
  verdict, and exit 1 when one trips;
- two Nsight Systems analyses (tests/nsys/iter/*.json, and
  tests/nsys/run_small): the table iteration_stats recomputed here from
  the analyses' iterations (count, mean, median and IQR as numpy's linear
  quantiles, U by counting pairs), the verdicts and gates of a pair that
  differs by noise and of one with a real shift, --min-abs, the ranges'
  test none; the p-values against scipy.stats.mannwhitneyu when Debian's
  python3-scipy is importable by ${PYTHON:-/usr/bin/python3}.

Usage: kinds.py GPUPROF SHARED_DATA_DIR (tests/diff/run.sh kinds). Standard library only. The last
line is "diffkinds: N passed, N failed".
"""
import csv
import json
import os
import subprocess
import sys
import tempfile

from scipy_mwu import check_p

gp, shared = sys.argv[1], sys.argv[2]
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
passed = failed = 0


def ok(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL diffkinds: " + what)


def run(*args):
    p = subprocess.run([gp] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def js(*args):
    rc, out, err = run("--format", "json", "-q", *args)
    try:
        return rc, json.loads(out), err
    except ValueError:
        return rc, None, err


def raw_row(path):
    """ncu's raw export: header, units row, one row per launch (the
    traceback that the 2025.3.1 exports end with is not a row)."""
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1], [r for r in rows[2:] if len(r) == len(rows[0])]


def shutil_copy(src, dst):
    """A copy of the run directory src in dst (its path)."""
    import shutil
    return shutil.copytree(src, os.path.join(dst, os.path.basename(src)))


def num(text):
    return float(text.replace(",", ""))


with tempfile.TemporaryDirectory() as t:
    # 1. the committed synthetic pair is what mkreport.py writes
    subprocess.run([sys.executable, os.path.join(root, "tests/ncu/mkreport.py"), "--diff-pair", t], check=True)
    for name in ("ncu-diff-base", "ncu-diff-new", "ncu-diff-other"):
        with open(os.path.join(t, name + ".ncu-rep"), "rb") as a, \
                open(os.path.join(root, "tests/golden/_inputs", name + ".ncu-rep"), "rb") as b:
            ok(a.read() == b.read(), "%s.ncu-rep is not what tests/ncu/mkreport.py --diff-pair writes" % name)

    # 2. the gates in JSON, and the exit status
    base = os.path.join(root, "tests/golden/_inputs/ncu-diff-base.ncu-rep")
    new = os.path.join(root, "tests/golden/_inputs/ncu-diff-new.ncu-rep")
    rc, d, err = js("diff", "--fail-if", "ncu[gemm].duration_ns>+24.9%", "--fail-if", "ncu[gemm].duration_ns>+25%", base, new)
    ok(rc == 1 and d is not None, "synthetic pair: exit %d, want 1 (%s)" % (rc, err))
    if d:
        g = d["gates"]
        ok([x["verdict"] for x in g] == ["tripped", "passed"], "gates verdicts %s" % [x["verdict"] for x in g])
        ok(all(x["observed"] == 25 and x["base"] == 4000 and x["new"] == 5000 for x in g), "gate values %s" % g)
        ok([x["threshold"] for x in g] == [24.9, 25], "gate thresholds %s" % g)

D = os.path.join(shared, "ncu")
pair = ("ncu2025.3_rtx3080ti_basic_sassscope", "ncu2025.4_rtx3060_basic_srccounters_sassscope")
if not os.path.isdir(D):
    print("diffkinds: skipped the shared reports: %s not found" % D)
else:
    # 3. the real pair of one program against ncu's own exports
    paths = [os.path.join(D, p + ".ncu-rep") for p in pair]
    raws = [os.path.join(D, p + ".raw.csv") for p in pair]
    if all(os.path.exists(p) for p in paths + raws):
        rc, d, err = js("diff", *paths)
        ok(rc == 0 and d is not None, "real pair: exit %d (%s)" % (rc, err))
        want = {}
        for side, raw in enumerate(raws):
            h, units, rows = raw_row(raw)
            ok(len(rows) == 1, "%s: %d launches, want 1" % (raw, len(rows)))
            r = rows[0]
            col = lambda m: r[h.index(m)]
            ok(units[h.index("gpu__time_duration.sum")] == "ns", "%s: duration unit %s" % (raw, units[h.index("gpu__time_duration.sum")]))
            key = "%s grid %s block %s #0" % (col("Kernel Name"), col("Grid Size"), col("Block Size"))
            want.setdefault(key, [{}, {}])[side] = {
                "duration_ns": num(col("gpu__time_duration.sum")),
                "registers_per_thread": num(col("launch__registers_per_thread")),
                "sm_throughput_pct": num(col("sm__throughput.avg.pct_of_peak_sustained_elapsed")),
                "memory_throughput_pct": num(col("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed")),
                "achieved_occupancy_pct": num(col("sm__warps_active.avg.pct_of_peak_sustained_active")),
            }
        if d:
            rows = {r["launch"]: r for r in d["launches"]}
            ok(sorted(rows) == sorted(want), "real pair: launches %s, want %s" % (sorted(rows), sorted(want)))
            ok(d["diff"]["launches_matched"] == 1, "real pair: launches matched %s" % d["diff"])
            for key, (b, n) in want.items():
                r = rows.get(key)
                if not r:
                    continue
                for m in b:
                    tol = 0.005 if m.endswith("_pct") else 0
                    ok(abs(r["base_" + m] - b[m]) <= tol and abs(r["new_" + m] - n[m]) <= tol,
                       "real pair %s: %s base %s new %s, ncu %s %s" % (key, m, r["base_" + m], r["new_" + m], b[m], n[m]))
                    ok(abs(r["delta_" + m] - (r["new_" + m] - r["base_" + m])) < 1e-9, "real pair %s: delta of %s" % (key, m))
                ok(r["delta_duration_ns"] == n["duration_ns"] - b["duration_ns"], "real pair: duration delta %s" % r["delta_duration_ns"])
                ok(r["status"] == "decrease", "real pair: status %s" % r["status"])
    else:
        print("diffkinds: skipped the real pair: %s not in %s" % (pair, D))

    # 4. every report against itself
    for f in sorted(os.listdir(D)):
        if not f.endswith((".ncu-rep", ".nsight-cuprof-report")):
            continue
        p = os.path.join(D, f)
        rc, d, err = js("diff", "--fail-if", "ncu.duration_ns>+0%", p, p)
        ok(rc == 0 and d is not None, "%s against itself: exit %d (%s)" % (f, rc, err))
        if not d:
            continue
        rows = d["launches"] + d["hints"]
        ok(all(r["status"] == "same" for r in rows), "%s against itself: a row not 'same'" % f)
        ok(all(v == 0 for r in rows for k, v in r.items() if k.startswith("delta_") and v is not None),
           "%s against itself: a delta not 0" % f)
        ok(d["gates"][0]["verdict"] in ("passed", "no row"), "%s against itself: gate %s" % (f, d["gates"][0]))

# 5. Nsight Systems analyses: the distribution of the iterations
def quantile(v, q):
    v = sorted(v)
    h = (len(v) - 1) * q
    lo = int(h)
    return v[-1] if lo + 1 >= len(v) else v[lo] + (h - lo) * (v[lo + 1] - v[lo])


def iter_samples(path):
    with open(path) as f:
        its = json.load(f)["iterations"]
    return {
        "host_inclusive_ns": [i["host"]["inclusive_ns"] for i in its],
        "host_exclusive_ns": [i["host"]["exclusive_ns"] for i in its],
        "gpu_ns": [i["gpu_projection"]["projected_ns"] for i in its if i["gpu_projection"]],
    }


IN = os.path.join(root, "tests/nsys/iter")
nb, nn, ns = (os.path.join(IN, "%s.json" % k) for k in ("base", "noise", "shift"))
with tempfile.TemporaryDirectory() as t:
    rs = os.path.join(root, "tests/nsys/run_small")
    rc, _, err = run("nsys", "analyze", "-q", "--run-dir", shutil_copy(rs, t), "--from-csv", "--nsys-version", "2025.1")
    ok(rc == 0, "nsys analyze run_small: exit %d %s" % (rc, err))
    rsj = os.path.join(t, "run_small", "analysis.json")
    tested = []  # (base samples, new samples, row) for scipy
    for b, n in ((nb, nn), (nb, ns), (rsj, rsj), (ns, nb)):
        rc, d, err = js("diff", b, n)
        ok(rc == 0 and d is not None, "nsys %s %s: exit %d %s" % (b, n, rc, err))
        if not d:
            continue
        sb, sn = iter_samples(b), iter_samples(n)
        rows = {r["metric"]: r for r in d["iteration_stats"]}
        ok(sorted(rows) == sorted(sb), "nsys iteration_stats rows %s" % sorted(rows))
        for m, r in rows.items():
            x, y = sb[m], sn[m]
            want = {"base_iterations": len(x), "new_iterations": len(y),
                    "base_mean_ns": round(sum(x) / len(x)), "new_mean_ns": round(sum(y) / len(y)),
                    "base_median_ns": round(quantile(x, 0.5)), "new_median_ns": round(quantile(y, 0.5)),
                    "base_iqr_ns": round(quantile(x, 0.75) - quantile(x, 0.25)),
                    "new_iqr_ns": round(quantile(y, 0.75) - quantile(y, 0.25)),
                    "u": sum(1.0 if a > c else 0.5 if a == c else 0 for a in x for c in y)}
            got = {k: r[k] for k in want}
            ok(got == want, "nsys %s: %s, want %s" % (m, got, want))
            dp = 100 * (sum(y) / len(y) - sum(x) / len(x)) / (sum(x) / len(x))
            ok(abs(r["delta_pct"] - dp) < 1e-9, "nsys %s: delta_pct %s, want %s" % (m, r["delta_pct"], dp))
            exact = len(set(x + y)) == len(x + y) and min(len(x), len(y)) < 8
            ok(r["test"] == ("exact" if exact else "normal"), "nsys %s: test %s" % (m, r["test"]))
            tested.append((x, y, r))
        for r in d["ranges"]:
            ok(r["test"] == "none" and r["u"] is None and r["p_value"] is None,
               "nsys range %s: test %s u %s p %s" % (r["name"], r["test"], r["u"], r["p_value"]))

    # the verdicts and the gates of the two pairs: (NEW, exit, the verdicts
    # of iteration_stats, the gates', host inclusive p, the ranges')
    g = ["--fail-if", "iteration_stats[host_inclusive_ns].mean_ns>+4%", "--fail-if", "nsys[forward].host_inclusive_ns>+0.5%"]
    pairs = [
        ("noise", nn, 0, {"host_inclusive_ns": "noise", "host_exclusive_ns": "noise", "gpu_ns": "same"},
         ["noise", "noise"], 174 / 252, {"forward": "noise", "profile-target": "noise"}),
        ("shift", ns, 1, {"host_inclusive_ns": "regression", "host_exclusive_ns": "same", "gpu_ns": "regression"},
         ["tripped", "tripped"], 2 / 252, {"forward": "regression", "profile-target": "regression", "optimizer": "added"}),
    ]
    for what, new, want_rc, verdicts, gates, p, ranges in pairs:
        rc, d, err = js("diff", *g, nb, new)
        ok(rc == want_rc and d is not None, "nsys %s pair: exit %d, want %d (%s)" % (what, rc, want_rc, err))
        if not d:
            continue
        v = {r["metric"]: r["verdict"] for r in d["iteration_stats"]}
        ok(v == verdicts, "nsys %s pair: verdicts %s" % (what, v))
        ok([x["verdict"] for x in d["gates"]] == gates, "nsys %s pair: gates %s" % (what, d["gates"]))
        r = next(r for r in d["iteration_stats"] if r["metric"] == "host_inclusive_ns")
        ok(abs(r["p_value"] - p) < 1e-12, "nsys %s pair: p %s, want %s" % (what, r["p_value"], p))
        v = {r["name"]: r["verdict"] for r in d["ranges"]}
        ok(v == ranges, "nsys %s pair: range verdicts %s" % (what, v))
    rc, d, err = js("diff", *g, ns, nb)
    ok(rc == 0 and d is not None and [r["verdict"] for r in d["iteration_stats"]][:2] == ["improvement", "improvement"],
       "nsys shift pair reversed: exit %d, %s" % (rc, d and [r["verdict"] for r in d["iteration_stats"]]))
    # --min-abs 600ns: a 500 ns shift of the mean is under the minimum
    # effect (noise) and under the floor of a percent gate (no row)
    rc, d, err = js("diff", "--min-abs", "600ns", g[0], g[1], nb, ns)
    ok(rc == 0 and d is not None and d["gates"][0]["verdict"] == "no row" and
       [r["verdict"] for r in d["iteration_stats"] if r["metric"] == "host_inclusive_ns"] == ["noise"],
       "nsys shift pair --min-abs 600ns: exit %d %s" % (rc, d and (d["gates"], d["iteration_stats"])))
    rc, _, err = run("diff", "--fail-if", "iteration_stat.mean_ns>+1%", nb, ns)
    ok(rc == 2 and "iteration_stats" in err, "nsys gate of an unknown table: exit %d %s" % (rc, err.strip()))

    check_p(ok, "diffkinds", tested, "metric")

print("diffkinds: %d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
