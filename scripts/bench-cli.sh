#!/usr/bin/env bash
# Times `treeval deps` and `treeval ud` on the big1m pair (1,004,820 words) against the read-bandwidth
# floor (`wc -l` on the same files) and, when installed, udtools' `udeval` on the same
# pair, all in one run. Usage: scripts/bench-cli.sh [SHARED_DATA_DIR] [RUNS]
# Needs: a release build (cargo build --release), /usr/bin/time; hyperfine if present.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data=${1:-$root/../shared/data}
runs=${2:-10}
bin=${CARGO_TARGET_DIR:-$root/target}/release/treeval
work=${TMPDIR:-/tmp}/treeval-bench
source "$root/scripts/bench-lib.sh"
name_width=28
mkdir -p "$work"
[ -x "$bin" ] || (cd "$root" && cargo build --release -p treeval-cli)

gold=$work/gold1m.conllu
sys=$work/sys1m.conllu
if [ ! -s "$gold" ]; then
  for _ in $(seq 20); do
    cat "$data/ud/UD_English-EWT/en_ewt-ud-dev.conllu" "$data/ud/UD_English-EWT/en_ewt-ud-test.conllu"
  done > "$gold"
fi
[ -s "$sys" ] || gunzip -c "$data/reference/big1m/sys1m.conllu.gz" > "$sys"

machine_line
echo "input: $(wc -l < "$gold") + $(wc -l < "$sys") lines, $(du -b "$gold" | cut -f1) + $(du -b "$sys" | cut -f1) bytes"
echo "treeval: $("$bin" --version)"



measure "wc -l (floor)" wc -l "$gold" "$sys"
measure "treeval deps --format json" "$bin" deps -q --format json "$gold" "$sys"
measure "treeval deps --compat eval07" "$bin" deps -q --compat eval07 "$gold" "$sys"
measure "treeval ud (conll18 + ELAS)" "$bin" ud --format json "$gold" "$sys"
measure "treeval ud --empty-nodes drop" "$bin" ud --format json --empty-nodes drop "$gold" "$sys"
measure "treeval ud --align resync" "$bin" ud --format json --align resync "$gold" "$sys"
measure "treeval ud --by (all 8)" "$bin" ud --format json --by deprel,upos,xpos,length,distance,direction,depth,projectivity "$gold" "$sys"
measure "treeval deps --by (all 8)" "$bin" deps -q --format json --by deprel,upos,xpos,length,distance,direction,depth,projectivity "$gold" "$sys"
half=$work/gold500k.conllu
[ -s "$half" ] || for _ in $(seq 10); do
  cat "$data/ud/UD_English-EWT/en_ewt-ud-dev.conllu" "$data/ud/UD_English-EWT/en_ewt-ud-test.conllu"
done > "$half"
measure "treeval deps gold vs gold 500k" "$bin" deps -q --format json "$half" "$half"
measure "treeval deps gold vs gold 1M" "$bin" deps -q --format json "$gold" "$gold"
# significance: two systems that differ in almost every sentence (sys1m and gold itself)
measure "deps 2 systems, score only" "$bin" deps -q --format json "$gold" "$sys" "$gold"
measure "deps 2 systems + ar LAS 10000" "$bin" deps -q --format json --test ar --test-metrics LAS "$gold" "$sys" "$gold"
measure "deps 2 systems + ar+bs+ci, 3 metrics" "$bin" deps -q --format json --test ar --test bootstrap --ci 95 "$gold" "$sys" "$gold"
if [ "${SKIP_UDEVAL:-0}" != 1 ] && command -v udeval >/dev/null 2>&1; then
  runs=1 measure "udeval (udtools), 1 run" udeval "$gold" "$sys"
fi
