#!/usr/bin/env python3
"""Differential test of `treeval ud` against udtools' udeval on generated pairs.

Gold files are random runs of sentences from the UD treebanks in ../shared/data (English
EWT with its empty nodes, French Sequoia and German GSD with contractions, Hebrew HTB with
many multiword tokens, Japanese GSD without spaces), some with empty nodes added. Each
system file is the gold perturbed by a seeded mix of: re-attached heads, changed labels
(and subtypes), tags, features (reordered, non-universal ones added), lemmas, DEPS items;
split and merged tokens; split and merged sentences; multiword tokens made plain and
plain tokens made multiword; empty nodes added and removed. Both tools score every pair
with the same --enhancements digits; udeval reads the files as they are, which treeval
calls --empty-nodes drop. Every count of every metric must be equal.

Usage: ud_differential.py TREEVAL_BINARY SHARED_DATA_DIR WORK_DIR [PAIRS]
Prints one line per failing pair and a summary; exits 1 on any difference.
"""
import argparse
import os
import random
import subprocess
import sys

from udtools import udeval

TREEVAL, DATA, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
PAIRS = int(sys.argv[4]) if len(sys.argv) > 4 else 300
os.makedirs(WORK, exist_ok=True)

SOURCES = [
    "ud/UD_English-EWT/en_ewt-ud-dev.conllu",
    "ud/UD_French-Sequoia/fr_sequoia-ud-dev.conllu",
    "ud/UD_German-GSD/de_gsd-ud-dev.conllu",
    "ud/UD_Hebrew-HTB/he_htb-ud-dev.conllu",
    "ud/UD_Japanese-GSD/ja_gsd-ud-dev.conllu",
]
LABELS = ["nsubj", "obj", "iobj", "obl", "obl:tmod", "nmod", "nmod:poss", "amod", "advmod",
          "det", "case", "mark", "cc", "conj", "aux", "cop", "punct", "compound", "acl",
          "acl:relcl", "xcomp", "ccomp", "advcl", "dep", "flat", "fixed", "nsubj:pass"]


def read_sentences(path):
    """Sentences as lists of CoNLL-U lines (comments included)."""
    out, cur = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line:
                cur.append(line)
            elif cur:
                out.append(cur)
                cur = []
    if cur:
        out.append(cur)
    return out


class Word:
    def __init__(self, cols):
        self.form, self.lemma, self.upos, self.xpos, self.feats = cols[1:6]
        self.head_id, self.deprel, self.deps_text, self.misc = cols[6], cols[7], cols[8], cols[9]
        self.head = None  # Word, or None for the root
        self.deps = []    # (Word | "ROOT" | Empty, label)


class Empty:
    def __init__(self, cols):
        self.id = cols[0]
        self.cols = cols
        self.after = None  # Word or None (before the first word)
        self.deps = []


def parse(lines):
    """A sentence as tokens [(form or None, [Word])] and empty nodes."""
    comments = [l for l in lines if l.startswith("#")]
    rows = [l.split("\t") for l in lines if not l.startswith("#")]
    tokens, words, empties, by_id = [], [], [], {}
    mwt_end = 0
    for c in rows:
        if "-" in c[0]:
            a, b = map(int, c[0].split("-"))
            tokens.append([c[1], []])
            mwt_end = b
        elif "." in c[0]:
            e = Empty(c)
            e.after = words[-1] if words else None
            empties.append(e)
            by_id[c[0]] = e
        else:
            w = Word(c)
            words.append(w)
            by_id[c[0]] = w
            if int(c[0]) <= mwt_end:
                tokens[-1][1].append(w)
            else:
                tokens.append([None, [w]])
    for w in words:
        w.head = None if w.head_id == "0" else by_id[w.head_id]
    def deps_of(text):
        out = []
        if text != "_":
            for item in text.split("|"):
                h, l = item.split(":", 1)
                out.append(("ROOT" if h == "0" else by_id[h], l))
        return out
    for w in words:
        w.deps = deps_of(w.deps_text)
    for e in empties:
        e.deps = deps_of(e.cols[8])
    return {"comments": comments, "tokens": tokens, "empties": empties}


def words_of(s):
    return [w for _, ws in s["tokens"] for w in ws]


