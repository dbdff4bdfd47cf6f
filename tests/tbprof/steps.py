#!/usr/bin/env python3
"""Overview replay against torch-tb-profiler (see tests/tbprof/steps.sh).

Usage: steps.py GPUPROF SHARED_DATA

Runs `GPUPROF steps --tb-compat` and `GPUPROF summary --tb-compat --timeline`
(JSON) on
  - every upstream test case in tbprof/cases (each worker's trace), checking
    the values the upstream test asserts (<case>.expected.json) and the
    reference dump's numbers (<case>.reference.json: steps, step costs,
    averages, flags, GPU metrics, utilization buckets, SM-efficiency ranges,
    the overview's `performance` block and the GPU Summary strings);
  - the four ResNet-50 sample traces against tbprof/samples dumps, and the
    span-1 traces against upstream/result_check_file.txt's overview lines.
Times in the references are µs; gpuprof prints ns. Floats compare as the
upstream tests do (round(a - b, 7) == 0); rounded values (round() is
half-to-even in both Python and the plugin) and strings compare exactly.
Prints one line per failed check (every check with TBSTEPS_VERBOSE=1) and
the closing line
"tbsteps: N passed, N failed". Standard library only.
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
UNIT_NS = {'us': 1000, 'ms': 1000000, 's': 1000000000}


class Tally:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, name, ok, detail=''):
        if ok:
            self.passed += 1
            if os.environ.get('TBSTEPS_VERBOSE'):
                print('ok %s' % name)
        else:
            self.failed += 1
            print('FAIL %s%s' % (name, ': ' + detail if detail else ''))
        return ok


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return round(a - b, 7) == 0


class Run:
    """gpuprof's answers for one trace."""

    def __init__(self, gpuprof, path):
        self.steps = self._json(gpuprof, 'steps', path, [])
        self.summary = self._json(gpuprof, 'summary', path, ['--timeline'])
        rows = self.steps['steps']
        self.rows = rows
        self.avg_row = self.steps['steps_average']
        self.flags = self.steps['step_detection']
        self.gpus = {g['gpu']: g for g in self.summary['gpus'] if g['kernels'] > 0}

    @staticmethod
    def _json(gpuprof, cmd, path, opts):
        p = subprocess.run([gpuprof, cmd, '--tb-compat'] + opts + ['--format', 'json', '-q', path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
        if p.returncode != 0:
            raise RuntimeError('%s %s failed (exit %d): %s' % (cmd, path, p.returncode,
                                                             p.stderr.decode(errors='replace')))
        return json.loads(p.stdout)

    def costs_us(self, i):
        return [self.rows[i][c] / 1000 for c in COLS]

    def avg_us(self, k):
        n = len(self.rows)
        return sum(r[COLS[k]] for r in self.rows) / 1000 / n if n else None

    def buckets(self, gpu):
        return [[b['start_ns'] / 1000, b['utilization']]
                for b in self.summary['gpu_utilization_timeline'] if b['gpu'] == gpu]

    def sm_ranges(self, gpu):
        return [[r['start_ns'] / 1000, r['end_ns'] / 1000, r['value']]
                for r in self.summary['sm_efficiency_ranges'] if r['gpu'] == gpu]


def lists_close(a, b):
    return len(a) == len(b) and all(
        len(x) == len(y) and all(close(p, q) for p, q in zip(x, y)) for x, y in zip(a, b))


def check_expected(t, name, run, exp):
    """The values an upstream test asserts."""
    for k, v in exp.get('flags', {}).items():
        if k in run.flags:
            t.check('%s flags.%s' % (name, k), run.flags[k] == v, '%s, want %s' % (run.flags[k], v))
    if 'steps_count' in exp:
        t.check(name + ' steps_count', len(run.rows) == exp['steps_count'],
                '%d, want %d' % (len(run.rows), exp['steps_count']))
    for i, want in enumerate(exp.get('steps_costs', [])):
        if i >= len(run.rows):
            t.check('%s steps_costs[%d]' % (name, i), False, 'no such step')
            continue
        got = run.costs_us(i)
        for role, v in want.items():
            k = ROLES.index(role)
            t.check('%s steps_costs[%d].%s' % (name, i, role), close(got[k], v),
                    '%s, want %s' % (got[k], v))
    for i, want in enumerate(exp.get('steps_costs_full', [])):
        got = run.costs_us(i) if i < len(run.rows) else None
        t.check('%s steps_costs_full[%d]' % (name, i),
                got is not None and all(close(a, b) for a, b in zip(got, want)),
                '%s, want %s' % (got, want))
    for role, v in exp.get('avg_costs', {}).items():
        got = run.avg_us(ROLES.index(role))
        t.check('%s avg_costs.%s' % (name, role), close(got, v), '%s, want %s' % (got, v))
    gm = exp.get('gpu_metrics')
    if gm:
        check_gpu_metrics(t, name, run, gm)


def check_gpu_metrics(t, name, run, gm):
    if 'gpu_ids_count' in gm:
        t.check(name + ' gpu_ids_count', len(run.gpus) == gm['gpu_ids_count'],
                '%d, want %d' % (len(run.gpus), gm['gpu_ids_count']))
    if 'gpu_ids' in gm:
        t.check(name + ' gpu_ids', sorted(run.gpus) == sorted(gm['gpu_ids']),
                '%s, want %s' % (sorted(run.gpus), gm['gpu_ids']))
    for key, col, scale in (('gpu_utilization', 'gpu_utilization_pct', 100),
                            ('est_sm_efficiency', 'est_sm_efficiency_pct', 100),
                            ('est_achieved_occupancy', 'est_achieved_occupancy_pct', 1)):
        for gid, want in gm.get(key, {}).items():
            g = run.gpus.get(int(gid))
            got = None if g is None or g[col] is None else g[col] / scale
            t.check('%s %s[%s]' % (name, key, gid), g is not None and close(got, want),
                    '%s, want %s' % (got, want))
    for gid, want in gm.get('util_buckets', {}).items():
        got = run.buckets(int(gid))
        t.check('%s util_buckets[%s]' % (name, gid), lists_close(got, want),
                '%s, want %s' % (got[:6], want[:6]))
    for gid, want in gm.get('sm_efficiency_ranges', {}).items():
        got = run.sm_ranges(int(gid))
        t.check('%s sm_efficiency_ranges[%s]' % (name, gid), lists_close(got, want),
                '%d ranges %s, want %d %s' % (len(got), got[:4], len(want), want[:4]))
    if 'util_timeline_unit' in gm and gm.get('gpu_ids'):
        size, unit = gm['util_timeline_unit']
        got = run.summary['overview'].get('timeline_bucket_ns')
        t.check(name + ' util_timeline_unit', got == size * UNIT_NS[unit],
                '%s ns, want %s %s' % (got, size, unit))


def no_host_events(ref):
    """The plugin's step when a trace has neither ProfilerStep nor cpu_op or
    python events: (sys.maxsize, -sys.maxsize - 1), a negative Total. gpuprof
    gives no step instead (docs/tb-compat.md), checked as such."""
    return len(ref['steps']) == 1 and ref['steps'][0]['start'] == sys.maxsize


def check_reference(t, name, run, ref):
    """The reference dump of the unchanged plugin code."""
    if no_host_events(ref):
        t.check(name + ' no host events: no step', run.rows == [] and run.avg_row == [] and
                run.summary['overview']['avg_step_ns'] is None and
                run.summary['breakdown'] == [], 'got %s' % run.rows)
        for k in ('has_runtime', 'has_kernel', 'has_memcpy_or_memset', 'has_communication'):
            t.check('%s ref flags.%s' % (name, k), run.flags[k] == ref['flags'][k],
                    '%s, want %s' % (run.flags[k], ref['flags'][k]))
        return
    for k in ('has_runtime', 'has_kernel', 'has_memcpy_or_memset', 'has_communication'):
        t.check('%s ref flags.%s' % (name, k), run.flags[k] == ref['flags'][k],
                '%s, want %s' % (run.flags[k], ref['flags'][k]))
    got = [(r['step'], r['start_ns'] / 1000, r['end_ns'] / 1000) for r in run.rows]
    want = [(s['name'], s['start'], s['end']) for s in ref['steps']]
    t.check(name + ' ref steps', len(got) == len(want) and all(
        a[0] == b[0] and close(a[1], b[1]) and close(a[2], b[2]) for a, b in zip(got, want)),
        '%s, want %s' % (got[:4], want[:4]))
    ok = len(run.rows) == len(ref['steps_costs'])
    for i, sc in enumerate(ref['steps_costs'][:len(run.rows)]):
        ok = ok and run.rows[i]['step'] == sc['step'] and all(
            close(a, sc[r]) for a, r in zip(run.costs_us(i), ROLES))
    t.check(name + ' ref steps_costs', ok,
            '%s, want %s' % ([run.costs_us(i) for i in range(min(2, len(run.rows)))],
                             ref['steps_costs'][:2]))
    avg = [run.avg_us(k) for k in range(len(ROLES))]
    t.check(name + ' ref avg_costs', all(close(a, ref['avg_costs'][r]) for a, r in zip(avg, ROLES)),
            '%s, want %s' % (avg, ref['avg_costs']))
    if run.avg_row:
        t.check(name + ' average row', all(
            abs(run.avg_row[0][c] - ref['avg_costs'][r] * 1000) <= 0.5 for c, r in zip(COLS, ROLES)),
            '%s, want %s' % (run.avg_row[0], ref['avg_costs']))
    check_gpu_metrics(t, name + ' ref', run, ref['gpu_metrics'])
    if 'recommendations' in ref:
        got = [r['text'] for r in run.summary['recommendations']]
        t.check(name + ' ref recommendations', got == ref['recommendations'],
                '%r, want %r' % (got, ref['recommendations']))
    tc = ref.get('tensor_cores')
    if tc is not None:
        want = {int(k): v for k, v in (tc.get('tc_ratio') or {}).items() if v is not None}
        got = {g['gpu']: float(g['tensor_cores_pct']) / 100 for g in run.summary['gpus']
               if g['tensor_cores_pct'] is not None}
        t.check(name + ' ref tensor_cores.tc_ratio', set(got) == set(want) and
                all(close(got[k], want[k]) for k in want), '%s, want %s' % (got, want))
        if tc.get('tc_eligible_ops_kernel_ratio') is not None and \
                run.summary['overview'].get('tc_eligible_pct') is not None:
            got = run.summary['overview']['tc_eligible_pct'] / 100
            t.check(name + ' ref tc_eligible_ops_kernel_ratio',
                    close(got, tc['tc_eligible_ops_kernel_ratio']),
                    '%s, want %s' % (got, tc['tc_eligible_ops_kernel_ratio']))


def check_overview(t, name, run, overview):
    """The plugin's overview response: `performance` and `gpu_metrics`."""
    if run.summary['overview']['avg_step_ns'] is None:
        return  # no step (see no_host_events), checked there
    perf = overview['performance'][0]
    ov = run.summary['overview']
    got = round(ov['avg_step_ns'] / 1000)
    t.check(name + ' Average Step Time', got == perf['value'], '%s, want %s' % (got, perf['value']))
    parts = [p for p in run.summary['breakdown'] if p['part'] != 'Total']
    t.check(name + ' breakdown parts', [p['part'] for p in parts] ==
            [c['name'] for c in perf['children']],
            '%s, want %s' % ([p['part'] for p in parts], [c['name'] for c in perf['children']]))
    for p, c in zip(parts, perf['children']):
        got = (round(p['avg_ns'] / 1000), round(float(p['pct']), 2))
        t.check('%s performance %s' % (name, c['name']), got == (c['value'], c['extra']),
                '%s, want %s' % (got, (c['value'], c['extra'])))
    check_gpu_summary(t, name, run, overview.get('gpu_metrics', {}).get('data'))
    check_recommendations_html(t, name, run, overview.get('recommendations'))


def check_recommendations_html(t, name, run, html):
    """The served recommendations: <ul><li>..</li></ul>, or N/A."""
    if html is None:
        return
    recs = [r['text'] for r in run.summary['recommendations']]
    got = '<ul>%s</ul>' % ''.join('<li>%s</li>' % r for r in (recs or ['N/A']))
    t.check(name + ' recommendations', got == html, '%r, want %r' % (got, html))


def check_gpu_summary(t, name, run, data):
    """GPU Summary rows (title, value)."""
    if data is None:
        return
    want = [(d['title'], d['value']) for d in data if d['title'] != '<hr/>']
    got = []
    for g in sorted(run.gpus.values(), key=lambda g: g['gpu']):
        got.append(('GPU %d:' % g['gpu'], ''))
        if g['name'] is not None:
            got.append(('Name', g['name']))
            got.append(('Memory', '%s GB' % round(g['memory_bytes'] / 1024 / 1024 / 1024, 2)))
            got.append(('Compute Capability', g['compute_capability']))
        util = g['gpu_utilization_pct']
        got.append(('GPU Utilization', '%s %%' % round(float(util), 2)))
        if g['est_sm_efficiency_pct'] is not None:
            got.append(('Est. SM Efficiency', '%s %%' % round(float(g['est_sm_efficiency_pct']), 2)))
        if g['est_achieved_occupancy_pct'] is not None:
            got.append(('Est. Achieved Occupancy',
                        '%s %%' % round(float(g['est_achieved_occupancy_pct']), 2)))
        if g['tensor_cores_pct'] is not None:
            got.append(('Kernel Time using Tensor Cores',
                        '%s %%' % round(float(g['tensor_cores_pct']), 2)))
    t.check(name + ' GPU Summary', got == want, '%s, want %s' % (got, want))


def main():
    gpuprof, data = sys.argv[1], sys.argv[2]
    t = Tally()
    cases = os.path.join(data, 'tbprof', 'cases')
    for case in sorted(f[:-len('.expected.json')] for f in os.listdir(cases)
                       if f.endswith('.expected.json')):
        exp = json.load(open(os.path.join(cases, case + '.expected.json')))
        refpath = os.path.join(cases, case + '.reference.json')
        if not os.path.exists(refpath):
            continue  # expected-only cases (ranges, counter dump) are unit-tested
        ref = json.load(open(refpath))
        for inp in exp['inputs']:
            worker = inp['worker']
            name = '%s/%s' % (case, worker)
            try:
                run = Run(gpuprof, os.path.join(cases, inp['file']))
            except (RuntimeError, ValueError, KeyError) as e:
                t.check(name, False, str(e))
                continue
            e = exp['expected']
            check_expected(t, name, run, e.get('per_worker', {}).get(worker, e))
            r = ref[worker]
            check_reference(t, name, run, r)
            check_overview(t, name + ' ui', run, r['ui']['overview'])
            check_gpu_summary(t, name + ' ui', run, r['ui'].get('gpu_summary'))
    upstream = open(os.path.join(data, 'tbprof', 'upstream', 'result_check_file.txt')).read()
    golden = [json.loads(line) for line in upstream.split('\n') if line.strip()]
    samples = os.path.join(data, 'tbprof', 'samples')
    for f in sorted(os.listdir(samples)):
        ref = json.load(gzip.open(os.path.join(samples, f)))
        name = f.split('.reference')[0]
        try:
            run = Run(gpuprof, os.path.join(data, ref['source_trace']))
        except (RuntimeError, ValueError, KeyError) as e:
            t.check(name, False, str(e))
            continue
        check_reference(t, name, run, ref)
        check_overview(t, name + ' endpoint', run, ref['plugin_endpoints']['overview'])
        if name.endswith('.span1'):
            line = 0 if 'num_workers_0' in name else 5
            check_overview(t, name + ' result_check_file', run, golden[line])
    print('tbsteps: %d passed, %d failed' % (t.passed, t.failed))
    return 1 if t.failed else 0


if __name__ == '__main__':
    sys.exit(main())
