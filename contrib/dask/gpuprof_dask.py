#!/usr/bin/python3
"""gpuprof's distributed view of many ranks, with the map on a Dask cluster.

    gpuprof_dask.py TRACE... -o OUTDIR [--scheduler ADDR | --workers N]

1. Map: `gpuprof rank-summary TRACE -o OUTDIR/summaries/NNNNN.json` on
   the cluster's workers (a LocalCluster of N worker processes, or the
   cluster of an existing scheduler), --batch traces per task (default:
   about 4 tasks per worker). While a LocalCluster starts, the driver
   runs the first traces itself, N at a time, so that the start-up costs
   no idle time. A failed trace is tried again, --retries times (default
   2), on any worker.
2. Reduce: `gpuprof rank-summary --merge` over groups of --fan-in summaries
   (default 16), then over groups of those, as Dask tasks, down to
   OUTDIR/merged.json. Summaries merge associatively and commutatively, so
   the tree gives the same bytes as one merge of them all.
3. `gpuprof dist OUTDIR/merged.json` into OUTDIR/dist.txt (or .csv, .json
   with --format), here, in the driver's process, while the cluster shuts
   down.

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
import threading
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
    """One trace's rank summary; its seconds, or GpuprofError."""
    return run_gpuprof([gpuprof, "-q", "rank-summary"] + mode + [trace, "-o", out])


class BatchError(Exception):
    """The traces of a batch that failed: [(index, rc, message)]."""

    def __init__(self, failed):
        super().__init__(failed)
        self.failed = failed

    def __str__(self):
        return self.failed[0][2]


def summarise_batch(gpuprof, mode, jobs):
    """The map task: the summaries of jobs [(index, trace, out)], every one
    tried; [(index, seconds)], or BatchError naming those that failed (a
    retry runs the whole batch again: the outputs are written atomically)."""
    done, failed = [], []
    for i, trace, out in jobs:
        try:
            done.append((i, summarise(gpuprof, mode, trace, out)))
        except GpuprofError as e:
            failed.append((i, e.rc, e.message))
    if failed:
        raise BatchError(failed)
    return done


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
    ap.add_argument("--batch", type=int, metavar="N",
                    help="traces per map task (default: about 4 tasks per worker)")
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
    if a.batch is not None and a.batch < 1:
        ap.error("--batch needs at least 1")
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

    def step(self, k=1):
        self.done += k
        tenth = self.done * 10 // self.n
        if not self.quiet and (tenth > self.shown or self.done == self.n):
            self.shown = tenth
            sys.stderr.write("%s: %s %d/%d\n" % (PROG, self.what, self.done, self.n))
            sys.stderr.flush()


class Map:
    """The map's state: which traces are done (their seconds), which failed
    for good, how many tries each has left."""

    def __init__(self, a, traces, sdir):
        self.traces = traces
        self.outs = [os.path.join(sdir, "%05d.json" % i) for i in range(len(traces))]
        self.secs = [0.0] * len(traces)
        self.left = [a.retries] * len(traces)  # tries left after the next one
        self.failed = {}  # index: (rc, message)
        self.prog = Progress("map", len(traces), a.quiet)


def map_local(m, gpuprof, mode, nproc, ready):
    """Runs traces here, from the first, in nproc threads, until ready()
    (the cluster is up) or none is left; returns the next trace's index. A
    failure uses up a try: the trace goes to the cluster with one less."""
    lock = threading.Lock()
    nxt = [0]

    def work():
        while True:
            with lock:
                if nxt[0] >= len(m.traces) or ready():
                    return
                i = nxt[0]
                nxt[0] += 1
            try:
                secs = summarise(gpuprof, mode, m.traces[i], m.outs[i])
            except GpuprofError as e:
                with lock:
                    if m.left[i] == 0:
                        m.failed[i] = (e.rc, e.message)
                        m.prog.step()
                    else:
                        m.left[i] -= 1
                        m.redo.append(i)
                continue
            with lock:
                m.secs[i] = secs
                m.prog.step()

    ths = [threading.Thread(target=work, daemon=True) for _ in range(nproc)]
    for t in ths:
        t.start()
    for t in ths:
        t.join()
    return nxt[0]


