#!/usr/bin/env python3
"""Widest line and line count of every command's text output with two systems.

Usage: scripts/surface-widths.py [--bin PATH] [--wide] [--options "ARGS"]

Runs each command's two-system case on the repository's fixtures (the format matrix's
inputs of crates/treeval-cli/tests/common/cases.rs, plus table, merge and rerank train)
with the binary (default target/release/treeval; build it with
`cargo build --release -p treeval-cli`), once as given and once with `--ci 95` where the
command takes it, and prints `command  widest-line  lines` for each. Widths count
characters, not bytes; the signature line (the first) is left out, as it cannot be
shortened. --wide adds --wide to every run (the text as it was before it fitted 100
columns); --options adds other options (e.g. "--test ar").
"""
import argparse
import pathlib
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent


def cases(tmp):
    """(name, folder, argv) of every command with two systems."""
    g, s, s2 = "examples/gold.conllu", "examples/sys.conllu", "examples/sys2.conllu"
    b, t, a = "testdata/brackets/careful-paper", "testdata/ted", "testdata/align"
    n, p, r = "testdata/nbest/alpino-example", "examples/pts/", "testdata/rerank"
    pts = (
        f"--gold-a {p}gold.en.conllu --gold-b {p}gold.de.conllu --gold-align {p}gold.en-de.naacl "
        f"--sys-a {p}parser.en.conllu --sys-b {p}parser.de.conllu --sys-align {p}aligner.en-de.pharaoh "
        f"--sys-a {p}gold.en.conllu --sys-b {p}parser.de.conllu --sys-align {p}gold.en-de.naacl"
    )
    return [
        ("deps", ROOT, f"deps {g} {s} {s2}"),
        ("ud", ROOT, f"ud {g} {s} {s2}"),
        ("relations", ROOT, f"relations {g} {s} {s2}"),
        ("brackets", ROOT, f"brackets {b}/gold.txt {b}/test.txt {b}/test2.txt"),
        (
            "ted",
            ROOT,
            f"ted --exp a:{t}/lexical-gold.conllu:{t}/lexical-parse.conllu "
            f"--exp b:{t}/lexical-gold.conllu:{t}/functional-parse.conllu",
        ),
        ("align", ROOT, f"align {a}/gold.naacl {a}/hyp.pharaoh {a}/hyp2.pharaoh"),
        (
            "nbest",
            ROOT,
            f"nbest {n}/example.gold.conllu {n}/example.nbest.conllu {n}/example.nbest.conllu",
        ),
        ("pts", ROOT, f"pts {pts}"),
        ("table", ROOT, "table testdata/table/manifest.tsv --baseline sysA"),
        ("merge", tmp, "merge state-0.json state-1.json"),
        (
            "rerank-train",
            ROOT,
            f"rerank train -o {tmp}/model.json {r}/gold.conllu {r}/nbest.conllu "
            f"{r}/gold.conllu {r}/nbest.conllu",
        ),
    ]


def shards(binary, tmp):
    """Two states of the halves of testdata/sanity (two systems) for the merge case."""
    for i in range(2):
        (tmp / f"shard-{i}").mkdir(exist_ok=True)
    for file, short in [
        ("ewt-gold.conllu", "gold"),
        ("ewt-sys.conllu", "sys"),
        ("ewt-sys-dobj.conllu", "sys-dobj"),
    ]:
        sentences = (ROOT / "testdata/sanity" / file).read_text().rstrip().split("\n\n")
        h = len(sentences) // 2
        for i, part in enumerate([sentences[:h], sentences[h:]]):
            (tmp / f"shard-{i}/{short}.conllu").write_text("\n\n".join(part) + "\n\n")
    for i in range(2):
        subprocess.run(
            [binary, "deps", "-q", "--keep-sentences", "--emit-state", f"state-{i}.json",
             f"shard-{i}/gold.conllu", f"shard-{i}/sys.conllu", f"shard-{i}/sys-dobj.conllu"],
            cwd=tmp, check=True, stdout=subprocess.DEVNULL,
        )


def measure(binary, folder, argv):
    """(widest line without the signature, lines) of stdout, or None when it fails."""
    run = subprocess.run([binary, *argv], cwd=folder, capture_output=True, text=True)
    if run.returncode != 0:
        return None
    lines = run.stdout.splitlines()
    return max((len(l) for l in lines[1:]), default=0), len(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bin", default=str(ROOT / "target/release/treeval"))
    ap.add_argument("--wide", action="store_true")
    ap.add_argument("--options", default="")
    a = ap.parse_args()
    a.bin = str(pathlib.Path(a.bin).resolve())
    if not pathlib.Path(a.bin).exists():
        sys.exit(f"{a.bin}: no such binary; cargo build --release -p treeval-cli, or --bin PATH")
    extra = a.options.split() + (["--wide"] if a.wide else [])
    with tempfile.TemporaryDirectory(prefix="treeval-widths-") as t:
        tmp = pathlib.Path(t)
        shards(a.bin, tmp)
        print(f"{'command':<14}{'widest':>7}{'lines':>7}{'widest --ci':>13}{'lines --ci':>12}")
        for name, folder, line in cases(tmp):
            plain = measure(a.bin, folder, line.split() + extra)
            ci = None
            if name not in ("table", "rerank-train"):  # they refuse --ci
                ci = measure(a.bin, folder, line.split() + extra + ["--ci", "95"])
            show = lambda m: ("–", "–") if m is None else m
            (w, n), (wc, nc) = show(plain), show(ci)
            print(f"{name:<14}{w:>7}{n:>7}{wc:>13}{nc:>12}")


if __name__ == "__main__":
    main()
