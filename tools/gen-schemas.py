#!/usr/bin/env python3
"""gen-schemas: writes docs/schemas/NAME.schema.json, the JSON Schema of
every `--format json` output of gpuprof's table commands, from gpuprof's
own column declarations.

`gpuprof --format schema CMD ...` (hidden) prints the schema (draft
2020-12) of the document `--format json` writes for the same command: each
table an array of objects with exactly its columns, each section an object
with exactly its keys, types from the declared column types. A command's
tables vary with its options (memory --curve, summary --timeline, ...), so
each schema merges those of the invocations in CASES: members present in
every variant are required, the others optional; a table's columns likewise.
docs/schemas/analysis.schema.json (analysis.json, also `nsys FILE steps`)
is written by hand: it is not a report.

  tools/gen-schemas.py GPUPROF           rewrite docs/schemas/
  tools/gen-schemas.py GPUPROF --check   exit 1 if a file differs (drift)

Run from the repository's root; the inputs are the repository's fixtures.
"""
import json
import os
import subprocess
import sys

IN = 'tests/golden/_inputs/'
SQL = 'tests/fuzz/corpus/nsys_sqlite/'
NCU = IN + 'full.ncu-rep'

# (schema name, arguments): every variant of every table command's JSON.
CASES = [
    ('info', ['info', IN + 'full.json']),
    ('info', ['info', IN + 'array.json', IN + 'full.json']),
    ('steps', ['steps', IN + 'steps.json']),
    ('steps', ['steps', '--tb-compat', IN + 'steps.json']),
    ('summary', ['summary', IN + 'steps.json']),
    ('summary', ['summary', '--timeline', IN + 'steps.json']),
    ('summary', ['summary', '--tb-compat', '--timeline', IN + 'steps.json']),
    ('ops', ['ops', IN + 'ops.json']),
    ('ops', ['ops', '--stack', IN + 'ops.json']),
    ('ops', ['ops', '--tb-compat', IN + 'ops.json']),
    ('ops', ['ops', '--group-by', 'op+shape', IN + 'ops.json']),
    ('kernels', ['kernels', IN + 'steps.json']),
    ('kernels', ['kernels', '--group-by', 'kernel+op', IN + 'steps.json']),
    ('kernels', ['kernels', '--tb-compat', IN + 'steps.json']),
    ('kernels', ['kernels', '--tb-compat', '--group-by', 'kernel+op', IN + 'steps.json']),
    ('memory', ['memory', IN + 'memory.json']),
    ('memory', ['memory', '--curve', IN + 'memory.json']),
    ('memory', ['memory', '--events', IN + 'memory.json']),
    ('memory', ['memory', '--tb-compat', '--curve', '--events', IN + 'memory.json']),
    ('modules', ['modules', IN + 'modules.json']),
    ('modules', ['modules', '--tb-compat', IN + 'modules.json']),
    ('lightning', ['lightning', 'tests/golden/lightning-modules/pl.json']),
    ('top', ['top', IN + 'steps.json']),
    ('top', ['top', '--gpu', IN + 'steps.json']),
    ('idle', ['idle', 'tests/hta/fixtures/cuda-steps.json']),
    ('idle', ['idle', '--show-intervals', 'tests/hta/fixtures/cuda-steps.json']),
    ('launches', ['launches', 'tests/hta/fixtures/launches.json']),
    ('launches', ['launches', '--all-launches', 'tests/hta/fixtures/launches.json']),
    ('sync', ['sync', 'tests/hta/fixtures/sync.json']),
    ('flops', ['flops', 'tests/hta/fixtures/flops.json']),
    ('flops', ['flops', 'tests/hta/fixtures/cuda-steps.json']),
    ('critical-path', ['critical-path', 'tests/hta/fixtures/critpath-sync.json']),
    ('critical-path', ['critical-path', '--all-edges', 'tests/hta/fixtures/critpath-stream-wait.json']),
    ('counters', ['counters', 'tests/hta/fixtures/counters.json']),
    ('counters', ['counters', '--series', 'tests/hta/fixtures/counters.json']),
    ('sequences', ['sequences', '--show-instances', 'tests/hta/fixtures/sequences.json']),
    ('sequences', ['sequences', '--operator', 'aten::nothing', 'tests/hta/fixtures/sequences.json']),
    ('dist', ['dist', IN + 'node0_0.pt.trace.json', IN + 'node0_1.pt.trace.json']),
    ('dist', ['dist', '--tb-compat', IN + 'node0_0.pt.trace.json',
              IN + 'node0_1.pt.trace.json']),
    ('dist', ['dist', IN + 'steps.json']),
    ('dist', ['dist', '--fleet', IN + 'node0_0.pt.trace.json', IN + 'node0_1.pt.trace.json']),
    ('diff', ['diff', IN + 'steps.json', IN + 'steps.json']),
    ('diff', ['diff', '--fail-if', 'step_time>+5%', IN + 'steps.json', IN + 'ops.json']),
    ('ncu-list', ['ncu', 'list', NCU]),
    ('ncu-raw', ['ncu', 'raw', NCU]),
    ('ncu-session', ['ncu', 'session', NCU]),
    ('ncu-details', ['ncu', 'details', NCU]),
    ('ncu-hints', ['ncu', 'hints', NCU]),
    ('ncu-body', ['ncu', 'body', NCU]),
    ('ncu-source', ['ncu', 'source', NCU]),
    ('nsys-info', ['nsys', SQL + 'harness.sqlite', 'info']),
    ('nsys-kernels', ['nsys', SQL + 'harness.sqlite', 'kernels']),
    ('nsys-memcpy', ['nsys', SQL + 'harness.sqlite', 'memcpy']),
    ('nsys-api', ['nsys', SQL + 'harness.sqlite', 'api']),
    ('nsys-nvtx', ['nsys', SQL + 'harness.sqlite', 'nvtx']),
    ('nsys-gpus', ['nsys', SQL + 'harness.sqlite', 'gpus']),
    ('ncu-diff', ['diff', IN + 'ncu-diff-base.ncu-rep', IN + 'ncu-diff-new.ncu-rep']),
    ('ncu-diff', ['diff', '--fail-if', 'ncu.duration_ns<-200%', IN + 'ncu-diff-base.ncu-rep',
                  IN + 'ncu-diff-other.ncu-rep']),
    ('nsys-diff', ['diff', 'tests/nsys/run_small', 'tests/nsys/run_small']),
    ('nsys-diff', ['diff', '--fail-if', 'nsys.gpu_ns>+5%', 'tests/nsys/run_small',
                   'tests/nsys/run_small']),
    ('nsys-diff', ['diff', '--fail-if', 'iteration_stats.mean_ns>+50%',
                   'tests/nsys/iter/base.json', 'tests/nsys/iter/shift.json']),
]

