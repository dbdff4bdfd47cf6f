#!/usr/bin/env python3
"""Distributed-view replay against torch-tb-profiler (see tests/tbprof/dist.sh).

Usage: dist.py GPUPROF SHARED_DATA

Runs `GPUPROF dist --tb-compat --format json` on
  - the upstream distributed test cases in tbprof/cases (all workers of a
    case in one run), checking every value the upstream test asserts
    (<case>.expected.json: flags, node counts, step costs through
    `GPUPROF steps --tb-compat`, overlap, wait and comm-op rows) and every
    distributed number of the reference dump (<case>.reference.json: per
    worker flags, used devices and comm_overlap_costs; the `distributed`
    block: gpu_info, steps_to_overlap and steps_to_wait with their `all`
    rows, comm_ops rows, total_comm_stats and step_comm_stats);
  - the real 2-rank HTA pair trace_filter/sampled_rank-{0,1}.json.gz, in both
    modes, against values this script computes from the raw JSON on its own
    (collective calls, bytes, latencies and data-transfer times per name,
    ranks, and that each step's four overlap parts add up to the step).
Times in the references are µs; gpuprof prints ns. Floats compare as the
upstream tests do (round(a - b, 7) == 0). Prints one line per failed check
(every check with TBDIST_VERBOSE=1) and the closing line
"tbdist: N passed, N failed". Standard library only.
"""
import gzip
import json
import os
import subprocess
import sys

ROLES = ['Kernel', 'Memcpy', 'Memset', 'Communication', 'Runtime', 'DataLoader', 'CpuOp',
         'Other', 'Total']
COLS = ['kernel_ns', 'memcpy_ns', 'memset_ns', 'communication_ns', 'runtime_ns',
        'dataloader_ns', 'cpu_exec_ns', 'other_ns', 'total_ns']
OV = ['computation_ns', 'overlap_ns', 'communication_ns', 'other_ns']
TB_COLL = {lib + ':' + op for lib in ('nccl', 'gloo')
           for op in ('broadcast', 'reduce', 'all_reduce', 'all_gather', 'reduce_scatter')}
TB_SIZES = {'long int': 8, 'float': 4, 'int': 4, 'c10::Half': 2, 'c10::BFloat16': 2,
            'unsigned char': 1}
MODERN_SIZES = dict(TB_SIZES, **{'long': 8, 'signed char': 1})  # the ones in the HTA pair


class Tally:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, ok, detail=''):
        if ok:
            self.passed += 1
            if os.environ.get('TBDIST_VERBOSE'):
                print('ok %s' % name)
        else:
            self.failed += 1
            print('FAIL %s%s' % (name, ': ' + detail if detail else ''))
        return ok


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return round(a - b, 7) == 0


def all_close(a, b):
    return len(a) == len(b) and all(close(x, y) for x, y in zip(a, b))


def run_json(gpuprof, args):
    p = subprocess.run([gpuprof] + args + ['--format', 'json', '-q'], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, check=False)
    if p.returncode != 0:
        raise RuntimeError('%s failed (exit %d): %s' % (' '.join(args), p.returncode,
                                                       p.stderr.decode(errors='replace')))
    return json.loads(p.stdout)


class Dist:
    """gpuprof's distributed view of some traces; workers by input index."""

    def __init__(self, gpuprof, paths, compat):
        self.out = run_json(gpuprof, ['dist'] + (['--tb-compat'] if compat else []) + paths)
        self.workers = self.out['workers']
        self.names = [w['worker'] for w in self.workers]

    def overlap(self, i):
        """{step: [4 µs]}, 'all' for the average (overlap_average)."""
        rows = [r for r in self.out['overlap'] if r['worker'] == self.names[i]]
        avg = [r for r in self.out['overlap_average'] if r['worker'] == self.names[i]]
        got = {r['step']: [r[c] / 1000 for c in OV] for r in rows}
        got.update({'all': [r[c] / 1000 for c in OV] for r in avg})
        return got

    def wait(self, i):
        rows = [r for r in self.out['waittime'] if r['worker'] == self.names[i]]
        rows += [dict(r, step='all') for r in self.out['waittime_average']
                 if r['worker'] == self.names[i]]
        return {r['step']: [r['data_transfer_ns'] / 1000, r['synchronizing_ns'] / 1000]
                for r in rows}

    def ops(self, i):
        return [[r['name'], r['calls'], r['bytes'], r['avg_bytes'], r['latency_ns'] / 1000,
                 r['avg_latency_ns'] / 1000, r['transfer_ns'] / 1000,
                 r['avg_transfer_ns'] / 1000]
                for r in self.out['commops'] if r['worker'] == self.names[i]]


