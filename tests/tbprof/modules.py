"""torch-tb-profiler's Module view: `gpuprof modules --tb-compat` against the
plugin's own answers (shared/data/tbprof/module_view/*.modules.json.gz, made
by running the plugin's code on six traces; PROVENANCE.md there).

Every row of the plugin's nested module_view is compared, in preorder, with
the row of gpuprof's flat table at the same place: the name, module id,
calls, operators, parent, and the five times (µs floats, compared exactly:
the plugin's float64 arithmetic is reproduced). Prints one line per trace
with its equality counts and closes with "tbmodules: N passed, N failed".
Standard library only. Usage: modules.py GPUPROF SHARED_DATA_DIR
"""
import glob
import gzip
import json
import os
import subprocess
import sys

FIELDS = [('occurences', 'occurrences'), ('operators', 'operators'),
          ('host_duration', 'host_us'), ('self_host_duration', 'self_host_us'),
          ('device_duration', 'device_us'), ('self_device_duration', 'self_device_us'),
          ('avg_duration', 'avg_us')]


def flatten(rows, parent, out):
    for r in rows:
        me = len(out)
        out.append((r, parent))
        flatten(r.get('children', []), me, out)
    return out


def main():
    gp, data = sys.argv[1], sys.argv[2]
    passed = failed = 0
    refs = sorted(glob.glob(os.path.join(data, 'tbprof', 'module_view', '*.modules.json.gz')))
    if not refs:
        print('FAIL tbmodules: no references under', os.path.join(data, 'tbprof', 'module_view'))
        print('tbmodules: 0 passed, 1 failed')
        return 1
    for ref in refs:
        with gzip.open(ref, 'rt') as f:
            want = json.load(f)
        trace = os.path.join(data, want['source_trace'])
        tag = os.path.basename(ref).replace('.modules.json.gz', '')
        p = subprocess.run([gp, 'modules', '--tb-compat', '--format', 'json', trace],
                           capture_output=True, text=True)
        if p.returncode != 0:
            print('FAIL', tag, 'exit', p.returncode, p.stderr.strip()[:300])
            failed += 1
            continue
        got = json.loads(p.stdout)['modules']
        exp = flatten((want['module_view'] or {}).get('data', []), -1, [])
        values = equal = rows_ok = 0
        bad = []
        for i, (r, parent) in enumerate(exp):
            g = got[i] if i < len(got) else None
            ok = g is not None and g['name'] == r['name'] and g['module_id'] == r['id'] \
                and g['parent'] == parent
            values += 1
            equal += ok
            for a, b in FIELDS:
                values += 1
                same = g is not None and g[b] == r[a]
                equal += same
                ok = ok and same
                if not same and len(bad) < 5:
                    bad.append('row %d %s %s: want %r got %r' % (
                        i, r['name'], a, r[a], None if g is None else g[b]))
            rows_ok += ok
        extra = len(got) - len(exp)
        line = '%s: %d/%d rows equal, %d/%d values equal' % (tag, rows_ok, len(exp), equal, values)
        if rows_ok == len(exp) and extra == 0:
            print('ok', line)
            passed += 1
        else:
            print('FAIL', line, '(%d rows more than the plugin)' % extra if extra else '')
            for b in bad:
                print('   ', b)
            failed += 1
    print('tbmodules: %d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
