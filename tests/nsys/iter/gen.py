"""The analyses of tests/nsys/iter (tests/golden/README.md gives their values):
base.json, noise.json (every iteration moved by less than its spread) and
shift.json (every iteration slower), shaped as `gpuprof nsys analyze` writes
analysis.json (schema 1, sorted keys, indent 2). Usage: gen.py DIR
"""
import json, statistics, sys
out = sys.argv[1]
def summ(v):
    return {"maximum_ns": max(v), "mean_ns": statistics.mean(v) if len(v) else None,
            "median_ns": statistics.median(v), "minimum_ns": min(v),
            "stddev_ns": statistics.stdev(v) if len(v) > 1 else None, "total_ns": sum(v)}
def analysis(run_id, incl, excl, gpu, ranges):
    its = []
    for i, (a, b, g) in enumerate(zip(incl, excl, gpu)):
        its.append({"index": i,
                    "host": {"inclusive_ns": a, "exclusive_ns": b, "child_total_ns": a - b},
                    "gpu_projection": None if g is None else {"projected_ns": g, "host_range_total_ns": a, "gpu_operation_count": 2}})
    gv = [g for g in gpu if g is not None]
    hr, gr = [], []
    for name, hi, he, gp in ranges:
        hr.append({"name": name, "instances": len(hi), "inclusive": summ(hi), "exclusive": summ(he), "child_total_ns": sum(hi) - sum(he)})
        gr.append({"name": name, "style": "PushPop", "instances": len(gp), "projected": summ(gp), "host_total_ns": sum(hi), "gpu_operation_count": 2 * len(gp)})
    miss = [i for i, g in enumerate(gpu) if g is None]
    return {"schema_version": 1,
            "run": {"capture_range": "profile-target", "cuda": {}, "device": "cuda:0", "git_commit": "0123abc",
                    "profile_name": "iter", "record_count": 0, "run_id": run_id, "workload": {"iterations": len(incl), "warmup": 0}},
            "host_ranges": hr, "gpu_projected_ranges": gr, "iterations": its,
            "iteration_summary": {"iterations": len(incl), "host_iterations": len(incl), "gpu_projected_iterations": len(gv),
                                  "host_inclusive": summ(incl), "host_exclusive": summ(excl), "gpu_projected": summ(gv)},
            "warnings": ["Missing GPU projections for iterations: %s." % miss] if miss else []}
fw = [700, 750, 800, 850, 900]
base = analysis("iter-base", [1000, 1100, 1200, 1300, 1400], [400, 500, 600, 700, 800], [800, 900, None, 1000, 1100],
                [("profile-target", [7000], [1000], [6800]), ("forward", fw, fw, [560, 600, 640, 600, 600])])
fwn = [706, 756, 806, 856, 906]
noise = analysis("iter-noise", [1050, 1150, 1250, 1350, 1450], [450, 500, 550, 700, 850], [820, 880, 950, 1020, 1080],
                 [("profile-target", [7050], [800], [6850]), ("forward", fwn, fwn, [562, 602, 642, 602, 602])])
fws = [1200, 1250, 1300, 1350, 1400]
shift = analysis("iter-shift", [1500, 1600, 1700, 1800, 1900], [400, 500, 600, 700, 800], [1100, 1200, 1300, 1400, 1500],
                 [("profile-target", [9500], [1000], [9300]), ("forward", fws, fws, [860, 900, 940, 900, 900]),
                  ("optimizer", [100] * 5, [100] * 5, [90] * 5)])
for name, d in (("base", base), ("noise", noise), ("shift", shift)):
    with open("%s/%s.json" % (out, name), "w") as f:
        f.write(json.dumps(d, indent=2, sort_keys=True) + "\n")
