#!/usr/bin/env python3
"""mkreport: writes a tiny, valid Nsight Compute report (.ncu-rep) built by
hand from the layout in docs/ncu.md: magic, FileHeader, a session block, a
string-table + result block and a version block. Used for the golden tests
and the fuzz seeds; the bytes are ours, no real report is copied.

Usage: mkreport.py OUT [--seeds DIR]  (--seeds also writes truncated and
bit-flipped copies for the fuzz corpus)
       mkreport.py --diff-pair DIR  (ncu-diff-base, -new and -other.ncu-rep
       for the golden tests of `gpuprof diff`: see diff_pair)
       mkreport.py --full OUT  (the chart fixture full.ncu-rep: see mkfull.py)
       mkreport.py --legacy OUT  (a report of the 2019-2020 legacy metric
       names: see legacy)."""
import struct, sys, os

def varint(v):
    out = b""
    while True:
        b = v & 0x7F
        v >>= 7
        if v:
            out += bytes([b | 0x80])
        else:
            return out + bytes([b])

def key(num, wire):
    return varint(num << 3 | wire)

def u(num, v):
    return key(num, 0) + varint(v)

def s(num, data):
    if isinstance(data, str):
        data = data.encode()
    return key(num, 2) + varint(len(data)) + data

def d(num, x):
    return key(num, 1) + struct.pack("<d", x)

def val_str(x): return s(1, x)
def val_dbl(x): return d(3, x)
def val_u64(x): return u(5, x)

STRINGS = ["gpu__time_duration.sum", "launch__registers_per_thread",
           "sm__throughput.avg.pct_of_peak_sustained_elapsed",
           "launch__grid_size", "device__attribute_display_name",
           "device__attribute_compute_capability_major",
           "device__attribute_compute_capability_minor",
           "device__attribute_device_index", "launch__func_cache_config",
           "launch__block_size"]

def metric(name, value, insts=()):
    m = u(1, STRINGS.index(name)) + s(2, value)
    for c, v in insts:
        m += s(3, s(1, c) + s(2, v))
    return s(13, m)

def section():
    hdr = s(2, s(1, "gpu__time_duration.sum") + s(2, "Duration")) + \
        s(2, b"") + \
        s(2, s(1, "sm__throughput.avg.pct_of_peak_sustained_elapsed") + s(2, "Compute (SM) Throughput"))
    extra = s(1, s(1, "launch__registers_per_thread") + s(2, "Registers Per Thread"))
    body = s(1, s(2, s(1, "Throughput") + s(5, s(1, "sm__throughput.avg.pct_of_peak_sustained_elapsed") + s(2, "SM [%]"))))
    return s(17, s(1, "SpeedOfLight") + s(2, "GPU Speed Of Light Throughput") + u(3, 10) +
             s(4, u(1, 2) + hdr) + s(5, body) + s(6, extra) + s(7, "Throughput overview"))

def rule(ident="SOLBottleneck", title="Small Grid", speedup=96.875):
    msg = s(1, s(1, "Only @section:LaunchStats:Launch Statistics@ matter; see @url:Guide:https://example.org/g@.") + u(2, 4) + u(3, 1) + s(4, title))
    speed = s(10, u(1, 2) + d(2, speedup))
    return s(19, s(1, ident) + s(2, "Bottleneck") + s(3, s(1, msg + speed)) + s(4, "SpeedOfLight"))

# One launch of the default report; diff_pair() below varies it.
TINY = dict(mangled="_Z4tinyPf", function="tiny", demangled="tiny(float *)", grid=(4, 2, 1),
            block=(128, 1, 1), dur=1536.0, regs=32, sm=12.3456, extra=(),
            rules=(("SOLBottleneck", "Small Grid", 96.875),))

