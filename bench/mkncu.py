#!/usr/bin/env python3
"""mkncu: writes a synthetic Nsight Compute report of about SIZE bytes for
the bench (`bench/run.sh`, the ncu row). Layout as in docs/ncu.md and
shared/reference/ncu.md: magic, FileHeader (Version 7), a session block,
then one block per result (ProcessInfo, one string table in the first
result block), many results of ~1700 metrics each (doubles, uint64,
strings, a few instance lists), a section and a rule per result, and the
device/version session blocks at the end. The bytes are ours.

Usage: mkncu.py OUT [SIZE_MB]   (default 100)"""
import struct, sys, random
sys.path.insert(0, __file__.rsplit("/", 2)[0] + "/tests/ncu")

def varint(v):
    out = bytearray()
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)

def key(n, w): return varint(n << 3 | w)
def u(n, v): return key(n, 0) + varint(v)
def s(n, data):
    if isinstance(data, str):
        data = data.encode()
    return key(n, 2) + varint(len(data)) + data
def d(n, x): return key(n, 1) + struct.pack("<d", x)

FIXED = ["gpu__time_duration.sum", "sm__throughput.avg.pct_of_peak_sustained_elapsed",
         "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed",
         "sm__warps_active.avg.pct_of_peak_sustained_active", "launch__registers_per_thread",
         "launch__grid_size", "launch__block_size", "device__attribute_display_name",
         "device__attribute_compute_capability_major", "device__attribute_compute_capability_minor",
         "device__attribute_device_index"]
NMETRICS = 1700
NAMES = FIXED + ["synth__metric_%04d.sum.per_second" % i for i in range(NMETRICS - len(FIXED))]

def block(header, entries=()):
    payload = b"".join(struct.pack("<I", len(e)) + e for e in entries)
    h = header + (u(5, len(payload)) if payload else b"")
    return struct.pack("<I", len(h)) + h + payload

def metric(i, value, insts=()):
    m = u(1, i) + s(2, value)
    for c, v in insts:
        m += s(3, s(1, c) + s(2, v))
    return s(13, m)

def main():
    out_path = sys.argv[1]
    target = int(float(sys.argv[2]) * 1e6) if len(sys.argv) > 2 else 100_000_000
    rng = random.Random(1)
    # the bulk: metrics 11.. with fixed bytes (valid, shared by all results)
    bulk = bytearray()
    for i in range(len(FIXED), NMETRICS):
        if i % 50 == 0:
            ins = [(u(5, 0x7000 + 16 * k), d(3, rng.random() * 100)) for k in range(8)]
            bulk += metric(i, d(3, rng.random() * 1e6), ins)
        elif i % 7 == 0:
            bulk += metric(i, u(5, rng.randrange(1 << 40)))
        else:
            bulk += metric(i, d(3, rng.random() * 1e9))
    bulk = bytes(bulk)
    sec = s(17, s(1, "SpeedOfLight") + s(2, "GPU Speed Of Light Throughput") + u(3, 10) +
            s(4, u(1, 2) + s(2, s(1, FIXED[0]) + s(2, "Duration")) +
              s(2, s(1, FIXED[1]) + s(2, "Compute (SM) Throughput"))))
    rule = s(19, s(1, "SOLBottleneck") + s(2, "Bottleneck") +
             s(3, s(1, s(1, s(1, "Synthetic hint.") + u(2, 4) + u(3, 1)) + s(10, u(1, 2) + d(2, 12.5)))) +
             s(4, "SpeedOfLight"))
    proc = s(6, u(1, 4242) + s(2, "127.0.0.1") + s(3, "/opt/bench/app"))
    kernels = ["gemm_kernel", "softmax_kernel", "elementwise_add", "reduce_sum", "flash_attn_fwd"]
    with open(out_path, "wb") as f:
        f.write(b"NVR\0" + struct.pack("<I", 2) + u(1, 7))
        host = s(3, s(1, "Linux") + s(2, "6.1") + s(3, "Synthetic CPU") + s(4, "x86_64") + s(5, "bench") + u(6, 2))
        f.write(block(u(1, 0) + u(2, 0) + s(3, u(2, 1700000000) + host) + s(4, b"") + proc))
        f.write(block(u(1, 1) + s(4, b"") + proc, [u(1, 1) + s(4, b"\x7fELF") + u(5, 8) + u(6, 0x80006)]))
        written = f.tell()
        n = 0
        while written < target:
            k = kernels[n % len(kernels)]
            r = u(1, 4242) + u(2, 100 + n) + u(4, n) + s(5, k) + s(6, k) + s(7, k + "(float *, int)")
            r += u(8, 3) + s(10, u(1, 64 + n % 512) + u(2, 1) + u(3, 1)) + s(11, u(1, 256) + u(2, 1) + u(3, 1))
            r += metric(0, d(3, 1000.0 + rng.random() * 1e5))
            r += metric(1, d(3, rng.random() * 100)) + metric(2, d(3, rng.random() * 100))
            r += metric(3, d(3, rng.random() * 100)) + metric(4, u(5, 32))
            r += metric(5, u(5, 64 + n % 512), [(u(5, 0), u(5, 64 + n % 512))]) + metric(6, u(5, 256))
            r += metric(7, s(1, "Synthetic GPU")) + metric(8, u(5, 8)) + metric(9, u(5, 6)) + metric(10, u(5, 0))
            r += bulk + u(14, 1700000000 + n) + s(15, u(1, 1)) + sec + rule + u(22, 1) + u(23, 7)
            table = s(4, b"".join(s(1, x) for x in NAMES)) if n == 0 else s(4, b"")
            b = block(u(2, 1) + table + proc, [r])
            f.write(b)
            written += len(b)
            n += 1
        dev = s(6, u(1, 0) + s(2, "Synthetic GPU") +
                s(3, s(1, "device__attribute_display_name") + s(2, s(1, "Synthetic GPU"))) +
                s(3, s(1, "device__attribute_compute_capability_major") + s(2, u(5, 8))) +
                s(3, s(1, "device__attribute_compute_capability_minor") + s(2, u(5, 6))))
        vers = s(8, s(1, "CUDA Version") + s(2, "12.4")) + s(8, s(1, "Nsight Compute Target") + s(2, "2025.1.0.0 (bench)"))
        f.write(block(s(3, dev + vers) + s(4, b"") + proc))
    print("mkncu: %s: %d results, %d bytes" % (out_path, n, written), file=sys.stderr)

main()