def map_cluster(client, a, m, gpuprof, mode, todo, nworkers):
    """Submits the traces todo (indexes) in batches and waits for them."""
    from distributed import as_completed
    size = a.batch or max(1, -(-len(todo) // (4 * max(1, nworkers))))
    groups = {}
    for i in todo:  # a batch's traces have the same tries left
        groups.setdefault(m.left[i], []).append(i)
    futs, which = [], {}
    for left, idx in sorted(groups.items()):
        for b in range(0, len(idx), size):
            jobs = [(i, m.traces[i], m.outs[i]) for i in idx[b:b + size]]
            f = client.submit(summarise_batch, gpuprof, mode, jobs,
                              key="gpuprof-summary-%d" % jobs[0][0], retries=left,
                              pure=False)
            futs.append(f)
            which[f.key] = jobs
    for f in as_completed(futs):
        jobs = which[f.key]
        if f.status == "error":
            e = f.exception()
            bad = e.failed if isinstance(e, BatchError) else \
                [(i, 1, str(e)) for i, _, _ in jobs]
            for i, rc, msg in bad:
                m.failed[i] = (rc, msg)
            m.prog.step(len(jobs))
        else:
            for i, secs in f.result():
                m.secs[i] = secs
            m.prog.step(len(jobs))


def map_traces(client_of, a, gpuprof, mode, traces, sdir, nproc):
    """The map: the first traces here while client_of(wait=False) is None
    (a cluster still starting), the rest on the cluster. Returns (summary
    paths in trace order, [seconds]) or raises GpuprofError naming the
    first trace that failed for good."""
    m = Map(a, traces, sdir)
    m.redo = []
    nxt = map_local(m, gpuprof, mode, nproc, lambda: client_of(False) is not None) \
        if nproc else 0
    todo = m.redo + list(range(nxt, len(traces)))
    if todo:
        client = client_of(True)
        nworkers = len(client.scheduler_info().get("workers", {})) or 1
        map_cluster(client, a, m, gpuprof, mode, todo, nworkers)
    if m.failed:
        i = min(m.failed)
        rc, msg = m.failed[i]
        raise GpuprofError(rc, "%s: rank-summary failed after %d tries (%d of %d traces "
                           "failed): %s" % (traces[i], a.retries + 1, len(m.failed),
                                            len(traces), msg))
    return m.outs, m.secs


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
    import dask
    # Workers forked from a fork server (one fresh interpreter that has
    # imported distributed): they start in a fraction of the time of spawned
    # ones, yet inherit nothing of this process. Forked from this process
    # itself, a worker would hold the write end of the stderr pipe of a
    # rank-summary that a map thread has running, and that thread would wait
    # for its end of file for ever.
    if "forkserver" in __import__("multiprocessing").get_all_start_methods():
        dask.config.set({"distributed.worker.multiprocessing-method": "forkserver"})
    # the workers' own log lines (a task that failed, to be retried) show
    # unless -q
    # dashboard_address None still binds the scheduler's HTTP routes to
    # :8787 (and warns when another cluster holds it): any free port
    cluster = LocalCluster(n_workers=a.workers or 2, threads_per_worker=1, processes=True,
                           dashboard_address=":0",
                           silence_logs=logging.ERROR if a.quiet else logging.WARNING)
    return Client(cluster), cluster


class Starter:
    """Starts the client in a thread; get(True) waits for it (and raises
    what the start raised), get(False) is None until it is up."""

    def __init__(self, a):
        self.res, self.err, self.t = None, None, None
        self.th = threading.Thread(target=self._run, args=(a,), daemon=True)
        self.th.start()

    def _run(self, a):
        try:
            self.res = start_client(a)
        except BaseException as e:  # handed to the main thread
            self.err = e
        self.t = time.perf_counter()

    def get(self, wait):
        if wait:
            self.th.join()
        elif self.th.is_alive():
            return None
        if self.err:
            raise self.err
        return self.res[0]


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
    starter = Starter(a)
    client = cluster = None
    reduced = False
    try:
        # while a LocalCluster starts, its worker count of traces run here
        nproc = 0 if a.scheduler else (a.workers or 2)
        summaries, map_secs = map_traces(starter.get, a, gpuprof, mode, traces, sdir, nproc)
        client, cluster = starter.get(True), starter.res[1]
        t2 = time.perf_counter()
        red_secs = tree_reduce(client, a, gpuprof, mode, summaries, odir, tdir)
        t3 = time.perf_counter()
        reduced = True
    except (OSError, TimeoutError) as e:
        return fail(1, "cannot start or reach the Dask cluster: %s" % e)
    except GpuprofError as e:
        return fail(e.rc if e.rc == 2 else 1, str(e))
    finally:
        if client is None and starter.res:
            client, cluster = starter.res
        dist_p = None
        if reduced:
            # dist runs while the cluster shuts down
            ext = {"table": "txt", "csv": "csv", "json": "json"}[a.format]
            out = os.path.join(odir, "dist." + ext)
            dist_p = subprocess.Popen([gpuprof, "-q", "dist"] + mode +
                                      ["--format", a.format, os.path.join(odir, "merged.json"),
                                       "-o", out], stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE)
        if client is not None:
            client.close()
        if cluster:
            cluster.close()
    t_close = time.perf_counter()
    shutil.rmtree(tdir, ignore_errors=True)
    err = dist_p.communicate()[1]
    if dist_p.returncode != 0:
        lines = err.decode("utf-8", "replace").strip().splitlines()
        msg = lines[-1] if lines else "exit status %d" % dist_p.returncode
        return fail(dist_p.returncode if dist_p.returncode == 2 else 1, "dist: %s" % msg)
    t4 = time.perf_counter()
    if not a.quiet:
        n = len(traces)
        nw = a.workers or 2
        t1 = starter.t or t0
        sys.stderr.write(
            "%s: %d ranks: cluster up after %.2f s, map %.2f s (sum of the map tasks %.2f s), "
            "reduce %.2f s (merges %.2f s), dist and shutdown %.2f s (shutdown %.2f s), "
            "total %.2f s\n" %
            (PROG, n, t1 - t0, t2 - t0, sum(map_secs), t3 - t2, red_secs, t4 - t3,
             t_close - t3, t4 - t0))
        if not a.scheduler:
            per = sum(map_secs) / nw
            sys.stderr.write("%s: over the sum of the map tasks / %d workers: map + reduce "
                             "%.2f, total %.2f\n" % (PROG, nw, (t3 - t0) / per, (t4 - t0) / per))
    return 0


if __name__ == "__main__":
    rc = main(sys.argv[1:])
    # The cluster is closed and every file written: skip the interpreter's
    # teardown of Dask's threads and handlers (about a second here).
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(rc)
