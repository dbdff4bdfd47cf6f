"""Connection limits of `gpuprof serve` (called by tests/server/files.sh).

usage: conns.py PORT CAP

Prints one line of words, each NAME=VALUE:
  over_cap    the (CAP+1)-th idle connection from 127.0.0.1: "closed" when
              the server closed it within 1 s, else "open"
  other       the status of GET /api/files from 127.0.0.2 meanwhile
  after       the status from 127.0.0.1 once the idle ones are gone
  chunk_status  the status answering a chunked upload that declares a
              0x7fffffffffffffff-byte chunk ("none": no answer within 5 s)
  chunk_s     seconds until that answer
"""

import os
import socket
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from http_get import get_files  # noqa: E402

port, cap = int(sys.argv[1]), int(sys.argv[2])


def get(src):
    return get_files(port, src, 3)[0]


idle = []
for _ in range(cap):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.connect(("127.0.0.1", port))
    idle.append(s)
time.sleep(0.3)
extra = socket.socket()
extra.bind(("127.0.0.1", 0))
extra.connect(("127.0.0.1", port))
extra.settimeout(1)
try:
    over = "closed" if extra.recv(1) == b"" else "open"
except socket.timeout:
    over = "open"
except OSError:
    over = "closed"
extra.close()
other = get("127.0.0.2")
for s in idle:
    s.close()
time.sleep(0.3)
after = get("127.0.0.1")

s = socket.socket()
s.connect(("127.0.0.1", port))
t0 = time.monotonic()
s.sendall(
    b"POST /api/upload?name=huge.json HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\n" % port
)
s.settimeout(5)
try:
    head = s.recv(64).split(b"\r\n")[0].decode("latin-1")
except OSError:
    head = ""
took = time.monotonic() - t0
s.close()
status = head.split(" ")[1] if head.startswith("HTTP/1.1 ") else "none"
print(
    "over_cap=%s other=%s after=%s chunk_status=%s chunk_s=%.2f"
    % (over, other, after, status, took)
)
