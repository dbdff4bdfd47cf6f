#!/usr/bin/env python3
"""The reference of the timeline search's API tests (tests/server/timeline_find.sh).

  timeline_find.py find TRACE ANSWER TEXT [A B]
      ANSWER (GET /api/file/ID/timeline/find?find=TEXT[&start_ns=A&end_ns=B])
      against an independent count over TRACE (plain or gzipped JSON): its
      events of ph X whose name contains TEXT, ASCII letters folded (as the
      server documents), overlapping [A, B) (ns from the trace's start) by
      the timeline's rule; total, truncated, the first matches (name, ts,
      dur, in (ts, file order) order) and the per-name counts and total
      durations (most matches first, then longest, then by name).
  timeline_find.py mark TIMELINE ANSWER TEXT
      TIMELINE (GET /timeline?...&find=TEXT) against ANSWER (the find of the
      same window): every event item is marked exactly when its name
      matches, the spans' "matches" column counts at most their events, and
      the marked events plus the spans' matches are the total.
Prints "ok", or the first difference (exit 1).
"""
import gzip
import json
import sys
from collections import defaultdict
from decimal import Decimal

FOLD = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def fold(s):
    return s.translate(FOLD)


def ns(v):
    """µs as written (an int or a decimal text) to integer ns, exactly."""
    return int(Decimal(str(v)) * 1000)


def fail(msg):
    print(msg)
    sys.exit(1)


def check_find(trace, answer, text, window):
    opener = gzip.open if trace.endswith(".gz") else open
    with opener(trace, "rt", encoding="utf-8") as f:
        doc = json.load(f, parse_float=Decimal)
    events = doc["traceEvents"] if isinstance(doc, dict) else doc
    with open(answer, encoding="utf-8") as f:
        got = json.load(f)
    lo = got["find"]["trace_start_ns"]
    a = b = None
    if window:
        a, b = lo + int(window[0]), lo + int(window[1])
    want = []
    needle = fold(text)
    for i, e in enumerate(events):
        if e.get("ph") != "X" or needle not in fold(e.get("name", "")):
            continue
        ts, dur = ns(e["ts"]), ns(e.get("dur", 0))
        end = ts + max(dur, 0)
        if a is not None and (ts >= b or end < a or (end == a and dur > 0)):
            continue
        want.append((ts, i, e.get("name", ""), dur))
    want.sort()
    limit = got["find"]["limit"]
    if got["total"] != len(want):
        fail(f"total {got['total']}, want {len(want)}")
    if got["truncated"] != (len(want) > limit):
        fail(f"truncated {got['truncated']} with {len(want)} matches and limit {limit}")
    ms = got["matches"]
    if len(ms) != min(limit, len(want)):
        fail(f"{len(ms)} matches, want {min(limit, len(want))}")
    for k, (m, w) in enumerate(zip(ms, want)):
        if (m["name"], m["ts"] + lo, m["dur"]) != (w[2], w[0], w[3]):
            fail(f"match {k}: {m}, want name {w[2]!r} ts {w[0] - lo} dur {w[3]}")
    per = defaultdict(lambda: [0, 0])
    for w in want:
        per[w[2]][0] += 1
        per[w[2]][1] += max(w[3], 0)
    names = sorted(per.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0].encode()))
    if got["names_total"] != len(names):
        fail(f"names_total {got['names_total']}, want {len(names)}")
    wn = [{"name": n, "count": c, "total_dur": d} for n, (c, d) in names[:50]]
    if got["names"] != wn:
        fail(f"names {got['names'][:3]}..., want {wn[:3]}...")


def check_mark(timeline, answer, text):
    with open(timeline, encoding="utf-8") as f:
        tl = json.load(f)
    with open(answer, encoding="utf-8") as f:
        got = json.load(f)
    if tl["truncated"]:
        fail("the timeline answer is truncated")
    needle = fold(text)
    marked = 0
    for lane in tl["lanes"]:
        for it in lane["items"]:
            if it["type"] == "event":
                m = needle in fold(it["name"])
                if it.get("match", False) != m:
                    fail(f"event {it}: match should be {m}")
                marked += m
            else:
                fail(f"item {it}: the merged spans are the lane's spans columns")
        sp = lane["spans"]
        if "matches" not in sp or len(sp["matches"]) != len(sp["count"]):
            fail(f"spans {sp}: no matches column of their length with a search")
        for m, c in zip(sp["matches"], sp["count"]):
            if not 0 <= m <= c:
                fail(f"spans {sp}: {m} matches of {c} events")
            marked += m
    if marked != got["total"]:
        fail(f"{marked} events marked, the find's total is {got['total']}")


def main():
    if len(sys.argv) >= 5 and sys.argv[1] == "find":
        check_find(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:7])
    elif len(sys.argv) == 5 and sys.argv[1] == "mark":
        check_mark(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        fail(__doc__)
    print("ok")


if __name__ == "__main__":
    main()
