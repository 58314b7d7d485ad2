#!/usr/bin/env bash
# The README's picture of the HTML page: the two-system deps page (EWT test, see
# scripts/browser-pages.sh) from the top to the bottom of its first chart, 1200 px wide.
#
#   scripts/readme-screenshot.sh BIN DATA [OUT.png]     (default OUT: docs/deps-page.png)
#
# Needs Chromium (CHROMIUM or /usr/bin/chromium) and `npm ci --prefix tests/browser`.
# Extra options for tests/browser/readme-shot.mjs go in READMESHOT_OPTS, e.g.
# READMESHOT_OPTS=--allow-no-chart (before the charts exist).
set -euo pipefail

[ $# -ge 2 ] && [ $# -le 3 ] || { echo "usage: $0 BIN DATA [OUT.png]" >&2; exit 2; }
repo=$(cd "$(dirname "$0")/.." && pwd)
out=${3:-$repo/docs/deps-page.png}
[ -d "$repo/tests/browser/node_modules/playwright-core" ] ||
    { echo "readme-screenshot.sh: run npm ci --prefix tests/browser first" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
PAGES=deps-two "$repo/scripts/browser-pages.sh" "$1" "$2" "$tmp" >/dev/null
# shellcheck disable=SC2086 # READMESHOT_OPTS is a list of options
node "$repo/tests/browser/readme-shot.mjs" "$tmp/deps-two.html" "$out" --width 1200 ${READMESHOT_OPTS:-}
