#!/usr/bin/env python3
"""Checks for `gpuprof nsys` (run by tests/nsys/check.sh).

usage: check.py GPUPROF SHARED_NSYS_DIR

analysis.json comparison: both files are parsed and compared value by value
(same keys, same types -- a median that is an int must stay an int -- same
list order). Floats (means, even-count medians, standard deviations) compare
equal within a relative 1e-12: the expected files come from Python, whose
statistics module rounds an exact Fraction variance once, and a sqrt done
in another order may land one ulp away; anything beyond that is a real
difference. The bytes are compared too (a separate check), because the
writer aims to reproduce json.dumps(indent=2, sort_keys=True) exactly.
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

GPUPROF = sys.argv[1]
DATA = sys.argv[2]
HAVE_SHARED = os.path.isdir(DATA)
passed = 0
failed = 0


def ok(name, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {name}: {detail}")


def same(a, b, path="$"):
    """None when a equals b (floats within 1e-12 relative), else a message."""
    if type(a) is not type(b):
        return f"{path}: type {type(a).__name__} != {type(b).__name__} ({a!r} vs {b!r})"
    if isinstance(a, dict):
        if sorted(a) != sorted(b):
            return f"{path}: keys {sorted(a)} != {sorted(b)}"
        for k in a:
            m = same(a[k], b[k], f"{path}.{k}")
            if m:
                return m
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} != {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            m = same(x, y, f"{path}[{i}]")
            if m:
                return m
        return None
    if isinstance(a, float):
        if abs(a - b) <= 1e-12 * max(1.0, abs(b)):
            return None
        return f"{path}: {a!r} != {b!r}"
    return None if a == b else f"{path}: {a!r} != {b!r}"


def run(args, env=None):
    return subprocess.run([GPUPROF] + args, capture_output=True, text=True, env=env)


V2025 = "NVIDIA Nsight Systems version 2025.1.3"


def make_run(tmp, name, manifest_text, pushpop, gpu):
    d = os.path.join(tmp, name)
    os.makedirs(os.path.join(d, "stats"))
    with open(os.path.join(d, "manifest.yaml"), "w") as f:
        f.write(manifest_text)
    for src, dst in ((pushpop, "nsys_nvtx_pushpop_trace.csv"), (gpu, "nsys_nvtx_gpu_proj_trace.csv")):
        if src is not None:
            shutil.copyfile(src, os.path.join(d, "stats", dst))
    return d


def fixture_cases(tmp):
    fx = os.path.join(DATA, "roboflow_inference_fixtures")
    var = os.path.join(DATA, "derived", "variants")
    exp = os.path.join(DATA, "derived", "expected")
    with open(os.path.join(DATA, "derived", "manifest_test.yaml")) as f:
        manifest = f.read()
    base_h = os.path.join(fx, "nvtx_pushpop_trace.csv")
    base_g = os.path.join(fx, "nvtx_gpu_proj_trace.csv")
    cases = {
        "base": (manifest, base_h, base_g, V2025),
        "unvalidated_version": (manifest, base_h, base_g, "NVIDIA Nsight Systems version 2026.2.0"),
        "manifest_iterations_3": (manifest.replace("iterations: 2", "iterations: 3"), base_h, base_g, V2025),
    }
    for v in ("nested_iteration_name", "wrong_index_set", "scoped_names"):
        cases[v] = (manifest, os.path.join(var, v + "__nvtx_pushpop_trace.csv"),
                    os.path.join(var, v + "__nvtx_gpu_proj_trace.csv"), V2025)
    for v in ("gpu_empty", "gpu_header_only"):
        cases[v] = (manifest, base_h, os.path.join(var, v + "__nvtx_gpu_proj_trace.csv"), V2025)
    expected_files = sorted(f[: -len(".analysis.json")] for f in os.listdir(exp) if f.endswith(".analysis.json"))
    ok("fixtures: every expected file has a case", sorted(cases) == expected_files,
       f"cases {sorted(cases)} vs expected {expected_files}")
    for name, (m, h, g, ver) in sorted(cases.items()):
        d = make_run(tmp, "fx_" + name, m, h, g)
        r = run(["nsys", "analyze", "--run-dir", d, "--from-csv", "--nsys-version", ver])
        ok(f"fixture {name}: exit 0", r.returncode == 0, r.stderr.strip())
        if r.returncode:
            continue
        with open(os.path.join(d, "analysis.json")) as f:
            got_text = f.read()
        with open(os.path.join(exp, name + ".analysis.json")) as f:
            want_text = f.read()
        ok(f"fixture {name}: values", same(json.loads(got_text), json.loads(want_text)) is None,
           same(json.loads(got_text), json.loads(want_text)))
        ok(f"fixture {name}: bytes", got_text == want_text, "analysis.json bytes differ")


FAKE = """#!/bin/sh
# fake nsys for gpuprof tests
if [ "$1" = "--version" ]; then
  if [ -n "${FAKE_VERSION_FAIL:-}" ]; then exit 1; fi
  echo "  ${FAKE_VERSION}  "
  exit 0
