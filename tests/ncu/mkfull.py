"""mkfull: the chart fixture tests/golden/_inputs/full.ncu-rep, written by
`mkreport.py --full OUT` with mkreport's protobuf helpers (passed in as m).

Two kernels on one made-up device ("Full GPU", CC 8.6, 28 SMs), each with
the sections the viewer's charts read (web/ncu_charts.js): SpeedOfLight
with its GPU Throughput bar chart and two `breakdown:` tables, the
roofline section and its inputs, LaunchStats, Occupancy with its three
line charts (instances), MemoryWorkloadAnalysis (+ _Tables with two memory
tables), WarpStateStats (stall bar chart) and InstructionStats (opcode mix
as instances). Every value is chosen here, written down below, and kept
consistent with the others (the comments say how), so tests can assert
them by hand:

- occupancy: the theoretical occupancy and the four block limits stored
  are what the CUDA occupancy calculator's rules (occ() below, the same
  rules as occupancy() in web/ncu_charts.js) give for the launch and the
  device; the three curves are occ() with one input varied. The
  shared-memory curve keeps the launch's carveout (as the page does; a
  real report varies it).
- roofline: peak FP32 work = 2 x 3,584 FFMA/cycle x 1.5 GHz = 10.752
  TFLOP/s, FP64 2 x 56 x 1.5 GHz = 168 GFLOP/s, FP16 2 x 7,168 x 1.5 GHz;
  DRAM peak = 48 byte/cycle x 7 GHz = 336 GB/s (ridge at 32 FLOP/byte for
  FP32); sgemm_tile achieves (100 + 50 + 2 x 2,400) x 1.5e9 = 7.425e12
  FLOP/s FP32 at 200 GB/s (intensity 37.125) and (0 + 0 + 2 x 2) x 1.5e9
  = 6e9 FLOP/s FP64 (intensity 0.03); no FP16 work (no point);
  relu_kernel executes no FP add/mul/FMA (no point at all).
- DRAM throughput % = 100 x bytes/s / 336e9; the Memory Throughput SOL
  metric is the largest of its breakdown, the Compute (SM) one the
  largest of its own breakdown.
- shared memory (sgemm_tile only; relu_kernel has no such counters, n/a):
  30,000 shared load instructions (the mix's LDS) in 45,000 wavefronts,
  so 15,000 bank conflicts (the wavefronts beyond one per instruction);
  no shared stores (the mix has no STS), all their counters 0.
- warp cycles per issued instruction = the sum of the stall reasons
  (binary fractions, so the sum is exact); executed instructions = the sum
  of the opcode mix.
"""
import math

DEVICE = {  # device__attribute_* (also the session's device attributes)
    "display_name": "Full GPU",
    "compute_capability_major": 8,
    "compute_capability_minor": 6,
    "device_index": 0,
    "multiprocessor_count": 28,
    "warp_size": 32,
    "max_warps_per_multiprocessor": 48,
    "max_blocks_per_multiprocessor": 16,
    "max_registers_per_multiprocessor": 65536,
    "max_registers_per_block": 65536,
    "max_threads_per_block": 1024,
    "max_shared_memory_per_block_optin": 101376,
}

SM_HZ = 1.5e9      # smsp__/sm__/gpc__cycles_elapsed.avg.per_second
DRAM_HZ = 7.0e9    # dram__cycles_elapsed.avg.per_second
DRAM_BPC = 48      # dram__bytes.sum.peak_sustained (byte/cycle)
FMA_PEAK = {"f": 3584, "d": 56, "h": 7168}  # sm__sass_thread_inst_executed_op_Xfma_pred_on.sum.peak_sustained

STALLS = ["long_scoreboard", "wait", "short_scoreboard", "math_pipe_throttle", "barrier",
          "not_selected", "selected", "mio_throttle", "gmma"]
STALL_LABEL = {"long_scoreboard": "Stall Long Scoreboard", "wait": "Stall Wait",
               "short_scoreboard": "Stall Short Scoreboard", "math_pipe_throttle": "Stall Math Pipe Throttle",
               "barrier": "Stall Barrier", "not_selected": "Stall Not Selected", "selected": "Selected",
               "mio_throttle": "Stall MIO Throttle", "gmma": "Stall GMMA"}

