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
source "$root/scripts/bench-lib.sh"
name_width=32
mkdir -p "$work"
[ -x "$bin" ] || (cd "$root" && cargo build --release -p treeval-cli)
[ -s "$work/ptb40k.tst" ] || python3 "$root/scripts/make-ptb40k.py" "$data" "$work"
gold=$work/ptb40k.gld
tst=$work/ptb40k.tst
machine_line
echo "input: $(wc -l < "$gold") + $(wc -l < "$tst") lines, $(du -b "$gold" | cut -f1) + $(du -b "$tst" | cut -f1) bytes"
measure "wc -l (floor)" wc -l "$gold" "$tst"
measure "treeval brackets --compat evalb" "$bin" brackets --compat evalb "$gold" "$tst"
measure "treeval brackets --format json" "$bin" brackets -q --format json "$gold" "$tst"
