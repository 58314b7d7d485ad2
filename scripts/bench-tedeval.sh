#!/usr/bin/env bash
# Times `treeval ted` (unlabeled TedEval, no length cut-off) on all 3,914 trees of the Penn
# Treebank sample's dependency version against perturbed parses of them.
# The .dp files (FORM POS HEAD) become one CoNLL-X file (DEPREL "dep"); the parses come
# from scripts/perturb-deps.py --seed 7 --rate 0.1 (projective, single-rooted). Also two
# schemes at once: the .mrg constituency trees (as their own parse) and the .dp pair.
# Then the chain trees of scripts/bench-ted-chains.sh (both directions, 125 to 4,999
# words; CHAIN_LIMIT seconds a run, default 300; CHAINS=0 skips them).
# Usage: scripts/bench-tedeval.sh [SHARED_DATA_DIR] [RUNS]
# TREEVAL=path/to/treeval times another binary (e.g. an older build).
# Needs: a release build, python3, /usr/bin/time, timeout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data=${1:-$root/../shared/data}
runs=${2:-9}
bin=${TREEVAL:-${CARGO_TARGET_DIR:-$root/target}/release/treeval}
work=${TMPDIR:-/tmp}/treeval-bench
source "$root/scripts/bench-lib.sh"
name_width=34
mkdir -p "$work"
[ -x "$bin" ] || (cd "$root" && cargo build --release -p treeval-cli)
gold=$work/ptb-dep.conllx
parse=$work/ptb-dep-perturbed.conllx
if [ ! -s "$parse" ]; then
  for f in "$data"/ptb-sample/dependency_treebank/wsj_*.dp; do
    awk -F'\t' 'NF == 0 { if (n) print ""; n = 0; next }
                { n++; printf "%d\t%s\t_\t%s\t%s\t_\t%s\tdep\t_\t_\n", n, $1, $2, $2, $3 }
                END { if (n) print "" }' "$f"
  done > "$gold"
  python3 "$root/scripts/perturb-deps.py" "$gold" "$parse" --seed 7 --rate 0.1
fi
mrg=$work/ptb.mrg
if [ ! -s "$mrg" ]; then
  for f in "$data"/ptb-sample/treebank/combined/wsj_*.mrg; do cat "$f"; echo; done > "$mrg"
fi
machine_line
echo "input: $(grep -c '^$' "$gold") sentences, $(grep -c . "$gold") words, $(du -b "$gold" | cut -f1) + $(du -b "$parse" | cut -f1) bytes"
"$bin" ted --quiet --unlabeled --gold "$gold" --parse "$parse" | sed -n '1,8p'
measure "treeval deps (same files)" "$bin" deps --quiet "$gold" "$parse"
measure "treeval ted --unlabeled" "$bin" ted --quiet --unlabeled --gold "$gold" --parse "$parse"
measure "treeval ted (labeled, JSON)" "$bin" ted --quiet --format json --gold "$gold" --parse "$parse"
# two schemes (the constituency trees as their own parse, the perturbed dependency parse):
# two edit scripts per sentence and experiment
measure "treeval ted 2 schemes (.mrg + .dp)" "$bin" ted --quiet --no-test \
  --exp "constituency:$mrg:$mrg" --exp "dependency:$gold:$parse"
if [ "${CHAINS:-1}" != 0 ]; then
  bash "$root/scripts/bench-ted-chains.sh" "$bin" "${CHAIN_LIMIT:-300}"
fi
