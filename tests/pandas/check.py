"""pandas reads gpuprof's tables exactly (Debian's python3-pandas).

On copies of the fixtures steps.json and memory.json moved B = 1733050123456789
µs later (absolute times about 1.7e18 ns, past 2^53, where a float64 is off
by up to 128 ns):

  - `--table NAME --format csv` is one plain CSV: pd.read_csv gives the
    table's columns (the JSON's "columns" member) and its rows, int64 time
    columns equal to the integers Python's json module reads from
    `--format json`;
  - `-o DIR/ --format csv` writes DIR/NAME.csv for exactly the tables of the
    command, each read back the same way;
  - times count from the trace's start: the moved trace gives the numbers
    of the original one (50000 and 250000 ns: steps 1 and 2 start at 100
    and 300 µs, the trace at 50 µs), and trace_start_ns (an exact decimal
    string) is (B + 50) * 1000;
  - a multi-table command without --table keeps its "# name" stream, and
    an unknown --table fails with the command's table names (exit 2).

On three real traces of SHARED/data/torch (skipped when absent): one whose
ts are past 2^53 ns (sampled_rank-0: 1.68e18 ns), one with fractional µs
(the H100 BERT trace) and one with empty cells (the MI250 trace: no
occupancy), every table of `steps`, `ops` and `kernels` read by
pd.read_csv from `--table NAME --format csv` equals the table of
`--format json` (Python's json module) cell by cell: int64 for every
column of JSON integers (every *_ns column among them), bool, float64 (NaN
where JSON has null; exact with float_precision='round_trip': pandas'
default float parser is not correctly rounded), strings exactly; the key,value sections value by
value; and trace_start_ns is the trace's smallest ts × 1000, computed here
exactly (decimal) from the raw file.

Usage: check.py GPUPROF [SHARED]
"""
import gzip
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from decimal import Decimal

try:
    import pandas as pd
except ImportError:
    print('skip pandas: python3-pandas is not installed (apt-get install python3-pandas)')
    print('pandas: 0 passed, 0 failed')
    sys.exit(0)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
B = 1733050123456789  # µs
passed = failed = 0


def check(name, ok, why=''):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print('FAIL pandas: %s%s' % (name, ': ' + why if why else ''))


def gp(gpuprof, *args, rc=0):
    p = subprocess.run([gpuprof, '-q'] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, check=False)
    if p.returncode != rc:
        raise RuntimeError('gpuprof %s: exit %d (want %d): %s' % (
            ' '.join(args), p.returncode, rc, p.stderr.decode(errors='replace')))
    return p.stdout.decode(), p.stderr.decode()


def shifted(src, dst):
    """src with every "ts" moved B µs later, written as exact decimal text."""
    with open(src, encoding='utf-8') as f:
        text = f.read()
    out = re.sub(r'"ts": (\d+)', lambda m: '"ts": %d' % (B + int(m.group(1))), text)
    with open(dst, 'w', encoding='utf-8') as f:
        f.write(out)


def same_table(name, df, doc_rows, columns):
    """df (pd.read_csv) against the JSON rows: columns, then every cell."""
    check(name + ': columns', list(df.columns) == columns, '%s vs %s' % (list(df.columns), columns))
    check(name + ': rows', len(df) == len(doc_rows), '%d vs %d' % (len(df), len(doc_rows)))
    for c in columns:
        want = [r[c] for r in doc_rows]
        got = df[c].tolist() if c in df.columns else None
        if got is None:
            continue
        ints = all(isinstance(w, int) and not isinstance(w, bool) for w in want) and want
        if ints:
            check('%s.%s is int64' % (name, c), str(df[c].dtype) == 'int64', str(df[c].dtype))
        got = [None if (isinstance(g, float) and g != g) else g for g in got]
        want = [w for w in want]
        # bools and strings as pandas reads them
        eq = all(g == w or (w is None and g is None) or (isinstance(w, str) and str(g) == w)
                 for g, w in zip(got, want))
        check('%s.%s values' % (name, c), eq, '%s vs %s' % (got[:4], want[:4]))


