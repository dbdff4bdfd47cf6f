#!/usr/bin/python3
"""gpuprof's distributed view of many ranks, with the map on a Dask cluster.

    gpuprof_dask.py TRACE... -o OUTDIR [--scheduler ADDR | --workers N]

1. Map: `gpuprof rank-summary TRACE -o OUTDIR/summaries/NNNNN.json`, one
   task per trace, on the cluster's workers (a LocalCluster of N worker
   processes, or the cluster of an existing scheduler). A failed task is
   tried again, --retries times (default 2).
2. Reduce: `gpuprof rank-summary --merge` over groups of --fan-in summaries
   (default 16), then over groups of those, as Dask tasks, down to
   OUTDIR/merged.json. Summaries merge associatively and commutatively, so
   the tree gives the same bytes as one merge of them all.
3. `gpuprof dist OUTDIR/merged.json` into OUTDIR/dist.txt (or .csv, .json
   with --format), here, in the driver's process.

Every path is made absolute: the workers must see the traces, OUTDIR and
the gpuprof binary at the same paths (one machine, or a shared file
system). Progress goes to stderr, one line per tenth of the map and per
reduce level, and timings at the end (-q: none). Exit status: 0; 1 when a
task still fails after its retries or the cluster fails; 2 on a usage
error or when gpuprof refuses an input (its message is shown).

Needs Debian's python3-distributed (hence /usr/bin/python3).
"""
import argparse
import importlib.util
import logging
import os
import shutil
import subprocess
import sys
import time

PROG = "gpuprof_dask"


class GpuprofError(Exception):
    """A gpuprof command that failed: its exit status and message."""

    def __init__(self, rc, message):
        super().__init__(rc, message)  # both: pickled from a worker as args
        self.rc, self.message = rc, message

    def __str__(self):
        return self.message


def run_gpuprof(argv):
    """Runs one gpuprof command; its duration in seconds, or GpuprofError."""
    t0 = time.perf_counter()
    try:
        p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except OSError as e:
        raise GpuprofError(127, "%s: %s" % (argv[0], e.strerror)) from None
    if p.returncode != 0:
        err = p.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GpuprofError(p.returncode, err[-1] if err else "exit status %d" % p.returncode)
    return time.perf_counter() - t0


def summarise(gpuprof, mode, trace, out):
    """The map task: the rank summary of one trace."""
    return run_gpuprof([gpuprof, "-q", "rank-summary"] + mode + [trace, "-o", out])


def merge(gpuprof, mode, out, *parts):
    """A reduce task: parts merged into out (parts are the paths that the
    tasks before it returned, so Dask runs it after them)."""
    paths = [p for p, _ in parts]
    secs = run_gpuprof([gpuprof, "-q", "rank-summary", "--merge"] + mode + paths + ["-o", out])
    return out, secs


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog=PROG,
        description="gpuprof rank-summary over TRACE... on a Dask cluster, a tree "
        "reduce with rank-summary --merge, then gpuprof dist into OUTDIR.")
    ap.add_argument("traces", nargs="+", metavar="TRACE")
    ap.add_argument("-o", "--output", required=True, metavar="OUTDIR",
                    help="summaries/, merged.json and dist.txt go here (made if absent)")
    where = ap.add_mutually_exclusive_group()
    where.add_argument("--scheduler", metavar="ADDR",
                       help="an existing Dask scheduler (tcp://host:8786)")
    where.add_argument("--workers", type=int, metavar="N",
                       help="a LocalCluster of N worker processes (default: 2)")
    ap.add_argument("--gpuprof", metavar="PATH",
                    help="the gpuprof binary (default: $GPUPROF, else gpuprof on PATH)")
    ap.add_argument("--retries", type=int, default=2, metavar="N",
                    help="tries of a failed task after the first (default: 2)")
    ap.add_argument("--fan-in", type=int, default=16, metavar="K",
                    help="summaries per merge task (default: 16)")
    ap.add_argument("--tb-compat", action="store_true",
                    help="summaries and dist in torch-tb-profiler's mode")
    ap.add_argument("--format", choices=("table", "csv", "json"), default="table",
                    help="of the dist output (default: table)")
    ap.add_argument("-q", "--quiet", action="store_true", help="no progress or timings")
    a = ap.parse_args(argv)
    if a.workers is not None and a.workers < 1:
        ap.error("--workers needs at least 1")
    if a.retries < 0:
        ap.error("--retries cannot be negative")
    if a.fan_in < 2:
        ap.error("--fan-in needs at least 2")
    return a