def serialize(s):
    ws = words_of(s)
    idx = {id(w): i + 1 for i, w in enumerate(ws)}
    sub = {}
    eid = {}
    for e in s["empties"]:
        k = idx[id(e.after)] if e.after is not None and id(e.after) in idx else 0
        sub[k] = sub.get(k, 0) + 1
        eid[id(e)] = f"{k}.{sub[k]}"
    def ref(h):
        if h == "ROOT":
            return "0"
        if isinstance(h, Empty):
            return eid[id(h)]
        return str(idx[id(h)])
    def deps(items):
        items = [(h, l) for h, l in items
                 if h == "ROOT" or (isinstance(h, Empty) and id(h) in eid) or id(h) in idx]
        return "|".join(f"{ref(h)}:{l}" for h, l in items) or "_"
    by_after = {}
    for e in s["empties"]:
        k = idx[id(e.after)] if e.after is not None and id(e.after) in idx else 0
        by_after.setdefault(k, []).append(e)
    out = list(s["comments"])
    for e in by_after.get(0, []):
        out.append("\t".join([eid[id(e)], *e.cols[1:8], deps(e.deps), e.cols[9]]))
    n = 0
    for form, tw in s["tokens"]:
        if form is not None:
            out.append(f"{n + 1}-{n + len(tw)}\t{form}\t_\t_\t_\t_\t_\t_\t_\t_")
        for w in tw:
            n += 1
            head = "0" if w.head is None else str(idx[id(w.head)])
            out.append("\t".join([str(n), w.form, w.lemma, w.upos, w.xpos, w.feats, head,
                                  w.deprel, deps(w.deps), w.misc]))
            for e in by_after.get(n, []):
                out.append("\t".join([eid[id(e)], *e.cols[1:8], deps(e.deps), e.cols[9]]))
    return "\n".join(out) + "\n\n"


def descendants(ws, w):
    out, changed = {id(w)}, True
    while changed:
        changed = False
        for x in ws:
            if id(x) not in out and x.head is not None and id(x.head) in out:
                out.add(id(x))
                changed = True
    return out


def replace_refs(s, old, new):
    for w in words_of(s):
        if w.head is old:
            w.head = new
        w.deps = [(new if h is old else h, l) for h, l in w.deps]
    for e in s["empties"]:
        if e.after is old:
            e.after = new
        e.deps = [(new if h is old else h, l) for h, l in e.deps]


def fix_tree(ws):
    """Make the words of a part one tree: heads outside go to its first such word (the new root)."""
    inside = {id(w) for w in ws}
    for w in ws:  # break cycles that merging words may have made
        seen, x = set(), w
        while x is not None and id(x) in inside and id(x) not in seen:
            seen.add(id(x))
            x = x.head
        if x is not None and id(x) in seen:
            x.head = None
    root = None
    for w in ws:
        if w.head is None or id(w.head) not in inside:
            if root is None:
                root, w.head, w.deprel = w, None, "root"
            else:
                w.head = root
    for w in ws:
        w.deps = [(h, l) for h, l in w.deps if h == "ROOT" or isinstance(h, Empty) or id(h) in inside]


