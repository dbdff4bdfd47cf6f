"""The JSON Schemas of docs/schemas/ against gpuprof's real outputs
(Debian's python3-jsonschema).

  - every schema is a valid draft 2020-12 schema, and the generated ones
    are what tools/gen-schemas.py writes now (no drift from the column
    declarations);
  - every JSON output of every table command has a schema: the trace
    commands of `gpuprof --help`, the ncu verbs and nsys views the
    registry names (so a new view without one fails here);
  - `--format json` of every command validates, on the repository's
    fixtures and examples and, when ../shared/data is there, on real
    traces, Nsight Compute reports, Nsight Systems exports and
    analysis.json files;
  - documents broken on purpose (an extra key, a float in an integer
    column, a missing column, a string for a number, an unknown table)
    fail.

Usage: check.py GPUPROF SHARED_DATA
"""
import copy
import glob
import importlib.util
import json
import os
import re
import subprocess
import sys

try:
    import jsonschema
except ImportError:
    print('skip schemas: python3-jsonschema is not installed (apt-get install python3-jsonschema)')
    print('schemas: 0 passed, 0 failed')
    sys.exit(0)

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCHEMAS = os.path.join(ROOT, 'docs', 'schemas')
spec = importlib.util.spec_from_file_location('gen_schemas',
                                              os.path.join(ROOT, 'tools', 'gen-schemas.py'))
gen = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen)
spec = importlib.util.spec_from_file_location('gen_titles',
                                              os.path.join(ROOT, 'tools', 'gen-titles.py'))
gen_titles = importlib.util.module_from_spec(spec)
spec.loader.exec_module(gen_titles)

passed = failed = 0


def check(name, ok, why=''):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print('FAIL schemas: %s%s' % (name, ': ' + why if why else ''))


def run(gpuprof, args):
    p = subprocess.run([gpuprof, '-q'] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       check=False, cwd=ROOT)
    return p.returncode, p.stdout, p.stderr.decode(errors='replace')


validators = {}


def validator(name):
    if name not in validators:
        with open(os.path.join(SCHEMAS, name + '.schema.json'), encoding='utf-8') as f:
            validators[name] = jsonschema.Draft202012Validator(json.load(f))
    return validators[name]


def errors(name, doc):
    return ['%s: %s' % ('/'.join(str(p) for p in e.absolute_path), e.message)
            for e in validator(name).iter_errors(doc)]


skipped = 0


def validate(gpuprof, name, args, what=None, optional=False):
    """Runs gpuprof ARGS --format json; its document must fit schema name.
    optional: an input the command refuses (exit 2: not a trace, an export
    without that table) is skipped."""
    global skipped
    rc, out, err = run(gpuprof, ['--format', 'json'] + args)
    label = '%s: %s' % (name, what or ' '.join(args))
    if rc == 2 and optional:
        skipped += 1
        return None
    if rc != 0:
        check(label, False, 'exit %d: %s' % (rc, err.strip()[:300]))
        return None
    doc = json.loads(out)
    errs = errors(name, doc)
    check(label, not errs, '; '.join(errs[:3]))
    return doc


def table_commands(gpuprof):
    """{schema name} of every JSON output the registry and --help name."""
    _, out, _ = run(gpuprof, ['--help'])
    text = out.decode()
    cmds = re.findall(r'^  ([a-z]+) ', text.split('Commands:\n', 1)[1].split('\n\n', 1)[0],
                      re.M)
    names = set()
    for c in cmds:
        if c in ('export', 'serve', 'synth', 'completion', 'trace'):  # no --format json
            continue
        if c in ('ncu', 'nsys'):
            args = ['ncu', 'zzz', 'x'] if c == 'ncu' else [
                'nsys', os.path.join(gen.SQL, 'harness.sqlite'), 'zzz']
            _, _, err = run(gpuprof, args)
            m = re.search(r"'zzz' \(([a-z, ]+)\)", err)
            check('%s lists its views' % c, m is not None, err.strip())
            for v in (m.group(1).split(', ') if m else []):
                names.add('%s-%s' % (c, v))
            continue
        names.add(c)
    return names


