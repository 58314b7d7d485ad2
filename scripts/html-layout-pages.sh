#!/usr/bin/env bash
# The HTML pages whose layout tests/browser/layout.mjs checks (issue 30, point 6): every
# command's two-system case of the format matrix (crates/treeval-cli/tests/common/cases.rs),
# `brackets --careful` with its judgments, `merge --confusion` of two
# states and `table` of the fixture manifest; made from the repository's small inputs
# (examples/, testdata/), so no shared data is needed.
#
#   scripts/html-layout-pages.sh BIN OUT
#
# Writes OUT/NAME.html and OUT/pages.txt (one page per line); OUT/work holds the states.
set -euo pipefail

[ $# -eq 2 ] || { echo "usage: $0 BIN OUT" >&2; exit 2; }
die() { echo "html-layout-pages.sh: $*" >&2; exit 1; }
bin=$(realpath -e "$1" 2>/dev/null) || die "no treeval binary at $1 (cargo build -p treeval-cli)"
cd "$(dirname "$0")/.."
mkdir -p "$2/work"
out=$(realpath "$2")
: >"$out/pages.txt"

# page NAME ARGS…: treeval ARGS --format html -q into OUT/NAME.html (exit 0 or 1: a
# comparison may find nothing to report, but the page must be written)
page() {
    local name=$1
    shift
    "$bin" "$@" --format html -q >"$out/$name.html" || [ $? -eq 1 ] || die "$name: treeval $* failed"
    [ -s "$out/$name.html" ] || die "$name: treeval $* wrote nothing"
    echo "$out/$name.html" >>"$out/pages.txt"
}

two=(--test ar --ci 95)
g=examples/gold.conllu s=examples/sys.conllu s2=examples/sys2.conllu
b=testdata/brackets/careful-paper t=testdata/ted a=testdata/align p=examples/pts
n=testdata/nbest/alpino-example
page deps-two deps "${two[@]}" $g $s $s2
page ud-two ud "${two[@]}" $g $s $s2
page relations-two relations "${two[@]}" $g $s $s2
page brackets-two brackets "${two[@]}" $b/gold.txt $b/test.txt $b/test2.txt
page brackets-careful brackets --careful --judgments $b/judgments.tsv $b/gold.txt $b/test.txt $b/test2.txt
page ted-two ted "${two[@]}" --exp a:$t/lexical-gold.conllu:$t/lexical-parse.conllu \
    --exp b:$t/lexical-gold.conllu:$t/functional-parse.conllu
page align-two align "${two[@]}" $a/gold.naacl $a/hyp.pharaoh $a/hyp2.pharaoh
page nbest-two nbest "${two[@]}" $n/example.gold.conllu $n/example.nbest.conllu $n/example.nbest.conllu
page pts-two pts "${two[@]}" --gold-a $p/gold.en.conllu --gold-b $p/gold.de.conllu \
    --gold-align $p/gold.en-de.naacl --sys-a $p/parser.en.conllu --sys-b $p/parser.de.conllu \
    --sys-align $p/aligner.en-de.pharaoh --sys-a $p/gold.en.conllu --sys-b $p/parser.de.conllu \
    --sys-align $p/gold.en-de.naacl
# merge: the states of two shards of the same two systems (the files cut after their 2nd
# sentence, the same sentences on every side)
for f in $g $s $s2; do
    awk -v out="$out/work/part" -v f="$(basename $f)" 'BEGIN { n = 0 } { print > (out (n < 2 ? 0 : 1) "-" f) } /^$/ { n++ }' $f
done
for k in 0 1; do
    w=$out/work/part$k
    "$bin" deps -q --confusion=15 --emit-state "$w.json" $w-gold.conllu $w-sys.conllu $w-sys2.conllu >/dev/null ||
        die "merge: the state of part $k failed"
done
page merge merge --confusion=15 "$out/work/part0.json" "$out/work/part1.json"
page table table testdata/table/manifest.tsv
# long names and deep paths: they wrap (or scroll in their table's box), never widen the page
long=$out/work/runs/a-parser-with-a-long-name-trained-on-everything/epoch-0020-checkpoint-best
mkdir -p "$long"
cp $b/test.txt "$long/predictions-of-the-test-set.txt"
page brackets-long-names brackets --name "$(printf 'system-%.0s' {1..12})A" \
    --name "the-second-system-whose-name-has-no-space-to-break-at-$(printf 'x%.0s' {1..60})" \
    $b/gold.txt "$long/predictions-of-the-test-set.txt" $b/test2.txt
