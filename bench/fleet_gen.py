#!/usr/bin/env python3
"""bench/fleet_gen.py: writes the rank summaries (version 2) of a
synthetic fleet for bench/fleet.sh, without traces.

    fleet_gen.py N OUTDIR [--steps S] [--calls C] [--straggler R:MS]

A world of N ranks, S steps (default 2); per step C all-reduces (default
200) in the world's group "0" and 8 all-gathers in the rank's tensor-
parallel group of 8 ("tp<k>"), numbered as PyTorch numbers them (one
sequence per group). Every rank has the same times but rank R, whose
first all-reduce of each step arrives MS ms late (its compute longer),
the others' kernel of that call lasting as much longer. OUTDIR/NNNNN.json
for each rank. Plain python3, no module beyond the standard library.
"""
import os
import sys

US = 1000  # ns


def main():
    a = sys.argv[1:]
    if len(a) < 2:
        sys.exit(__doc__)
    n, out = int(a[0]), a[1]
    steps, calls, strag, late = 2, 200, -1, 0
    i = 2
    while i < len(a):
        if a[i] == "--steps":
            steps = int(a[i + 1])
        elif a[i] == "--calls":
            calls = int(a[i + 1])
        elif a[i] == "--straggler":
            r, ms = a[i + 1].split(":")
            strag, late = int(r), int(ms) * 1000 * US
        i += 2
    os.makedirs(out, exist_ok=True)
    world = "[" + ", ".join(str(r) for r in range(n)) + "]"
    step_ns = (calls + 20) * 200 * US + late
    for r in range(n):
        tp = r // 8
        tp_ranks = "[" + ", ".join(str(x) for x in range(8 * tp, min(8 * tp + 8, n))) + "]"
        body = []
        seq_w = seq_t = 0
        st = []
        for s in range(steps):
            t0 = 10**15 + s * step_ns
            st.append('{"step":%d,"computation":%d,"overlap":0,"communication":%d,"other":%d,'
                      '"start":%d,"end":%d,"breakdown":{"kernel":%d,"memcpy":0,"memset":0,'
                      '"communication":%d,"runtime":0,"dataloader":0,"cpu_exec":0,"other":%d},'
                      '"gpu_busy":[{"gpu":%d,"busy":%d}]}'
                      % (s, step_ns // 2, step_ns // 4, step_ns // 4, t0, t0 + step_ns,
                         step_ns // 2, step_ns // 4, step_ns // 4, r % 8, step_ns * 3 // 4))
            t = t0 + 100 * US
            for c in range(calls + 8):
                ag = c >= calls
                cpu = t
                k0 = t + 20 * US
                k1 = k0 + 100 * US
                compute = 100 * US
                if c == 0 and late:
                    if r == strag:
                        k0 += late
                        compute += late
                    k1 += late
                body.append('{"name":%d,"start":%d,"end":%d,"bytes":%d,"step":%d,"group":%d,'
                            '"seq":%d,"op":"%s","in_nelems":%d,"dtype":"Float","compute":%d,'
                            '"input":0,"idle":%d,"ranges":[[%d,%d],[%d,%d]]}'
                            % (1 if ag else 0, cpu, cpu + 10 * US, 4 << (c % 20), s,
                               1 if ag else 0, seq_t if ag else seq_w,
                               "_allgather_base" if ag else "allreduce", 1 << (c % 20),
                               compute, 20 * US, cpu, cpu + 10 * US, k0, k1))
                if ag:
                    seq_t += 1
                else:
                    seq_w += 1
                t = k1 + 80 * US
        text = ('{"kind":"gpuprof-rank-summary","schema_version":2,"tb_compat":false,'
                '"name":"r%05d","file":"r%05d.pt.trace.json","rank":%d,"world_size":%d,'
                '"backend":"nccl","has_device_props":true,"has_communication":true,'
                '"has_nccl":true,"has_gloo":false,"cleared":false,\n'
                '"names":["nccl:all_reduce","nccl:_allgather_base"],\n'
                '"groups":[{"pg":"0","ranks":"%s","size":%d},{"pg":"tp%d","ranks":"%s","size":8}],\n'
                '"steps":[%s],\n"collectives":[\n%s],\n'
                '"gpus":[{"id":%d,"name":"NVIDIA H100","memory":85045477376,"cc_major":9,'
                '"cc_minor":0,"known":true}],\n'
                '"kernels":{"top_n":20,"top":[{"name":"gemm","calls":%d,"total":%d}],'
                '"rest":{"names":0,"calls":0,"total":0},"types":{"compute":%d,"comm":%d,"memory":0}},\n'
                '"memory":[{"device":"cuda:%d","peak_allocated":%d,"peak_reserved":%d}]}\n'
                % (r, r, r, n, world, n, tp, tp_ranks, ",\n".join(st), ",\n".join(body), r % 8,
                   steps * calls, steps * calls * 100 * US, steps * calls * 100 * US,
                   steps * (calls + 8) * 100 * US, r % 8, 40 << 30, 42 << 30))
        with open(os.path.join(out, "%05d.json" % r), "w") as f:
            f.write(text)


main()