# (trace under SHARED/data/torch, what it brings)
REAL = (('hta/tests/data/trace_filter/sampled_rank-0.json.gz', 'ts past 2^53 ns'),
        ('tracelens/tests/traces/h100/gaunernst_bert-small-uncased__1016001.json.gz', 'fractional µs'),
        ('hta/tests/data/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz', 'empty cells'))
# the tables of each command, by hand (docs/cli.md)
REAL_TABLES = {'steps': ['steps', 'steps_average', 'step_detection'],
               'ops': ['operators', 'tree'], 'kernels': ['kernels', 'tensor_cores']}


def min_ts_ns(path):
    """The smallest numeric ts of the raw trace, in ns, exactly (decimal)."""
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rb') as f:
        d = json.loads(f.read().decode('utf-8'), parse_float=Decimal)
    ev = d['traceEvents'] if isinstance(d, dict) else d
    return min(e['ts'] for e in ev if isinstance(e, dict) and isinstance(e.get('ts'), (int, Decimal))
               and not isinstance(e.get('ts'), bool)) * 1000


def kind_of(values):
    """What a JSON column holds: 'int', 'bool', 'str', 'float' (numbers,
    some of them floats or nulls) or 'null' (nothing but nulls)."""
    kinds = {'null' if v is None else 'bool' if isinstance(v, bool) else type(v).__name__
             for v in values}
    if kinds <= {'int'}:
        return 'int'
    if kinds in ({'bool'}, {'str'}):
        return kinds.pop()
    if kinds == {'null'}:
        return 'null'
    if kinds <= {'int', 'float', 'null'}:
        return 'float'
    return '+'.join(sorted(kinds))


def exact_table(name, csv, rows, columns):
    """pd.read_csv of csv (string columns read as text) against the JSON rows."""
    strs = [c for c in columns if kind_of([r[c] for r in rows]) == 'str']
    how = dict(dtype={c: str for c in strs}, keep_default_na=False,
               na_values={c: [''] for c in columns if c not in strs})
    # pandas' default float parser is not correctly rounded: on
    # sampled_rank-0's kernels "0.009259258999999999" (the shortest text of
    # its double) reads 57 ulp off; round_trip reads every float exactly
    df = pd.read_csv(io.StringIO(csv), float_precision='round_trip', **how)
    check(name + ': columns', list(df.columns) == columns, '%s vs %s' % (list(df.columns), columns))
    check(name + ': rows', len(df) == len(rows), '%d vs %d' % (len(df), len(rows)))
    if list(df.columns) != columns or len(df) != len(rows):
        return
    for c in columns:
        want = [r[c] for r in rows]
        kind = kind_of(want)
        got = df[c].tolist()
        dtype = str(df[c].dtype)
        if c.endswith('_ns'):
            check('%s.%s: JSON integers' % (name, c), kind == 'int', kind)
        if kind == 'int':
            ok = dtype == 'int64' and got == want
        elif kind == 'bool':
            ok = dtype == 'bool' and got == want
        elif kind == 'str':
            ok = dtype == 'object' and got == want
        elif kind in ('float', 'null'):
            ok = dtype == 'float64' and all((g != g) if w is None else g == float(w)
                                            for g, w in zip(got, want))
        else:
            ok = False
        check('%s.%s (%s, read as %s)' % (name, c, kind, dtype), ok,
              '%s vs %s' % (got[:3], want[:3]))


def exact_section(name, csv, section):
    """A key,value section read as text against the JSON object."""
    kv = pd.read_csv(io.StringIO(csv), dtype=str, keep_default_na=False)
    check(name + ': key,value', list(kv.columns) == ['key', 'value'], str(list(kv.columns)))
    got = dict(zip(kv['key'], kv['value']))
    check(name + ': keys', list(got) == list(section), '%s vs %s' % (list(got), list(section)))
    bad = []
    for k, v in section.items():
        t = got.get(k)
        if t is None:
            continue
        if v is None:
            same = t == ''
        elif isinstance(v, bool):
            same = t == ('true' if v else 'false')
        elif isinstance(v, int):
            same = re.fullmatch(r'-?[0-9]+', t) is not None and int(t) == v
        elif isinstance(v, float):
            same = float(t) == v
        else:
            same = t == v
        if not same:
            bad.append((k, t, v))
    check(name + ': values', not bad, str(bad[:3]))
    return got