def rank_summaries(gpuprof, shared):
    """rank-summary's files against rank-summary.schema.json."""
    import tempfile
    inputs = ['tests/golden/_inputs/twostep_0.pt.trace.json',
              'tests/golden/_inputs/twostep_1.pt.trace.json']
    hta = os.path.join(shared, 'torch', 'hta', 'tests', 'data', 'trace_filter')
    inputs += sorted(glob.glob(os.path.join(hta, 'sampled_rank-*.json.gz')))
    docs = []
    with tempfile.TemporaryDirectory() as tmp:
        synth = os.path.join(tmp, 'synth_3.json')
        if run(gpuprof, ['synth', '--ranks', '4', '--rank', '3', '--steps', '2', '-o',
                         synth])[0] == 0:
            inputs.append(synth)
        for mode in ([], ['--tb-compat']):
            for t in inputs:
                rc, out, err = run(gpuprof, ['rank-summary'] + mode + [t, '-o', '-'])
                ok = rc == 0
                doc = json.loads(out) if ok else None
                errs = errors('rank-summary', doc) if ok else [err]
                check('rank-summary %s %s' % (' '.join(mode), os.path.basename(t)), not errs,
                      '; '.join(errs[:3]))
                if ok:
                    docs.append(doc)
    for v1 in sorted(glob.glob('tests/fleet/fixtures/v1/*.json')):
        with open(v1, encoding='utf-8') as fh:
            errs = errors('rank-summary', json.load(fh))
        check('version 1 summary %s' % os.path.basename(v1), not errs, '; '.join(errs[:3]))
    doc = next((d for d in docs if d['collectives'] and d['gpus']), None)
    check('a rank summary with collectives and GPUs', doc is not None)
    if doc is None:
        return
    breaks = {
        'schema_version 3': lambda d: d.update(schema_version=3),
        'no groups': lambda d: d.pop('groups'),
        'a negative group': lambda d: d['collectives'][0].update(group=-1),
        'a float idle': lambda d: d['collectives'][0].update(idle=0.5),
        'a breakdown without kernel': lambda d: d['steps'][0]['breakdown'].pop('kernel') if d['steps'] else d.pop('kernels'),
        'an extra key': lambda d: d.update(extra=1),
        'a float time': lambda d: d['collectives'][0].update(start=1.5),
        'a range of three': lambda d: d['collectives'][0]['ranges'][0].append(1),
        'no ranges': lambda d: d['collectives'][0].update(ranges=[]),
        'a string step': lambda d: d['steps'][0].update(step='1') if d['steps'] else d.pop('steps'),
        'no gpus': lambda d: d.pop('gpus'),
    }
    for what, f in breaks.items():
        bad = copy.deepcopy(doc)
        f(bad)
        check('broken rank summary (%s) fails' % what, bool(errors('rank-summary', bad)))


