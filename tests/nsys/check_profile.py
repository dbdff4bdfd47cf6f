"""Checks for `gpuprof nsys profile` (imported by tests/nsys/check.py).

A stand-in `nsys` (a shell script first on PATH) records its argument
vector (NUL-separated, so any byte but NUL survives), whether the run
directory existed and whether a manifest was already there when it
started, runs the program it was given and passes on its exit status,
writes DIR/trace.nsys-rep, and answers `nsys stats` with the CSVs of a
fixture. Expected values are computed here: the argument vector by hand,
the quoting with Python's shlex, the YAML with Debian's python3-yaml (the
check is skipped, with a line saying so, when /usr/bin/python3 has no yaml
module), the analysis against the expected analysis.json of the shared
fixture and the summary's numbers by hand from it (those cases are skipped
when the shared folder is absent).
"""
import json
import os
import shlex
import shutil
import subprocess

FAKE = r"""#!/bin/sh
# stand-in nsys for gpuprof's profile tests
if [ "$1" = "--version" ]; then echo "NVIDIA Nsight Systems version 2025.1.3"; exit 0; fi
if [ "$1" = "profile" ]; then
  for a in "$0" "$@"; do printf '%s\0' "$a"; done > "$FAKE_ARGS"
  shift
  out=
  while [ $# -gt 0 ]; do
    case $1 in
      -o) out=$2; shift 2 ;;
      -e) shift 2 ;;
      -*) shift ;;
      *) break ;;
    esac
  done
  dir=$(dirname "$out")
  { [ -d "$dir" ] && echo dir || echo nodir; [ -e "$dir/manifest.yaml" ] && echo manifest || echo nomanifest; } > "$FAKE_SEEN"
  "$@"
  rc=$?
  [ -n "${FAKE_NO_REPORT:-}" ] || : > "$out.nsys-rep"
  exit $rc
fi
prev=
for a in "$@"; do
  if [ "$prev" = "--output" ]; then out=$a; fi
  prev=$a
done
cp "$FAKE_HOST" "${out}_nvtx_pushpop_trace.csv"
cp "$FAKE_GPU" "${out}_nvtx_gpu_proj_trace.csv"
"""

HARNESS = ["--trace=cuda,osrt,nvtx", "--sample=cpu", "--cpuctxsw=process-tree", "--capture-range=nvtx",
           "--capture-range-end=stop"]


def nsys_argv(nsys, run_dir, capture, extra, prog):
    return ([nsys, "profile", "-o", run_dir + "/trace"] + HARNESS
            + ["--nvtx-capture=" + capture + "@*", "-e", "NSYS_NVTX_PROFILER_REGISTER_ONLY=0",
               "--trace-fork-before-exec=true"] + extra + prog)


def yaml_load(path):
    """The file as Debian's PyYAML reads it (safe_load), or the string 'skip'."""
    py = os.environ.get("PYTHON", "/usr/bin/python3")
    code = "import json,sys,yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1], encoding='utf-8'))))"
    try:
        r = subprocess.run([py, "-c", code, path], capture_output=True, text=True)
    except OSError:
        return "skip"
    if r.returncode and "No module named 'yaml'" in r.stderr:
        return "skip"
    return json.loads(r.stdout) if r.returncode == 0 else "error: " + r.stderr


