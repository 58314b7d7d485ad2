#!/usr/bin/env python3
"""Make a re-tokenized, re-split system file from PTB trees, for `brackets --align chars`.

Usage: scripts/retokenize-ptb.py [--seed N] --out FILE --manifest FILE SYSTEM.mrg...

Reads the trees of the SYSTEM files (PTB .mrg, trees across lines, in order; the
trees are numbered from 1 as the gold sentences they stand for) and writes them one
tree per line to --out, changed as a raw-text parser would change them:

- every `n't` is joined to the word before it (`do n't` -> `don't`, `ca n't` -> `can't`),
  under the first word's tag;
- in every 7th tree (3, 10, 17, ...) each hyphenated word is split at its hyphens
  (`long-term` -> `long` `-` `term`, the hyphen tagged HYPH, the parts under the word's
  tag);
- PTB's `-LCB-` and `-RCB-` are written as `{` and `}`, and the quote forms `` and ''
  as `"`;
- in every 50th tree (25, 75, ...) one word is dropped (chosen with the seed among the
  words of at least two letters that COLLINS.prm keeps);
- every 40th tree (10, 50, ...) is split into two trees between two of its top-level
  constituents;
- every 40th tree (30, 70, ...) and the tree after it are joined into one tree (both
  under one unlabelled wrapper).

Brackets follow their words: a bracket left without a word is removed. Only a dropped
word changes the text (the kept characters): each is one mismatch window. The manifest
(JSON) lists what was done and every tree touched (`touched`: the trees whose words or
brackets differ from the input's; the others score as the input does).
The output depends only on the input and the seed.
"""
import argparse
import json
import random
import re
import sys

# COLLINS.prm's DELETE_LABEL tags: words under them are not in the kept text
DELETED = {"TOP", "-NONE-", ",", ":", "``", "''", "."}
ESCAPES = {"-LCB-": "{", "-RCB-": "}", "``": '"', "''": '"'}


def parse(text):
    """The trees of a .mrg text: each a list [label, child...]; a leaf is [tag, word]."""
    tokens = re.findall(r"\(|\)|[^\s()]+", text)
    trees, stack = [], []
    for t in tokens:
        if t == "(":
            stack.append([])
        elif t == ")":
            node = stack.pop()
            if not node or not isinstance(node[0], str):
                node.insert(0, "")
            if stack:
                stack[-1].append(node)
            else:
                trees.append(node)
        else:
            stack[-1].append(t)
    if stack:
        sys.exit("retokenize-ptb.py: unbalanced parentheses in the input")
    return trees


def is_leaf(n):
    return len(n) == 2 and isinstance(n[1], str)


def show(n):
    if is_leaf(n):
        return f"({n[0]} {n[1]})"
    label = n[0] + " " if n[0] else ""
    return "(" + label + " ".join(show(c) for c in n[1:]) + ")"


def leaves(n, out=None):
    """The leaves of `n`, with their parents: [(parent, index in parent)]."""
    out = [] if out is None else out
    for k, c in enumerate(n[1:], start=1):
        if is_leaf(c):
            out.append((n, k))
        else:
            leaves(c, out)
    return out


def prune(n):
    """Remove the brackets left without a leaf."""
    kids = [c for c in n[1:] if is_leaf(c) or prune(c)]
    n[1:] = kids
    return bool(kids)


def join_nt(tree):
    """Join every `n't` to the word before it; how many were joined."""
    ls = leaves(tree)
    joined = 0
    for i in range(len(ls) - 1, 0, -1):
        (p, k), (q, j) = ls[i - 1], ls[i]
        if q[j][1].lower() == "n't" and p[k][0] not in DELETED:
            p[k] = [p[k][0], p[k][1] + q[j][1]]
            q[j] = None
            joined += 1
    drop_none(tree)
    return joined


def drop_none(n):
    n[1:] = [c for c in n[1:] if c is not None]
    for c in n[1:]:
        if not is_leaf(c):
            drop_none(c)
    prune(n)


def split_hyphens(tree):
    """Split every hyphenated word at its hyphens; how many were split."""
    split = 0
    for p, k in reversed(leaves(tree)):
        tag, word = p[k]
        if tag in DELETED or not re.fullmatch(r"[A-Za-z0-9]+(-[A-Za-z0-9]+)+", word):
            continue
        parts = []
        for m, piece in enumerate(word.split("-")):
            if m:
                parts.append(["HYPH", "-"])
            parts.append([tag, piece])
        p[k:k + 1] = parts
        split += 1
    return split


def escape(tree):
    """Write -LCB-, -RCB- and the quote forms as characters; how many were, and how
    many of them COLLINS.prm keeps (the others change no count)."""
    n, kept_words = 0, 0
    for p, k in leaves(tree):
        if p[k][1] in ESCAPES:
            p[k] = [p[k][0], ESCAPES[p[k][1]]]
            n += 1
            kept_words += p[k][0] not in DELETED
    return n, kept_words


def drop_word(tree, rng):
    """Drop one kept word of two letters or more; the word, or None."""
    ok = [(p, k) for p, k in leaves(tree)
          if p[k][0] not in DELETED and re.fullmatch(r"[A-Za-z]{2,}", p[k][1])]
    if not ok:
        return None
    p, k = rng.choice(ok)
    word = p[k][1]
    p[k] = None
    drop_none(tree)
    return word


def root(tree):
    """The tree's top constituent (under the unlabelled wrapper, if any)."""
    if tree[0] == "" and len(tree) == 2 and not is_leaf(tree[1]):
        return tree[1]
    return tree


def kept(n):
    return any(p[k][0] not in DELETED for p, k in leaves(n))


def split_tree(tree):
    """Two trees, between two top-level constituents; None when it cannot be split."""
    r = root(tree)
    kids = r[1:]
    for cut in range(len(kids) // 2, len(kids)):
        a, b = [r[0]] + kids[:cut], [r[0]] + kids[cut:]
        if cut and kept(a) and kept(b):
            return ["", a], ["", b]
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("system", nargs="+")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    trees = []
    for path in a.system:
        with open(path, encoding="utf-8") as f:
            trees.extend(parse(f.read()))
    m = {"seed": a.seed, "trees_in": len(trees), "touched": [], "dropped": [],
         "split": [], "joined": [], "nt_joined": 0, "hyphens_split": 0, "escaped": 0}
    out = []
    held = None
    for i, tree in enumerate(trees, start=1):
        before = show(tree)
        m["nt_joined"] += join_nt(tree)
        if i % 7 == 3:
            m["hyphens_split"] += split_hyphens(tree)
        if i % 50 == 25:
            word = drop_word(tree, rng)
            if word:
                m["dropped"].append({"sentence": i, "word": word})
        touched = show(tree) != before
        escaped, escaped_kept = escape(tree)
        m["escaped"] += escaped
        touched = touched or escaped_kept > 0
        pieces = [tree]
        if i % 40 == 10 and (two := split_tree(tree)):
            pieces = list(two)
            m["split"].append(i)
            touched = True
        if held is not None:
            pieces = [["", root(held), root(pieces[0])]] + pieces[1:]
            m["joined"].append([i - 1, i])
            held = None
        elif i % 40 == 30 and i < len(trees):
            held = tree
            pieces = []
        if touched:
            m["touched"].append(i)
        out.extend(show(p) for p in pieces)
    m["trees_out"] = len(out)
    with open(a.out, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    with open(a.manifest, "w", encoding="utf-8") as f:
        json.dump(m, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
