#!/usr/bin/env bash
# The reranking acceptance experiment (issue 17): train on EWT train + the other dev
# lists, test on the held-out dev list; first / chosen / oracle LAS, phi and the
# approximate-randomization p-value of chosen vs first (treeval deps --test ar over the
# rank-1 file and the chosen file). Usage: scripts/rerank-experiment.sh [TREEVAL] [OUT]
# (TREEVAL: a release binary; OUT: a scratch folder). Options of the run below.
set -euo pipefail
T=${1:-target/release/treeval}
OUT=${2:-/tmp/rerank-experiment}
D=${D:-../shared/data}
V=${V:-localprob}
OPTS=${OPTS:---target best --sigma2 1}
mkdir -p "$OUT"
: > "$OUT/gaps.txt"
EWT_G=$D/ud/UD_English-EWT/en_ewt-ud-dev.conllu
EWT_TRAIN_G=$D/ud/UD_English-EWT/en_ewt-ud-train.conllu
FR_G=$D/ud/UD_French-Sequoia/fr_sequoia-ud-dev.conllu
EWT=$D/nbest/en_ewt-dev.en_sm.nbest-$V.conllu.gz
TRAIN=$D/nbest/en_ewt-train.en_sm.nbest-$V.conllu.gz
SM=$D/nbest/fr_sequoia-dev.fr_sm.nbest-$V.conllu.gz
MD=$D/nbest/fr_sequoia-dev.fr_md.nbest-$V.conllu.gz

# rank-1 candidates of an n-best list as plain CoNLL-U
first() { gzip -dc "$1" | awk 'BEGIN{RS="";ORS="\n\n"} /# rank = 1\n/'; }

# first / chosen / oracle LAS, phi and the AR p-value of chosen vs first:
# `treeval deps GOLD FIRST CHOSEN --test ar` (chosen = rerank apply's output) and the
# oracle from `treeval nbest GOLD NBEST`; with a MODEL also `treeval nbest … --model
# MODEL --test ar`, whose chosen must equal deps' (acceptance 3).
score() { # GOLD NBEST CHOSEN NAME [MODEL]
  first "$2" > "$OUT/$4.first.conllu"
  "$T" deps "$1" "$OUT/$4.first.conllu" "$3" --test ar --format json -q > "$OUT/$4.deps.json"
  "$T" nbest "$1" "$2" --format json -q > "$OUT/$4.nbest.json"
  if [ -n "${5:-}" ]; then
    "$T" nbest "$1" "$2" --model "$5" --test ar --format json -q > "$OUT/$4.nbest-model.json"
  fi
  python3 - "$OUT" "$4" <<'PY'
import json, os, sys
out, name = sys.argv[1], sys.argv[2]
def las(r, system, section="scores"):
    for s in r["sections"]:
        if s["id"] == section:
            for row in s["rows"]:
                if row["system"] == system:
                    for c in row["cells"]:
                        if c["measure"] == "LAS":
                            return c["counts"][0], c["counts"][1]
def p_value(r):
    return [c for c in r["comparisons"] if c["metric"] == "LAS"][0]["p_value"]
d = json.load(open(f"{out}/{name}.deps.json"))
nb = json.load(open(f"{out}/{name}.nbest.json"))
(f, n), (c, _), (b, _) = las(d, 0), las(d, 1), las(nb, 1)
assert las(nb, 0) == (f, n), "first differs between deps and nbest"
p = p_value(d)
extra = ""
m = f"{out}/{name}.nbest-model.json"
if os.path.exists(m):
    nm = json.load(open(m))
    assert las(nm, 3) == (c, n), f"nbest --model chosen {las(nm, 3)} != deps on apply {(c, n)}"
    extra = f" (nbest --model: same chosen; its ar p {p_value(nm):.4g})"
open(f"{out}/gaps.txt", "a").write(f"{c-f} {b-f}\n")
print(f"| {name} | {100*f/n:.2f} ({f}) | {100*c/n:.2f} ({c}) | {100*b/n:.2f} ({b}) | {100*(c-f)/(b-f):.1f} | {p:.4g} | {c-f} / {b-f} |{extra}")
PY
}