def rows_equal(got, want):
    """Comm-op rows: name, calls and bytes exact, times within tolerance."""
    return len(got) == len(want) and all(
        g[:4] == w[:4] and all_close(g[4:], w[4:]) for g, w in zip(got, want))


def check_expected(t, case, d, exp, gpuprof, cases):
    e = exp['expected']
    workers = [inp['worker'] for inp in exp['inputs']]
    per = e.get('per_worker', {w: e for w in workers})
    for i, inp in enumerate(exp['inputs']):
        w = inp['worker']
        pw = per.get(w, {})
        name = '%s/%s' % (case, w)
        if 'has_communication' in pw.get('flags', {}):
            t.check(name + ' has_communication',
                    d.workers[i]['has_communication'] == pw['flags']['has_communication'],
                    '%s' % d.workers[i]['has_communication'])
        if 'comm_node_count' in pw:
            t.check(name + ' comm_node_count', d.workers[i]['comm_ops'] == pw['comm_node_count'],
                    '%s, want %s' % (d.workers[i]['comm_ops'], pw['comm_node_count']))
        if 'steps_costs' in pw or 'steps_costs_full' in pw:
            steps = [r for r in run_json(gpuprof, ['steps', '--tb-compat',
                                                   os.path.join(cases, inp['file'])])['steps']
                     if r['step'] != 'average']
            for j, want in enumerate(pw.get('steps_costs', [])):
                for role, v in want.items():
                    got = steps[j][COLS[ROLES.index(role)]] / 1000 if j < len(steps) else None
                    t.check('%s steps_costs[%d].%s' % (name, j, role), close(got, v),
                            '%s, want %s' % (got, v))
            for j, want in enumerate(pw.get('steps_costs_full', [])):
                got = [steps[j][c] / 1000 for c in COLS] if j < len(steps) else []
                t.check('%s steps_costs_full[%d]' % (name, j), all_close(got, want),
                        '%s, want %s' % (got, want))
    dist = e.get('distributed', {})
    for step, byw in dist.get('steps_to_overlap', {}).items():
        for w, want in byw.items():
            got = d.overlap(workers.index(w)).get(step)
            t.check('%s overlap[%s][%s]' % (case, step, w), got is not None and all_close(got, want),
                    '%s, want %s' % (got, want))
    for step, byw in dist.get('steps_to_wait', {}).items():
        for w, want in byw.items():
            got = d.wait(workers.index(w)).get(step)
            t.check('%s wait[%s][%s]' % (case, step, w), got is not None and all_close(got, want),
                    '%s, want %s' % (got, want))
    for w, want in dist.get('comm_ops_rows', {}).items():
        got = d.ops(workers.index(w))
        t.check('%s comm_ops_rows[%s]' % (case, w), rows_equal(got, want),
                '%s, want %s' % (got, want))


def sentinel_step(ref):
    """The plugin's step when a trace has no ProfilerStep, cpu_op or python
    event: (sys.maxsize, -sys.maxsize - 1). gpuprof has no step there
    (docs/tb-compat.md), checked as such."""
    return len(ref['steps']) == 1 and ref['steps'][0]['start'] == sys.maxsize


