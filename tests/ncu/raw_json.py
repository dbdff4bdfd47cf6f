"""`gpuprof ncu raw --format json` against the text table of the same report
(run by tests/ncu/check.sh; python3 standard library only).

usage: raw_json.py GPUPROF REPORT...

The expectations come from the text table (`gpuprof ncu raw REPORT`), cut
into its columns at the header's words, never from the JSON:

- the JSON has one metric row per text row, with the same launch id, metric
  and unit, in the same order;
- every value the text writes as a comma-grouped integer ("10,720",
  "1,125,000") is in JSON that integer, the commas removed, exactly (a JSON
  integer); one with decimals ("1,916.45") is a JSON number that the text
  rounds: within half a unit of its last digit of 1916.45 (the JSON keeps
  the report's full precision, 1916.4545...);
- `launches` holds every launch id of the text exactly once, in order, with
  the kernel name the text prints for it.

Prints one line per check, "ok LABEL" or "FAIL ncu: LABEL: why".
"""
import json
import re
import subprocess
import sys
from decimal import Decimal

GROUPED = re.compile(r"-?[0-9]{1,3}(,[0-9]{3})+(\.[0-9]+)?")


def check(label, cond, why=""):
    print(f"ok {label}" if cond else f"FAIL ncu: {label}: {why}")


def text_rows(text):
    """The rows of the text table: (id, kernel, metric, unit, value)."""
    lines = text.split("\n")
    head = lines.index(next(l for l in lines if l.lstrip().startswith("ID  Kernel")))
    header = lines[head]
    cols = ["Kernel", "Metric", "Unit", "Value", "Instances"]
    at = []
    for c in cols:
        at.append(header.index(c, at[-1] if at else 0))
    rows = []
    for line in lines[head + 1:]:
        if not line.strip():
            break
        rows.append((int(line[: at[0]]), line[at[0]: at[1]].strip(), line[at[1]: at[2]].strip(),
                     line[at[2]: at[3]].strip(), line[at[3]: at[4]].strip()))
    return rows


def main():
    gpuprof = sys.argv[1]
    for path in sys.argv[2:]:
        name = path.rsplit("/", 1)[-1]
        text = subprocess.run([gpuprof, "ncu", "raw", path], capture_output=True, text=True).stdout
        doc = json.loads(subprocess.run([gpuprof, "--format", "json", "ncu", "raw", path],
                                        capture_output=True, text=True).stdout)
        rows = text_rows(text)
        metrics = doc["metrics"]
        check(f"raw json {name}: a metric row per text row", len(metrics) == len(rows),
              f"{len(metrics)} vs {len(rows)}")
        keys = [(m["id"], m["metric"], m["unit"]) for m in metrics]
        want = [(r[0], r[2], r[3]) for r in rows]
        check(f"raw json {name}: launch, metric and unit of each row", keys == want,
              next((f"{k} vs {w}" for k, w in zip(keys, want) if k != w), "lengths"))
        bad = []
        ints = decimals = 0
        for r, m in zip(rows, metrics):
            if not GROUPED.fullmatch(r[4]):
                continue
            plain = r[4].replace(",", "")
            v = m["value"]
            if "." not in plain:
                ints += 1
                same = type(v) is int and v == int(plain)
            else:
                decimals += 1
                half = Decimal(1).scaleb(-len(plain.split(".")[1])) / 2
                same = type(v) in (int, float) and abs(Decimal(repr(v)) - Decimal(plain)) <= half
            if not same:
                bad.append((r[0], r[2], r[4], v))
        check(f"raw json {name}: {ints} comma-grouped integers and {decimals} decimals are their numbers",
              ints > 0 and not bad, f"{len(bad)} differ: {bad[:3]}")
        ids = []
        kernel = {}
        for r in rows:
            if r[0] not in kernel:
                ids.append(r[0])
                kernel[r[0]] = r[1]
        launches = doc["launches"]
        check(f"raw json {name}: {len(ids)} launches, each once",
              [x["id"] for x in launches] == ids, f"{[x['id'] for x in launches][:8]} vs {ids[:8]}")
        check(f"raw json {name}: the kernel of each launch",
              [(x["id"], x["kernel"]) for x in launches] == [(i, kernel[i]) for i in ids],
              f"{launches[:2]} vs {[(i, kernel[i]) for i in ids][:2]}")


if __name__ == "__main__":
    main()