def real_traces(gpuprof, shared):
    data = os.path.join(shared, 'data', 'torch')
    if not os.path.isdir(data):
        print('skip pandas: real traces: no folder %s (set GPUPROF_SHARED)' % data)
        return
    for rel, what in REAL:
        path = os.path.join(data, rel)
        if not os.path.exists(path):
            print('skip pandas: %s: not there' % rel)
            continue
        label = '%s (%s)' % (os.path.basename(rel), what)
        for cmd, tables in REAL_TABLES.items():
            doc = json.loads(gp(gpuprof, cmd, '--format', 'json', path)[0])
            check('%s %s: tables' % (label, cmd), [k for k in doc if k != 'columns'] == tables,
                  str(list(doc)))
            for t in tables:
                if t not in doc:
                    continue
                csv = gp(gpuprof, cmd, '--table', t, '--format', 'csv', path)[0]
                name = '%s %s --table %s' % (label, cmd, t)
                if isinstance(doc[t], dict):
                    got = exact_section(name, csv, doc[t])
                    if t == 'step_detection':
                        want = min_ts_ns(path)
                        check(name + ': trace_start_ns is the smallest ts', got.get('trace_start_ns') ==
                              str(int(want)) and want == int(want), '%s vs %s' % (got.get('trace_start_ns'), want))
                        if what == 'ts past 2^53 ns':
                            check(name + ': past 2^53', want > 2 ** 53, str(want))
                else:
                    exact_table(name, csv, doc[t], doc['columns'][t])