fi
for a in "$0" "$@"; do printf '%s\\n' "$a"; done > "$FAKE_ARGS"
if [ -n "${FAKE_FAIL:-}" ]; then echo "line one" >&2; echo "line two" >&2; exit 3; fi
if [ -n "${FAKE_NOFILES:-}" ]; then exit 0; fi
out=""
prev=""
for a in "$@"; do
  if [ "$prev" = "--output" ]; then out=$a; fi
  prev=$a
done
cp "$FAKE_HOST" "${out}_nvtx_pushpop_trace.csv"
cp "$FAKE_GPU" "${out}_nvtx_gpu_proj_trace.csv"
"""


def fake_nsys_cases(tmp):
    fx = os.path.join(DATA, "roboflow_inference_fixtures")
    with open(os.path.join(DATA, "derived", "manifest_test.yaml")) as f:
        manifest = f.read()
    bindir = os.path.join(tmp, "fakebin")
    os.makedirs(bindir)
    nsys = os.path.join(bindir, "nsys")
    with open(nsys, "w") as f:
        f.write(FAKE)
    os.chmod(nsys, 0o755)
    argsfile = os.path.join(tmp, "fake_args.txt")
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""),
               FAKE_ARGS=argsfile, FAKE_VERSION=V2025,
               FAKE_HOST=os.path.join(fx, "nvtx_pushpop_trace.csv"),
               FAKE_GPU=os.path.join(fx, "nvtx_gpu_proj_trace.csv"))
    # a run directory with spaces and shell characters stays one argument
    d = os.path.join(tmp, "run dir $x; 'q'")
    os.makedirs(d)
    with open(os.path.join(d, "manifest.yaml"), "w") as f:
        f.write(manifest)
    open(os.path.join(d, "trace.nsys-rep"), "wb").close()
    r = run(["nsys", "analyze", "--run-dir", d], env=env)
    ok("fake nsys: exit 0", r.returncode == 0, r.stderr.strip())
    ok("fake nsys: prints the path", r.stdout.strip() == "Wrote analysis: " + os.path.join(d, "analysis.json"), r.stdout)
    want = [nsys, "stats", "--report", "nvtx_pushpop_trace", "--report", "nvtx_gpu_proj_trace",
            "--format", "csv", "--output", os.path.join(d, "stats", "nsys"), "--force-overwrite=true",
            os.path.join(d, "trace.nsys-rep")]
    got = open(argsfile).read().split("\n")[:-1] if os.path.exists(argsfile) else []
    ok("fake nsys: exact argv", got == want, f"{got} != {want}")
    if r.returncode == 0:
        a = json.load(open(os.path.join(d, "analysis.json")))
        ok("fake nsys: version recorded (stripped)", a["provenance"]["nsys_version"] == V2025, a["provenance"])
        ok("fake nsys: no warnings", a["warnings"] == [], a["warnings"])
        ok("fake nsys: relative provenance paths",
           a["provenance"]["manifest_path"] == "manifest.yaml" and a["provenance"]["trace_path"] == "trace.nsys-rep"
           and a["provenance"]["reports"]["nvtx_pushpop_trace"] == "stats/nsys_nvtx_pushpop_trace.csv", a["provenance"])
    for label, extra, want_w in (
            ("unvalidated", {"FAKE_VERSION": "NVIDIA Nsight Systems version 2026.2.0"},
             "NVIDIA Nsight Systems version 2026.2.0 has not been validated; report parsing is validated against Nsight Systems 2025.1."),
            ("version fails", {"FAKE_VERSION_FAIL": "1"},
             "Could not determine the Nsight Systems version; report parsing is validated against Nsight Systems 2025.1.")):
        r = run(["nsys", "analyze", "--run-dir", d], env=dict(env, **extra))
        a = json.load(open(os.path.join(d, "analysis.json"))) if r.returncode == 0 else {}
        ok(f"fake nsys {label}: warning", a.get("warnings") == [want_w], a.get("warnings"))
        if label == "version fails":
            ok("fake nsys version fails: 'unknown'", a.get("provenance", {}).get("nsys_version") == "unknown", a.get("provenance"))
    os.remove(os.path.join(d, "analysis.json"))
    expect_error("fake nsys fails", ["nsys", "analyze", "--run-dir", d], dict(env, FAKE_FAIL="1"),
                 "`nsys stats` failed with exit code 3: line one; line two", os.path.join(d, "analysis.json"))
    shutil.rmtree(os.path.join(d, "stats"))
    expect_error("fake nsys writes nothing", ["nsys", "analyze", "--run-dir", d], dict(env, FAKE_NOFILES="1"),
                 "`nsys stats` did not create expected report files: " + os.path.join(d, "stats", "nsys_nvtx_pushpop_trace.csv")
                 + ", " + os.path.join(d, "stats", "nsys_nvtx_gpu_proj_trace.csv"), os.path.join(d, "analysis.json"))
    expect_error("nsys not on PATH", ["nsys", "analyze", "--run-dir", d], dict(env, PATH=os.path.join(tmp, "nowhere")),
                 "Nsight Systems executable not found: 'nsys'. Install Nsight Systems and ensure `nsys` is on PATH.",
                 os.path.join(d, "analysis.json"))
    os.remove(os.path.join(d, "trace.nsys-rep"))
    expect_error("trace missing", ["nsys", "analyze", "--run-dir", d], env,
                 "Nsight trace does not exist: " + os.path.join(d, "trace.nsys-rep"), os.path.join(d, "analysis.json"))


def expect_error(name, args, env, message, must_not_exist=None, before=None, usage=False):
    """An input error: exit 2, one line on stderr, nothing on stdout. Usage
    errors add the project's usual second line "Try 'gpuprof nsys --help'."."""
    r = run(args, env=env)
    lines = r.stderr.splitlines()
    ok(f"{name}: exit 2", r.returncode == 2, f"exit {r.returncode}: {r.stderr.strip()}")
    ok(f"{name}: one line", len(lines) == (2 if usage else 1) and r.stdout == "", repr(r.stderr + r.stdout))
    if message is not None:
        ok(f"{name}: message", lines == ["gpuprof: error: " + message], repr(lines))
    if must_not_exist:
        if before is None:
            ok(f"{name}: nothing written", not os.path.exists(must_not_exist), must_not_exist)
        else:
            ok(f"{name}: previous file untouched", open(must_not_exist).read() == before, must_not_exist)


