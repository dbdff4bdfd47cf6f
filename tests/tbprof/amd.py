#!/usr/bin/env python3
"""AMD matrix-core kernels as Tensor Core kernels, on the AMD traces of the
shared data folder (HTA's MI250 trace, TraceLens' MI300X traces).

For each trace this script classifies every kernel event by name on its own
(regular expressions written from the naming conventions of Tensile,
hipBLASLt, Composable Kernel and MIOpen, not from gpuprof's code) and
compares with `gpuprof kernels --format json`: the number of kernel events
and the kernel time in Tensor Core kernels, in the default mode (AMD matrix
kernels count) and with --tb-compat (only torch-tb-profiler's patterns).
The counts verified when the test was written are asserted too. Then the
AMP advice of `gpuprof summary`: given on the MI250 trace, whose matrix
kernels are fp32 (Tensile type SB), with the share of fp32 time; not given
on the MI300X bf16 traces; given with --tb-compat, as the plugin does.

Usage: amd.py GPUPROF SHARED_DATA. Closing line "amd: N passed, N failed".
"""
import gzip
import json
import os
import re
import subprocess
import sys
from decimal import Decimal

GPUPROF, DATA = sys.argv[1], sys.argv[2]

# torch-tb-profiler's kernel name patterns (tensor_core.py)
TB = ["h884", "s884", "h1688", "s1688", "hmma", "i8816", "16816", "dgrad_1x1_stride_2x2",
      "first_layer_wgrad_kernel", "conv1x1", "conv2d_c1_k1", "direct_group",
      "xmma_implicit_gemm", "xmma_sparse_conv", "xmma_warp_specialized_implicit_gemm",
      "xmma_gemm", "xmma_sparse_gemm", "c1688"]
NVIDIA_MODERN = re.compile(r"sm90_xmma|sm90_gemm|sm100_|sm120_|wgmma|cutlass3x_sm1?[029]0|tensorop|nvjet")
# AMD: Tensile/hipBLASLt's MatrixInstruction token, CK's XDL and WMMA
# kernels, MIOpen's xdlops implicit GEMM, any name spelling mfma/wmma
AMD = re.compile(r"_MI\d+x\d+x\d+|_xdl|[wW][mM][mM][aA]|[mM][fF][mM][aA]|_gtcx")

# (file, kernel events in TC kernels by default, with --tb-compat), counted
# when written with this script's classifier
TRACES = [
    ("torch/hta/tests/data/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz", 2, 0),
    ("torch/tracelens/tests/traces/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz", 243, 0),
    ("torch/tracelens/tests/traces/mi300/gaunernst_bert-small-uncased__1016001.json.gz", 26, 0),
    ("torch/tracelens/tests/traces/mi300/resnet_act_checkpoint.json.gz", 325, 0),
    ("torch-large/tracelens_mi300x_xdit_sd35_rank0.json.gz", 3155, 0),
]

passed = failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print("FAIL amd: " + what)


def is_tc(name, tb_only):
    if any(p in name for p in TB):
        return True
    return not tb_only and bool(NVIDIA_MODERN.search(name) or AMD.search(name))


def kernel_events(path):
    with gzip.open(path, "rb") as f:
        d = json.load(f, parse_float=Decimal)
    ev = d["traceEvents"] if isinstance(d, dict) else d
    return [e for e in ev if e.get("ph") == "X" and e.get("cat") == "kernel"]


def gpuprof_json(*args):
    out = subprocess.run([GPUPROF, *args, "--format", "json"], capture_output=True, check=True)
    return json.loads(out.stdout)


def main():
    for rel, want_default, want_tb in TRACES:
        path = os.path.join(DATA, rel)
        if not os.path.exists(path):
            print("amd: skipped " + rel + ": absent")
            continue
        kernels = kernel_events(path)
        for tb_only, want in ((False, want_default), (True, want_tb)):
            mode = ["--tb-compat"] if tb_only else []
            tc = [e for e in kernels if is_tc(e["name"], tb_only)]
            tc_ns = sum(int(e["dur"] * 1000) for e in tc)
            got = gpuprof_json("kernels", *mode, path)
            calls = sum(k["calls"] for k in got["kernels"] if k["tc_used"])
            tag = "%s%s" % (rel, " --tb-compat" if tb_only else "")
            check(len(tc) == want, "%s: %d TC kernel events by this script, %d written down"
                  % (tag, len(tc), want))
            check(calls == len(tc), "%s: gpuprof counts %d TC kernel events, this script %d"
                  % (tag, calls, len(tc)))
            check(got["tensor_cores"]["tc_kernel_time_ns"] == tc_ns,
                  "%s: TC kernel time %s ns, this script %d ns"
                  % (tag, got["tensor_cores"]["tc_kernel_time_ns"], tc_ns))
    amp_checks()
    print("amd: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def recs(path, *mode):
    return gpuprof_json("summary", *mode, path)["recommendations"]


def amp_checks():
    mi250 = os.path.join(DATA, TRACES[0][0])
    if os.path.exists(mi250):
        # both MFMA kernels are Tensile SB (fp32): all of the TC time
        amp = [r for r in recs(mi250) if r["rule"] == "amp"]
        check(len(amp) == 1 and "100.0% of the Tensor Core kernel time is in kernels of "
              "32-bit inputs" in amp[0]["text"], "MI250: the fp32 AMP advice: %r" % amp)
        tb = [r for r in recs(mi250, "--tb-compat") if "Automatic Mixed Precision" in r["text"]]
        check(len(tb) == 1, "MI250 --tb-compat: the plugin's AMP advice")
    for rel, _, _ in TRACES[1:4]:
        path = os.path.join(DATA, rel)
        if not os.path.exists(path):
            continue
        check(not [r for r in recs(path) if r["rule"] == "amp"],
              rel + ": bf16 matrix kernels, yet AMP advised")
        tb = [r for r in recs(path, "--tb-compat") if "Automatic Mixed Precision" in r["text"]]
        check(len(tb) == 1, rel + " --tb-compat: the plugin's AMP advice is missing")


sys.exit(main())
