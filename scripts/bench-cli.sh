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

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "input: $(wc -l < "$gold") + $(wc -l < "$sys") lines, $(du -b "$gold" | cut -f1) + $(du -b "$sys" | cut -f1) bytes"
echo "treeval: $("$bin" --version)"

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

measure() { # name, command...
  local name=$1; shift
  local t=() m=()
  for _ in $(seq "$runs"); do
    local out
    /usr/bin/time -o "$work/time.txt" -f "%e %M" "$@" >/dev/null 2>"$work/stderr.txt" ||
      { echo "$name failed:"; cat "$work/stderr.txt"; return 1; }
    out=$(tail -1 "$work/time.txt")
    t+=("${out% *}"); m+=("${out#* }")
  done
  printf '%-28s median %6.3f s  (min %6.3f, max %6.3f)  peak RSS median %6.1f MB\n' "$name" \
    "$(printf '%s\n' "${t[@]}" | median)" "$(printf '%s\n' "${t[@]}" | sort -n | head -1)" \
    "$(printf '%s\n' "${t[@]}" | sort -n | tail -1)" "$(printf '%s\n' "${m[@]}" | median | awk '{print $1/1024}')"
}

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