def result(k=TINY):
    r = u(1, 4242) + u(2, 7) + u(4, 1) + s(5, k["mangled"]) + s(6, k["function"]) + s(7, k["demangled"])
    r += u(8, 3) + s(10, b"".join(u(i + 1, v) for i, v in enumerate(k["grid"])))
    r += s(11, b"".join(u(i + 1, v) for i, v in enumerate(k["block"])))
    r += metric(k.get("dur_name", "gpu__time_duration.sum"), val_dbl(k["dur"]))
    r += metric("launch__registers_per_thread", val_u64(k["regs"]))
    r += metric(k.get("sm_name", "sm__throughput.avg.pct_of_peak_sustained_elapsed"), val_dbl(k["sm"]))
    for name, x in k["extra"]:
        r += metric(name, val_dbl(x))
    r += metric("launch__grid_size", val_u64(8), [(val_u64(0), val_u64(8))])
    r += metric("launch__block_size", val_u64(128))
    r += metric("launch__func_cache_config", val_str("CachePreferNone"))
    r += metric("device__attribute_display_name", val_str("Tiny GPU"))
    r += metric("device__attribute_compute_capability_major", val_u64(8))
    r += metric("device__attribute_compute_capability_minor", val_u64(6))
    r += metric("device__attribute_device_index", val_u64(0))
    r += u(14, 1700000000) + s(15, u(1, 1)) + section()
    r += b"".join(rule(*x) for x in k["rules"]) + u(22, 1) + u(23, 7)
    return r

def block(header, entries=()):
    payload = b"".join(struct.pack("<I", len(e)) + e for e in entries)
    h = header + (u(5, len(payload)) if payload else b"")
    return struct.pack("<I", len(h)) + h + payload

def report(launches=(TINY,)):
    proc = s(6, u(1, 4242) + s(2, "127.0.0.1") + s(3, "/opt/app/tiny\0"))
    host = s(3, s(1, "Linux") + s(2, "6.1") + s(3, "x86_64 CPU") + s(4, "x86_64") + s(5, "box") + u(6, 2))
    target = s(4, s(1, "Linux") + s(4, "x86_64") + s(5, "box") + s(7, s(1, "10.0.0.1") + u(2, 1)))
    dev = s(6, u(1, 0) + s(2, "Tiny GPU") +
            s(3, s(1, "device__attribute_multiprocessor_count") + s(2, val_u64(4))) +
            s(3, s(1, "device__attribute_display_name") + s(2, val_str("Tiny GPU"))))
    vers = s(8, s(1, "CUDA Version") + s(2, "12.4")) + s(8, s(1, "Nsight Compute Target") + s(2, "2025.1.0.0 (test)"))
    out = b"NVR\0" + struct.pack("<I", 2) + u(1, 7)
    out += block(u(1, 0) + u(2, 0) + s(3, u(2, 1700000000) + host) + s(4, b"") + proc)
    src = u(1, 1) + s(4, b"\x7fELF") + u(5, 8) + u(6, 0x80006)
    out += block(u(1, 1) + s(4, b"") + proc, [src])
    table = s(4, b"".join(s(1, x) for x in STRINGS[:6]))
    out += block(u(2, len(launches)) + table + proc, [result(k) for k in launches])
    out += block(s(3, dev + vers + target + s(11, "ncu --set basic -o tiny ./tiny")) +
                 s(4, b"".join(s(1, x) for x in STRINGS[6:])) + proc)
    return out

# The pairs of `gpuprof diff` (tests/golden/ncu-diff-*): known changes of
# known launches. base: tiny, gemm, tiny again (its occurrence 1). new: tiny
# 3% slower, gemm of another tile size (one row once normalized) 25% slower
# with 8 more registers, its hint SOLBottleneck gone and Occupancy new.
# other: gemm removed, a copy kernel and tiny with another grid added.
MEM = "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"
OCC = "sm__warps_active.avg.pct_of_peak_sustained_active"
DRAM = "dram__bytes_read.sum"

def launch(**kw):
    k = dict(TINY)
    k.update(kw)
    return k