def check_reference(t, case, d, exp, ref):
    workers = [inp['worker'] for inp in exp['inputs']]
    for i, w in enumerate(workers):
        r = ref[w]
        name = '%s/%s ref' % (case, w)
        t.check(name + ' has_communication',
                d.workers[i]['has_communication'] == r['flags']['has_communication'])
        gpus = [int(x) for x in d.workers[i]['gpus'].split(',') if x]
        t.check(name + ' used_devices', gpus == r['flags']['used_devices'],
                '%s, want %s' % (gpus, r['flags']['used_devices']))
        ov = d.overlap(i)
        if sentinel_step(r):
            t.check(name + ' no host events: no step', ov == {} and d.workers[i]['steps'] == 0,
                    '%s' % ov)
            continue
        t.check(name + ' steps', d.workers[i]['steps'] == len(r['steps']))
        for s, c in zip(r['steps'], r['comm_overlap_costs']):
            got = ov.get(s['name'])
            want = [c['computation'] - c['overlap'], c['overlap'],
                    c['communication'] - c['overlap'], c['other']]
            t.check('%s comm_overlap_costs[%s]' % (name, s['name']),
                    got is not None and all_close(got, want), '%s, want %s' % (got, want))
    dist = ref.get('distributed')
    if dist is None:
        return
    t.check(case + ' ref gpu_info', (dist['gpu_info'] is None) == (d.out['gpus'] == []),
            '%s' % d.out['gpus'])
    for key, fn in (('steps_to_overlap', d.overlap), ('steps_to_wait', d.wait)):
        data = dist[key]['data']
        for i, w in enumerate(workers):
            got = fn(i)
            want = {s: byw[w] for s, byw in data.items() if w in byw}
            t.check('%s ref %s[%s]' % (case, key, w), sorted(got) == sorted(want) and all(
                all_close(got[s], want[s]) for s in want), '%s, want %s' % (got, want))
    for i, w in enumerate(workers):
        got = d.ops(i)
        t.check('%s ref comm_ops[%s]' % (case, w),
                rows_equal(got, dist['comm_ops']['data'][w]['rows']),
                '%s, want %s' % (got, dist['comm_ops']['data'][w]['rows']))
        tot = {r[0]: [r[1], r[2], r[4], r[6]] for r in got}
        want = dist['total_comm_stats'][w]
        t.check('%s ref total_comm_stats[%s]' % (case, w), list(tot) == list(want) and all(
            tot[k][:2] == want[k][:2] and all_close(tot[k][2:], want[k][2:]) for k in want),
            '%s, want %s' % (tot, want))
        wt = {s: [v[0] + v[1], v[0]] for s, v in d.wait(i).items() if s != 'all'}
        want = dist['step_comm_stats'][w]
        t.check('%s ref step_comm_stats[%s]' % (case, w), sorted(wt) == sorted(want) and all(
            all_close(wt[s], want[s]) for s in want), '%s, want %s' % (wt, want))


# ---- the HTA pair, from the raw JSON

def ext_of(e):
    a = e.get('args', {})
    return a.get('External id', a.get('external id'))


def ns(x):
    """µs (int or float text) -> int ns, exact for these traces' values."""
    return round(x * 1000)


def merged_total(ranges):
    total, cur = 0, None
    for s, e in sorted(ranges):
        if cur is None or s > cur[1]:
            if cur:
                total += cur[1] - cur[0]
            cur = [s, e]
        elif e > cur[1]:
            cur[1] = e
    return total + (cur[1] - cur[0] if cur else 0)


def tb_bytes(e, sizes=None):
    sizes = sizes or TB_SIZES
    a = e.get('args', {})
    dims, types, total = a.get('Input Dims', []), a.get('Input type', []), 0
    for i, d in enumerate(dims):
        n = 1
        for x in d:
            n *= x
        total += n * sizes.get(types[i] if i < len(types) else '', 0)
    return total


def tb_nodes(events):
    """The plugin's communication nodes: (name, start, end, ext, bytes)."""
    nodes = {}
    for e in sorted(events, key=lambda e: e['ts']):
        if e.get('ph') == 'X' and e.get('cat', '').lower() in (
                'cpu_op', 'operator', 'user_annotation', 'gpu_user_annotation', 'python') \
                and e['name'] in TB_COLL:
            nodes[ext_of(e)] = (e['name'], ns(e['ts']), ns(e['ts']) + ns(e['dur']), ext_of(e),
                                tb_bytes(e))
    return sorted(nodes.values(), key=lambda n: (n[1], -n[2]))


