#!/usr/bin/env bash
# The HTML pages the browser check loads, made with the real binary from shared/data, and
# their manifest (OUT/manifest.json) for tests/browser/check.mjs.
#
#   scripts/browser-pages.sh BIN DATA OUT
#
# BIN: the treeval binary; DATA: shared/data; OUT: a folder for the pages (created; its
# work/ holds the made-up system files). Nothing is written outside OUT.
# Environment:
#   EXPECT_CHARTS=1|0   expect charts on the pages that should have them (default 1)
#   EXPECT_BROWSER=1|0  expect the sentence browser on deps/ud/brackets/align (relations, ted, pts and merge have none) (default 1)
#   MAX_BYTES=N         the size limit of every page (default 5000000)
#   PAGES="a b"         make only these pages (default: all; names below)
#
# Pages: deps-two (EWT test, two systems: no real system output of EWT test is in shared/data,
# so both are the gold test file perturbed by scripts/perturb-deps.py, 10 % and 15 %),
# deps-dev (EWT dev, spaCy en_core_web_sm greedy parse: real), ud-dev (the same pair under
# `ud`), ud-two (CoNLL 2018 fr_sequoia: TurkuNLP and Uppsala submissions, real),
# relations (examples/), brackets-sample (EVALB's sample with sample.prm), brackets-ptb40k
# (scripts/make-ptb40k.py), align-two (WPT 2003 en-fr test, two published GIZA++ alignments),
# ted (testdata/ted, two experiments), pts (examples/pts), merge (`treeval merge` of the
# deps-dev pair's states, cut into two shards at a sentence boundary: no sentence browser).
set -euo pipefail

