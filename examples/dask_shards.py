"""Sharded evaluation on Dask: split a gold/system pair into shards at sentence boundaries,
evaluate the shards in parallel on a Dask cluster, and merge their states with
``treeval.merge`` into the report of the whole files.

    python examples/dask_shards.py GOLD SYS [SYS...] --shards N [--command deps|ud|relations]
        [--option NAME=VALUE ...] [--workers K] [--scheduler ADDRESS] [--workdir DIR]
        [--json FILE]

Needs ``pip install . 'dask[distributed]'``. Without ``--scheduler`` the shards run on a
local cluster of K worker processes (``LocalCluster(processes=True)``, on 127.0.0.1);
with ``--scheduler tcp://HOST:8786`` on that cluster, whose workers must read ``--workdir``
(shared storage) and have treeval installed.

Where the files are cut:

- ``deps`` pairs gold and system sentences one to one, so every file is cut after the same
  sentences (the files must have as many sentences each);
- ``ud`` and ``relations`` allow different tokenizations and sentence splits: a file is cut
  only after a sentence end that gold and every system share, found by character offset
  in the text (the concatenated FORMs of the tokens, without whitespace, as the CoNLL 2018
  alignment reads them). A shard boundary inside what one run aligns as a unit would change
  the counts, so the shards are as even as those shared ends allow (fewer shards if there
  are fewer shared ends).

Each shard keeps its lines verbatim (comments and blank lines included), so line L of
shard k is line L + (first line of the shard - 1) of the whole file. Each shard is
evaluated with ``keep_sentences=True``, so tests, intervals and deps' macro averages over
sentences of the merged report are those of one run. ``--option`` passes treeval options
(``--option by=deprel --option ci=95``; repeat a name for a list, a bare name is a switch):
those ``treeval merge`` takes (``ci``, ``test``, ``seed``, ``per_relation``, ...) go to the
merge, the others (``by``, ``punct``, ``labels``, ``where``, ...) to every shard, and
``confusion`` to both.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
from typing import Any, Dict, List, Sequence, Tuple

import treeval

# --- splitting -------------------------------------------------------------------------


def sentence_ends(lines: Sequence[str]) -> List[int]:
    """The line index after each sentence block: its comment and word lines, then the
    blank lines after it. The last end is ``len(lines)`` (trailing comments or blank lines
    join the last sentence), so that the blocks cover the file."""
    ends: List[int] = []
    words = closed = False
    for i, line in enumerate(lines):
        blank = not line.strip()
        if closed and not blank:
            ends.append(i)
            words = closed = False
        if blank:
            closed = words
        elif not line.startswith("#"):
            words = True
    if words or not ends:
        ends.append(len(lines))
    else:
        ends[-1] = len(lines)
    return ends


def text_offsets(lines: Sequence[str], ends: Sequence[int]) -> List[int]:
    """The number of text characters (token FORMs without whitespace: multiword tokens by
    their range line, not their words; no empty nodes) up to each sentence end."""
    out, chars, start = [], 0, 0
    for end in ends:
        skip_to = 0
        for line in lines[start:end]:
            if not line.strip() or line.startswith("#"):
                continue
            cols = line.rstrip("\n").split("\t")
            ident = cols[0]
            if "." in ident:
                continue
            if "-" in ident:
                last = ident.partition("-")[2]
                skip_to = int(last) if last.isdigit() else 0
            elif ident.isdigit() and int(ident) <= skip_to:
                continue
            else:
                skip_to = 0
            if len(cols) > 1:
                chars += len("".join(cols[1].split()))
        out.append(chars)
        start = end
    return out


def cut_points(command: str, files: Sequence[Sequence[str]], shards: int) -> List[List[int]]:
    """For each file, the line indices where the shards start and end (``shards`` + 1 of
    them at most), at sentence boundaries gold and every system share."""
    ends = [sentence_ends(f) for f in files]
    if command == "deps":
        counts = {len(e) for e in ends}
        if len(counts) != 1:
            raise SystemExit(
                "deps pairs sentences one to one, but the files have "
                + ", ".join(f"{len(e)}" for e in ends)
                + " sentences: they cannot be cut at the same sentences"
            )
        shared = [tuple(e[k] for e in ends) for k in range(len(ends[0]))]
    else:
        offsets = [dict(zip(text_offsets(f, e), e)) for f, e in zip(files, ends)]
        common = sorted(set(offsets[0]).intersection(*offsets[1:]))
        shared = [tuple(o[c] for o in offsets) for c in common]
        # a shard boundary is inside every file; the last ends are the files' ends
        inside = [s for s in shared if all(x < len(f) for x, f in zip(s, files))]
        shared = inside + [tuple(len(f) for f in files)]
    # the shards' ends: the shared end nearest to an equal split of gold's sentences
    gold_index = {end: k for k, end in enumerate(ends[0])}
    n = len(ends[0])
    chosen: List[Tuple[int, ...]] = []
    for k in range(1, shards):
        target = k * n / shards
        later = [s for s in shared[:-1] if not chosen or s[0] > chosen[-1][0]]
        best = min(later, key=lambda s: abs(gold_index[s[0]] + 1 - target), default=None)
        if best is not None:
            chosen.append(best)
    chosen.append(shared[-1])
    return [[0] + [c[i] for c in chosen] for i in range(len(files))]


# shard file → (whole file, lines before the shard there, sentences before it)
Origins = Dict[str, Tuple[str, int, int]]


def write_shards(paths: Sequence[str], shards: int, command: str, workdir: str) -> Tuple[List[List[str]], Origins]:
    """Cut the files into shards in ``workdir``: per shard, its files (gold first); and
    each shard file's whole file and the lines and sentences before it there."""
    files = []
    for p in paths:
        with open(p, encoding="utf-8", newline="") as f:
            files.append(f.read().splitlines(keepends=True))
    cuts = cut_points(command, files, shards)
    out: List[List[str]] = []
    origins: Origins = {}
    for k in range(len(cuts[0]) - 1):
        shard = []
        for i, (p, lines) in enumerate(zip(paths, files)):
            # the file's own extension: the reader may tell the format by it
            ext = os.path.splitext(p)[1] or ".conllu"
            name = os.path.join(workdir, f"{'gold' if i == 0 else f'sys{i}'}.{k}{ext}")
            with open(name, "w", encoding="utf-8", newline="") as f:
                f.writelines(lines[cuts[i][k] : cuts[i][k + 1]])
            shard.append(name)
            before = sum(1 for e in sentence_ends(lines) if e <= cuts[i][k])
            origins[name] = (p, cuts[i][k], before)
        out.append(shard)
    return out, origins