def modern_calls(events):
    """Default mode's calls in this trace: each c10d:: op holds one nccl:
    annotation (its name) and launches NCCL kernels through runtimes on its
    thread. Returns [(name, bytes, [ranges sorted by (start, -end)])]."""
    runtimes = {e['args']['correlation']: e for e in events
                if e.get('cat') == 'cuda_runtime' and 'correlation' in e.get('args', {})}
    ops = [e for e in events if e.get('ph') == 'X' and e.get('cat') == 'cpu_op'
           and e['name'].startswith('c10d::')]
    annots = [e for e in events if e.get('cat') == 'user_annotation'
              and e['name'].startswith('nccl:')]
    kernels = [e for e in events if e.get('cat') == 'kernel' and e['name'].startswith('nccl')]
    calls = []
    for op in ops:
        s, t_end = ns(op['ts']), ns(op['ts']) + ns(op['dur'])
        inside = [a for a in annots if a['tid'] == op['tid'] and s <= ns(a['ts']) and
                  ns(a['ts']) + ns(a['dur']) <= t_end]
        ranges = [(s, t_end)]
        for k in kernels:
            rt = runtimes.get(k['args']['correlation'])
            if rt and rt['tid'] == op['tid'] and s <= ns(rt['ts']) and \
                    ns(rt['ts']) + ns(rt['dur']) <= t_end:
                ranges.append((ns(k['ts']), ns(k['ts']) + ns(k['dur'])))
        calls.append((inside[0]['name'], tb_bytes(inside[0], MODERN_SIZES), s, t_end,
                      sorted(ranges, key=lambda r: (r[0], -r[1]))))
    calls.sort(key=lambda c: (c[2], -c[3]))
    return [(c[0], c[1], c[4]) for c in calls], len(kernels)


def real_ranges(per_rank, names, by_name):
    """per_rank: [[ranges of node i]]; nodes matched by index (tb-compat) or
    the k-th call of a name with the k-th call of that name (default) ->
    per rank [(node, real range)]."""
    keys = [[(n if by_name else '', names[r][:i].count(n) if by_name else i)
             for i, n in enumerate(names[r])] for r in range(len(per_rank))]
    out = [[] for _ in per_rank]
    for i, key in enumerate(keys[0]):
        idx = [keys[r].index(key) for r in range(len(per_rank))]
        for j in range(len(per_rank[0][i])):
            m = min(per_rank[r][idx[r]][j][1] - per_rank[r][idx[r]][j][0]
                    for r in range(len(per_rank)))
            for r in range(len(per_rank)):
                g = per_rank[r][idx[r]][j]
                out[r].append((idx[r], (g[1] - m, g[1])))
    return out


def per_name(names, ranges, real):
    """{name: [calls, latency, transfer]} (ns) in first-appearance order."""
    out = {}
    for i, n in enumerate(names):
        out.setdefault(n, [0, [], []])
        out[n][0] += 1
        out[n][1] += ranges[i]
        out[n][2] += [g for k, g in real if k == i]
    return {n: [v[0], merged_total(v[1]), merged_total(v[2])] for n, v in out.items()}


