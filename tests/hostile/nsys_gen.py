"""Hostile Nsight Systems inputs, made at test time (python3, standard
library only) for tests/hostile/cases/20-nsys.sh.

  nsys_gen.py nested-sqlite N PATH     an export whose capture range holds
                                       "iteration 0" holding N nested ranges
                                       (names r0, r1, ...), one kernel in the
                                       innermost
  nested-ops N K PATH                  the same with K kernels (K API calls)
                                       in the innermost range, which every
                                       range projects
  nested-run N DIR                     the same ranges as a run directory:
                                       manifest.yaml and the two stats CSVs
  big-int PATH WHAT                    a small export with one hostile value
                                       (WHAT: kernel-max, kernel-min,
                                       kernel-text, kernel-real, nvtx-max,
                                       nvtx-sum, op-max)
  long-name BYTES PATH                 an export whose 1,000 kernels share one
                                       StringIds name of BYTES bytes
  big-run DIR                          a run directory whose two ranges named x
                                       (CSV lines 3 and 4) sum past 2^63 ns
"""
import os
import sqlite3
import sys

GTID = (1 << 56) | (100 << 24) | 101
GPID = (1 << 56) | (100 << 24)


def base(path):
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.executescript("""
    create table StringIds(id integer primary key, value text not null);
    create table META_DATA_EXPORT(name text, value text);
    create table CUPTI_ACTIVITY_KIND_RUNTIME(start int, end int, eventClass int, globalTid int, correlationId int, nameId int, returnValue int, callchainId int);
    create table CUPTI_ACTIVITY_KIND_KERNEL(start int, end int, deviceId int, contextId int, streamId int, correlationId int, globalPid int, demangledName int, shortName int, mangledName int);
    create table NVTX_EVENTS(start int, end int, eventType int, rangeId int, category int, color int, text text, globalTid int, endGlobalTid int, domainId int, textId int);
    """)
    db.execute("insert into META_DATA_EXPORT values ('EXPORT_PRODUCT_VERSION', '2025.1.3.140')")
    db.executemany("insert into StringIds values (?, ?)", [(1, "kern"), (2, "cudaLaunchKernel")])
    return db


def nv(db, start, end, text):
    db.execute("insert into NVTX_EVENTS(start, end, eventType, text, globalTid, domainId) values (?, ?, 59, ?, ?, 0)",
               (start, end, text, GTID))


def kernel(db, a0, a1, corr, s, e, name=1):
    db.execute("insert into CUPTI_ACTIVITY_KIND_RUNTIME(start, end, globalTid, correlationId, nameId) values (?,?,?,?,2)",
               (a0, a1, GTID, corr))
    db.execute("insert into CUPTI_ACTIVITY_KIND_KERNEL values (?,?,0,1,7,?,?,?,?,?)", (s, e, corr, GPID, name, name, name))


def nested_sqlite(n, path, k=1):
    db = base(path)
    end = 10 * (n + 10)
    nv(db, 0, 2 * end, "profile-target")
    nv(db, 1, 2 * end - 1, "iteration 0")
    for i in range(n):
        nv(db, 10 + i, 2 * end - 10 - i, f"r{i}")
    mid = end
    for j in range(k):
        kernel(db, mid - 2, mid - 1, 1 + j, mid + j, mid + j + 5)
    db.commit()
    db.close()


MANIFEST = """capture_range: profile-target
run_id: nested
workload:
  iterations: 1
"""


