"""GET /api/files from a chosen source address, for the connection tests
(tests/server/conns.py, tests/hostile/slowloris.py)."""

import socket
import time


def get_files(port, src, timeout=2):
    """GET /api/files on 127.0.0.1:port from address src: (status, seconds);
    status "none" when no answer came."""
    t0 = time.monotonic()
    s = socket.socket()
    s.settimeout(timeout)
    try:
        s.bind((src, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET /api/files HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n" % port)
        data = b""
        while True:
            b = s.recv(65536)
            if not b:
                break
            data += b
        status = data[9:12].decode() if data.startswith(b"HTTP/1.1 ") else "none"
    except OSError:
        status = "none"
    finally:
        s.close()
    return status, time.monotonic() - t0