def diff_pair(outdir):
    for x in (MEM, OCC, DRAM):
        if x not in STRINGS:
            STRINGS.append(x)
    def tiny(dur, sm, mem, grid=(4, 2, 1), dram=1e6):
        return launch(dur=dur, sm=sm, extra=((MEM, mem), (OCC, 50.0), (DRAM, dram)))
    def gemm(name, dur, regs, occ, rules):
        return launch(mangled="_Z4" + name, function=name, demangled="void %s<float>(float *)" % name,
                      grid=(8, 1, 1), block=(256, 1, 1), dur=dur, regs=regs, sm=80.0,
                      extra=((MEM, 40.0), (OCC, occ), (DRAM, 4e6)), rules=rules)
    base = [tiny(1000.0, 10.0, 20.0), gemm("gemm_128x64", 4000.0, 64, 25.0,
                                         (("SOLBottleneck", "Small Grid", 50.0),)),
            tiny(1200.0, 10.0, 20.0)]
    new = [tiny(1030.0, 11.0, 20.0, dram=1.5e6),
           gemm("gemm_256x128", 5000.0, 72, 20.0, (("Occupancy", "Low Occupancy", 12.5),)),
           tiny(1200.0, 10.0, 20.0)]
    copy = launch(mangled="_Z4copyPf", function="copy", demangled="copy(float *)", grid=(1, 1, 1),
                  block=(32, 1, 1), dur=500.0, regs=16, sm=1.0, rules=(),
                  extra=((MEM, 5.0), (OCC, 10.0), (DRAM, 0.0)))
    other = [base[0], base[2], copy, launch(**dict(base[0], grid=(8, 2, 1), dur=900.0))]
    for name, ks in (("ncu-diff-base", base), ("ncu-diff-new", new), ("ncu-diff-other", other)):
        with open(os.path.join(outdir, name + ".ncu-rep"), "wb") as f:
            f.write(report(ks))

# The legacy metric names of Nsight Compute 2019.x-2020.x (legacy metric
# set, pre-Volta GPUs) for the kernel table's columns. Launch 0 holds only
# the legacy names (duration 2345 ns, SM 11.25 %, memory 33.5 %, achieved
# occupancy 45.75 %; theoretical occupancy 100 %, which is no achieved
# value); launch 1 both, with other values: the modern ones count.
LEGACY = (("gpu__time_duration", "sm__sol_pct", "gpu__compute_memory_sol_pct",
           "sm__active_warps_avg_per_active_cycle_pct", "sm__maximum_warps_per_active_cycle_pct"))

def legacy(out):
    for x in LEGACY + (MEM, OCC):
        if x not in STRINGS:
            STRINGS.append(x)
    old = launch(dur_name="gpu__time_duration", sm_name="sm__sol_pct", dur=2345.0, sm=11.25,
                 rules=(), extra=(("gpu__compute_memory_sol_pct", 33.5),
                                  ("sm__active_warps_avg_per_active_cycle_pct", 45.75),
                                  ("sm__maximum_warps_per_active_cycle_pct", 100.0)))
    both = launch(dur=1000.0, sm=20.0, rules=(),
                  extra=((MEM, 30.0), (OCC, 40.0), ("gpu__time_duration", 9999.0),
                         ("sm__sol_pct", 99.0), ("gpu__compute_memory_sol_pct", 99.0),
                         ("sm__active_warps_avg_per_active_cycle_pct", 99.0)))
    with open(out, "wb") as f:
        f.write(report([old, both]))

def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--legacy":
        legacy(sys.argv[2])
        return
    if len(sys.argv) == 3 and sys.argv[1] == "--diff-pair":
        diff_pair(sys.argv[2])
        return
    if len(sys.argv) == 3 and sys.argv[1] == "--full":
        # the chart fixture: its own module, built on the helpers above
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import mkfull
        with open(sys.argv[2], "wb") as f:
            f.write(mkfull.report(sys.modules[__name__]))
        return
    data = report()
    with open(sys.argv[1], "wb") as f:
        f.write(data)
    if len(sys.argv) > 3 and sys.argv[2] == "--seeds":
        dirn = sys.argv[3]
        os.makedirs(dirn, exist_ok=True)
        open(os.path.join(dirn, "tiny.ncu-rep"), "wb").write(data)
        for cut in (2, 6, 9, 15, 40, len(data) // 2, len(data) - 1):
            open(os.path.join(dirn, "cut%d" % cut), "wb").write(data[:cut])
        for off in (4, 10, 14, 60, len(data) // 3, len(data) - 20):
            b = bytearray(data)
            b[off] ^= 0xFF
            open(os.path.join(dirn, "flip%d" % off), "wb").write(bytes(b))
        # a deeply nested message and an absurd length
        deep = b""
        for _ in range(200):
            deep = s(3, deep)
        bad = b"NVR\0" + struct.pack("<I", 2) + u(1, 7)
        open(os.path.join(dirn, "deep"), "wb").write(bad + block(s(3, deep)))
        open(os.path.join(dirn, "absurd"), "wb").write(bad + struct.pack("<I", 0xFFFFFFF0))

if __name__ == "__main__":
    main()