def find_gpuprof(given):
    g = given or os.environ.get("GPUPROF") or shutil.which("gpuprof")
    if not g:
        return None
    if os.sep not in g:
        g = shutil.which(g) or g
    g = os.path.abspath(g)
    return g if os.path.isfile(g) and os.access(g, os.X_OK) else None


def fail(rc, msg):
    sys.stderr.write("%s: %s\n" % (PROG, msg))
    return rc


class Progress:
    """One stderr line per tenth of n, unless quiet."""

    def __init__(self, what, n, quiet):
        self.what, self.n, self.quiet, self.done, self.shown = what, n, quiet, 0, 0

    def step(self):
        self.done += 1
        tenth = self.done * 10 // self.n
        if not self.quiet and (tenth > self.shown or self.done == self.n):
            self.shown = tenth
            sys.stderr.write("%s: %s %d/%d\n" % (PROG, self.what, self.done, self.n))
            sys.stderr.flush()


def map_traces(client, a, gpuprof, mode, traces, sdir):
    """Submits the map; returns (summary paths in trace order, [seconds]) or
    raises GpuprofError naming the first trace that failed for good."""
    from distributed import as_completed
    outs = [os.path.join(sdir, "%05d.json" % i) for i in range(len(traces))]
    futs = [client.submit(summarise, gpuprof, mode, t, o, key="gpuprof-summary-%d" % i,
                          retries=a.retries, pure=False)
            for i, (t, o) in enumerate(zip(traces, outs))]
    which = {f.key: i for i, f in enumerate(futs)}
    prog = Progress("map", len(futs), a.quiet)
    secs = [0.0] * len(futs)
    failed = []
    for f in as_completed(futs):
        prog.step()
        if f.status == "error":
            failed.append(which[f.key])
        else:
            secs[which[f.key]] = f.result()
    if failed:
        i = min(failed)
        e = futs[i].exception()
        rc = e.rc if isinstance(e, GpuprofError) else 1
        raise GpuprofError(rc, "%s: rank-summary failed after %d tries (%d of %d traces "
                           "failed): %s" % (traces[i], a.retries + 1, len(failed),
                                            len(traces), e))
    return outs, secs


def tree_reduce(client, a, gpuprof, mode, summaries, odir, tdir):
    """Merges the summaries, fan-in at a time, level by level, into
    odir/merged.json; returns the seconds the merges took."""
    from distributed import wait
    level = [(p, 0.0) for p in summaries]
    secs = 0.0
    depth = 0
    while True:
        groups = [level[i:i + a.fan_in] for i in range(0, len(level), a.fan_in)]
        last = len(groups) == 1
        nxt = []
        for j, g in enumerate(groups):
            out = os.path.join(odir, "merged.json") if last else \
                os.path.join(tdir, "L%d-%05d.json" % (depth, j))
            nxt.append(client.submit(merge, gpuprof, mode, out, *g,
                                     key="gpuprof-merge-%d-%d" % (depth, j),
                                     retries=a.retries, pure=False))
        wait(nxt)
        bad = [f for f in nxt if f.status == "error"]
        if bad:
            e = bad[0].exception()
            rc = e.rc if isinstance(e, GpuprofError) else 1
            raise GpuprofError(rc, "rank-summary --merge failed after %d tries: %s" %
                               (a.retries + 1, e))
        futs_level = [f.result() for f in nxt]
        secs += sum(s for _, s in futs_level)
        depth += 1
        if not a.quiet:
            sys.stderr.write("%s: reduce level %d: %d merge%s\n" %
                             (PROG, depth, len(nxt), "" if len(nxt) == 1 else "s"))
        if last:
            return secs
        level = futs_level