# The two kernels. smem_*: launch__shared_mem_per_block_{static,dynamic,driver};
# carveout: launch__shared_mem_config_size. ops: thread instructions per
# cycle elapsed (smsp__sass_thread_inst_executed_op_<p><op>_pred_on).
# Stalls absent from a dict are absent from the result (n/a: gmma).
KERNELS = [
    dict(function="sgemm_tile", mangled="_Z10sgemm_tilePKfS0_Pfi",
         demangled="sgemm_tile(const float *, const float *, float *, int)",
         grid=(112, 1, 1), block=(256, 1, 1), regs=64, smem_static=4096, smem_dynamic=8192,
         smem_driver=1024, carveout=102400, dur_ns=80000, dram_bps=2.0e11, achieved=61.25,
         ops={"fadd": 100, "fmul": 50, "ffma": 2400, "dadd": 0, "dmul": 0, "dfma": 2,
              "hadd": 0, "hmul": 0, "hfma": 0},
         compute_bd={"sm__pipe_fma_cycles_active": 72.5, "sm__issue_active": 48.5,
                     "sm__inst_executed": 48.25, "sm__pipe_alu_cycles_active": 12.75,
                     "sm__inst_executed_pipe_lsu": 9.0},
         memory_bd_rest={"lts__t_sectors": 41.25, "l1tex__data_pipe_lsu_wavefronts": 35.5,
                         "l1tex__lsuin_requests": 30.125, "lts__d_sectors": 22.0},
         l1_hit=12.5, l2_hit=80.0, pcie_read=1.5e6,
         shared={"inst_ld": 30000, "wavefronts_ld": 45000},
         stalls={"long_scoreboard": 2.5, "wait": 1.75, "short_scoreboard": 0.5,
                 "math_pipe_throttle": 3.25, "barrier": 1.125, "not_selected": 0.625,
                 "selected": 1.0, "mio_throttle": 0.25},
         mix={"FFMA": 120000, "LDS": 30000, "IMAD": 15000, "LDG": 8000, "FADD": 5000,
              "ISETP": 3000, "BRA": 3000, "FMUL": 2500, "BAR": 2000, "STG": 1000, "DFMA": 100,
              "EXIT": 896},
         rules=[("AchievedOccupancy", "Occupancy", 4, "Achieved Occupancy",
                 "The achieved occupancy (61.25 %) is below the theoretical 66.67 %; see @section:WarpStateStats:Warp State Statistics@.", 8.125),
                ("SOLBottleneck", "SpeedOfLight", 1, "Compute Bound",
                 "Compute (SM) throughput is 72.50 % of peak: the FMA pipe is the bottleneck.", None)]),
    dict(function="relu_kernel", mangled="_Z11relu_kernelPfi", demangled="relu_kernel(float *, int)",
         grid=(4096, 1, 1), block=(128, 1, 1), regs=32, smem_static=0, smem_dynamic=0,
         smem_driver=1024, carveout=32768, dur_ns=20000, dram_bps=3.0e11, achieved=87.5,
         ops={k: 0 for k in ("fadd", "fmul", "ffma", "dadd", "dmul", "dfma", "hadd", "hmul", "hfma")},
         compute_bd={"sm__inst_executed": 10.5, "sm__issue_active": 10.75,
                     "sm__pipe_alu_cycles_active": 6.25, "sm__inst_executed_pipe_lsu": 14.0},
         memory_bd_rest={"lts__t_sectors": 60.5, "l1tex__lsuin_requests": 20.0},
         l1_hit=0.0, l2_hit=50.0, pcie_read=0.0,
         stalls={"long_scoreboard": 18.0, "wait": 1.5, "short_scoreboard": 0.25, "not_selected": 0.125,
                 "selected": 1.0, "mio_throttle": 0.375, "barrier": 0.0},
         mix={"IMAD": 8192, "LDG": 4096, "FMNMX": 4096, "STG": 4096, "ISETP": 4096, "EXIT": 4096},
         rules=[("SOLBottleneck", "SpeedOfLight", 2, "Memory Bound",
                 "Memory throughput is 89.29 % of peak: the DRAM bandwidth limits this kernel.", 10.5)]),
]