def main():
    gpuprof = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix='gpuprof-pandas.')
    steps = os.path.join(tmp, 'steps_late.json')
    memory = os.path.join(tmp, 'memory_late.json')
    shifted(os.path.join(ROOT, 'tests/golden/_inputs/steps.json'), steps)
    shifted(os.path.join(ROOT, 'tests/golden/_inputs/memory.json'), memory)

    doc = json.loads(gp(gpuprof, 'steps', '--format', 'json', steps)[0])
    t0 = doc['step_detection']['trace_start_ns']
    check('trace_start_ns is the exact decimal text', t0 == str((B + 50) * 1000), t0)
    check('the trace is past 2^53 ns', int(t0) > 2 ** 53 and float(int(t0)) != int(t0) + 1)
    check('steps from the trace start', [(r['start_ns'], r['end_ns']) for r in doc['steps']] ==
          [(50000, 190000), (250000, 350000)], str(doc['steps']))
    # --table steps: one plain CSV
    csv = gp(gpuprof, 'steps', '--table', 'steps', '--format', 'csv', steps)[0]
    check('--table csv has no "# " line', not any(l.startswith('#') for l in csv.splitlines()))
    df = pd.read_csv(io.StringIO(csv), dtype={'step': str})
    same_table('steps --table steps', df, doc['steps'], doc['columns']['steps'])
    csv = gp(gpuprof, 'steps', '--table', 'steps_average', '--format', 'csv', steps)[0]
    df = pd.read_csv(io.StringIO(csv))
    same_table('steps --table steps_average', df, doc['steps_average'],
               doc['columns']['steps_average'])
    check('steps_average by hand', df['total_ns'].tolist() == [120000] and
          df['kernel_ns'].tolist() == [40000], df.to_string())
    # the section: key,value; trace_start_ns exact as int64
    csv = gp(gpuprof, 'steps', '--table', 'step_detection', '--format', 'csv', steps)[0]
    kv = pd.read_csv(io.StringIO(csv), dtype=str).set_index('key')['value']
    check('step_detection trace_start_ns', int(kv['trace_start_ns']) == (B + 50) * 1000,
          kv['trace_start_ns'])
    info = gp(gpuprof, 'info', '--table', 'trace', '--format', 'csv', steps)[0]
    kv = pd.read_csv(io.StringIO(info), dtype=str).set_index('key')['value']
    check('info trace_start_ns = first_ts_ns', kv['trace_start_ns'] == kv['first_ts_ns'] == t0,
          '%s %s' % (kv['trace_start_ns'], kv['first_ts_ns']))
    js = json.loads(gp(gpuprof, 'steps', '--table', 'steps', '--format', 'json', steps)[0])
    check('--table json: the bare rows', js == doc['steps'], str(js)[:200])
    # the original trace gives the same relative numbers
    orig = json.loads(gp(gpuprof, 'steps', '--format', 'json',
                         os.path.join(ROOT, 'tests/golden/_inputs/steps.json'))[0])
    check('one origin: the moved trace reads as the original',
          orig['steps'] == doc['steps'] and orig['steps_average'] == doc['steps_average'])
    # -o DIR/: a CSV per table, each as its --table
    for cmd, path, extra in (('steps', steps, []), ('memory', memory, ['--curve', '--events']),
                             ('summary', steps, ['--timeline']), ('info', steps, [])):
        d = os.path.join(tmp, cmd)
        os.mkdir(d)
        full = json.loads(gp(gpuprof, cmd, '--format', 'json', path, *extra)[0])
        gp(gpuprof, cmd, '--format', 'csv', '-o', d + '/', path, *extra)
        tables = [k for k in full if k != 'columns']
        check('%s -o DIR/: one file per table' % cmd,
              sorted(os.listdir(d)) == sorted(t + '.csv' for t in tables),
              '%s vs %s' % (sorted(os.listdir(d)), tables))
        for t in tables:
            f = os.path.join(d, t + '.csv')
            if not os.path.exists(f):
                continue
            with open(f, encoding='utf-8') as fh:
                text = fh.read()
            one = gp(gpuprof, cmd, '--format', 'csv', '--table', t, path, *extra)[0]
            check('%s/%s.csv = --table %s' % (cmd, t, t), text == one)
            if isinstance(full[t], dict):
                kv = pd.read_csv(f, dtype=str, keep_default_na=False).set_index('key')['value']
                want = {k: '' if v is None else str(v).lower() if isinstance(v, bool) else str(v)
                        for k, v in full[t].items()}
                check('%s/%s.csv keys and values' % (cmd, t), kv.to_dict() == want,
                      '%s vs %s' % (kv.to_dict(), want))
            else:
                strs = {c: str for c in full['columns'][t]
                        if any(isinstance(r[c], str) for r in full[t])}
                same_table('%s/%s.csv' % (cmd, t), pd.read_csv(f, dtype=strs), full[t],
                           full['columns'][t])
    mem = json.loads(gp(gpuprof, 'memory', '--events', '--format', 'json', memory)[0])
    # memory.json's first record is at 5 µs, the trace's first event too
    check('memory events from the trace start',
          min(r['allocation_time_ns'] for r in mem['events']
              if r['allocation_time_ns'] is not None) == 0, str(mem['events'][:2]))
    # the "# name" stream stays; an unknown table is refused with the names
    csv = gp(gpuprof, 'steps', '--format', 'csv', steps)[0]
    check('without --table: the "# name" stream',
          [l for l in csv.splitlines() if l.startswith('# ')] ==
          ['# steps', '# steps_average', '# step_detection'])
    _, err = gp(gpuprof, 'steps', '--table', 'stepz', '--format', 'csv', steps, rc=2)
    check('unknown --table', "no table 'stepz'; did you mean 'steps'? (tables: steps, "
          "steps_average, step_detection)" in err, err)
    shutil.rmtree(tmp)
    real_traces(gpuprof, sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, '..', 'shared'))
    print('pandas: %d passed, %d failed' % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
