#!/usr/bin/env python3
"""Tree edit distance of `treeval ted --distance` against the apted and zss packages, on
random tree pairs up to 60 nodes (unit costs, and unlabeled: relabelling free) and on PTB
sample trees against perturbed copies.

Usage: ted_oracle.py TREEVAL SHARED_DATA WORK_DIR N
"""
import os
import random
import re
import subprocess
import sys

from apted import APTED, Config
from apted.helpers import Tree as ATree
import zss

treeval, data, work, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
os.makedirs(work, exist_ok=True)
rng = random.Random(20261121)


def random_tree(size, labels):
    """A random tree of `size` nodes as nested (label, children)."""
    nodes = [(rng.choice(labels), []) for _ in range(size)]
    for k in range(1, size):
        nodes[rng.randrange(k)][1].append(nodes[k])
    return nodes[0]


def bracket(t):
    return "{" + t[0] + "".join(bracket(c) for c in t[1]) + "}"


def to_zss(t):
    node = zss.Node(t[0])
    for c in t[1]:
        node.addkid(to_zss(c))
    return node


class Unlabeled(Config):
    def rename(self, a, b):
        return 0


def ptb_trees():
    """PTB sample trees as nested tuples (pre-terminals as a label over the word)."""
    combined = os.path.join(data, "ptb-sample/treebank/combined")
    out = []
    for name in sorted(os.listdir(combined))[:40]:
        if not name.endswith(".mrg"):
            continue
        text = open(os.path.join(combined, name), encoding="utf-8").read()
        toks = re.findall(r"\(|\)|[^\s()]+", text)
        stack, trees = [], []
        for i, tok in enumerate(toks):
            if tok == "(":
                stack.append(["", []])
            elif tok == ")":
                node = stack.pop()
                t = (node[0] or "ROOT", node[1])
                if stack:
                    stack[-1][1].append(t)
                else:
                    trees.append(t)
            elif stack and stack[-1][0] == "" and not stack[-1][1] and toks[i - 1] == "(":
                stack[-1][0] = tok.replace("{", "[").replace("}", "]")
            elif stack:
                stack[-1][1].append((tok.replace("{", "[").replace("}", "]"), []))
        out.extend(trees)
    return out


def walk(t):
    yield t
    for c in t[1]:
        yield from walk(c)


def perturb(t):
    label, kids = t
    kids = [perturb(c) for c in kids]
    r = rng.random()
    if r < 0.05:
        label = label + "X"
    if kids and r > 0.95:
        # flatten one child into its parent
        k = rng.randrange(len(kids))
        kids = kids[:k] + kids[k][1] + kids[k + 1:]
    return (label, kids)


pairs = []
for _ in range(n):
    labels = ["a", "b", "c", "d"][: rng.randint(1, 4)]
    pairs.append((random_tree(rng.randint(1, 60), labels), random_tree(rng.randint(1, 60), labels)))
ptb = ptb_trees()
for t in [t for t in ptb if sum(1 for _ in walk(t)) <= 120][:60]:
    pairs.append((t, perturb(t)))

path = os.path.join(work, "pairs.txt")
with open(path, "w", encoding="utf-8") as f:
    for a, b in pairs:
        f.write(bracket(a) + "\t" + bracket(b) + "\n")

failed = 0
for unlabeled in (False, True):
    args = [treeval, "ted", "--distance", path] + (["--unlabeled"] if unlabeled else [])
    got = [int(x) for x in subprocess.run(args, check=True, capture_output=True, text=True).stdout.split()]
    assert len(got) == len(pairs), (len(got), len(pairs))
    for k, ((a, b), d) in enumerate(zip(pairs, got)):
        ta, tb = ATree.from_text(bracket(a)), ATree.from_text(bracket(b))
        want_apted = APTED(ta, tb, Unlabeled() if unlabeled else Config()).compute_edit_distance()
        if unlabeled:
            # zss prices insertions and deletions with label_dist('', x): keep those at 1
            want_zss = zss.simple_distance(
                to_zss(a), to_zss(b), label_dist=lambda x, y: 1 if (x == "") != (y == "") else 0
            )
        else:
            want_zss = zss.simple_distance(to_zss(a), to_zss(b))
        if not (d == want_apted == want_zss):
            failed += 1
            if failed <= 5:
                print(f"pair {k} ({'unlabeled' if unlabeled else 'labeled'}): treeval {d}, apted {want_apted}, zss {want_zss}")
print(f"ted oracle: {len(pairs)} pairs ({n} random up to 60 nodes, {len(pairs) - n} PTB vs perturbed) x 2 cost models, {failed} failed")
sys.exit(1 if failed else 0)