def run_all(gpuprof, data, tmp, ok, expect_error, same):
    bindir = os.path.join(tmp, "profbin")
    os.makedirs(bindir)
    nsys = os.path.join(bindir, "nsys")
    with open(nsys, "w") as f:
        f.write(FAKE)
    os.chmod(nsys, 0o755)
    with open(os.path.join(bindir, "nsys-echo"), "w") as f:
        f.write("#!/bin/sh\nfor a in \"$@\"; do printf '%s\\0' \"$a\"; done\n")
    os.chmod(os.path.join(bindir, "nsys-echo"), 0o755)
    shared_fx = os.path.join(data, "roboflow_inference_fixtures") if data else None
    if shared_fx and os.path.isdir(shared_fx):
        host = os.path.join(shared_fx, "nvtx_pushpop_trace.csv")
        gpu = os.path.join(shared_fx, "nvtx_gpu_proj_trace.csv")
        expected = os.path.join(data, "derived", "expected", "base.analysis.json")
    else:
        host = gpu = expected = None
    argsfile = os.path.join(tmp, "prof_args")
    seenfile = os.path.join(tmp, "prof_seen")
    cwd = os.path.join(tmp, "prof_cwd")  # not a git work tree: git_commit is null
    os.makedirs(cwd)
    env = dict(os.environ, PATH=bindir + os.pathsep + os.environ.get("PATH", ""), FAKE_ARGS=argsfile,
               FAKE_SEEN=seenfile, FAKE_HOST=host or "", FAKE_GPU=gpu or "", GIT_CEILING_DIRECTORIES=tmp,
               LC_ALL="C")

    def run(args, e=env):
        for p in (argsfile, seenfile):
            if os.path.exists(p):
                os.remove(p)
        return subprocess.run([gpuprof] + args, capture_output=True, env=e, cwd=cwd)

    def recorded():
        if not os.path.exists(argsfile):
            return None
        return open(argsfile, "rb").read().decode("utf-8", "surrogateescape").split("\0")[:-1]

    version = subprocess.run([gpuprof, "--version"], capture_output=True, text=True).stdout.split("\n")[0]
    version = version.split(" ", 1)[1]

    # 1. a complete run: a run directory with spaces and shell characters,
    # nested, created by gpuprof; a profile name YAML must escape
    top = os.path.join(tmp, "prof top $x; 'q' `y`")
    d = os.path.join(top, "smoke", "runs", "r1")
    name = 'smoke "q" \\ \u00e9 \U0001F600 \x01 tab\t nl\n end: # &a *b'
    prog = ["sh", "-c", "echo program-output; echo program-err >&2; exit 0", "arg one"]
    extra = ["--cuda-graph-trace=node", "--stats=false"]
    if host:
        r = run(["nsys", "profile", "--run-dir", d, "--iterations", "2", "--warmup", "1", "--device", "cuda:0",
                 "--profile-name", name, "--run-id", "jarvis-smoke", "--nsys-args"] + extra + ["--"] + prog)
        ok("profile: exit 0", r.returncode == 0, r.stderr)
        want = nsys_argv(nsys, d, "profile-target", extra, prog)
        ok("profile: exact nsys argv", recorded() == want, f"{recorded()} != {want}")
        seen = open(seenfile).read().split() if os.path.exists(seenfile) else []
        ok("profile: the run directory exists before nsys starts, the manifest not yet",
           seen == ["dir", "nomanifest"], seen)
        out = r.stdout.decode()
        row = "{:<10} {:>18} {:>18} {:>18} {:>8}\n".format
        want_out = ("program-output\n" + f"Wrote analysis: {d}/analysis.json\n"
                    + row("iteration", "host inclusive ns", "host exclusive ns", "GPU projected ns", "GPU ops")
                    + row("0", "431993", "110648", "191620", "4") + row("1", "138050", "50395", "99714", "4")
                    + row("mean", "285021.5", "80521.5", "145667.0", "-")
                    + row("median", "285021.5", "80521.5", "145667.0", "-"))
        ok("profile: stdout (the program's, then the summary)", out == want_out, repr(out))
        ok("profile: the program's stderr passes through", r.stderr.decode() == "program-err\n", r.stderr)
        want_m = {"capture_range": "profile-target", "command_line": shlex.join(prog), "device": "cuda:0",
                  "expected_trace_path": d + "/trace.nsys-rep", "git_commit": None, "gpuprof_version": version,
                  "nsys_command": shlex.join(["nsys"] + want[1:]),
                  "outcome": {"state": "completed", "exit_status": 0, "signal": None},
                  "profile_name": name, "run_id": "jarvis-smoke", "workload": {"iterations": 2, "warmup": 1}}
        m = yaml_load(os.path.join(d, "manifest.yaml"))
        if m == "skip":
            print("skip nsys: manifest.yaml through PyYAML (install python3-yaml)")
        else:
            ok("profile: manifest.yaml as PyYAML reads it", m == want_m, f"{m} != {want_m}")
        text = open(os.path.join(d, "manifest.yaml"), "rb").read()
        ok("profile: manifest.yaml is ASCII with sorted keys",
           all(b < 0x80 for b in text) and [ln.split(b":")[0] for ln in text.splitlines() if not ln.startswith(b" ")]
           == [k.encode() for k in sorted(want_m)], text)
        a = json.load(open(os.path.join(d, "analysis.json")))
        base = json.load(open(expected))
        want_run = {"capture_range": "profile-target", "device": "cuda:0", "git_commit": None, "profile_name": name,
                    "run_id": "jarvis-smoke", "record_count": 0, "workload": {"iterations": 2, "warmup": 1},
                    "cuda": {}}
        ok("profile: analysis run section (the manifest read back by gpuprof)", a.get("run") == want_run,
           f"{a.get('run')} != {want_run}")
        a.pop("run", None)
        base.pop("run")
        ok("profile: analysis equals the fixture's expected analysis.json", same(a, base) is None, same(a, base))
        ok("profile: stats written", os.path.exists(os.path.join(d, "stats", "nsys_nvtx_pushpop_trace.csv")), d)

        # gpuprof diff of two run directories: the same CSVs give no change
        d2 = os.path.join(top, "smoke", "runs", "r2")
        r = run(["nsys", "profile", "--run-dir", d2, "--iterations", "2", "--", "true"])
        ok("profile again: exit 0", r.returncode == 0, r.stderr)
        r = run(["diff", d, d2, "--format", "json"])
        ok("diff of two run directories: exit 0", r.returncode == 0, r.stderr)
        if r.returncode == 0:
            dj = json.loads(r.stdout)
            its = [(i["iteration"], i["status"], i["base_host_inclusive_ns"], i["new_host_inclusive_ns"])
                   for i in dj.get("iterations", [])]
            ok("diff of two run directories: the iterations, unchanged",
               its == [("0", "same", 431993, 431993), ("1", "same", 138050, 138050)]
               and dj["diff"]["base"] == d and dj["diff"]["new"] == d2, its)
    else:
        print("nsys: profile analysis cases skipped: no shared fixtures")

    # 2. --print-command: DIR and its manifest made, nothing run, the line
    # runs the same argument vector when a shell reads it
    cap = "cap $(touch pwned) `x` ; | & 'q' \"d\" * ?"
    d = os.path.join(tmp, "print dir;$HOME", "r")
    r = run(["nsys", "profile", "--run-dir", d, "--capture-range", cap, "--print-command", "--nsys-args",
             "--x=1 2", "--", "python3", "-c", "print('it''s')", "a b"],
            e=dict(env, PATH=os.path.join(tmp, "nowhere")))
    prog = ["python3", "-c", "print('it''s')", "a b"]
    want = ["nsys"] + nsys_argv(nsys, d, cap, ["--x=1 2"], prog)[1:]
    ok("print-command: exit 0 without nsys on PATH", r.returncode == 0, r.stderr)
    ok("print-command: the line, each argument shell-quoted", r.stdout.decode() == shlex.join(want) + "\n",
       f"{r.stdout!r} != {shlex.join(want)!r}")
    ok("print-command: nothing run", recorded() is None, recorded())
    ok("print-command: DIR created", os.path.isdir(d), d)
    m = yaml_load(os.path.join(d, "manifest.yaml"))
    if m != "skip":
        ok("print-command: manifest records the range and that nothing ran",
           isinstance(m, dict) and m.get("capture_range") == cap
           and m.get("outcome") == {"state": "not run (printed)", "exit_status": None, "signal": None}
           and m.get("nsys_command") == shlex.join(want) and "workload" not in m, m)
    sh = subprocess.run(["sh", "-c", r.stdout.decode().replace("nsys ", "nsys-echo ", 1)], capture_output=True,
                        env=dict(env, PATH=bindir + os.pathsep + env["PATH"]), cwd=cwd)
    ok("print-command: the printed line gives the same argv to a shell",
       sh.stdout.decode().split("\0")[:-1] == want[1:], f"{sh.stdout!r}")
    ok("print-command: no shell expansion", not os.path.exists(os.path.join(cwd, "pwned")), cwd)

    # 3. the program fails: its status, the end of its stderr, the manifest
    # kept with the failure, no analysis
    d = os.path.join(tmp, "fail", "r")
    prog = ["sh", "-c", "echo e1 >&2; echo >&2; echo 'e2 x' >&2; exit 3"]
    r = run(["nsys", "profile", "--run-dir", d, "--"] + prog)
    err = r.stderr.decode().split("\n")
    ok("failing program: exit 2", r.returncode == 2, r.stderr)
    ok("failing program: stderr passed through, then one error line",
       err == ["e1", "", "e2 x", f"gpuprof: error: nsys profile of sh exited with status 3 (recorded in {d}/manifest.yaml); "
               "the end of its stderr: e1; e2 x", ""], err)
    m = yaml_load(os.path.join(d, "manifest.yaml"))
    if m != "skip":
        ok("failing program: manifest records the failure", isinstance(m, dict) and m.get("outcome") == {
            "state": "failed", "exit_status": 3, "signal": None, "stderr_tail": "e1; e2 x"}, m)
    ok("failing program: no analysis, no stats", sorted(os.listdir(d)) == ["manifest.yaml", "trace.nsys-rep"],
       os.listdir(d))

    # 4. the capture range never opened: no report
    d = os.path.join(tmp, "noreport")
    expect_error("profile without a report", ["nsys", "profile", "--run-dir", d, "--", "true"],
                 dict(env, FAKE_NO_REPORT="1"),
                 f"nsys profile wrote no report {d}/trace.nsys-rep: the program never pushed the NVTX range "
                 "'profile-target' that starts the capture (see examples/capture/)")

    # 5. --no-analyze
    d = os.path.join(tmp, "noanalyze")
    r = run(["nsys", "profile", "--run-dir", d, "--no-analyze", "--", "true"])
    ok("no-analyze: exit 0 and the line", r.returncode == 0 and r.stdout.decode() == f"Wrote manifest: {d}/manifest.yaml\n",
       r.stdout + r.stderr)
    ok("no-analyze: only the manifest and the report", sorted(os.listdir(d)) == ["manifest.yaml", "trace.nsys-rep"],
       os.listdir(d))

    # 6. errors before anything runs
    d = os.path.join(tmp, "nonsys")
    expect_error("profile: nsys not on PATH", ["nsys", "profile", "--run-dir", d, "--", "true"],
                 dict(env, PATH=os.path.join(tmp, "nowhere")),
                 "Nsight Systems executable not found: 'nsys'. Install Nsight Systems and ensure `nsys` is on "
                 "PATH. It comes with the CUDA Toolkit and from https://developer.nvidia.com/nsight-systems.", d)
    if os.path.exists(argsfile):
        os.remove(argsfile)
    blocker = os.path.join(tmp, "afile")
    open(blocker, "w").close()
    expect_error("profile: run directory under a file", ["nsys", "profile", "--run-dir", blocker + "/x/y", "--", "true"],
                 env, f"cannot create the run directory: not a directory: {blocker}")
    ok("profile: nothing run when the directory fails", recorded() is None, recorded())
    expect_error("profile: '@' in the capture range", ["nsys", "profile", "--run-dir", d, "--capture-range", "a@b",
                 "--", "true"], env, None, d, usage=True)
    expect_error("profile: no program", ["nsys", "profile", "--run-dir", d], env, None, d, usage=True)
    expect_error("profile: no --run-dir", ["nsys", "profile", "--", "true"], env, None, None, usage=True)