def main():
    gpuprof, shared = sys.argv[1], sys.argv[2]
    # 1. valid schemas; the generated ones as tools/gen-schemas.py writes them
    files = sorted(glob.glob(os.path.join(SCHEMAS, '*.schema.json')))
    for f in files:
        with open(f, encoding='utf-8') as fh:
            s = json.load(fh)
        try:
            jsonschema.Draft202012Validator.check_schema(s)
            check(os.path.basename(f) + ' is a draft 2020-12 schema', True)
        except jsonschema.SchemaError as e:
            check(os.path.basename(f) + ' is a draft 2020-12 schema', False, str(e)[:200])
    os.chdir(ROOT)
    built = gen.build(gpuprof)
    for name, s in built.items():
        path = os.path.join(SCHEMAS, name + '.schema.json')
        have = open(path, encoding='utf-8').read() if os.path.exists(path) else None
        check('%s.schema.json is up to date' % name, have == gen.text(s),
              'run tools/gen-schemas.py %s' % gpuprof)
    # the viewer's column titles are the declarations' (through the schemas)
    with open(os.path.join(ROOT, 'web', 'titles.js'), encoding='utf-8') as fh:
        check('web/titles.js is up to date', fh.read() == gen_titles.build(),
              'run tools/gen-titles.py')
    # 2. every output has one
    have = {os.path.basename(f)[:-len('.schema.json')] for f in files}
    for name in sorted(table_commands(gpuprof)):
        target = gen.HAND.get(name, name)
        check('%s has a schema' % name, target in have and
              (name in gen.HAND or name in built),
              'docs/schemas/%s.schema.json and a case in tools/gen-schemas.py' % target)
    # 3. real outputs: the generator's cases, the fixtures, the examples
    for name, args in gen.CASES:
        validate(gpuprof, name, args)
    traces = sorted(glob.glob('tests/golden/_inputs/*.json') + glob.glob('examples/*.json*'))
    views = ['info', 'steps', 'summary', 'ops', 'kernels', 'memory', 'top']
    for t in traces:
        for v in views:
            validate(gpuprof, v, [v, t])
    validate(gpuprof, 'dist', ['dist', 'tests/golden/_inputs/twostep_0.pt.trace.json',
                               'tests/golden/_inputs/twostep_1.pt.trace.json'])
    validate(gpuprof, 'dist', ['dist', '--fleet', 'tests/golden/_inputs/twostep_0.pt.trace.json',
                               'tests/golden/_inputs/twostep_1.pt.trace.json'])
    # diff: every pair of the fixtures' traces and the example, both ways
    pairs = [t for t in traces if 'export-' not in t]
    for a in pairs[:4]:
        for b in pairs[:4]:
            validate(gpuprof, 'diff', ['diff', a, b])
    ncu_views = ['list', 'raw', 'session', 'details', 'hints', 'body']
    for rep in ['tests/golden/_inputs/full.ncu-rep', 'tests/golden/_inputs/tiny.ncu-rep']:
        for v in ncu_views:
            validate(gpuprof, 'ncu-' + v, ['ncu', v, rep])
    nsys_views = ['info', 'kernels', 'memcpy', 'api', 'nvtx', 'gpus']
    for db in sorted(glob.glob(gen.SQL + '*.sqlite')):
        if run(gpuprof, ['nsys', db, 'info'])[0] != 0:
            continue  # a seed that is not a whole export
        for v in nsys_views:  # seeds of the fuzzer: some are refused on purpose
            validate(gpuprof, 'nsys-' + v, ['nsys', db, v], optional=True)
        rc, out, _ = run(gpuprof, ['nsys', db, 'steps'])
        if rc == 0:
            errs = errors('analysis', json.loads(out))
            check('analysis: nsys %s steps' % db, not errs, '; '.join(errs[:3]))
    # ... and the shared data when present
    if os.path.isdir(shared):
        real = sorted(glob.glob(os.path.join(shared, 'torch*', '**', '*.json*'), recursive=True))
        real = [p for p in real if re.search(r'\.json(\.gz)?$', p) and os.path.getsize(p) < 5e6]
        for i, t in enumerate(real):
            # every trace: info and steps; every third: every view
            for v in (views if i % 3 == 0 else ['info', 'steps']):
                validate(gpuprof, v, [v, t], '%s %s' % (v, os.path.relpath(t, shared)), True)
        for rep in sorted(glob.glob(os.path.join(shared, 'ncu', '*.ncu-rep')))[:6]:
            for v in ncu_views:
                validate(gpuprof, 'ncu-' + v, ['ncu', v, rep],
                         'ncu %s %s' % (v, os.path.basename(rep)), True)
        for db in sorted(glob.glob(os.path.join(shared, 'nsys', 'exports', '*.sqlite'))):
            for v in nsys_views:
                validate(gpuprof, 'nsys-' + v, ['nsys', db, v],
                         'nsys %s %s' % (os.path.basename(db), v), True)
        for f in sorted(glob.glob(os.path.join(shared, 'nsys', '**', '*analysis*.json'),
                                  recursive=True)):
            with open(f, encoding='utf-8') as fh:
                errs = errors('analysis', json.load(fh))
            check('analysis: ' + os.path.relpath(f, shared), not errs, '; '.join(errs[:3]))
    else:
        print('schemas: %s absent: the shared data is not validated' % shared)
    # rank summaries (not a table command): the fixtures, a synthetic rank,
    # the real two-rank HTA pair; broken ones fail
    rank_summaries(gpuprof, shared)
    # 4. broken documents fail
    rc, out, _ = run(gpuprof, ['--format', 'json', 'steps', 'tests/golden/_inputs/steps.json'])
    doc = json.loads(out)
    check('the steps document fits', not errors('steps', doc))
    breaks = {
        'an extra key in a row': lambda d: d['steps'][0].update(extra=1),
        'a float in an integer column': lambda d: d['steps'][0].update(start_ns=1.5),
        'a string in an integer column': lambda d: d['steps'][0].update(total_ns='100'),
        'a missing column': lambda d: d['steps'][0].pop('end_ns'),
        'a missing table': lambda d: d.pop('steps_average'),
        'an unknown table': lambda d: d.update(stepz=[]),
        'a section key of the wrong type': lambda d: d['step_detection'].update(steps='2'),
        'a column list that is not the columns': lambda d: d['columns']['steps'].reverse(),
        'a row that is not an object': lambda d: d['steps'].append(3),
    }
    for what, f in breaks.items():
        bad = copy.deepcopy(doc)
        f(bad)
        check('broken (%s) fails' % what, bool(errors('steps', bad)))
    with open(os.path.join(SCHEMAS, 'analysis.schema.json'), encoding='utf-8') as fh:
        jsonschema.Draft202012Validator.check_schema(json.load(fh))
    rc, out, _ = run(gpuprof, ['nsys', gen.SQL + 'harness.sqlite', 'steps'])
    a = json.loads(out)
    check('the analysis document fits', not errors('analysis', a))
    for what, f in {'schema_version 2': lambda d: d.update(schema_version=2),
                    'a float count': lambda d: d['iteration_summary'].update(iterations=2.5),
                    'an extra key': lambda d: d['run'].update(extra=None),
                    'no warnings': lambda d: d.pop('warnings')}.items():
        bad = copy.deepcopy(a)
        f(bad)
        check('broken analysis (%s) fails' % what, bool(errors('analysis', bad)))
    if skipped:
        print('schemas: %d inputs the commands refuse (not traces, exports without that '
              'table, fuzzer seeds) skipped' % skipped)
    print('schemas: %d passed, %d failed' % (passed, failed))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
