"""Connection limits of `gpuprof serve` (called by tests/server/files.sh).

usage: conns.py PORT CAP

Prints one line of words, each NAME=VALUE:
  over_cap    the (CAP+1)-th idle connection from 127.0.0.1: "closed" when
              the server closed it within 1 s, else "open"
  other       the status of GET /api/files from 127.0.0.2 meanwhile
  after       the status from 127.0.0.1 once the idle ones are gone
  chunk_mib   MiB a chunked upload declaring a 0x7fffffffffffffff-byte
              chunk could send before the server closed it ("never": 64)
  chunk_s     seconds that took
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
s.sendall(
    b"POST /api/upload?name=huge.json HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n7fffffffffffffff\r\n" % port
)
block = b"\0" * 65536
sent = 0
t0 = time.monotonic()
s.settimeout(5)
closed = False
try:
    while sent < 64 << 20:
        s.sendall(block)
        sent += len(block)
except OSError:
    closed = True
took = time.monotonic() - t0
s.close()
print(
    "over_cap=%s other=%s after=%s chunk_mib=%s chunk_s=%.2f"
    % (over, other, after, "%.1f" % (sent / 1048576) if closed else "never", took)
)