def start_client(a):
    from distributed import Client, LocalCluster
    if a.scheduler:
        return Client(a.scheduler, timeout=30), None
    # the workers' own log lines (a task that failed, to be retried) show
    # unless -q
    cluster = LocalCluster(n_workers=a.workers or 2, threads_per_worker=1, processes=True,
                           dashboard_address=None,
                           silence_logs=logging.ERROR if a.quiet else logging.WARNING)
    return Client(cluster), cluster


def main(argv):
    a = parse_args(argv)
    if importlib.util.find_spec("distributed") is None:
        return fail(2, "needs Dask distributed (Debian: apt-get install python3-distributed) "
                    "under %s" % sys.executable)
    gpuprof = find_gpuprof(a.gpuprof)
    if not gpuprof:
        return fail(2, "no gpuprof binary: give --gpuprof PATH or $GPUPROF")
    traces = [os.path.abspath(t) for t in a.traces]
    seen = set()
    for t in traces:
        if not os.path.isfile(t):
            return fail(2, "%s: no such file" % t)
        if t in seen:
            return fail(2, "%s: given twice (each rank once)" % t)
        seen.add(t)
    odir = os.path.abspath(a.output)
    sdir = os.path.join(odir, "summaries")
    tdir = os.path.join(odir, "reduce.tmp")
    try:
        os.makedirs(sdir, exist_ok=True)
        os.makedirs(tdir, exist_ok=True)
    except OSError as e:
        return fail(2, "%s: %s" % (odir, e.strerror))
    mode = ["--tb-compat"] if a.tb_compat else []
    t0 = time.perf_counter()
    try:
        client, cluster = start_client(a)
    except (OSError, TimeoutError) as e:
        return fail(1, "cannot start or reach the Dask cluster: %s" % e)
    t1 = time.perf_counter()
    try:
        summaries, map_secs = map_traces(client, a, gpuprof, mode, traces, sdir)
        t2 = time.perf_counter()
        red_secs = tree_reduce(client, a, gpuprof, mode, summaries, odir, tdir)
        t3 = time.perf_counter()
    except GpuprofError as e:
        return fail(e.rc if e.rc == 2 else 1, str(e))
    finally:
        client.close()
        if cluster:
            cluster.close()
    shutil.rmtree(tdir, ignore_errors=True)
    ext = {"table": "txt", "csv": "csv", "json": "json"}[a.format]
    out = os.path.join(odir, "dist." + ext)
    try:
        run_gpuprof([gpuprof, "-q", "dist"] + mode + ["--format", a.format,
                                                      os.path.join(odir, "merged.json"),
                                                      "-o", out])
    except GpuprofError as e:
        return fail(e.rc if e.rc == 2 else 1, "dist: %s" % e)
    t4 = time.perf_counter()
    if not a.quiet:
        n = len(traces)
        nw = a.workers or 2
        sys.stderr.write(
            "%s: %d ranks: cluster %.2f s, map %.2f s (sum of the map tasks %.2f s), "
            "reduce %.2f s (merges %.2f s), dist %.2f s, total %.2f s\n" %
            (PROG, n, t1 - t0, t2 - t1, sum(map_secs), t3 - t2, red_secs, t4 - t3, t4 - t0))
        if not a.scheduler:
            per = sum(map_secs) / nw
            sys.stderr.write("%s: over the sum of the map tasks / %d workers: map + reduce "
                             "%.2f, total %.2f\n" % (PROG, nw, (t3 - t1) / per, (t4 - t0) / per))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
