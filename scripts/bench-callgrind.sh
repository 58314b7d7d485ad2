#!/usr/bin/env bash
# Instruction counts (valgrind --tool=callgrind) of every command on the benchmark inputs:
# repeatable on a loaded machine, where wall times are not. Compare two binaries by
# running this once for each and dividing.
# Usage: scripts/bench-callgrind.sh BIN WORK [SHARED_DATA_DIR]
# WORK holds the inputs (made when missing): gold1m.conllu + sys1m.conllu (the big1m
# pair), ptb40k/ptb40k.gld and .tst (scripts/make-ptb40k.py), EWT dev gold + spaCy greedy parse.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=$1
work=$2
data=${3:-$root/../shared/data}
mkdir -p "$work"
if [ ! -s "$work/gold1m.conllu" ]; then
  for _ in $(seq 20); do
    cat "$data/ud/UD_English-EWT/en_ewt-ud-dev.conllu" "$data/ud/UD_English-EWT/en_ewt-ud-test.conllu"
  done > "$work/gold1m.conllu"
fi
[ -s "$work/sys1m.conllu" ] || gunzip -c "$data/reference/big1m/sys1m.conllu.gz" > "$work/sys1m.conllu"
[ -s "$work/ptb40k/ptb40k.gld" ] || python3 "$root/scripts/make-ptb40k.py" "$data" "$work/ptb40k"
ewt=$data/ud/UD_English-EWT/en_ewt-ud-dev.conllu
greedy=$data/nbest/en_ewt-dev.en_sm.greedy.conllu

count() { # name, command...
  local name=$1
  shift
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" >/dev/null 2>"$work/cg.err" || true
  printf '%-40s %s\n' "$name" "$(grep -o 'Collected : [0-9]*' "$work/cg.err" | grep -o '[0-9]*$')"
}
count "deps -q --format json (big1m)" "$bin" deps -q --format json "$work/gold1m.conllu" "$work/sys1m.conllu"
count "ud -q --format json (big1m)" "$bin" ud -q --format json "$work/gold1m.conllu" "$work/sys1m.conllu"
count "relations -q --format json (big1m)" "$bin" relations -q --format json "$work/gold1m.conllu" "$work/sys1m.conllu"
count "brackets -q --format json (ptb40k)" "$bin" brackets -q --format json "$work/ptb40k/ptb40k.gld" "$work/ptb40k/ptb40k.tst"
count "ted -q --format json (EWT dev, greedy)" "$bin" ted -q --format json --gold "$ewt" --parse "$greedy"
