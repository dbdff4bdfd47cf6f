"""Inputs of tests/hostile/cases/50-diff-kinds.sh, written at test time:

  diff_gen.py wide OUT N      an analysis.json (schema 1) with N scoped
                              ranges and N iterations
  diff_gen.py deep OUT N      JSON nested N arrays deep under host_ranges
  diff_gen.py huge OUT        a count past 2^63, totals near 1e308
  diff_gen.py odd OUT         a 1 MB name, values of the wrong types, an
                              iteration index past 2^63
  diff_gen.py launches OUT N  an Nsight Compute report of N launches of one
                              kernel and configuration (tests/ncu/mkreport.py)
"""
import json
import os
import sys


def analysis(ranges, iterations):
    return {"schema_version": 1, "run": {}, "iteration_summary": {}, "warnings": [],
            "iterations": iterations, "host_ranges": ranges, "gpu_projected_ranges": []}


def main():
    what, out = sys.argv[1], sys.argv[2]
    if what == "wide":
        n = int(sys.argv[3])
        ranges = [{"name": "r%d" % i, "instances": 1, "inclusive": {"total_ns": i},
                   "exclusive": {"total_ns": i}} for i in range(n)]
        its = [{"index": i, "host": {"inclusive_ns": i, "exclusive_ns": i}} for i in range(n)]
        json.dump(analysis(ranges, its), open(out, "w"))
    elif what == "deep":
        n = int(sys.argv[3])
        text = json.dumps(analysis([], []))
        open(out, "w").write(text.replace('"host_ranges": []', '"host_ranges": ' + "[" * n + "]" * n))
    elif what == "huge":
        ranges = [{"name": "r", "instances": 2 ** 70, "inclusive": {"total_ns": 1e308},
                   "exclusive": {"total_ns": -1e308}}]
        json.dump(analysis(ranges, []), open(out, "w"))
    elif what == "odd":
        ranges = [{"name": "x" * (1 << 20), "instances": "many", "inclusive": [],
                   "exclusive": {"total_ns": 5}}, {"name": 7}, "text"]
        its = [{"index": 2 ** 64, "host": {"inclusive_ns": 1}}, {"index": -1, "host": "text"}, 3]
        json.dump(analysis(ranges, its), open(out, "w"))
    elif what == "launches":
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ncu"))
        import mkreport
        n = int(sys.argv[3])
        open(out, "wb").write(mkreport.report([mkreport.TINY] * n))


if __name__ == "__main__":
    main()
