#!/usr/bin/env python3
"""Differential checks of treeval's significance tests against independent oracles.

- McNemar p-values against statsmodels' mcnemar (exact binomial below 25 discordant
  pairs, chi-square with continuity correction above), on the tiny reference pair and on
  big1m-derived systems; MaltEval's z figures on tiny.
- Approximate randomization against randhy's paired_randomisation_test on two perturbed
  big1m systems generated here: p-values within 3 combined Monte Carlo standard errors.
- The exact permutation p-value on <= 16 sentences against an enumeration written here.
- AER against nltk's alignment_error_rate on generated alignments (per sentence and corpus).

Usage: check_significance.py TREEVAL_BINARY SHARED_DATA_DIR WORK_DIR
Prints one line per check and "N passed, M failed"; exits 1 on any failure.
"""
import gzip
import itertools
import json
import math
import os
import random
import subprocess
import sys

import randhy
from statsmodels.stats.contingency_tables import mcnemar

TREEVAL, DATA, WORK = sys.argv[1], sys.argv[2], sys.argv[3]
os.makedirs(WORK, exist_ok=True)
passed = failed = 0



def per_sentence_rows(path):
    """The rows of a --per-sentence file, after its header line (schema treeval.per-sentence/3)."""
    with open(path) as f:
        header = json.loads(f.readline())
        assert header["schema"] == "treeval.per-sentence/3", header
        return [json.loads(line) for line in f]