usage() { echo "usage: $0 BIN DATA OUT" >&2; exit 2; }
[ $# -eq 3 ] || usage
die() { echo "browser-pages.sh: $*" >&2; exit 1; }

bin=$(realpath -e "$1" 2>/dev/null) || die "no treeval binary at $1 (cargo build --release -p treeval-cli)"
[ -x "$bin" ] || die "$bin is not executable"
data=$(realpath -e "$2" 2>/dev/null) || die "no shared data folder at $2"
[ -f "$data/ud/UD_English-EWT/en_ewt-ud-test.conllu" ] || die "$data does not look like shared/data (no ud/UD_English-EWT)"
repo=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$3"
out=$(realpath "$3")
case "$out/" in
"$data"/*) die "OUT ($out) is inside DATA: the inputs are not written to" ;;
esac
work=$out/work
mkdir -p "$work"

expect_charts=${EXPECT_CHARTS:-1}
expect_browser=${EXPECT_BROWSER:-1}
max_bytes=${MAX_BYTES:-5000000}
pages=${PAGES:-deps-two deps-dev ud-dev ud-two relations brackets-sample brackets-ptb40k align-two ted pts merge}

ewt=$data/ud/UD_English-EWT
wpt=$data/align/wpt03-enfr
charts_opts=(--per-relation --by distance,length,depth --confusion=15)
two=(--test ar --ci 95)
entries=()

# page NAME TABLES CHARTS KIND SYSTEMS -- treeval ARGS…: runs treeval ARGS --format html -q
# into OUT/NAME.html (in OUT/work, so that the inputs table shows short names where the
# inputs are linked there) and adds the manifest entry. CHARTS: charts expected with
# EXPECT_CHARTS=1; KIND: the browser's kind expected with EXPECT_BROWSER=1 (- for none);
# $headline: the data-section of the headline table (default scores).
page() {
    local name=$1 tables=$2 charts=$3 kind=$4 systems=$5
    shift 6
    local t0 t1 expect
    t0=$(date +%s%N)
    (cd "$work" && "$bin" "$@" --format html -q) >"$out/$name.html" ||
        die "$name: treeval $* failed (exit $?)"
    t1=$(date +%s%N)
    expect="\"headline\": \"${headline:-scores}\", \"tables\": $tables, \"systems\": $systems"
    [ "$expect_charts" = 1 ] && expect+=", \"charts\": $charts"
    [ "$expect_browser" = 1 ] && [ "$kind" != - ] && expect+=", \"browser\": \"$kind\""
    entries+=("{\"name\": \"$name\", \"page\": \"$name.html\", \"max_bytes\": $max_bytes, \"command\": \"treeval $*\", \"expect\": {$expect}}")
    printf '%-16s %9d bytes %6d ms  treeval %s\n' "$name" "$(stat -c %s "$out/$name.html")" $(((t1 - t0) / 1000000)) "$*"
}

# link NAME TARGET: work/NAME -> TARGET (short names in the pages' inputs tables)
link() { ln -sfn "$2" "$work/$1"; }

want() { case " $pages " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

if want deps-two; then
    link en_ewt-ud-test.conllu "$ewt/en_ewt-ud-test.conllu"
    python3 "$repo/scripts/perturb-deps.py" --seed 1 --rate 0.10 "$ewt/en_ewt-ud-test.conllu" "$work/perturbed-10.conllu"
    python3 "$repo/scripts/perturb-deps.py" --seed 2 --rate 0.15 "$ewt/en_ewt-ud-test.conllu" "$work/perturbed-15.conllu"
    page deps-two 3 1 deps 2 -- deps "${charts_opts[@]}" "${two[@]}" \
        en_ewt-ud-test.conllu perturbed-10.conllu perturbed-15.conllu
fi
if want deps-dev || want ud-dev; then
    link en_ewt-ud-dev.conllu "$ewt/en_ewt-ud-dev.conllu"
    link en_ewt-dev.en_sm.greedy.conllu "$data/nbest/en_ewt-dev.en_sm.greedy.conllu"
fi
if want deps-dev; then
    page deps-dev 3 1 deps 1 -- deps "${charts_opts[@]}" en_ewt-ud-dev.conllu en_ewt-dev.en_sm.greedy.conllu
fi
if want ud-dev; then
    page ud-dev 1 1 deps 1 -- ud en_ewt-ud-dev.conllu en_ewt-dev.en_sm.greedy.conllu
fi
if want ud-two; then
    c18=$data/peer/conll18
    link fr_sequoia.conllu.gz "$c18/gold/fr_sequoia.conllu.gz"
    link TurkuNLP-18.fr_sequoia.conllu.gz "$c18/sys/TurkuNLP-18.fr_sequoia.conllu.gz"
    link Uppsala-18.fr_sequoia.conllu.gz "$c18/sys/Uppsala-18.fr_sequoia.conllu.gz"
    page ud-two 1 1 deps 2 -- ud "${two[@]}" fr_sequoia.conllu.gz \
        TurkuNLP-18.fr_sequoia.conllu.gz Uppsala-18.fr_sequoia.conllu.gz
fi
if want relations; then
    link examples "$repo/examples"
    page relations 1 0 - 2 -- relations "${two[@]}" examples/gold.conllu examples/sys.conllu examples/sys2.conllu
fi
if want brackets-sample; then
    link evalb-sample "$data/reference/evalb-sample"
    headline=all page brackets-sample 2 1 brackets 1 -- brackets --prm evalb-sample/sample.prm \
        evalb-sample/sample.gld evalb-sample/sample.tst
fi
if want brackets-ptb40k; then
    python3 "$repo/scripts/make-ptb40k.py" "$data" "$work" >/dev/null
    headline=all page brackets-ptb40k 2 1 brackets 1 -- brackets ptb40k.gld ptb40k.tst
fi
if want align-two; then
    link wpt03-enfr "$wpt"
    page align-two 1 1 align 2 -- align "${two[@]}" --tokens wpt03-enfr/test.e wpt03-enfr/test.f wpt03-enfr/test.wa.nonullalign \
        wpt03-enfr/published-systems/test.enfr.talp wpt03-enfr/published-systems/test.enfr.grow-diagonal-final.talp
fi
if want ted; then
    link ted "$repo/testdata/ted"
    page ted 1 0 - 2 -- ted "${two[@]}" --exp a:ted/lexical-gold.conllu:ted/lexical-parse.conllu \
        --exp b:ted/lexical-gold.conllu:ted/functional-parse.conllu
fi
if want pts; then
    link pts "$repo/examples/pts"
    page pts 1 0 - 1 -- pts --gold-a pts/gold.en.conllu --gold-b pts/gold.de.conllu \
        --gold-align pts/gold.en-de.naacl --sys-a pts/parser.en.conllu --sys-b pts/parser.de.conllu \
        --sys-align pts/aligner.en-de.pharaoh
fi

if want merge; then
    link en_ewt-ud-dev.conllu "$ewt/en_ewt-ud-dev.conllu"
    link en_ewt-dev.en_sm.greedy.conllu "$data/nbest/en_ewt-dev.en_sm.greedy.conllu"
    # the two files cut after their 1000th sentence (same sentences on both sides)
    for f in en_ewt-ud-dev.conllu en_ewt-dev.en_sm.greedy.conllu; do
        awk -v out="$work/part" -v f="$f" 'BEGIN { n = 0 } { print > (out (n < 1000 ? 0 : 1) "." f) } /^$/ { n++ }' "$work/$f"
    done
    for k in 0 1; do
        (cd "$work" && "$bin" deps -q "${charts_opts[@]}" --keep-sentences --emit-state "part$k.json" \
            "part$k.en_ewt-ud-dev.conllu" "part$k.en_ewt-dev.en_sm.greedy.conllu" >/dev/null) ||
            die "merge: the state of part $k failed"
    done
    page merge 3 1 - 1 -- merge --per-relation --confusion=15 part0.json part1.json
fi
[ ${#entries[@]} -gt 0 ] || die "PAGES=\"$pages\" names no page"
{
    echo '{"pages": ['
    for k in "${!entries[@]}"; do
        sep=,
        [ "$k" -eq $((${#entries[@]} - 1)) ] && sep=
        echo "  ${entries[$k]}$sep"
    done
    echo ']}'
} >"$out/manifest.json"
echo "manifest: $out/manifest.json (${#entries[@]} pages; EXPECT_CHARTS=$expect_charts EXPECT_BROWSER=$expect_browser)"
