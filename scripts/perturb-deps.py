#!/usr/bin/env python3
"""Perturb the trees of a CoNLL-U/CoNLL-X file, deterministically (a fake parser).

    scripts/perturb-deps.py IN OUT [--seed S] [--rate R]

Each word but the root word, with probability R (default 0.1), gets a new head: the first,
in a random order, of the words outside its own subtree that keep the tree projective (any
of them if the tree was not projective to begin with; none: the head stays), so the
result stays a single-rooted tree, as a projective parser's would; with probability R/2,
independently, its relation becomes another relation of the same file. The random stream
is Python's random.Random(S), drawn in file order, so one seed gives the same draws for
two files. Reads CoNLL-U and CoNLL-X (10 columns; other lines are copied).
"""

import argparse
import random


def subtree(heads, w):
    """Words dominated by w (1-based), w included."""
    kids = {}
    for i, h in enumerate(heads, 1):
        kids.setdefault(h, []).append(i)
    out, stack = set(), [w]
    while stack:
        x = stack.pop()
        out.add(x)
        stack.extend(kids.get(x, []))
    return out


def projective(heads):
    """Every word's yield is an interval."""
    n = len(heads)
    kids = [[] for _ in range(n + 1)]
    for i, h in enumerate(heads, 1):
        kids[h].append(i)
    lo, hi, size = list(range(n + 1)), list(range(n + 1)), [1] * (n + 1)
    order, stack = [], [0]
    while stack:
        x = stack.pop()
        order.append(x)
        stack.extend(kids[x])
    for x in reversed(order):
        for c in kids[x]:
            lo[x], hi[x] = min(lo[x], lo[c]), max(hi[x], hi[c])
            size[x] += size[c]
    return all(hi[x] - lo[x] + 1 == size[x] for x in range(1, n + 1))


def perturb(heads, rels, rng, rate, inventory):
    heads, rels = heads[:], rels[:]
    n = len(heads)
    keep_projective = projective(heads)
    for w in range(1, n + 1):
        if rng.random() < rate and heads[w - 1] != 0:
            banned = subtree(heads, w)
            choices = [h for h in range(1, n + 1) if h not in banned and h != heads[w - 1]]
            rng.shuffle(choices)
            old = heads[w - 1]
            for h in choices:
                heads[w - 1] = h
                if not keep_projective or projective(heads):
                    break
            else:
                heads[w - 1] = old
        if rng.random() < rate / 2 and len(inventory) > 1:
            rels[w - 1] = rng.choice([r for r in inventory if r != rels[w - 1]])
    return heads, rels


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src")
    ap.add_argument("dst")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rate", type=float, default=0.1)
    a = ap.parse_args()
    with open(a.src, encoding="utf-8") as f:
        text = f.read()
    blocks = [b for b in text.split("\n\n") if b.strip()]
    parsed = []
    inventory = set()
    for b in blocks:
        lines = b.strip("\n").split("\n")
        parsed.append(lines)
        for line in lines:
            cols = line.split("\t")
            if len(cols) >= 8 and cols[0].isdigit():
                inventory.add(cols[7])
    inventory = sorted(inventory)
    rng = random.Random(a.seed)
    with open(a.dst, "w", encoding="utf-8") as out:
        for lines in parsed:
            rows = [line.split("\t") for line in lines]
            idx = [k for k, r in enumerate(rows) if len(r) >= 8 and r[0].isdigit()]
            heads = [int(rows[k][6]) for k in idx]
            rels = [rows[k][7] for k in idx]
            heads, rels = perturb(heads, rels, rng, a.rate, inventory)
            for j, k in enumerate(idx):
                rows[k][6], rows[k][7] = str(heads[j]), rels[j]
            out.write("\n".join("\t".join(r) for r in rows) + "\n\n")


if __name__ == "__main__":
    main()