def perturb(rng, sents):
    sents = [dict(s, tokens=[[f, list(ws)] for f, ws in s["tokens"]], empties=list(s["empties"]))
             for s in sents]
    rate = rng.choice([0.02, 0.05, 0.15])
    for s in sents:
        ws = words_of(s)
        for w in ws:
            r = rng.random
            if r() < rate and w.head is not None:
                bad = descendants(ws, w)
                cands = [x for x in ws if id(x) not in bad]
                if cands:
                    w.head = rng.choice(cands)
            if r() < rate and w.head is not None:
                w.deprel = rng.choice(LABELS)
            if r() < rate:
                w.upos = rng.choice(["NOUN", "VERB", "ADJ", "X"])
            if r() < rate:
                w.xpos = rng.choice(["NN", "VB", "_"])
            if r() < rate:
                f = [] if w.feats == "_" else w.feats.split("|")
                rng.shuffle(f)
                if r() < 0.5:
                    f.append(rng.choice(["Foo=Bar", "Case=Nom", "Typo=Yes"]))
                elif f:
                    f.pop()
                w.feats = "|".join(f) or "_"
            if r() < rate:
                w.lemma = rng.choice([w.lemma.upper(), "_", w.form])
            if r() < rate and w.deps:
                k = rng.randrange(len(w.deps))
                h, l = w.deps[k]
                w.deps[k] = (h, rng.choice([l.split(":")[0], rng.choice(LABELS), "conj:and>nsubj"]))
            if r() < rate / 2:
                w.deps.append((rng.choice(ws + ["ROOT"]), rng.choice(LABELS)))
        # token splits and merges
        if rng.random() < 0.3:
            plain = [k for k, (f, tw) in enumerate(s["tokens"]) if f is None and len(tw[0].form) >= 2]
            if plain:
                k = rng.choice(plain)
                w = s["tokens"][k][1][0]
                cut = rng.randrange(1, len(w.form))
                w2 = Word(["0", w.form[cut:], "_", "X", "_", "_", "0", "dep", "_", "_"])
                w.form = w.form[:cut]
                w2.head = w
                s["tokens"].insert(k + 1, [None, [w2]])
        if rng.random() < 0.3:
            pairs = [k for k in range(len(s["tokens"]) - 1)
                     if s["tokens"][k][0] is None and s["tokens"][k + 1][0] is None]
            if pairs:
                k = rng.choice(pairs)
                a, b = s["tokens"][k][1][0], s["tokens"][k + 1][1][0]
                a.form += b.form
                if a.head is b:
                    a.head, a.deprel = b.head, b.deprel
                replace_refs(s, b, a)
                if a.head is a:
                    a.head = None
                del s["tokens"][k + 1]
                fix_tree(words_of(s))
        # multiword tokens: made plain, or made from a plain token
        if rng.random() < 0.3:
            mwts = [k for k, (f, tw) in enumerate(s["tokens"]) if f is not None]
            if mwts:
                k = rng.choice(mwts)
                form, tw = s["tokens"][k]
                keep = tw[0]
                for x in tw[1:]:
                    if keep.head is x:
                        keep.head = x.head
                    replace_refs(s, x, keep)
                if keep.head is keep:
                    keep.head = None
                fix_tree(words_of(s))
                keep.form = form.replace(" ", "") or keep.form
                s["tokens"][k] = [None, [keep]]
                fix_tree(words_of(s))
        if rng.random() < 0.3:
            plain = [k for k, (f, tw) in enumerate(s["tokens"]) if f is None and len(tw[0].form) >= 2]
            if plain:
                k = rng.choice(plain)
                w = s["tokens"][k][1][0]
                cut = rng.randrange(1, len(w.form))
                w2 = Word(["0", rng.choice([w.form[cut:].upper(), "x"]), "_", "X", "_", "_", "0", "dep", "_", "_"])
                w2.head = w
                s["tokens"][k] = [w.form, [w, w2]]
                w.form = w.form[:cut]
        # empty nodes
        if s["empties"] and rng.random() < 0.3:
            e = s["empties"].pop(rng.randrange(len(s["empties"])))
            for w in words_of(s):
                w.deps = [(h, l) for h, l in w.deps if h is not e]
            for x in s["empties"]:
                x.deps = [(h, l) for h, l in x.deps if h is not e]
        if rng.random() < 0.15:
            add_empty(rng, s)
    # sentence splits and merges
    out = []
    for s in sents:
        if len(s["tokens"]) >= 4 and rng.random() < 0.1:
            k = rng.randrange(1, len(s["tokens"]))
            first, second = s["tokens"][:k], s["tokens"][k:]
            a = dict(s, tokens=first, empties=[e for e in s["empties"] if e.after is None or any(e.after in tw for _, tw in first)])
            b = dict(s, comments=[], tokens=second, empties=[e for e in s["empties"] if e not in a["empties"]])
            for part in (a, b):
                ws = words_of(part)
                fix_tree(ws)
                inside = {id(w) for w in ws} | {id(e) for e in part["empties"]}
                for e in part["empties"]:
                    e.deps = [(h, l) for h, l in e.deps if h == "ROOT" or id(h) in inside]
                    if e.after is not None and id(e.after) not in inside:
                        e.after = None
                for w in ws:
                    w.deps = [(h, l) for h, l in w.deps if h == "ROOT" or id(h) in inside]
            out.extend([a, b])
        elif out and rng.random() < 0.1:
            prev = out[-1]
            root = next(w for w in words_of(prev) if w.head is None)
            for w in words_of(s):
                if w.head is None:
                    w.head, w.deprel = root, "parataxis"
            out[-1] = dict(prev, tokens=prev["tokens"] + s["tokens"], empties=prev["empties"] + s["empties"])
        else:
            out.append(s)
    return out


