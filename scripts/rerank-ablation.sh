#!/usr/bin/env bash
# Ablation for docs/rerank.md: train on EWT train + both French dev lists, test on EWT
# dev, with every feature group, without each one in turn, and with the parser score
# alone; then each target shape with all features. Prints chosen LAS (count) and phi.
# Usage: scripts/rerank-ablation.sh [TREEVAL] [OUT]
set -euo pipefail
T=${1:-target/release/treeval}
OUT=${2:-/tmp/rerank-ablation}
D=${D:-../shared/data}
V=${V:-localprob}
mkdir -p "$OUT"
G=$D/ud/UD_English-EWT/en_ewt-ud-dev.conllu
TRAIN=("$D/ud/UD_English-EWT/en_ewt-ud-train.conllu" "$D/nbest/en_ewt-train.en_sm.nbest-$V.conllu.gz"
       "$D/ud/UD_French-Sequoia/fr_sequoia-ud-dev.conllu" "$D/nbest/fr_sequoia-dev.fr_sm.nbest-$V.conllu.gz"
       "$D/ud/UD_French-Sequoia/fr_sequoia-ud-dev.conllu" "$D/nbest/fr_sequoia-dev.fr_md.nbest-$V.conllu.gz")
N=$D/nbest/en_ewt-dev.en_sm.nbest-$V.conllu.gz
ALL=score,rel,rel-pos,rel-dir-dist,lemma-rel,sibling,grandparent,valency,nonproj,roots
run() { # NAME OPTIONS…
  local name=$1; shift
  "$T" rerank train "$@" "${TRAIN[@]}" -o "$OUT/$name.json" -q --force > /dev/null
  "$T" nbest "$G" "$N" --model "$OUT/$name.json" --format json -q > "$OUT/$name.nbest.json"
  python3 - "$OUT/$name.nbest.json" "$name" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
def cell(section, system, measure):
    for s in r["sections"]:
        if s["id"] == section:
            for row in s["rows"]:
                if row["system"] == system:
                    for c in row["cells"]:
                        if c["measure"] == measure:
                            return c
c = cell("scores", 3, "LAS"); phi = cell("choice", 3, "phi-LAS")["value"]
print(f"| {sys.argv[2]} | {100*c['value']:.2f} ({c['counts'][0]}) | {100*phi:.1f} |")
PY
}
echo "| features (target best, σ² 1) | chosen LAS | phi % |"
echo "|---|---:|---:|"
run all --target best --sigma2 1
run score-only --target best --sigma2 1 --features score
for g in ${ALL//,/ }; do
  run "without-$g" --target best --sigma2 1 --features "$(echo ",$ALL," | sed "s/,$g,/,/; s/^,//; s/,$//")"
done
echo "| target (all features, σ² 1) | chosen LAS | phi % |"
echo "|---|---:|---:|"
run proportional --target proportional --sigma2 1
run sharp-0.1 --target sharp --beta 0.1 --sigma2 1
run sharp-0.3 --target sharp --beta 0.3 --sigma2 1
run sharp-1 --target sharp --beta 1 --sigma2 1
run best-sigma2-10 --target best --sigma2 10