def nested_run(n, d):
    os.makedirs(os.path.join(d, "stats"), exist_ok=True)
    with open(os.path.join(d, "manifest.yaml"), "w") as f:
        f.write(MANIFEST)
    end = 10 * (n + 10)
    rows = [("profile-target", 0, 2 * end, 1, None), ("iteration 0", 1, 2 * end - 1, 2, 1)]
    for i in range(n):
        rows.append((f"r{i}", 10 + i, 2 * end - 10 - i, 3 + i, 2 + i))
    with open(os.path.join(d, "stats", "nsys_nvtx_pushpop_trace.csv"), "w") as f:
        f.write("Start (ns),End (ns),Duration (ns),DurChild (ns),DurNonChild (ns),Name,PID,TID,Lvl,NumChild,RangeId,ParentId\n")
        for k, (name, s, e, rid, parent) in enumerate(rows):
            child = rows[k + 1][2] - rows[k + 1][1] if k + 1 < len(rows) else 0
            f.write(f"{s},{e},{e - s},{child},{e - s - child},:{name},2124,2124,{k},{1 if child else 0},{rid},"
                    f"{'' if parent is None else parent}\n")
    with open(os.path.join(d, "stats", "nsys_nvtx_gpu_proj_trace.csv"), "w") as f:
        f.write("Name,Projected Start (ns),Projected Duration (ns),Orig Start (ns),Orig Duration (ns),Style,PID,TID,"
                "NumGPUOps,Lvl,NumChild,RangeId,ParentId\n")
        for k, (name, s, e, rid, parent) in enumerate(rows):
            f.write(f":{name},{end},5,{s},{e - s},PushPop,2124,2124,1,{k},{1 if k + 1 < len(rows) else 0},{rid},"
                    f"{'' if parent is None else parent}\n")


def big_int(path, what):
    db = base(path)
    big, small = (1 << 63) - 1, -(1 << 63)
    nv(db, 0, 1000, "profile-target")
    nv(db, 100, 400, "iteration 0")
    if what == "kernel-max":  # two kernels whose durations sum past 2^63
        kernel(db, 110, 120, 1, 0, big)
        kernel(db, 130, 140, 2, 0, big)
    elif what == "kernel-min":  # end - start itself overflows
        kernel(db, 110, 120, 1, small, big)
    elif what == "kernel-text":
        kernel(db, 110, 120, 1, 150, "soon")
    elif what == "kernel-real":
        kernel(db, 110, 120, 1, 150, 190.5)
    elif what == "nvtx-max":  # a range whose duration overflows
        nv(db, small, big, "huge")
    elif what == "nvtx-sum":  # two ranges of one name whose durations sum past 2^63
        nv(db, 2000, 2000 + (1 << 62) + 5, "twice")
        nv(db, -(1 << 62) - 10, -10, "twice")
    elif what == "op-max":  # a kernel inside a range whose GPU time overflows
        kernel(db, 110, 120, 1, small, big)
    db.commit()
    db.close()


def long_name(nbytes, path):
    db = base(path)
    db.execute("insert into StringIds values (3, ?)", ("k" * nbytes,))
    for i in range(1000):
        kernel(db, 10 * i, 10 * i + 1, i + 1, 10 * i + 2, 10 * i + 5, name=3)
    db.commit()
    db.close()


HOST_HDR = ("Start (ns),End (ns),Duration (ns),DurChild (ns),DurNonChild (ns),Name,PID,TID,Lvl,NumChild,"
            "RangeId,ParentId\n")


def big_run(d):
    os.makedirs(os.path.join(d, "stats"), exist_ok=True)
    with open(os.path.join(d, "manifest.yaml"), "w") as f:
        f.write(MANIFEST)
    big = (1 << 63) - 1
    with open(os.path.join(d, "stats", "nsys_nvtx_pushpop_trace.csv"), "w") as f:
        f.write(HOST_HDR + "0,100,100,0,100,:profile-target,1,1,0,0,1,\n"
                f"0,1,{big},0,1,:x,1,1,0,0,2,\n0,1,1,0,1,:x,1,1,0,0,3,\n")
    with open(os.path.join(d, "stats", "nsys_nvtx_gpu_proj_trace.csv"), "w") as f:
        f.write("")


def main():
    cmd = sys.argv[1]
    if cmd == "nested-sqlite":
        nested_sqlite(int(sys.argv[2]), sys.argv[3])
    elif cmd == "nested-ops":
        nested_sqlite(int(sys.argv[2]), sys.argv[4], int(sys.argv[3]))
    elif cmd == "nested-run":
        nested_run(int(sys.argv[2]), sys.argv[3])
    elif cmd == "big-int":
        big_int(sys.argv[2], sys.argv[3])
    elif cmd == "big-run":
        big_run(sys.argv[2])
    elif cmd == "long-name":
        long_name(int(sys.argv[2]), sys.argv[3])
    else:
        sys.exit("unknown command " + cmd)


if __name__ == "__main__":
    main()
