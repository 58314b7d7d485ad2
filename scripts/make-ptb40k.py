#!/usr/bin/env python3
"""Write the 40,000-tree bracket benchmark pair: the PTB sample's 3,914 trees, one per
line, cycled; the test side relabels every third tree's NP brackets as XP and flattens
every fifth tree's first VP (deterministic). Usage: make-ptb40k.py SHARED_DATA OUT_DIR"""
import os, re, sys

data, out = sys.argv[1], sys.argv[2]
combined = os.path.join(data, "ptb-sample/treebank/combined")
trees = []
for name in sorted(os.listdir(combined)):
    if not name.endswith(".mrg"):
        continue
    text = open(os.path.join(combined, name), encoding="utf-8").read()
    depth, cur = 0, []
    for ch in text:
        if ch == "(":
            depth += 1
        if depth > 0:
            cur.append(ch)
        if ch == ")":
            depth -= 1
            if depth == 0:
                trees.append(" ".join("".join(cur).split()))
                cur = []
assert len(trees) == 3914, len(trees)
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, "ptb40k.gld"), "w") as g, open(os.path.join(out, "ptb40k.tst"), "w") as t:
    for k in range(40000):
        tree = trees[k % len(trees)]
        g.write(tree + "\n")
        if k % 3 == 0:
            tree = re.sub(r"\(NP\b", "(XP", tree)
        if k % 5 == 0:
            tree = tree.replace("(VP ", "(", 1)  # an unlabeled bracket in place of the first VP
        t.write(tree + "\n")