def check(name, ok, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok   {name} {detail}")
    else:
        failed += 1
        print(f"FAIL {name} {detail}")


def treeval_json(*args):
    out = subprocess.run([TREEVAL, "deps", "-q", "--format", "json", *args],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def statsmodels_p(b, c):
    return mcnemar([[0, b], [c, 0]], exact=(b + c) < 25, correction=True).pvalue


# --- McNemar on tiny ----------------------------------------------------------------
tiny = os.path.join(DATA, "reference", "tiny")
r = treeval_json("--test", "mcnemar", "--test-metrics", "LAS,UAS,LA,LEM,UEM",
                 f"{tiny}/gold.conll", f"{tiny}/sys.conll", f"{tiny}/sys_b.conll")
for c in r["comparisons"]:
    sm = statsmodels_p(c["b_count"], c["c_count"])
    check(f"mcnemar tiny {c['metric']} b={c['b_count']} c={c['c_count']}",
          math.isclose(c["p_value"], sm, rel_tol=1e-12, abs_tol=1e-15), f"treeval {c['p_value']} statsmodels {sm}")
z = {c["metric"]: c["z"] for c in r["comparisons"]}
check("MaltEval z UAS = 1.5", f"{z['UAS']:.3g}" == "1.5", str(z["UAS"]))
check("MaltEval z LAS = 2.475", f"{z['LAS']:.4g}" == "2.475", str(z["LAS"]))

# --- two perturbed big1m systems ------------------------------------------------------
gold = os.path.join(WORK, "gold1m.conllu")
if not os.path.exists(gold) or os.path.getsize(gold) != 72201200:
    ewt = os.path.join(DATA, "ud", "UD_English-EWT")
    dev = open(os.path.join(ewt, "en_ewt-ud-dev.conllu"), "rb").read()
    test = open(os.path.join(ewt, "en_ewt-ud-test.conllu"), "rb").read()
    with open(gold, "wb") as f:
        for _ in range(20):
            f.write(dev)
            f.write(test)
sys_a = os.path.join(WORK, "sysA.conllu")
sys_b = os.path.join(WORK, "sysB.conllu")
rng = random.Random(20261121)
with gzip.open(os.path.join(DATA, "reference", "big1m", "sys1m.conllu.gz"), "rt", encoding="utf-8") as s, \
        open(gold, encoding="utf-8") as g, \
        open(sys_a, "w", encoding="utf-8") as fa, open(sys_b, "w", encoding="utf-8") as fb:
    # A = sys1m; B = sys1m with a few hundred labels fixed and as many broken (LAS ~ equal)
    labels = ["nsubj", "obj", "obl", "advmod", "amod", "det", "case", "punct", "conj", "nmod"]
    for gl, sl in zip(g, s):
        fa.write(sl)
        f = sl.rstrip("\n").split("\t")
        if len(f) == 10 and f[0].isdigit():
            gf = gl.rstrip("\n").split("\t")
            u = rng.random()
            if f[7] != gf[7] and u < 0.012:
                f[7] = gf[7]  # fix a wrong label
            elif f[7] == gf[7] and u < 0.0006:
                f[7] = rng.choice([x for x in labels if x != gf[7]])  # break a right label
            fb.write("\t".join(f) + "\n")
        else:
            fb.write(sl)

ps = os.path.join(WORK, "per-sentence.jsonl")
r = treeval_json("--test", "ar", "--test", "mcnemar", "--test-metrics", "LAS", "--samples", "10000",
                 "--per-sentence", ps, gold, sys_a, sys_b)
ar = next(c for c in r["comparisons"] if c["test"] == "ar")
mc = next(c for c in r["comparisons"] if c["test"] == "mcnemar")
sm = statsmodels_p(mc["b_count"], mc["c_count"])
check("mcnemar big1m (chi-square path)", not mc["exact"] and math.isclose(mc["p_value"], sm, rel_tol=1e-9),
      f"b={mc['b_count']} c={mc['c_count']} treeval {mc['p_value']} statsmodels {sm}")

rows = {0: [], 1: []}
for o in per_sentence_rows(ps):
    rows[o["system"]].append((o["counts"]["las_correct"], o["counts"]["words"]))
same = [(a, b) for a, b in zip(rows[0], rows[1]) if a == b]
diff = [(a, b) for a, b in zip(rows[0], rows[1]) if a != b]
const_c = sum(a[0] for a, _ in same)
const_n = sum(a[1] for a, _ in same)


def las_gap(o_a, o_b, _gold):
    # |LAS(A) - LAS(B)| over the whole corpus; identical sentences are added back as
    # constants (swapping them changes nothing), so randhy only swaps the others
    ca = const_c + sum(x[0] for x in o_a)
    na = const_n + sum(x[1] for x in o_a)
    cb = const_c + sum(x[0] for x in o_b)
    nb = const_n + sum(x[1] for x in o_b)
    return abs(ca / na - cb / nb)


random.seed(7)
reps = 1000
p_randhy = randhy.paired_randomisation_test([a for a, _ in diff], [b for _, b in diff], None, las_gap,
                                            reps=reps, smoothing=True)
p = (ar["p_value"] + p_randhy) / 2
se = math.sqrt(max(p * (1 - p), 1e-12) * (1 / ar["samples"] + 1 / reps))
check("ar vs randhy on big1m (within 3 MC standard errors)",
      abs(ar["p_value"] - p_randhy) <= 3 * se and 0.01 < p < 0.99,
      f"treeval {ar['p_value']:.4f} randhy {p_randhy:.4f} se {se:.4f}; {len(diff)} of {len(rows[0])} sentences differ")

# --- exact permutation p on <= 16 sentences ------------------------------------------
def first_sentences(path, n, out):
    with open(path, encoding="utf-8") as f, open(out, "w", encoding="utf-8") as o:
        k = 0
        for line in f:
            o.write(line)
            if line == "\n":
                k += 1
                if k == n:
                    break


for n in (5, 12, 16):
    g16, a16, b16 = (os.path.join(WORK, f"{x}{n}.conllu") for x in ("g", "a", "b"))
    first_sentences(gold, n, g16)
    first_sentences(os.path.join(WORK, "sysA.conllu"), n, a16)
    first_sentences(gold, n, b16)  # B = gold itself: every sentence with an error differs
    ps16 = os.path.join(WORK, f"ps{n}.jsonl")
    r = treeval_json("--test", "ar", "--test-metrics", "LAS", "--per-sentence", ps16, g16, a16, b16)
    ar = r["comparisons"][0]
    rows = {0: [], 1: []}
    for o in per_sentence_rows(ps16):
        rows[o["system"]].append((o["counts"]["las_correct"], o["counts"]["words"]))
    d = [(a, b) for a, b in zip(rows[0], rows[1]) if a != b]
    ca, cb = sum(a[0] for a in rows[0]), sum(b[0] for b in rows[1])
    words = sum(a[1] for a in rows[0])
    observed = abs(ca - cb) / words
    hits = 0
    for mask in itertools.product((0, 1), repeat=len(d)):
        xa, xb = ca, cb
        for m, (a, b) in zip(mask, d):
            if m:
                xa += b[0] - a[0]
                xb += a[0] - b[0]
        hits += abs(xa - xb) / words >= observed - 1e-12
    exact = hits / 2 ** len(d)
    check(f"exact permutation p, {n} sentences ({len(d)} differ)",
          ar.get("exact") is True and math.isclose(ar["p_value"], exact, rel_tol=1e-12),
          f"treeval {ar['p_value']} enumeration {exact}")

# --- AER against nltk's alignment_error_rate on generated alignments --------------------
from nltk.translate import Alignment, alignment_error_rate

gen = random.Random(42)
gold_lines, hyp_lines, truth = [], [], []
for k in range(1, 61):
    n, m = gen.randint(1, 12), gen.randint(1, 12)
    cells = [(i, j) for i in range(n) for j in range(m)]
    sure = set(gen.sample(cells, gen.randint(0, min(len(cells), 8))))
    possible = sure | set(gen.sample(cells, gen.randint(0, min(len(cells), 6))))
    hyp = set(gen.sample(cells, gen.randint(0, min(len(cells), 10))))
    truth.append((sure, possible, hyp))
    for (i, j) in sorted(possible):
        gold_lines.append(f"{k} {i + 1} {j + 1} {'S' if (i, j) in sure else 'P'}")
    hyp_lines.append(" ".join(f"{i}-{j}" for i, j in sorted(hyp)))
open(os.path.join(WORK, "gen.naacl"), "w").write("\n".join(gold_lines) + "\n")
open(os.path.join(WORK, "gen.pharaoh"), "w").write("\n".join(hyp_lines) + "\n")
ps_align = os.path.join(WORK, "gen.jsonl")
out = subprocess.run([TREEVAL, "align", "-q", "--format", "json", "--gold-format", "naacl", "--per-sentence", ps_align,
                      os.path.join(WORK, "gen.naacl"), os.path.join(WORK, "gen.pharaoh")],
                     check=True, capture_output=True, text=True).stdout
report = json.loads(out)
assert report["schema"] == "treeval.report/3", report["schema"]
corpus = next(c["value"] for c in report["sections"][0]["rows"][0]["cells"] if c["measure"] == "AER")
rows = [o["counts"] for o in per_sentence_rows(ps_align)]
agree = 0
for (sure, possible, hyp), c in zip(truth, rows):
    if len(hyp) + len(sure) == 0:
        continue
    ours = 1.0 - (c["system_sure_links"] + c["system_possible_links"]) / (c["system_links"] + c["sure_links"])
    theirs = alignment_error_rate(Alignment(sure), Alignment(hyp), Alignment(possible))
    agree += math.isclose(ours, theirs, rel_tol=1e-12, abs_tol=1e-15)
defined = sum(1 for s_, p_, h_ in truth if len(h_) + len(s_) > 0)
check("AER per sentence equals nltk", agree == defined, f"{agree}/{defined} sentences")
# the corpus AER: nltk on the union of all sentences, sentence k's links offset
off = lambda k, links: {(k * 1000 + i, j) for i, j in links}
S = set().union(*(off(k, t[0]) for k, t in enumerate(truth)))
P = set().union(*(off(k, t[1]) for k, t in enumerate(truth)))
A = set().union(*(off(k, t[2]) for k, t in enumerate(truth)))
theirs = alignment_error_rate(Alignment(S), Alignment(A), Alignment(P))
check("corpus AER equals nltk", math.isclose(corpus, theirs, rel_tol=1e-12), f"treeval {corpus} nltk {theirs}")

# --- every report on the shared model validates against docs/treeval.report-3.schema.json
import jsonschema

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
schema = json.load(open(os.path.join(ROOT, "docs", "treeval.report-3.schema.json")))
PTS_ONE = ["--gold-a", "examples/pts/gold.en.conllu", "--gold-b", "examples/pts/gold.de.conllu",
           "--gold-align", "examples/pts/gold.en-de.naacl", "--sys-a", "examples/pts/parser.en.conllu",
           "--sys-b", "examples/pts/parser.de.conllu", "--sys-align", "examples/pts/aligner.en-de.pharaoh"]
PTS_TWO = PTS_ONE + ["--sys-a", "examples/pts/gold.en.conllu", "--sys-b", "examples/pts/parser.de.conllu",
                     "--sys-align", "examples/pts/gold.en-de.naacl"]
SIG = ["--test", "ar", "--ci", "95", "--samples", "200", "--ci-samples", "200"]
reports = [
    ["align", "testdata/align/gold.naacl", "testdata/align/hyp.pharaoh"],
    ["align"] + SIG + ["testdata/align/gold.naacl", "testdata/align/hyp.pharaoh", "testdata/align/hyp2.pharaoh"],
    ["pts"] + PTS_ONE,
    ["pts"] + SIG + PTS_TWO,
    ["pts", "--test", "mcnemar"] + PTS_TWO,
    ["deps", "examples/gold.conllu", "examples/sys.conllu"],
    ["ud", "--per-relation", "--by", "distance", "examples/gold.conllu", "examples/sys.conllu"],
    ["ud"] + SIG + ["examples/gold.conllu", "examples/sys.conllu", "examples/sys2.conllu"],
    ["relations", "examples/gold.conllu", "examples/sys.conllu"],
    ["ted", "--gold", "examples/gold.conllu", "--parse", "examples/sys.conllu"],
    ["brackets", "--careful", "--judgments", "testdata/brackets/careful-paper/judgments.tsv",
     "testdata/brackets/careful-paper/gold.txt", "testdata/brackets/careful-paper/test.txt",
     "testdata/brackets/careful-paper/test2.txt"],
    ["brackets"] + SIG + ["testdata/brackets/careful-paper/gold.txt", "testdata/brackets/careful-paper/test.txt",
                          "testdata/brackets/careful-paper/test2.txt"],
    ["ted"] + SIG + ["--gold", "examples/gold.conllu", "--parse", "examples/sys.conllu", "--parse", "examples/sys2.conllu"],
    ["relations"] + SIG + ["examples/gold.conllu", "examples/sys.conllu", "examples/sys2.conllu"],
    ["deps"] + SIG + ["--test", "mcnemar", "--per-relation", "--by", "distance,upos", "--confusion=5",
                      "examples/gold.conllu", "examples/sys.conllu", "examples/sys2.conllu"],
    ["nbest"] + SIG + ["--test", "mcnemar", "testdata/nbest/alpino-example/example.gold.conllu",
                       "testdata/nbest/alpino-example/example.nbest.conllu"],
    ["nbest"] + SIG + ["--alpino", "testdata/nbest/alpino-example/example.seed7.alpino.txt"],
]
valid = 0
for args in reports:
    out = subprocess.run([TREEVAL] + args[:1] + ["-q", "--format", "json"] + args[1:], cwd=ROOT,
                         check=True, capture_output=True, text=True).stdout
    try:
        jsonschema.validate(json.loads(out), schema)
        valid += 1
    except jsonschema.ValidationError as e:
        print(f"  {' '.join(args)}: {e.message} at {list(e.absolute_path)}")
check("reports validate against treeval.report/3", valid == len(reports), f"{valid}/{len(reports)} reports")

print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
