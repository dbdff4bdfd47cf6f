"""Random queries against every endpoint of `gpuprof serve` (called by
tests/server/check.sh from the repository root with GPUPROF set; python3
only). A fixed seed picks, 1,500 times, a file (the example trace, the two
Nsight Compute fixtures, an Nsight Systems export made here, an unknown
id), an endpoint and up to four parameters from lists of names and values
meant to break parsers (huge, negative, reversed, empty, percent-encoded,
regex, UTF-8). Every answer must be a JSON object with a status below 500
(an error names what was wrong), and the server must still run at the end
(under the sanitizer build: no memory error). Closing line
"query_fuzz: N passed, N failed"."""
import json
import os
import random
import sys
import tempfile
import urllib.error
import urllib.request

sys.path.insert(0, "tests/nsys")
import check_sqlite  # noqa: E402  (tests/nsys: writes the tiny export)
import serve  # noqa: E402  (tests/server/serve.py)

ENDPOINTS = ["summary", "steps", "ops", "kernels", "memory", "timeline", "timeline/find", "trace",
             "annotations", "ncu/list", "ncu/raw", "ncu/details", "ncu/hints", "ncu/body",
             "ncu/session", "nsys/info", "nsys/kernels", "nsys/timeline", "nsys/steps",
             "nsys/analysis", "bogus"]
KEYS = ["step", "range", "start_ns", "end_ns", "px", "flows", "links", "find", "limit", "top",
        "group_by", "sort", "stack", "curve", "events", "points", "device", "tb_compat", "id",
        "kernel", "section", "metric", "print_units", "print_details", "step_plot", "timeline",
        "files", "names", "capture_range", "iterations", "x"]
# the parameters each endpoint takes: most picks come from these, so that
# values reach the parsers instead of the unknown-parameter check
OWN = {
    "summary": ["tb_compat", "timeline", "step", "range"],
    "steps": ["tb_compat", "step", "range"],
    "ops": ["tb_compat", "group_by", "stack", "sort", "top", "step", "range"],
    "kernels": ["tb_compat", "group_by", "top", "step", "range"],
    "memory": ["tb_compat", "device", "curve", "events", "step_plot", "start_ns", "end_ns", "points",
               "top", "step", "range"],
    "timeline": ["start_ns", "end_ns", "px", "flows", "links", "find", "step", "range"],
    "timeline/find": ["find", "start_ns", "end_ns", "limit", "step", "range"],
    "trace": ["start_ns", "end_ns", "step", "range"],
    "ncu/list": ["id", "kernel"], "ncu/raw": ["id", "kernel", "print_units"],
    "ncu/details": ["id", "kernel", "section", "print_units", "print_details"],
    "ncu/hints": ["id", "kernel", "section", "sort"], "ncu/body": ["id", "kernel", "section", "metric"],
    "nsys/timeline": ["start_ns", "end_ns", "px", "flows", "links"],
    "nsys/steps": ["capture_range", "iterations"],
    "dist": ["files", "tb_compat", "step", "range", "names"],
}
VALUES = ["", "0", "1", "-1", "2-4", "3-1", "-5-2", "9999999999999999999999",
          "9223372036854775807", "-9223372036854775808", "abc", "%00", "a%2Bb", "1e3",
          "aten::mm", ".*", "[", "(", "cuda:0", "cuda:99", "cpu", "true", "1,2", "0,0", "1,1",
          "%E2%82%AC" * 30, "A" * 300, "op%2Bshape", "kernel%2Bop", "base", "auto", "all"]

passed = failed = 0


def ok(what, cond, detail=""):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f"FAIL server query_fuzz: {what}: {str(detail)[:300]}")


def main():
    gp = os.environ["GPUPROF"]
    tmp = tempfile.mkdtemp(prefix="gpuprof-qfuzz-")
    db = os.path.join(tmp, "tiny.sqlite")
    check_sqlite.make_tiny(db, True)
    files = ["examples/resnet_like.json.gz", "tests/golden/_inputs/tiny.ncu-rep",
             "tests/golden/_inputs/full.ncu-rep", db]
    p, base, text = serve.start(files, tmp)
    ok("server starts", base, text)
    if not base:
        p.kill()
        print(f"query_fuzz: {passed} passed, {failed} failed")
        return
    rnd = random.Random(7)
    bad = 0
    for _ in range(1500):
        fid = rnd.choice([1, 1, 1, 2, 3, 4, 4, 9])
        ep = "dist" if rnd.random() < 0.05 else rnd.choice(ENDPOINTS)
        own = OWN.get(ep, [])
        q = "&".join(f"{rnd.choice(own if own and rnd.random() < 0.85 else KEYS)}={rnd.choice(VALUES)}"
                     for _ in range(rnd.randint(0, 4)))
        url = f"{base}api/dist?{q}" if ep == "dist" else f"{base}api/file/{fid}/{ep}?{q}"
        try:
            with urllib.request.urlopen(url, timeout=60) as r:
                code, body = r.status, r.read()
        except urllib.error.HTTPError as e:
            code, body = e.code, e.read()
        except Exception as e:  # the connection failed: the server died or hung
            ok("answer", False, f"{url}: {e}")
            bad += 1
            break
        try:
            ans = json.loads(body)
        except ValueError:
            ans = None
        good = code < 500 and isinstance(ans, dict) and (code == 200 or "error" in ans)
        if not good:
            bad += 1
            ok("answer", False, f"{url}: HTTP {code}: {body[:200]}")
            if bad > 10:
                break
    ok("1,500 answers below 500, JSON objects", bad == 0, bad)
    ok("server alive", p.poll() is None, p.returncode)
    p.terminate()
    ok("server stops", p.wait(20) == 0, p.returncode)
    print(f"query_fuzz: {passed} passed, {failed} failed")


main()
