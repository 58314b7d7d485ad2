#!/usr/bin/env bash
# Times `treeval ted --gold G --parse P` on chain trees, the shapes that made the old
# Zhang–Shasha edit distance hang (issue 14):
#   forward:  word i is headed by word i-1 (word 1 is the root): a right comb;
#   backward: word i is headed by word i+1 (the last word is the root): a left comb.
# For each direction and size two parses are scored against the chain: the chain itself
# ("same") and a perturbed copy ("perturbed": every 50th word relabelled, every 100th
# word attached one word further away, which keeps the tree projective and a chain
# almost everywhere). Each run has a time limit; a run killed by it is reported as
# "> LIMIT s", and the larger sizes of that direction and pair are then skipped.
# Usage: scripts/bench-ted-chains.sh [TREEVAL] [LIMIT_SECONDS] [SIZES...]
# Defaults: the release build of this worktree, 300 s, sizes 125 250 500 1000 4999.
# Needs: python3, /usr/bin/time, timeout.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-${CARGO_TARGET_DIR:-$root/target}/release/treeval}
limit=${2:-300}
shift $(($# > 2 ? 2 : $#))
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(125 250 500 1000 4999)
work=${TMPDIR:-/tmp}/treeval-bench-chains
mkdir -p "$work"
[ -x "$bin" ] || (cd "$root" && cargo build --release -p treeval-cli)

# chain DIRECTION N PERTURBED > file (CoNLL-X)
chain() {
  python3 - "$@" <<'EOF'
import sys
direction, n, perturbed = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
out = []
for i in range(1, n + 1):
    if direction == "forward":
        head = i - 1
        if perturbed and i % 100 == 0 and i >= 3:
            head = i - 2
    else:
        head = 0 if i == n else i + 1
        if perturbed and i % 100 == 0 and i + 2 <= n:
            head = i + 2
    rel = "x" if perturbed and i % 50 == 0 else "dep"
    out.append(f"{i}\tw{i}\t_\tX\tX\t_\t{head}\t{rel}\t_\t_")
print("\n".join(out) + "\n")
EOF
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "binary: $bin; time limit ${limit} s"
printf '%-9s %6s  %-9s  %9s  %12s  %s\n' direction words parse seconds "peak RSS MB" result
for direction in forward backward; do
  for pair in same perturbed; do
    over=""
    for n in "${sizes[@]}"; do
      gold=$work/$direction-$n.conllx
      parse=$work/$direction-$n-$pair.conllx
      [ -s "$gold" ] || chain "$direction" "$n" 0 >"$gold"
      if [ "$pair" = same ]; then cp "$gold" "$parse"; else chain "$direction" "$n" 1 >"$parse"; fi
      if [ -n "$over" ]; then
        printf '%-9s %6s  %-9s  %9s  %12s  %s\n' "$direction" "$n" "$pair" "-" "-" "skipped (${over} words took > ${limit} s)"
        continue
      fi
      status=0
      /usr/bin/time -o "$work/time.txt" -f "%e %M" timeout "$limit" "$bin" ted --format json \
        --gold "$gold" --parse "$parse" >"$work/out.json" 2>"$work/stderr.txt" || status=$?
      read -r secs kb < <(tail -1 "$work/time.txt")
      mb=$(awk -v k="$kb" 'BEGIN { printf "%.1f", k / 1024 }')
      if [ "$status" = 124 ]; then
        result="killed by the time limit"
        secs="> $limit"
        mb="-"
        over=$n
      elif [ "$status" != 0 ]; then
        result="exit $status: $(head -c 200 "$work/stderr.txt")"
      else
        result=$(python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
s = j["inputs"][1]["counts"]["sentences"]
cells = {c["measure"]: c["value"] for sec in j["sections"] if sec["id"] == "scores"
         for row in sec["rows"] if row["system"] == 0 for c in row["cells"]}
if s["scored"] == 0:
    print("not scored (too_large %s)" % s["too_large"])
else:
    print("TedEval %.6f distance %d" % (cells["TedEval"], cells["delta_new"]))
' "$work/out.json")
        if grep -q "not scored" <<<"$result"; then
          result="$result: $(grep -m1 -o 'expected .*' "$work/stderr.txt" | head -c 160)"
        fi
      fi
      printf '%-9s %6s  %-9s  %9s  %12s  %s\n' "$direction" "$n" "$pair" "$secs" "$mb" "$result"
    done
  done
done
