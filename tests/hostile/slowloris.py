"""Slow clients against `gpuprof serve` on 127.0.0.1 (tests/hostile/cases/40-server.sh).

usage: slowloris.py PORT SLOW DEADLINE

Opens SLOW connections from 127.0.0.1 that send a request head one byte
a second, and meanwhile asks GET /api/files from 127.0.0.2 (another client
address) every 0.25 s, timing each answer. Prints one line of numbers:

  kept=K refused=R asked=A answered=N worst=S closed_min=T0 closed_max=T1

K: slow connections the server kept (the others it closed within 0.5 s:
over its per-address cap); N of A normal requests answered 200 within 2 s,
the slowest in S seconds; T0..T1: when the kept ones were closed (seconds
from their start). Exits when every slow connection is closed, or after
DEADLINE + 6 s (closed_max is then "never").
"""

import os
import select
import socket
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../server"))
from http_get import get_files  # noqa: E402

port, slow, deadline = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
head = b"GET /api/files HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nX-Slow: " % port
# what a slow client trickles after its head's first line: never \r\n\r\n
trickle = b"abcdefghijklmnopqrstuvwxyz" * 4


def normal():
    """One request from 127.0.0.2; (ok, seconds)."""
    status, took = get_files(port, "127.0.0.2")
    return status == "200", took


start = time.monotonic()
conns = []  # [socket, bytes sent of trickle, closed at]
for _ in range(slow):
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.connect(("127.0.0.1", port))
    s.sendall(head)
    s.setblocking(False)
    conns.append([s, 0, None])

asked = answered = 0
worst = 0.0
next_byte = next_ask = time.monotonic()
while time.monotonic() - start < deadline + 6:
    now = time.monotonic()
    open_ = [c for c in conns if c[2] is None]
    if not open_:
        break
    if now >= next_ask and now - start < deadline - 0.5:
        ok, took = normal()
        asked += 1
        answered += ok and took < 2
        worst = max(worst, took)
        next_ask = time.monotonic() + 0.25
    if now >= next_byte:
        for c in open_:
            try:
                c[0].send(trickle[c[1] % len(trickle) : c[1] % len(trickle) + 1])
                c[1] += 1
            except OSError:
                c[2] = time.monotonic() - start
        next_byte = now + 1
    r, _, _ = select.select([c[0] for c in open_], [], [], 0.05)
    for c in open_:
        if c[0] in r:
            try:
                if c[0].recv(4096) == b"":
                    c[2] = time.monotonic() - start
            except OSError:
                c[2] = time.monotonic() - start

refused = [c for c in conns if c[2] is not None and c[2] < 0.5]
kept = [c for c in conns if c[2] is None or c[2] >= 0.5]
closed = [c[2] for c in kept if c[2] is not None]
print(
    "kept=%d refused=%d asked=%d answered=%d worst=%.3f closed_min=%s closed_max=%s"
    % (
        len(kept),
        len(refused),
        asked,
        answered,
        worst,
        "%.2f" % min(closed) if closed else "never",
        "%.2f" % max(closed) if len(closed) == len(kept) and closed else "never",
    )
)
for c in conns:
    c[0].close()
