"""scipy.stats.mannwhitneyu's two-sided p-value of samples a and b, run by
${PYTHON:-/usr/bin/python3} (Debian's python3-scipy), for the checks of
tests/diff: method "exact" or, for any other test name, "asymptotic"
with the continuity correction. None when that interpreter has no scipy.
"""
import json
import os
import subprocess


def scipy_p(a, b, method):
    py = os.environ.get("PYTHON", "/usr/bin/python3")
    code = (
        "import sys,json\n"
        "from scipy.stats import mannwhitneyu\n"
        "a,b,m=json.loads(sys.argv[1])\n"
        "print(mannwhitneyu(a,b,alternative='two-sided',use_continuity=True,"
        "method=m).pvalue)\n"
    )
    try:
        p = subprocess.run(
            [py, "-c", code, json.dumps([a, b, "exact" if method == "exact" else "asymptotic"])],
            capture_output=True,
            text=True,
        )
    except OSError:
        return None
    return float(p.stdout) if p.returncode == 0 else None


def check_p(ok, stage, checks, label):
    """Each (a, b, row) of checks: row["p_value"] against scipy's (within
    1e-9), through ok(cond, what); without scipy one line "skip STAGE: ..."
    naming the Debian package. label: the row's key that names it."""
    if scipy_p([1, 2], [3, 4], "exact") is None:
        print("skip %s: scipy: ${PYTHON:-/usr/bin/python3} has no scipy (Debian package python3-scipy)" % stage)
        return
    for a, b, r in checks:
        sp = scipy_p(a, b, r["test"])
        ok(sp is not None and abs(sp - r["p_value"]) < 1e-9, "scipy: %s p %s, scipy %s" % (r[label], r["p_value"], sp))
