"""serve: starts `gpuprof serve -q --port 0 FILES...` for the python API
tests of tests/server (GPUPROF = the binary) and waits for its URL."""
import os
import re
import subprocess
import time


def start(files, tmp):
    """Returns (process, base URL or None when it did not start, its output
    so far); the output goes to tmp/out."""
    out = open(os.path.join(tmp, "out"), "w+")
    p = subprocess.Popen([os.environ["GPUPROF"], "serve", "-q", "--port", "0"] + list(files),
                         stdout=out, stderr=subprocess.STDOUT)
    for _ in range(200):
        out.seek(0)
        text = out.read()
        m = re.search(r"http://127\.0\.0\.1:\d+/", text)
        if m:
            return p, m.group(0), text
        if p.poll() is not None:
            break
        time.sleep(0.1)
    out.seek(0)
    return p, None, out.read()
