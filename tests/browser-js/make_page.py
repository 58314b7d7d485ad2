#!/usr/bin/env python3
"""Build a page around a browser data block, with the structure emit/browser.rs writes.

usage: make_page.py FIXTURE.json OUT.html

The page style is read from emit/html.rs (its STYLE constant), the browser's style and
script from emit/browser.css and emit/browser.js, so the page matches what the binary
writes for the same data block (docs/html-page.md).
"""
import html
import json
import pathlib
import re
import sys

EMIT = pathlib.Path(__file__).resolve().parents[2] / "crates/treeval-report/src/emit"


def page_style():
    src = (EMIT / "html.rs").read_text()
    m = re.search(r'const STYLE: &str = "(.*?)";', src, re.S)
    return re.sub(r"\\\n\s*", "", m.group(1)) if m else ""


def script_json(data):
    s = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def main(fixture, out):
    data = json.loads(pathlib.Path(fixture).read_text())
    n, systems = len(data["sentences"]), data["systems"]
    note = f"{n} of {data['total']} sentences, {len(systems)} system{'' if len(systems) == 1 else 's'}."
    if data.get("note"):
        note += " " + data["note"] + "."
    css = (EMIT / "browser.css").read_text()
    js = (EMIT / "browser.js").read_text()
    name = pathlib.Path(fixture).stem
    page = f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>treeval {html.escape(name)}</title>
<style>{page_style()}{css}</style>
</head>
<body>
<header><h1>treeval {html.escape(name)}</h1>
<p id="signature"><code>fixture {html.escape(name)}</code></p></header>
<section id="summary">
<p>(summary tables of the real page)</p>
</section>
<section id="browser">
<h2>Sentences</h2>
<p id="browser-note">{html.escape(note)}</p>
<noscript><p>The sentence browser needs JavaScript; the tables and charts above do not.</p></noscript>
<div id="browser-app"></div>
<script type="application/json" id="treeval-data">{script_json(data)}</script>
<script>
{js}</script>
</section>
</body>
</html>
"""
    pathlib.Path(out).write_text(page)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