def whole_position(message: str, origins: Origins) -> str:
    """An error message that starts with a shard's ``path:line``, with the whole file's
    path, line and sentence number (``[sentence N``) instead."""
    for shard, (whole, lines, sentences) in origins.items():
        line, _, rest = message[len(shard) + 1 :].partition(":")
        if message.startswith(shard + ":") and line.isdigit():
            rest = re.sub(r"\[sentence (\d+)", lambda m: f"[sentence {int(m.group(1)) + sentences}", rest, count=1)
            return f"{whole}:{int(line) + lines}:{rest} (shard file {shard})"
    return message


# --- options -----------------------------------------------------------------------------


def parse_options(items: Sequence[str]) -> Dict[str, Any]:
    """``NAME=VALUE`` (repeated: a list) and ``NAME`` (a switch) as keyword arguments."""
    opts: Dict[str, Any] = {}
    for item in items:
        name, eq, value = item.partition("=")
        name = name.strip().lstrip("-").replace("-", "_")
        v: Any = _typed(value) if eq else True
        if name in opts:
            prev = opts[name]
            opts[name] = (prev if isinstance(prev, list) else [prev]) + [v]
        else:
            opts[name] = v
    return opts


def _typed(value: str) -> Any:
    """A number as a number (``ci=95``, ``seed=7``; the library's options are typed: a
    text option takes a number's digits), anything else as given."""
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


# options `treeval merge` refuses because they belong to the evaluation of the shards
EVALUATION_ONLY = {"where", "min_len", "max_len", "sent_id", "errors", "per_sentence", "html_sentences"}
# options the example sets itself
OWN = {"emit_state", "keep_sentences", "force"}


def route(command: str, opts: Dict[str, Any]) -> Tuple[Dict[str, Any], Dict[str, Any]]:
    """(shard options, merge options): what ``treeval merge`` takes goes to the merge, the
    rest to every shard; ``confusion`` (deps counts confusions only when asked) to both."""
    merge_keys = set(treeval.options("merge")) - EVALUATION_ONLY
    shard_keys = set(treeval.options(command))
    shard, merged = {}, {}
    for k, v in opts.items():
        if k in OWN or (k not in merge_keys and k not in shard_keys):
            raise SystemExit(
                f"--option {k}: not an option of treeval {command} or treeval merge, or one this example sets itself"
            )
        if k in merge_keys:
            merged[k] = v
        if k not in merge_keys or k in ("confusion", "quiet"):
            shard[k] = v
    return shard, merged


# --- the evaluation ----------------------------------------------------------------------


def evaluate_shard(command: str, files: List[str], options: Dict[str, Any]) -> Tuple[Any, float]:
    """Run on a worker: one shard's report, with its state (every sentence's counts)."""
    import time

    import treeval

    t = time.perf_counter()
    report = treeval.run(command, *files, keep_sentences=True, quiet=True, **options)
    return report, time.perf_counter() - t


def sharded(
    client: Any, command: str, shards: List[List[str]], options: Dict[str, Any]
) -> List[Tuple[Any, float]]:
    """Evaluate the shards on the cluster; their reports and times, in corpus order."""
    futures = client.map(evaluate_shard, [command] * len(shards), shards, [options] * len(shards), pure=False)
    return client.gather(futures)


