#!/usr/bin/env python3
# Copyright 2026 The jshmem developers
# SPDX-License-Identifier: Apache-2.0
"""Compares two bench/run.sh runs (results.csv of each): per row, each round's jshmem/oshmem ratio;
a row moved if the two runs' round ranges do not overlap.

usage: bench/compare_runs.py BEFORE.csv AFTER.csv [-v]   (-v: every row, not only those that moved)

With 3 rounds on each side and no real change, two ranges miss each other by chance for about
10% of the rows (2 x 3!3!/6!): judge a change by how many rows moved, and which way, against that."""
import csv, sys, statistics
from collections import defaultdict

def ratios(path):
    vals = defaultdict(dict)
    with open(path) as f:
        for r in csv.reader(f):
            if len(r) < 9 or r[0] not in ('jshmem', 'oshmem') or r[5] in ('bind_core','cpu_s','load_avg','other_cpu','wall_s'):
                continue
            impl, t, pes, op, b, metric, v, unit, rnd = r[:9]
            try:
                vals[(t, pes, op, b, metric, rnd)][impl] = float(v)
            except ValueError:
                pass
    out = defaultdict(list)
    for (t, pes, op, b, metric, rnd), d in vals.items():
        if 'jshmem' in d and 'oshmem' in d and d['oshmem'] > 0:
            out[(t, pes, op, b, metric)].append(d['jshmem'] / d['oshmem'])
    return out

if len(sys.argv) < 3 or sys.argv[1] in ('-h', '--help'):
    print(__doc__)
    sys.exit(0 if len(sys.argv) > 1 else 2)
a, b = ratios(sys.argv[1]), ratios(sys.argv[2])
higher_better = lambda m: m in ('bw_MBps', 'rate_Mops')
rows = []
for k in sorted(set(a) & set(b)):
    ra, rb = a[k], b[k]
    if len(ra) < 2 or len(rb) < 2:
        continue
    lo_a, hi_a, lo_b, hi_b = min(ra), max(ra), min(rb), max(rb)
    if hi_b < lo_a:
        move = 'lower'
    elif lo_b > hi_a:
        move = 'higher'
    else:
        move = 'overlap'
    better = None
    if move != 'overlap':
        better = (move == 'higher') == higher_better(k[4])
    rows.append((k, statistics.median(ra), lo_a, hi_a, statistics.median(rb), lo_b, hi_b, move, better))
n = len(rows)
ov = sum(1 for r in rows if r[7] == 'overlap')
bet = sum(1 for r in rows if r[8] is True)
wor = sum(1 for r in rows if r[8] is False)
print(f"rows in both runs: {n}; ranges overlap: {ov}; after better beyond the spread: {bet}; after worse beyond the spread: {wor}")
print("| transport | PEs | op | bytes | metric | before ratio (range) | after ratio (range) | moved |")
print("|---|---:|---|---:|---|---|---|---|")
for k, ma, la, ha, mb, lb, hb, move, better in rows:
    if move == 'overlap' and '-v' not in sys.argv:
        continue
    tag = 'overlap' if move == 'overlap' else ('better' if better else 'WORSE')
    print(f"| {k[0]} | {k[1]} | {k[2]} | {k[3]} | {k[4]} | {ma:.2f} ({la:.2f}-{ha:.2f}) | {mb:.2f} ({lb:.2f}-{hb:.2f}) | {tag} |")