def check_hta(t, gpuprof, data):
    base = os.path.join(data, 'torch', 'hta', 'tests', 'data', 'trace_filter')
    paths = [os.path.join(base, 'sampled_rank-%d.json.gz' % r) for r in (0, 1)]
    raw = [json.load(gzip.open(p)) for p in paths]
    events = [r['traceEvents'] for r in raw]
    for compat in (True, False):
        mode = 'hta %s' % ('tb-compat' if compat else 'default')
        docs = [run_json(gpuprof, ['steps'] + (['--tb-compat'] if compat else []) + [p])
                for p in paths]
        # by default steps count from the trace's start; on its clock here
        steps = [[dict(st, start_ns=st['start_ns'] + t0, end_ns=st['end_ns'] + t0)
                  for st in doc['steps']]
                 for doc in docs
                 for t0 in [0 if compat else int(doc['step_detection']['trace_start_ns'])]]
        try:
            d = Dist(gpuprof, paths, compat)
        except (RuntimeError, ValueError, KeyError) as e:
            t.check(mode, False, str(e))
            continue
        if compat:
            nodes = [tb_nodes(ev) for ev in events]
            ids = [{n[3] for n in ns_} for ns_ in nodes]
            stray = [sum(1 for e in ev if e.get('cat') == 'kernel' and ext_of(e) in ids[k])
                     for k, ev in enumerate(events)]
            t.check(mode + ' no kernel shares a collective external id', stray == [0, 0],
                    '%s' % stray)
            names = [[n[0] for n in ns_] for ns_ in nodes]
            ranges = [[[(n[1], n[2])] for n in ns_] for ns_ in nodes]
            byts = [[n[4] for n in ns_] for ns_ in nodes]
        else:
            mc = [modern_calls(ev) for ev in events]
            t.check(mode + ' NCCL kernels all attached', all(
                sum(len(c[2]) - 1 for c in calls) == nk for calls, nk in mc),
                '%s' % [(sum(len(c[2]) - 1 for c in calls), nk) for calls, nk in mc])
            names = [[c[0] for c in calls] for calls, _ in mc]
            ranges = [[c[2] for c in calls] for calls, _ in mc]
            byts = [[c[1] for c in calls] for calls, _ in mc]
        if compat:  # nodes are matched by index: the names must agree
            t.check(mode + ' same names in the same order on both ranks', names[0] == names[1])
        else:  # by name and call index: the counts per name must agree
            t.check(mode + ' same calls per name on both ranks',
                    sorted(names[0]) == sorted(names[1]) and names[0] != names[1])
        real = real_ranges(ranges, names, not compat)
        for k in range(2):
            w = d.workers[k]
            t.check('%s rank %d distributedInfo' % (mode, k),
                    (w['rank'], w['world_size'], w['backend']) == (k, 128, 'nccl'), '%s' % w)
            t.check('%s rank %d calls' % (mode, k), w['comm_ops'] == len(names[k]) and
                    w['unmatched_ops'] == 0, '%s' % w)
            want = per_name(names[k], ranges[k], real[k])
            got = {r[0]: [r[1], round(r[4] * 1000), round(r[6] * 1000)] for r in d.ops(k)}
            t.check('%s rank %d comm ops (calls, latency, transfer)' % (mode, k),
                    list(got) == list(want) and got == want, '%s, want %s' % (got, want))
            wb = {n: 0 for n in names[k]}
            for n, b in zip(names[k], byts[k]):
                wb[n] = wb.get(n, 0) + b
            gb = {r[0]: r[2] for r in d.ops(k)}
            t.check('%s rank %d bytes' % (mode, k), gb == wb, '%s, want %s' % (gb, wb))
            total = {r['step']: r['total_ns'] for r in steps[k] if r['step'] != 'average'}
            rows = [r for r in d.out['overlap'] if r['worker'] == d.names[k]
                    and r['step'] != 'average']
            t.check('%s rank %d overlap parts add up to each step' % (mode, k),
                    len(rows) == len(total) == 2 and all(
                        sum(r[c] for c in OV) == total[r['step']] for r in rows),
                    '%s, steps %s' % (rows, total))
            wrows = {r['step']: [r['data_transfer_ns'], r['synchronizing_ns']]
                     for r in d.out['waittime'] if r['worker'] == d.names[k]
                     and r['step'] != 'average'}
            wwant = {}
            for st in steps[k]:
                if st['step'] == 'average':
                    continue
                inside = [i for i, rg in enumerate(ranges[k])
                          if st['start_ns'] <= rg_cpu(rg) and rg_cpu_end(rg) <= st['end_ns']]
                if inside:
                    comm = merged_total([g for i in inside for g in ranges[k][i]])
                    xfer = merged_total([g for i, g in real[k] if i in inside])
                    wwant[st['step']] = [xfer, comm - xfer]
            t.check('%s rank %d wait (transfer, synchronizing) per step' % (mode, k),
                    wrows == wwant, '%s, want %s' % (wrows, wwant))


def rg_cpu(ranges):
    """A node's first range is its CPU op's (its kernels start later)."""
    return ranges[0][0]


def rg_cpu_end(ranges):
    return ranges[0][1]


def main():
    gpuprof, data = sys.argv[1], sys.argv[2]
    t = Tally()
    cases = os.path.join(data, 'tbprof', 'cases')
    for case in sorted(f[:-len('.expected.json')] for f in os.listdir(cases)
                       if f.startswith('test_distributed') and f.endswith('.expected.json')):
        exp = json.load(open(os.path.join(cases, case + '.expected.json')))
        ref = json.load(open(os.path.join(cases, case + '.reference.json')))
        paths = [os.path.join(cases, inp['file']) for inp in exp['inputs']]
        try:
            d = Dist(gpuprof, paths, True)
            check_expected(t, case, d, exp, gpuprof, cases)
            check_reference(t, case, d, exp, ref)
        except (RuntimeError, ValueError, KeyError, IndexError) as e:
            t.check(case, False, '%s: %s' % (type(e).__name__, e))
    hta = os.path.join(data, 'torch', 'hta', 'tests', 'data', 'trace_filter')
    if os.path.isdir(hta):
        check_hta(t, gpuprof, data)
    else:
        t.check('hta pair present', False, 'no %s' % hta)
    print('tbdist: %d passed, %d failed' % (t.passed, t.failed))
    return 1 if t.failed else 0


if __name__ == '__main__':
    sys.exit(main())
