#!/usr/bin/env python3
"""Derive a functional-head scheme from a UD (lexical-head) CoNLL-U file, deterministically.

    scripts/ud-head-switch.py IN.conllu OUT.conllu

UD makes content words heads; the "functional" scheme made here makes adpositions,
subordinators, auxiliaries and copulas heads instead, as the Functional vs Lexical
conversions of Tsarfaty, Nivre & Andersson (2011). For every word h with dependents F whose
relation (before any ':' subtype) is case, mark, aux or cop:

1. F is ordered outermost first (by distance from h, descending; ties by position), giving
   the chain f1 -> f2 -> ... -> fk -> h: f1 takes h's head and relation; each next element
   (f2 ... fk, then h) attaches to the one before it and takes that one's former
   relation (so "worked" under "have" is labelled aux, "Sunday" under "on" case).
2. Every other dependent d of h moves to the first chain element lying strictly between d
   and h ("John would have worked": John moves to "would"; "on Sunday" stays on "worked"),
   which keeps projective trees projective in the usual cases. A promoted f1 is such a
   dependent of its own new head too.
3. Function words whose head is the root (0) are left alone, as are multiword-token and
   empty-node lines, comments, and every column but HEAD and DEPREL.

The result is checked to be a tree; the script stops with an error otherwise.
"""

import sys

FUNCTION = {"case", "mark", "aux", "cop"}


def base(rel):
    return rel.split(":", 1)[0]


def convert(words):
    """words: list of (id, head, deprel) with ids 1..n. Returns (heads, rels) lists."""
    n = len(words)
    head = [0] + [w[1] for w in words]
    rel = [""] + [w[2] for w in words]
    chains = {}
    for i in range(1, n + 1):
        if base(rel[i]) in FUNCTION and head[i] != 0:
            chains.setdefault(head[i], []).append(i)
    for h, fs in chains.items():
        fs.sort(key=lambda f: (-abs(f - h), f))
    new_head, new_rel = head[:], rel[:]
    in_chain = set()
    for h, fs in chains.items():
        new_head[fs[0]], new_rel[fs[0]] = head[h], rel[h]
        for a, b in zip(fs, fs[1:]):
            new_head[b], new_rel[b] = a, rel[a]
        new_head[h], new_rel[h] = fs[-1], rel[fs[-1]]
        in_chain.update(fs)
    # other dependents of a chain's content word move up the chain
    for d in range(1, n + 1):
        g = new_head[d]
        if g == 0 or g not in chains or d in chains[g]:
            continue
        lo, hi = min(d, g), max(d, g)
        for f in chains[g]:
            if lo < f < hi:
                new_head[d] = f
                break
    # a tree: every word reaches the root
    for i in range(1, n + 1):
        seen, w = set(), i
        while w != 0:
            if w in seen:
                raise ValueError(f"cycle through word {w}")
            seen.add(w)
            w = new_head[w]
    return new_head[1:], new_rel[1:]


def sentences(lines):
    block = []
    for line in lines:
        if line.strip() == "":
            if block:
                yield block
            block = []
        else:
            block.append(line.rstrip("\n"))
    if block:
        yield block


def convert_file(src, dst):
    with open(src, encoding="utf-8") as f, open(dst, "w", encoding="utf-8") as out:
        for k, block in enumerate(sentences(f)):
            rows = [line.split("\t") for line in block if not line.startswith("#")]
            words = [r for r in rows if r[0].isdigit()]
            try:
                heads, rels = convert([(int(r[0]), int(r[6]), r[7]) for r in words])
            except ValueError as e:
                sys.exit(f"{src}: sentence {k + 1}: {e}")
            it = iter(zip(heads, rels))
            for line in block:
                cols = line.split("\t")
                if not line.startswith("#") and cols[0].isdigit():
                    h, r = next(it)
                    cols[6], cols[7] = str(h), r
                    line = "\t".join(cols)
                out.write(line + "\n")
            out.write("\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    convert_file(sys.argv[1], sys.argv[2])