# Outputs that are documents of their own, with a schema written by hand.
HAND = {'nsys-steps': 'analysis'}

# Sections whose keys come from the input: keys named from the data
# (ncu session_info: one per version provider of the report, host_* and
# target_* when the report has that machine) are allowed, of that type.
OPEN_SECTIONS = {
    ('ncu-session', 'session_info'): (['created_utc', 'created_unix_s', 'report_file_version',
                                       'results'], {'type': ['string', 'null']}),
}

TITLES = {
    'info': '`gpuprof info --format json`',
    'dist': '`gpuprof dist --format json` (and GET /api/dist): per-worker tables',
    'ncu-diff': '`gpuprof diff --format json` of two Nsight Compute reports (`gpuprof ncu diff`)',
    'nsys-diff': '`gpuprof diff --format json` of two Nsight Systems analyses',
}


def run_schema(gpuprof, args):
    p = subprocess.run([gpuprof, '-q', '--format', 'schema'] + args, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, check=False)
    if p.returncode != 0:
        raise RuntimeError('gpuprof %s: exit %d: %s' % (' '.join(args), p.returncode,
                                                        p.stderr.decode(errors='replace')))
    return json.loads(p.stdout)


def merge_types(a, b):
    ta, tb = a.get('type'), b.get('type')
    if ta == tb:
        return a
    la = ta if isinstance(ta, list) else [ta]
    lb = tb if isinstance(tb, list) else [tb]
    return dict(a, type=[t for t in la] + [t for t in lb if t not in la])


def merge_object(a, b):
    """Two object schemas: properties of either, required of both."""
    props = dict(a['properties'])
    for k, v in b['properties'].items():
        props[k] = merge_value(props[k], v) if k in props else v
    req = [k for k in a['required'] if k in b['required']]
    return dict(a, properties=props, required=req)


def merge_value(a, b):
    if a.get('type') == 'object' and b.get('type') == 'object' and 'properties' in a:
        return merge_object(a, b)
    if a.get('type') == 'array' and b.get('type') == 'array':
        return dict(a, items=merge_value(a['items'], b['items']))
    if 'const' in a and 'const' in b:
        if a['const'] == b['const']:
            return a
        keys = list(a['const']) + [k for k in b['const'] if k not in a['const']]
        return {'type': 'array', 'items': {'enum': keys}}
    if 'items' in a and 'const' in b:
        keys = a['items']['enum'] + [k for k in b['const'] if k not in a['items']['enum']]
        return {'type': 'array', 'items': {'enum': keys}}
    return merge_types(a, b)


def build(gpuprof):
    out = {}
    for name, args in CASES:
        s = run_schema(gpuprof, args)
        out[name] = merge_object(out[name], s) if name in out else s
    for (name, section), (req, extra) in OPEN_SECTIONS.items():
        sec = out[name]['properties'][section]
        sec['required'] = [k for k in sec['required'] if k in req]
        sec['additionalProperties'] = extra
    for name, s in out.items():
        title = TITLES.get(name, '`gpuprof %s --format json`' % name.replace('-', ' ', 1)
                           .replace('nsys ', 'nsys FILE.sqlite '))
        s['title'] = title
        s['description'] = ('Generated by tools/gen-schemas.py from the column declarations; '
                            'see docs/cli.md, "JSON documents". Every value may be null.')
        s['$id'] = 'https://gpuprof.invalid/schemas/%s.schema.json' % name
    return out


def text(schema):
    order = ['$schema', '$id', 'title', 'description']
    s = {k: schema[k] for k in order if k in schema}
    s.update({k: v for k, v in schema.items() if k not in order})
    return json.dumps(s, indent=2, ensure_ascii=False) + '\n'


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    gpuprof, check = sys.argv[1], '--check' in sys.argv[2:]
    drift = 0
    for name, s in build(gpuprof).items():
        path = os.path.join('docs', 'schemas', name + '.schema.json')
        want = text(s)
        have = open(path, encoding='utf-8').read() if os.path.exists(path) else None
        if check:
            if have != want:
                print('%s differs from what tools/gen-schemas.py writes' % path)
                drift += 1
        elif have != want:
            with open(path, 'w', encoding='utf-8') as f:
                f.write(want)
            print('wrote', path)
    sys.exit(1 if drift else 0)


if __name__ == '__main__':
    main()
