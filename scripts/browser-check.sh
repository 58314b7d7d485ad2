#!/usr/bin/env bash
# CI's browser step: Debian's Chromium (installed with apt when missing), playwright-core
# (npm ci in tests/browser), the HTML pages (scripts/browser-pages.sh) and their check
# (tests/browser/check.mjs), with screenshots. Prints how long each part took.
#
#   scripts/browser-check.sh BIN DATA TARGET_DIR
#
# Writes TARGET_DIR/browser-pages (pages, manifest, made-up inputs) and
# TARGET_DIR/browser-shots (PNGs). EXPECT_CHARTS / EXPECT_BROWSER / MAX_BYTES: see
# scripts/browser-pages.sh. CHROMIUM: the browser binary (default: chromium on PATH).
set -euo pipefail

[ $# -eq 3 ] || { echo "usage: $0 BIN DATA TARGET_DIR" >&2; exit 2; }
bin=$(realpath -m "$1") data=$(realpath -m "$2") target=$(realpath -m "$3")
cd "$(dirname "$0")/.."
die() { echo "browser-check.sh: $*" >&2; exit 1; }
now() { date +%s%N; }
ms() { echo $((($(now) - $1) / 1000000)); }

t=$(now)
if [ -z "${CHROMIUM:-}" ] && ! command -v chromium >/dev/null; then
    sudo=()
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null || die "Chromium is missing and cannot be installed: not root and no sudo (install Debian's chromium, or set CHROMIUM)"
        sudo=(sudo)
    fi
    echo "installing chromium (apt-get, no recommends)"
    "${sudo[@]}" apt-get update -qq
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
    echo "apt: chromium installed in $(ms "$t") ms"
fi
chromium_bin=${CHROMIUM:-$(command -v chromium)}
[ -x "$chromium_bin" ] || die "no Chromium at $chromium_bin"
export CHROMIUM=$chromium_bin
echo "browser: $("$chromium_bin" --version 2>/dev/null)"

command -v npm >/dev/null || die "npm is missing (node >= 20 and npm are needed for tests/browser)"
t=$(now)
npm ci --prefix tests/browser --no-audit --no-fund --loglevel=error >/dev/null
echo "npm ci (playwright-core): $(ms "$t") ms"

t=$(now)
rm -rf "$target/browser-pages" "$target/browser-shots"
scripts/browser-pages.sh "$bin" "$data" "$target/browser-pages"
echo "pages: $(ms "$t") ms"

t=$(now)
status=0
node tests/browser/check.mjs "$target/browser-pages/manifest.json" "$target/browser-shots" || status=$?
echo "check: $(ms "$t") ms"
exit "$status"