def occ(k, regs=None, block=None, smem=None):
    """Active warps per SM (and the limits) by the occupancy calculator's
    rules for kernel k, one input optionally replaced. smem replaces the
    whole per-block usage (static + dynamic + driver)."""
    d = DEVICE
    regs = k["regs"] if regs is None else regs
    block = k["block"][0] if block is None else block
    if smem is None:
        smem = k["smem_static"] + k["smem_dynamic"] + k["smem_driver"]
    up = lambda v, g: -(-v // g) * g
    wpb = -(-block // d["warp_size"])
    lim = {"blocks": d["max_blocks_per_multiprocessor"], "warps": d["max_warps_per_multiprocessor"] // wpb}
    if regs > 0:
        rpw = up(regs * d["warp_size"], 256)
        lim["registers"] = 0 if rpw * up(wpb, 4) > d["max_registers_per_block"] else \
            (d["max_registers_per_multiprocessor"] // 4 // rpw * 4) // wpb
    else:
        lim["registers"] = d["max_blocks_per_multiprocessor"]
    lim["shared_mem"] = k["carveout"] // up(smem, 128) if smem > 0 else d["max_blocks_per_multiprocessor"]
    blocks = max(0, min(lim.values()))
    return blocks * wpb, lim


def pct(part, whole):
    return 100.0 * part / whole


def metrics_of(k):
    """name -> value (int: u64, float: double, str: string, or (value,
    [(x, v)...]) with instances)."""
    d = DEVICE
    v = {}
    for a, x in d.items():
        v["device__attribute_" + a] = x
    warps, lim = occ(k)
    maxw = d["max_warps_per_multiprocessor"]
    v.update({
        "launch__block_size": k["block"][0], "launch__grid_size": k["grid"][0],
        "launch__thread_count": k["block"][0] * k["grid"][0],
        "launch__registers_per_thread": k["regs"],
        "launch__shared_mem_per_block_static": k["smem_static"],
        "launch__shared_mem_per_block_dynamic": k["smem_dynamic"],
        "launch__shared_mem_per_block_driver": k["smem_driver"],
        "launch__shared_mem_per_block": k["smem_static"] + k["smem_dynamic"],
        "launch__shared_mem_config_size": k["carveout"],
        "launch__occupancy_limit_blocks": lim["blocks"], "launch__occupancy_limit_registers": lim["registers"],
        "launch__occupancy_limit_shared_mem": lim["shared_mem"], "launch__occupancy_limit_warps": lim["warps"],
        "sm__maximum_warps_avg_per_active_cycle": warps,
        "sm__maximum_warps_per_active_cycle_pct": pct(warps, maxw),
        "sm__warps_active.avg.pct_of_peak_sustained_active": k["achieved"],
        "sm__warps_active.avg.per_cycle_active": k["achieved"] * maxw / 100.0,
        # waves: grid / (blocks per SM x SMs)
        "launch__waves_per_multiprocessor": k["grid"][0] / (max(1, warps // -(-k["block"][0] // 32)) * d["multiprocessor_count"]),
        "gpu__time_duration.sum": k["dur_ns"],
        "gpc__cycles_elapsed.max": int(k["dur_ns"] * SM_HZ / 1e9),
        "gpc__cycles_elapsed.avg.per_second": SM_HZ,
        "sm__cycles_elapsed.avg.per_second": SM_HZ,
        "smsp__cycles_elapsed.avg.per_second": SM_HZ,
        "dram__cycles_elapsed.avg.per_second": DRAM_HZ,
        "dram__bytes.sum.peak_sustained": DRAM_BPC,
        "dram__bytes.sum.per_second": k["dram_bps"],
        "dram__bytes.sum": int(k["dram_bps"] * k["dur_ns"] / 1e9),
        "pcie__read_bytes.sum.per_second": k["pcie_read"],
        "l1tex__t_sector_hit_rate.pct": k["l1_hit"],
        "lts__t_sector_hit_rate.pct": k["l2_hit"],
    })
    sh = k.get("shared")
    if sh:
        v.update({
            "smsp__sass_inst_executed_op_shared_ld.sum": sh["inst_ld"],
            "smsp__sass_inst_executed_op_shared_st.sum": 0,
            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum": sh["wavefronts_ld"],
            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum": 0,
            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum": sh["wavefronts_ld"] - sh["inst_ld"],
            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum": 0,
        })
    for p, peak in FMA_PEAK.items():
        v["sm__sass_thread_inst_executed_op_%sfma_pred_on.sum.peak_sustained" % p] = peak
    for op, x in k["ops"].items():
        v["smsp__sass_thread_inst_executed_op_%s_pred_on.sum.per_cycle_elapsed" % op] = float(x)
    dram_pct = pct(k["dram_bps"], DRAM_BPC * DRAM_HZ)
    v["gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed"] = dram_pct
    cb = {n + ".avg.pct_of_peak_sustained_elapsed": x for n, x in k["compute_bd"].items()}
    mb = {"dram__cycles_active.avg.pct_of_peak_sustained_elapsed": dram_pct}
    mb.update({n + ".avg.pct_of_peak_sustained_elapsed": x for n, x in k["memory_bd_rest"].items()})
    v.update(cb)
    v.update(mb)
    v["sm__throughput.avg.pct_of_peak_sustained_elapsed"] = max(cb.values())
    v["gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"] = max(mb.values())
    v["gpu__compute_memory_request_throughput.avg.pct_of_peak_sustained_elapsed"] = max(mb.values())
    v["breakdown:sm__throughput.avg.pct_of_peak_sustained_elapsed"] = ",".join(sorted(cb))
    v["breakdown:gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"] = ",".join(sorted(mb))
    lts = k["memory_bd_rest"]["lts__t_sectors"]
    v["lts__throughput.avg.pct_of_peak_sustained_elapsed"] = lts
    v["gpu__compute_memory_access_throughput.avg.pct_of_peak_sustained_elapsed"] = lts
    v["l1tex__throughput.avg.pct_of_peak_sustained_elapsed"] = k["memory_bd_rest"]["l1tex__lsuin_requests"]
    v["sm__memory_throughput.avg.pct_of_peak_sustained_elapsed"] = k["compute_bd"]["sm__inst_executed_pipe_lsu"]
    for s, x in k["stalls"].items():
        v["smsp__average_warps_issue_stalled_%s_per_issue_active.ratio" % s] = x
    v["smsp__average_warp_latency_per_inst_issued.ratio"] = sum(k["stalls"].values())
    total = sum(k["mix"].values())
    v["smsp__inst_executed.sum"] = total
    v["smsp__inst_issued.sum"] = total
    v["sass__inst_executed_per_opcode"] = (total, sorted(k["mix"].items()))
    # the report's own occupancy curves: x -> active warps per SM; the
    # aggregate value is the sum of the points (as in real reports, it is
    # not read by anything)
    curves = {
        "launch__occupancy_per_register_count": [(x, occ(k, regs=x)[0]) for x in range(0, 256)],
        "launch__occupancy_per_block_size": [(x, occ(k, block=x)[0]) for x in range(32, 1025, 32)],
        "launch__occupancy_per_shared_mem_size": [(x, occ(k, smem=x)[0]) for x in range(0, 101377, 4096)],
    }
    for n, pts in curves.items():
        v[n] = (sum(w for _, w in pts), pts)
    return v


PCT = ".avg.pct_of_peak_sustained_elapsed"
# sections: (id, display name, order, header [(metric, label)], extra
# [(metric, label)], body items [(kind, label, [(metric, label)], highlights)])
def sections_of(k):
    stall_bar = [("smsp__average_warps_issue_stalled_%s_per_issue_active.ratio" % s, STALL_LABEL[s]) for s in STALLS]
    roof = [("sm__sass_thread_inst_executed_op_%sfma_pred_on.sum.peak_sustained" % p,
             "Theoretical Predicated-On %sFMA Thread Instructions Executed" % p.upper()) for p in "fdh"]
    roof += [("smsp__sass_thread_inst_executed_op_%s_pred_on.sum.per_cycle_elapsed" % op,
              "Predicated-On %s Thread Instructions Executed Per Cycle" % op.upper()) for op in ("ffma", "dfma", "hfma")]
    return [
        ("SpeedOfLight", "GPU Speed Of Light Throughput", 10,
         [("sm__throughput" + PCT, "Compute (SM) Throughput"), ("gpu__time_duration.sum", "Duration"),
          ("gpu__compute_memory_throughput" + PCT, "Memory Throughput"), ("gpc__cycles_elapsed.max", "Elapsed Cycles"),
          ("gpu__dram_throughput" + PCT, "DRAM Throughput"), ("gpc__cycles_elapsed.avg.per_second", "SM Frequency"),
          ("l1tex__throughput" + PCT, "L1/TEX Cache Throughput"), ("dram__cycles_elapsed.avg.per_second", "DRAM Frequency")],
         [("launch__waves_per_multiprocessor", "Waves Per SM")],
         [(2, "GPU Throughput", [("sm__throughput" + PCT, "Compute (SM) [%]"),
                                 ("gpu__compute_memory_throughput" + PCT, "Memory [%]")], []),
          (1, "Compute Throughput Breakdown", [("breakdown:sm__throughput" + PCT, "{UNIT}: {COMPOUND_NAME}")], []),
          (1, "Memory Throughput Breakdown", [("breakdown:gpu__compute_memory_throughput" + PCT, "{UNIT}: {COMPOUND_NAME}")], [])]),
        ("SpeedOfLight_RooflineChart", "GPU Speed Of Light Roofline Chart", 11, [], roof, [(6, "", [], [])]),
        ("LaunchStats", "Launch Statistics", 20,
         [("launch__block_size", "Block Size"), ("launch__grid_size", "Grid Size"),
          ("launch__registers_per_thread", "Registers Per Thread"),
          ("launch__shared_mem_per_block_static", "Static Shared Memory Per Block"),
          ("launch__shared_mem_per_block_dynamic", "Dynamic Shared Memory Per Block"),
          ("launch__shared_mem_per_block_driver", "Driver Shared Memory Per Block"),
          ("launch__shared_mem_config_size", "Shared Memory Configuration Size"),
          ("launch__thread_count", "Threads"), ("launch__waves_per_multiprocessor", "Waves Per SM")], [], []),
        ("Occupancy", "Occupancy", 30,
         [("sm__maximum_warps_per_active_cycle_pct", "Theoretical Occupancy"),
          ("launch__occupancy_limit_registers", "Block Limit Registers"),
          ("sm__maximum_warps_avg_per_active_cycle", "Theoretical Active Warps per SM"),
          ("launch__occupancy_limit_shared_mem", "Block Limit Shared Mem"),
          ("sm__warps_active.avg.pct_of_peak_sustained_active", "Achieved Occupancy"),
          ("launch__occupancy_limit_warps", "Block Limit Warps"),
          ("sm__warps_active.avg.per_cycle_active", "Achieved Active Warps Per SM"),
          ("launch__occupancy_limit_blocks", "Block Limit SM")], [],
         [(4, "Impact of Varying Register Count Per Thread",
           [("launch__occupancy_per_register_count", "Warp Occupancy Per Register Count")],
           [("launch__registers_per_thread", "Registers Per Thread")]),
          (4, "Impact of Varying Block Size", [("launch__occupancy_per_block_size", "Warp Occupancy Per Block Size")],
           [("launch__block_size", "Block Size")]),
          (4, "Impact of Varying Shared Memory Usage Per Block",
           [("launch__occupancy_per_shared_mem_size", "Warp Occupancy Per Shared Mem Size")],
           [("launch__shared_mem_per_block", "Shared Memory Per Block")])]),
        ("MemoryWorkloadAnalysis", "Memory Workload Analysis", 40,
         [("dram__bytes.sum.per_second", "Memory Throughput"),
          ("gpu__compute_memory_access_throughput" + PCT, "Mem Busy"),
          ("l1tex__t_sector_hit_rate.pct", "L1/TEX Hit Rate"),
          ("gpu__compute_memory_request_throughput" + PCT, "Max Bandwidth"),
          ("lts__t_sector_hit_rate.pct", "L2 Hit Rate"),
          ("sm__memory_throughput" + PCT, "Mem Pipes Busy")], [], []),
        ("MemoryWorkloadAnalysis_Tables", "Memory Workload Analysis Tables", 42, [],
         [("l1tex__throughput" + PCT, "L1TEX Throughput"), ("lts__throughput" + PCT, "L2 Throughput"),
          ("gpu__dram_throughput" + PCT, "DRAM Throughput"), ("pcie__read_bytes.sum.per_second", "PCIe read bandwidth")],
         [(101, "", [], []), (104, "", [], [])]),
        ("WarpStateStats", "Warp State Statistics", 60,
         [("smsp__average_warp_latency_per_inst_issued.ratio", "Warp Cycles Per Issued Instruction")], [],
         [(2, "Warp State (All Cycles)", stall_bar, [])]),
        ("InstructionStats", "Instruction Statistics", 70,
         [("smsp__inst_executed.sum", "Executed Instructions"), ("smsp__inst_issued.sum", "Issued Instructions")], [],
         [(2, "Executed Instruction Mix",
           [("sass__inst_executed_per_opcode", "Executed Warp-Level Instructions By Basic SASS Opcode")], [])]),
    ]


def report(m):
    u, s, d, block = m.u, m.s, m.d, m.block
    strings = []

    def sid(name):
        if name not in strings:
            strings.append(name)
        return strings.index(name)

    def val(x):
        if isinstance(x, str):
            return m.val_str(x)
        if isinstance(x, float):
            return m.val_dbl(x)
        return m.val_u64(x)

    def metric(name, x):
        body = u(1, sid(name))
        if isinstance(x, tuple):
            x, insts = x
            body += s(2, val(x))
            for c, w in insts:
                body += s(3, s(1, val(c)) + s(2, val(w)))
        else:
            body += s(2, val(x))
        return s(13, body)

    def smetric(num, name, label):
        return s(num, s(1, name) + s(2, label))

    def section(sec):
        ident, name, order, header, extra, items = sec
        out = s(1, ident) + s(2, name) + u(3, order)
        if header:
            out += s(4, u(1, (len(header) + 1) // 2) + b"".join(smetric(2, n, l) for n, l in header))
        body = b""
        for kind, label, ms, hi in items:
            mnum = 5 if kind in (1, 2) else 4
            it = (s(1, label) if label else b"") + b"".join(smetric(mnum, n, l) for n, l in ms)
            if hi:
                it += s(5, b"".join(smetric(1, n, l) for n, l in hi))
            body += s(1, s(kind, it))
        if body:
            out += s(5, body)
        if extra:
            out += s(6, b"".join(smetric(1, n, l) for n, l in extra))
        return s(17, out)

    def rule(ident, sec, typ, title, text, speedup):
        msg = s(1, s(1, text) + u(2, typ) + u(3, 1) + s(4, title))
        if speedup is not None:
            msg += s(10, u(1, 1) + d(2, speedup))
        return s(19, s(1, ident) + s(2, ident) + s(3, s(1, msg)) + s(4, sec))

    def result(i, k):
        r = u(1, 5151) + u(2, 100 + i) + u(4, i + 1) + s(5, k["mangled"]) + s(6, k["function"]) + s(7, k["demangled"])
        r += u(8, 3) + s(10, u(1, k["grid"][0]) + u(2, k["grid"][1]) + u(3, k["grid"][2]))
        r += s(11, u(1, k["block"][0]) + u(2, k["block"][1]) + u(3, k["block"][2]))
        vals = metrics_of(k)
        for name in sorted(vals):
            r += metric(name, vals[name])
        r += u(14, 1700000100 + i) + s(15, u(1, 1))
        r += b"".join(section(x) for x in sections_of(k))
        r += b"".join(rule(*x) for x in k["rules"])
        return r + u(22, 1) + u(23, 7)

    results = [result(i, k) for i, k in enumerate(KERNELS)]
    proc = s(6, u(1, 5151) + s(2, "127.0.0.1") + s(3, "/opt/app/full"))
    host = s(3, s(1, "Linux") + s(2, "6.1") + s(3, "x86_64 CPU") + s(4, "x86_64") + s(5, "box") + u(6, 2))
    target = s(4, s(1, "Linux") + s(4, "x86_64") + s(5, "box") + s(7, s(1, "10.0.0.1") + u(2, 1)))
    dev = u(1, 0) + s(2, DEVICE["display_name"])
    for a, x in DEVICE.items():
        dev += s(3, s(1, "device__attribute_" + a) + s(2, val(x)))
    vers = s(8, s(1, "CUDA Version") + s(2, "12.4")) + s(8, s(1, "Nsight Compute Target") + s(2, "2025.1.0.0 (test)"))
    out = b"NVR\0" + m.struct.pack("<I", 2) + u(1, 7)
    out += block(u(1, 0) + u(2, 0) + s(3, u(2, 1700000100) + host) + s(4, b"") + proc)
    src = u(1, 1) + s(4, b"\x7fELF") + u(5, 8) + u(6, 0x80006)
    out += block(u(1, 1) + s(4, b"") + proc, [src])
    table = s(4, b"".join(s(1, x) for x in strings))
    out += block(u(2, len(results)) + table + proc, results)
    out += block(s(3, s(6, dev) + vers + target + s(11, "ncu --set full -o full ./full")) + s(4, b"") + proc)
    return out