def add_empty(rng, s):
    ws = words_of(s)
    if len(ws) < 3:
        return
    after = rng.choice(ws)
    e = Empty(["0.1", "likes", "like", "VERB", "_", "_", "_", "_", "_", "_"])
    e.after = after
    e.deps = [(rng.choice(ws + ["ROOT"]), rng.choice(["conj", "conj:and", "advcl"]))]
    for w in rng.sample(ws, 2):
        w.deps.append((e, rng.choice(["nsubj", "obj", "cc"])))
    s["empties"].append(e)


def udeval_counts(gold, sys_, enh):
    args = argparse.Namespace(gold_file=gold, system_file=sys_, enhancements=enh,
                              no_empty_nodes=False, multiple_roots_okay=False)
    ev = udeval.evaluate_wrapper(args)
    # the udeval command prints this table with print(), which adds the final newline
    return udeval.build_evaluation_table(ev, verbose=False, counts=True, enhanced=True) + "\n"


def main():
    rng = random.Random(20261121)
    pools = [read_sentences(os.path.join(DATA, p)) for p in SOURCES]
    failures = 0
    checked = 0
    udeval_errors = 0
    covered = {}
    for k in range(PAIRS):
        pool = pools[k % len(pools)]
        start = rng.randrange(len(pool) - 12)
        gold_lines = pool[start:start + rng.randint(3, 12)]
        gold = [parse(l) for l in gold_lines]
        if rng.random() < 0.4:
            for s in gold:
                if rng.random() < 0.5:
                    add_empty(rng, s)
        gtext = "".join(serialize(s) for s in gold)
        # perturb a fresh copy parsed from the gold text
        sys_sents = perturb(rng, [parse(b.split("\n")) for b in gtext.strip("\n").split("\n\n")])
        stext = "".join(serialize(s) for s in sys_sents)
        gp, sp = os.path.join(WORK, f"g{k}.conllu"), os.path.join(WORK, f"s{k}.conllu")
        with open(gp, "w", encoding="utf-8") as f:
            f.write(gtext)
        with open(sp, "w", encoding="utf-8") as f:
            f.write(stext)
        enh = rng.choice(["0", "0", "1", "2", "4", "5", "6", "156", "1246"])
        try:
            want = udeval_counts(gp, sp, enh)
        except udeval.UDError as e:
            udeval_errors += 1
            got = subprocess.run([TREEVAL, "ud", "--empty-nodes", "drop", gp, sp], capture_output=True, text=True)
            if got.returncode == 0:
                failures += 1
                print(f"FAIL pair {k}: udeval rejects it ({e}), treeval scores it")
            continue
        got = subprocess.run([TREEVAL, "ud", "--compat", "udeval-counts", "--empty-nodes", "drop",
                              "--enhancements", enh, gp, sp], capture_output=True, text=True)
        checked += 1
        rows = {l.split("|")[0].strip(): [int(x) for x in l.split("|")[1:4]]
                for l in want.splitlines()[2:]}
        for name, cond in [("tokenization", rows["Tokens"][0] < rows["Tokens"][1]),
                           ("sentence splitting", rows["Sentences"][0] < rows["Sentences"][1]),
                           ("unaligned words", rows["Words"][0] < rows["Words"][1]),
                           ("LAS errors", rows["LAS"][0] < rows["Words"][0]),
                           ("ELAS errors", rows["ELAS"][0] < rows["ELAS"][1]),
                           ("empty nodes", ".1\t" in gtext + stext),
                           ("enhancements off", enh != "0")]:
            covered[name] = covered.get(name, 0) + int(cond)
        if got.returncode != 0 or got.stdout != want:
            failures += 1
            print(f"FAIL pair {k} (--enhancements {enh}): {gp} {sp}")
            print(want)
            print(got.stdout or got.stderr)
    print(f"ud differential: {checked} pairs with identical counts required, "
          f"{udeval_errors} rejected by both, {failures} failed")
    print("pairs with: " + ", ".join(f"{k} {v}" for k, v in covered.items()))
    return failures


if __name__ == "__main__":
    sys.exit(1 if main() else 0)
