#!/usr/bin/env python3
"""Scores `dossier verify` against an analyst-labelled set of (claim, quote) pairs.

Usage: entailment_score.py SET.jsonl VERDICTS.jsonl
Prints, per kind of error, the precision and recall of rejection (a rejection is right
when the analyst says reject), the wrong claims accepted and the true ones rejected."""
import json
import sys
from collections import defaultdict

pairs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
verdicts = {}
for l in open(sys.argv[2]):
    if l.strip():
        v = json.loads(l)
        verdicts[v["id"]] = v

rows = defaultdict(lambda: [0, 0, 0, 0, 0])  # tp fp fn tn undecided
misses = []
for p in pairs:
    v = verdicts[p["claim"]["id"]]
    rejected = v["verdict"] == "rejected"
    wrong = p["expect"] == "reject"
    r = rows[p["kind"]]
    r[0 if rejected and wrong else 1 if rejected else 2 if wrong else 3] += 1
    r[4] += v.get("entailment") == "undecided"
    if rejected != wrong:
        misses.append((p, v))

def line(name, r):
    tp, fp, fn, tn, und = r
    prec = tp / (tp + fp) if tp + fp else float("nan")
    rec = tp / (tp + fn) if tp + fn else float("nan")
    wrong_acc = fn / (tp + fn) if tp + fn else 0.0
    true_rej = fp / (fp + tn) if fp + tn else 0.0
    print(f"{name:<14} {tp+fn:>5} {fp+tn:>5} {prec:>9.3f} {rec:>7.3f} {wrong_acc:>12.1%} {true_rej:>12.1%} {und:>9}")

print(f"{'kind':<14} {'wrong':>5} {'true':>5} {'precision':>9} {'recall':>7} {'wrong acc.':>12} {'true rej.':>12} {'undecided':>9}")
total = [0, 0, 0, 0, 0]
for k in sorted(rows):
    line(k, rows[k])
    total = [a + b for a, b in zip(total, rows[k])]
line("all", total)
if "-v" in sys.argv:
    for p, v in misses:
        print(f"\n{p['claim']['id']} {p['kind']} expect {p['expect']} got {v['verdict']} ({v.get('entailment')}, {v.get('rule')}): {p['why']}\n  reason: {v['reason'] or v.get('undecided','')}")
