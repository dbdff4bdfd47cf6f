"""Nsight Compute on the kernels of the capture range, for `gpuprof ncu`.

    python examples/capture/ncu_recipe.py --out reports/step \\
        -- python examples/capture/train_nvtx.py --iterations 1 --warmup 2

runs (an argument vector, no shell)

    ncu --target-processes all --nvtx --nvtx-include profile-target/
        --set full --import-source yes --launch-count 20
        --export reports/step --force-overwrite PROGRAM ARGS...

and writes reports/step.ncu-rep, which

    gpuprof ncu list reports/step.ncu-rep      one row per profiled kernel
    gpuprof ncu details reports/step.ncu-rep   the sections, as ncu --print-details
    gpuprof ncu hints --sort speedup reports/step.ncu-rep   the rules' advice
    gpuprof diff before.ncu-rep reports/step.ncu-rep        two reports
    gpuprof serve reports/step.ncu-rep         the Nsight Compute page, its charts

read. --nvtx-include NAME/ keeps only kernels launched inside the push/pop
range NAME (the same capture range as nvtx_capture.py, so that warmup and
start-up kernels are left out); --set full collects the sections the
viewer's charts draw (SpeedOfLight and its roofline, WarpStateStats, memory
workload); --launch-count bounds the run (ncu replays every kernel it
profiles many times). --print shows the command and exits.
"""
import argparse
import shlex
import subprocess
import sys

DEFAULT_RANGE = "profile-target"


def ncu_argv(out, program, capture_range=DEFAULT_RANGE, launch_count=20, ncu="ncu", section_set="full"):
    """The ncu argument vector that profiles program's kernels inside the
    push/pop range capture_range into out.ncu-rep."""
    if not program:
        raise ValueError("a program to run is needed")
    if "/" in capture_range or "@" in capture_range:
        raise ValueError("ncu reads DOMAIN@RANGE/: the range name may hold neither '@' nor '/'")
    return [ncu, "--target-processes", "all", "--nvtx", "--nvtx-include", capture_range + "/",
            "--set", section_set, "--import-source", "yes", "--launch-count", str(int(launch_count)),
            "--export", out, "--force-overwrite"] + list(program)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if "--" not in argv:
        print("usage: ncu_recipe.py [--out PATH] [--capture-range NAME] [--launch-count N] [--print] -- PROGRAM ARGS...",
              file=sys.stderr)
        return 2
    k = argv.index("--")
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", default="report")
    p.add_argument("--capture-range", default=DEFAULT_RANGE)
    p.add_argument("--launch-count", type=int, default=20)
    p.add_argument("--print", action="store_true", help="print the ncu command and exit")
    a = p.parse_args(argv[:k])
    cmd = ncu_argv(a.out, argv[k + 1:], a.capture_range, a.launch_count)
    if a.print:
        print(shlex.join(cmd))
        return 0
    try:
        return subprocess.run(cmd).returncode
    except FileNotFoundError:
        print("ncu not found: Nsight Compute comes with the CUDA Toolkit", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
