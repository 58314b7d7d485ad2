#!/usr/bin/env bash
# Times `treeval brackets` on 40,000 trees (the PTB sample's 3,914 trees cycled, one per
# line; the test side relabels and flattens some brackets, see make-ptb40k.py).
# Usage: scripts/bench-brackets.sh [SHARED_DATA_DIR] [RUNS]
# Needs: a release build, python3, /usr/bin/time.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
data=${1:-$root/../shared/data}
runs=${2:-9}
bin=${CARGO_TARGET_DIR:-$root/target}/release/treeval
work=${TMPDIR:-/tmp}/treeval-bench
mkdir -p "$work"
[ -x "$bin" ] || (cd "$root" && cargo build --release -p treeval-cli)
[ -s "$work/ptb40k.tst" ] || python3 "$root/scripts/make-ptb40k.py" "$data" "$work"
gold=$work/ptb40k.gld
tst=$work/ptb40k.tst
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "input: $(wc -l < "$gold") + $(wc -l < "$tst") lines, $(du -b "$gold" | cut -f1) + $(du -b "$tst" | cut -f1) bytes"
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
measure() { # name, command...
  local name=$1; shift
  local t=() m=()
  for _ in $(seq "$runs"); do
    /usr/bin/time -o "$work/time.txt" -f "%e %M" "$@" >/dev/null 2>"$work/stderr.txt" ||
      { echo "$name failed:"; cat "$work/stderr.txt"; return 1; }
    local out; out=$(tail -1 "$work/time.txt")
    t+=("${out% *}"); m+=("${out#* }")
  done
  printf '%-32s median %6.3f s  (min %6.3f, max %6.3f)  peak RSS median %6.1f MB\n' "$name" \
    "$(printf '%s\n' "${t[@]}" | median)" "$(printf '%s\n' "${t[@]}" | sort -n | head -1)" \
    "$(printf '%s\n' "${t[@]}" | sort -n | tail -1)" "$(printf '%s\n' "${m[@]}" | median | awk '{print $1/1024}')"
}
measure "wc -l (floor)" wc -l "$gold" "$tst"
measure "treeval brackets --compat evalb" "$bin" brackets --compat evalb "$gold" "$tst"
measure "treeval brackets --format json" "$bin" brackets -q --format json "$gold" "$tst"