# 1. EWT dev held out: train on EWT train + both French dev lists
/usr/bin/time -v "$T" rerank train $OPTS "$EWT_TRAIN_G" "$TRAIN" "$FR_G" "$SM" "$FR_G" "$MD" \
  -o "$OUT/no-ewt-dev.json" -q --force > "$OUT/no-ewt-dev.report.txt" 2> "$OUT/no-ewt-dev.time.txt"
"$T" rerank apply "$OUT/no-ewt-dev.json" "$EWT" > "$OUT/ewt-dev.chosen.conllu"
echo "| held-out file | first LAS | chosen LAS | oracle LAS | phi % | AR p (chosen vs first) | gained / gap |"
echo "|---|---:|---:|---:|---:|---:|---:|"
score "$EWT_G" "$EWT" "$OUT/ewt-dev.chosen.conllu" ewt-dev "$OUT/no-ewt-dev.json"

# 2. French dev lists: 5-fold within the file (sentence k in fold k mod 5), trained on
# the other 4 folds + EWT train + EWT dev
split() { # NBEST GOLD FOLD → $OUT/split.{train,test}.{gold,nbest}.conllu
  python3 - "$1" "$2" "$3" "$OUT" <<'PY'
import gzip, sys
nb, gold, fold, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
blocks = [b for b in gzip.open(nb, "rt").read().split("\n\n") if b.strip()]
gblocks = [b for b in open(gold).read().split("\n\n") if b.strip()]
groups, k = [], -1
for b in blocks:
    if "# rank = 1\n" in b: groups.append([])
    groups[-1].append(b)
assert len(groups) == len(gblocks)
w = {n: open(f"{out}/split.{n}.conllu", "w") for n in ["train.gold", "train.nbest", "test.gold", "test.nbest"]}
for i, (g, c) in enumerate(zip(gblocks, groups)):
    part = "test" if i % 5 == fold else "train"
    w[part + ".gold"].write(g + "\n\n")
    w[part + ".nbest"].write("\n\n".join(c) + "\n\n")
PY
}
for pair in "fr_sm:$SM:$MD" "fr_md:$MD:$SM"; do
  IFS=: read -r name this other <<< "$pair"
  : > "$OUT/$name.chosen.conllu"; : > "$OUT/$name.gold.conllu"; : > "$OUT/$name.nbest.conllu"
  for f in 0 1 2 3 4; do
    split "$this" "$FR_G" "$f"
    # the other French list is left out: it parses the same sentences (their gold would leak)
    "$T" rerank train $OPTS "$EWT_TRAIN_G" "$TRAIN" "$EWT_G" "$EWT" \
      "$OUT/split.train.gold.conllu" "$OUT/split.train.nbest.conllu" -o "$OUT/$name.$f.json" -q --force > /dev/null
    "$T" rerank apply "$OUT/$name.$f.json" "$OUT/split.test.nbest.conllu" >> "$OUT/$name.chosen.conllu"
    cat "$OUT/split.test.gold.conllu" >> "$OUT/$name.gold.conllu"
    cat "$OUT/split.test.nbest.conllu" >> "$OUT/$name.nbest.conllu"
  done
  gzip -f "$OUT/$name.nbest.conllu"
  score "$OUT/$name.gold.conllu" "$OUT/$name.nbest.conllu.gz" "$OUT/$name.chosen.conllu" "$name"
done
awk '{g += $1; n += $2} END {printf "pooled phi: %d / %d = %.1f %%\n", g, n, 100 * g / n}' "$OUT/gaps.txt"
echo "training on EWT train + 2 dev lists ($OPTS):"
grep -E "Elapsed|Maximum resident" "$OUT/no-ewt-dev.time.txt"