def cell_text(cell: Dict[str, Any], measure: Dict[str, Any]) -> str:
    """One cell as ``measure value (counts)``: a fraction as a percentage, a count or a
    mean as it is; the counts it was computed from as ``a/b`` when the value is their
    ratio (LAS: words right of words), else each named by the measure's ``reads`` (F1:
    ``correct``, ``gold``, ``system``; an n/a value says which count is 0)."""
    v, kind = cell.get("value"), measure.get("kind", "fraction")
    counts, reads = cell.get("counts") or [], measure.get("reads") or []
    if v is None:
        value = "n/a"
    elif kind == "fraction":
        value = f"{100 * v:.2f}"
    elif kind == "count":
        value = f"{v:g}"
    else:
        value = f"{v:.4f}"
    shown = ""
    if kind != "count" and counts:
        ratio = len(counts) == 2 and v is not None and counts[1] and abs(counts[0] / counts[1] - v) < 1e-9
        if ratio:
            shown = f" ({counts[0]}/{counts[1]})"
        else:
            number = lambda x: str(x) if isinstance(x, int) else f"{x:.6g}"
            shown = " (" + ", ".join(f"{n} {number(x)}" for n, x in zip(reads, counts)) + ")"
    ci = f" [{100 * cell['ci'][0]:.2f}, {100 * cell['ci'][1]:.2f}]" if cell.get("ci") and kind == "fraction" else ""
    return f"{cell['measure']} {value}{shown}{ci}"


def show(merged: treeval.Report, command: str, shards: int, names: Sequence[str]) -> None:
    """The merged headline table: a line per row (system, and metric for ud), each cell
    as ``cell_text`` writes it; systems named by their whole files (``names``)."""
    print(f"merged report of {shards} shards ({command}): {merged.signature}")
    measures = {m["name"]: m for m in merged.to_dict().get("measures", [])}
    for row in merged.section("scores")["rows"]:
        cells = [cell_text(c, measures.get(c["measure"], {})) for c in row["cells"]]
        name = names[row["system"]] if isinstance(row.get("system"), int) else "all"
        key = f" {row['key']}" if row.get("key") is not None else ""
        print(f"{name}{key}: {', '.join(cells)}")


def main(argv: Sequence[str] = ()) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("gold")
    ap.add_argument("systems", nargs="+", metavar="SYS")
    ap.add_argument("--shards", type=int, required=True, help="how many shards (at most; each at least one sentence)")
    ap.add_argument("--command", choices=["deps", "ud", "relations"], default="deps")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="a treeval option (repeatable)")
    ap.add_argument("--workers", type=int, default=0, help="local worker processes (default: min(shards, CPUs))")
    ap.add_argument("--scheduler", help="address of a running Dask scheduler instead of a local cluster")
    ap.add_argument("--workdir", help="where the shards are written (shared storage on a real cluster)")
    ap.add_argument("--json", metavar="FILE", help="also write the merged report's JSON (= treeval merge --format json)")
    a = ap.parse_args(list(argv) or None)
    if a.shards < 1:
        ap.error("--shards must be at least 1")
    shard_opts, merge_opts = route(a.command, parse_options(a.option))
    workdir = a.workdir or tempfile.mkdtemp(prefix="treeval-shards-")
    os.makedirs(workdir, exist_ok=True)
    try:
        return run(a, workdir, shard_opts, merge_opts)
    finally:
        if not a.workdir:
            shutil.rmtree(workdir, ignore_errors=True)


def run(a: argparse.Namespace, workdir: str, shard_opts: Dict[str, Any], merge_opts: Dict[str, Any]) -> int:
    """Cut, evaluate on the cluster, merge, print."""
    from dask.distributed import Client, LocalCluster

    shards, origins = write_shards([a.gold, *a.systems], a.shards, a.command, workdir)
    # every shard's systems named as one run on the whole files names them (the shards'
    # files have names of their own); merge's own name= renames them
    shard_opts = {**shard_opts, "name": treeval.system_names(a.systems)}
    if len(shards) < a.shards:
        print(f"note: only {len(shards)} shards: the files share fewer sentence ends", file=sys.stderr)
    t0 = time.perf_counter()
    if a.scheduler:
        client, cluster = Client(a.scheduler), None
    else:
        workers = a.workers or min(len(shards), os.cpu_count() or 1)
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None
        )
        client = Client(cluster)
    try:
        results = sharded(client, a.command, shards, shard_opts)
    except treeval.TreevalError as e:
        # raised on a worker with the shard's path and line: the whole file's instead
        raise SystemExit(f"error: {whole_position(e.message, origins)}") from None
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    for k, (report, seconds) in enumerate(results):
        print(f"shard {k}: {report.to_dict()['inputs'][0].get('description', '')} in {seconds:.2f} s", file=sys.stderr)
    merged = treeval.merge([r for r, _ in results], **merge_opts)
    print(f"evaluated and merged in {time.perf_counter() - t0:.2f} s (cluster start included)", file=sys.stderr)
    show(merged, a.command, len(shards), a.systems)
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(merged.to_dict(), f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