HOST_HDR = "Start (ns),End (ns),Duration (ns),DurChild (ns),DurNonChild (ns),Name,PID,TID,Lvl,NumChild,RangeId,ParentId\n"
GPU_HDR = "Name,Projected Start (ns),Projected Duration (ns),Orig Start (ns),Orig Duration (ns),Style,PID,TID,NumGPUOps,Lvl,NumChild,RangeId,ParentId\n"
MANIFEST = "capture_range: cap\nrun_id: r1\nworkload:\n  iterations: 1\n"


def own_error_cases(tmp):
    """Error cases on inputs written here (no shared data needed)."""
    good_host = HOST_HDR + "0,100,100,60,40,:cap,1,1,0,1,1,,\n10,70,60,0,60,:iteration 0,1,1,1,0,2,1\n"
    cases = [
        ("missing manifest", None, good_host, GPU_HDR, "Profiling manifest does not exist: {d}/manifest.yaml"),
        ("invalid yaml", "a: [1,\n", good_host, GPU_HDR, "Profiling manifest is invalid YAML: {d}/manifest.yaml: line 2, column 1: "
         "did not find expected node content while parsing a flow node"),
        ("manifest not a mapping", "- 1\n- 2\n", good_host, GPU_HDR, "Profiling manifest must contain a mapping: {d}/manifest.yaml"),
        ("capture_range not a string", "capture_range: 3\n", good_host, GPU_HDR, "Manifest must define a string capture_range."),
        ("zero-byte host", MANIFEST, "", GPU_HDR, "Nsight report contains no rows: {d}/stats/nsys_nvtx_pushpop_trace.csv"),
        ("header-only host", MANIFEST, HOST_HDR, GPU_HDR, "Nsight report contains no rows: {d}/stats/nsys_nvtx_pushpop_trace.csv"),
        ("missing columns host", MANIFEST, "Name,Duration (ns)\nx,1\n", GPU_HDR,
         "Nsight report {d}/stats/nsys_nvtx_pushpop_trace.csv is missing required columns: Start (ns), End (ns), DurChild (ns), "
         "DurNonChild (ns), PID, TID, Lvl, NumChild, RangeId, ParentId"),
        ("missing columns gpu", MANIFEST, good_host, "Name,Duration (ns)\nx,1\n",
         "Nsight report {d}/stats/nsys_nvtx_gpu_proj_trace.csv is missing required columns: Projected Start (ns), "
         "Projected Duration (ns), Orig Start (ns), Orig Duration (ns), Style, PID, TID, NumGPUOps, Lvl, NumChild, RangeId, ParentId"),
        ("invalid integer", MANIFEST, HOST_HDR + "0,100,1x0,60,40,:cap,1,1,0,1,1,,\n", GPU_HDR,
         "Invalid integer in {d}/stats/nsys_nvtx_pushpop_trace.csv column 'Duration (ns)': '1x0' (line 2, column 3)"),
        ("two capture ranges", MANIFEST, good_host + "200,300,100,0,100,:cap,1,1,0,0,3,\n", GPU_HDR,
         "Expected exactly one top-level host capture range named 'cap', but found 2."),
        ("no capture range", MANIFEST, HOST_HDR + "0,100,100,0,100,:other,1,1,0,0,1,\n", GPU_HDR,
         "Expected exactly one top-level host capture range named 'cap', but found 0."),
        ("duplicate iteration", MANIFEST, good_host + "80,90,10,0,10,:iteration 0,1,1,1,0,3,1\n", GPU_HDR,
         "Duplicate host range for iteration 0."),
        ("cycle", MANIFEST, good_host + "20,30,10,0,10,:a,1,1,2,0,5,6\n20,30,10,0,10,:b,1,1,2,0,6,5\n", GPU_HDR,
         "Cycle in NVTX range hierarchy at (1, 1, 5)."),
        ("duplicate gpu projection", MANIFEST, good_host,
         GPU_HDR + ":iteration 0,10,5,10,60,PushPop,1,1,1,1,0,2,1\n:iteration 0,10,5,10,60,PushPop,1,1,1,1,0,2,1\n",
         "Duplicate GPU projection for iteration 0."),
    ]
    for name, manifest, host, gpu, msg in cases:
        d = os.path.join(tmp, "err_" + name.replace(" ", "_"))
        os.makedirs(os.path.join(d, "stats"))
        if manifest is not None:
            open(os.path.join(d, "manifest.yaml"), "w").write(manifest)
        open(os.path.join(d, "stats", "nsys_nvtx_pushpop_trace.csv"), "w").write(host)
        open(os.path.join(d, "stats", "nsys_nvtx_gpu_proj_trace.csv"), "w").write(gpu)
        expect_error("analyze " + name, ["nsys", "analyze", "--run-dir", d, "--from-csv"], None,
                     msg.format(d=d), os.path.join(d, "analysis.json"))
    # an error leaves an earlier analysis.json as it was
    d = os.path.join(tmp, "err_keep")
    os.makedirs(os.path.join(d, "stats"))
    open(os.path.join(d, "manifest.yaml"), "w").write(MANIFEST)
    open(os.path.join(d, "stats", "nsys_nvtx_pushpop_trace.csv"), "w").write("")
    open(os.path.join(d, "stats", "nsys_nvtx_gpu_proj_trace.csv"), "w").write("")
    open(os.path.join(d, "analysis.json"), "w").write("old\n")
    expect_error("analyze keeps old output", ["nsys", "analyze", "--run-dir", d, "--from-csv"], None, None,
                 os.path.join(d, "analysis.json"), before="old\n")
    # a small complete run: quoting, a named domain, scoping outside the capture
    d = os.path.join(tmp, "own_ok")
    os.makedirs(os.path.join(d, "stats"))
    open(os.path.join(d, "manifest.yaml"), "w").write(MANIFEST + "record_ids: [a, b, c]\ncuda: {x: yes, y: ~}\n")
    host = (HOST_HDR + "0,100,100,60,40,:cap,1,1,0,1,1,,\n10,70,60,30,30,:iteration 0,1,1,1,1,2,1\n"
            '20,50,30,0,30,"Dom:a,b ""q""",1,1,2,0,3,2\n200,210,10,0,10,:outside,1,1,0,0,4,\n')
    gpu = GPU_HDR + ":cap,5,7,0,100,PushPop,1,1,2,0,1,1,\n:iteration 0,5,7,10,60,PushPop,1,1,2,1,1,2,1\n"
    open(os.path.join(d, "stats", "nsys_nvtx_pushpop_trace.csv"), "w").write(host)
    open(os.path.join(d, "stats", "nsys_nvtx_gpu_proj_trace.csv"), "w").write(gpu)
    r = run(["nsys", "analyze", "--run-dir", d, "--from-csv"])
    ok("own run: exit 0", r.returncode == 0, r.stderr)
    if r.returncode == 0:
        a = json.load(open(os.path.join(d, "analysis.json")))
        ok("own run: host names", [h["name"] for h in a["host_ranges"]] == ['Dom:a,b "q"', "cap", "outside"],
           [h["name"] for h in a["host_ranges"]])
        ok("own run: manifest copy", a["run"]["record_count"] == 3 and a["run"]["cuda"] == {"x": True, "y": None}
           and a["run"]["device"] is None, a["run"])
        ok("own run: unknown version warning", a["warnings"] == [
            "Could not determine the Nsight Systems version; report parsing is validated against Nsight Systems 2025.1."],
           a["warnings"])
        ok("own run: iteration", a["iterations"] == [{"index": 0, "host": {"inclusive_ns": 60, "exclusive_ns": 30,
            "child_total_ns": 30}, "gpu_projection": {"projected_ns": 7, "host_range_total_ns": 60, "gpu_operation_count": 2}}],
           a["iterations"])
    expect_error("analyze without --run-dir", ["nsys", "analyze"], None, None, usage=True)


def main():
    tmp = tempfile.mkdtemp(prefix="gpuprof-nsys-")
    try:
        own_error_cases(tmp)
        if HAVE_SHARED:
            fixture_cases(tmp)
            fake_nsys_cases(tmp)
        else:
            print(f"nsys: shared-data cases skipped: no folder {DATA} (set GPUPROF_SHARED)")
        import check_profile  # noqa: E402  (same folder)
        check_profile.run_all(GPUPROF, DATA if HAVE_SHARED else None, tmp, ok, expect_error, same)
        import check_capture  # noqa: E402  (same folder)
        check_capture.run_all(GPUPROF, tmp, ok)
        try:
            import check_sqlite  # noqa: E402  (same folder)
            check_sqlite.run_all(GPUPROF, DATA if HAVE_SHARED else None, tmp, ok)
        except ImportError:
            pass
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"nsys: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.exit(main())
