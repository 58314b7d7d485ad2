"""Mergeable results from Python: a report carries its state when asked (``state=True``,
``keep_sentences=True``), states pickle, ``treeval.merge`` equals ``treeval merge --format
json`` and one run on the concatenated files; examples/dask_shards.py on a local Dask
cluster gives the single-process report, every cell (EWT dev and repository fixtures)."""

import json
import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

import treeval
from conftest import refuse_files_and_argv, shared_data

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples"
TD = ROOT / "testdata"
EXAMPLE = EX / "dask_shards.py"


def cli_json(*args):
    """The `treeval` command's --format json output (the entry point installed by pip)."""
    out = subprocess.run(
        [sys.executable, "-c", "from treeval._cli import main; main()", *map(str, args), "--format", "json"],
        check=True,
        capture_output=True,
        cwd=ROOT,
    ).stdout
    return json.loads(out)


def sentences(path):
    """The sentence blocks of a CoNLL-U file (each ends with its blank line)."""
    text = Path(path).read_text(encoding="utf-8")
    return [b + "\n\n" for b in text.strip("\n").split("\n\n")]


def split(tmp_path, paths, cuts):
    """Each file cut after the same sentences (`cuts`: sentence indices); per shard, its files."""
    blocks = [sentences(p) for p in paths]
    bounds = [0, *cuts, len(blocks[0])]
    shards = []
    for k in range(len(bounds) - 1):
        files = []
        for i, b in enumerate(blocks):
            f = tmp_path / f"{'gs'[min(i, 1)]}{i}.{k}.conllu"
            f.write_text("".join(b[bounds[k] : bounds[k + 1]]), encoding="utf-8")
            files.append(f)
        shards.append(files)
    return shards


def normalised(report, names=()):
    """The report with each (shards' joined name → whole file name) replaced, without the
    merge's own signature part (`|merged:N`) and convention."""
    text = json.dumps(report, ensure_ascii=False)
    for joined, whole in names:
        text = text.replace(json.dumps(str(joined))[1:-1], json.dumps(str(whole))[1:-1])
    v = json.loads(text)
    at = v["signature"].find("|merged:")
    if at >= 0:
        v["signature"] = v["signature"][:at]
    v["conventions"] = [c for c in v.get("conventions", []) if c.get("name") != "merged"]
    return v


def cli_flags(opts):
    """Keyword arguments as the command line's options (as treeval.run passes them)."""
    out = []
    for o, v in opts.items():
        name = "--" + o.replace("_", "-")
        out += [name if x is True else f"{name}={x}" for x in (v if isinstance(v, list) else [v])]
    return out


def joined_names(shards, wholes):
    return [(" + ".join(str(s[i]) for s in shards), w) for i, w in enumerate(wholes)]


# --- state -------------------------------------------------------------------------------


def test_a_report_carries_its_state_only_when_asked_and_pickles_with_it(tmp_path):
    g, s = EX / "gold.conllu", EX / "sys.conllu"
    assert treeval.deps(g, s).state is None
    r = treeval.deps(g, s, state=True)
    st = r.state
    assert isinstance(st, treeval.State)
    assert (st.family, st.shards, st.has_sentences) == ("deps", 1, False)
    assert st.to_dict()["schema"] == "treeval.state/3"
    # the state is the one --emit-state writes (the CLI's file, read back as it is)
    path = tmp_path / "cli.json"
    subprocess.run(
        [sys.executable, "-c", "from treeval._cli import main; main()", "deps", "-q", str(g), str(s), "--emit-state", str(path)],
        check=True,
        capture_output=True,
    )
    assert st.text == path.read_text(encoding="utf-8")
    # keep_sentences=True implies the state, with every sentence's counts
    k = treeval.deps(g, s, keep_sentences=True)
    assert k.state is not None and k.state.has_sentences
    # emit_state=PATH writes the file and reads it back
    own = tmp_path / "own.json"
    e = treeval.ud(g, s, emit_state=own)
    assert e.state == treeval.State.read(own) and e.state.family == "ud"
    # Dask and Spark ship results between processes by pickling them
    back = pickle.loads(pickle.dumps(k))
    assert back.to_dict() == k.to_dict() and back.state == k.state
    assert pickle.loads(pickle.dumps(k.state)).text == k.state.text


def test_state_is_refused_where_the_command_has_none():
    ex = TD / "nbest" / "alpino-example"
    with pytest.raises(treeval.UsageError) as e:
        treeval.nbest(ex / "example.gold.conllu", ex / "example.nbest.conllu", state=True)
    assert "--emit-state" in str(e.value)


def test_a_state_must_be_a_treeval_state():
    with pytest.raises(ValueError):
        treeval.State('{"schema": "treeval.report/3"}')


def test_a_state_of_another_schema_version_is_refused_naming_both():
    text = treeval.deps(EX / "gold.conllu", EX / "sys.conllu", state=True).state.text
    older = text.replace("treeval.state/3", "treeval.state/1", 1)
    with pytest.raises(ValueError, match=r"expected a state file of schema treeval\.state/3 .*found treeval\.state/1, an older schema"):
        treeval.State(older)
    newer = text.replace("treeval.state/3", "treeval.state/4", 1)
    with pytest.raises(ValueError, match=r"found treeval\.state/4, a newer schema"):
        treeval.State(newer)


def test_merge_runs_the_library_in_memory_without_a_command_line_or_a_file(monkeypatch, tmp_path):
    g, s, s2 = EX / "gold.conllu", EX / "sys.conllu", EX / "sys2.conllu"
    halves = split(tmp_path, [g, s, s2], [1])
    # the shards' systems named as the whole run names them (their files' names differ)
    named = {"name": treeval.system_names([s, s2])}
    parts = [treeval.deps(*files, keep_sentences=True, **named) for files in halves]

    refuse_files_and_argv(monkeypatch, "treeval.merge")
    merged = treeval.merge(parts, test="ar", samples=99, ci=95, ci_samples=99, state=True)
    whole = treeval.deps(g, s, s2, test="ar", samples=99, ci=95, ci_samples=99, **named)
    names = [(f"{halves[0][i]} + {halves[1][i]}", w) for i, w in enumerate([g, s, s2])]
    assert normalised(merged.to_dict(), names) == normalised(whole.to_dict())
    assert merged.state.shards == 2 and merged.state.has_sentences
    # a shard given twice is named as the caller gave it
    with pytest.raises(treeval.UsageError, match=r"reports\[2\] \(deps state\): expected the state of another shard, found the same state as reports\[0\]"):
        treeval.merge([parts[0], parts[1], parts[0]])


# --- merge -------------------------------------------------------------------------------

# command, options of every shard (and of the single run), options of the merge
CASES = [
    ("deps", {"by": ["deprel", "distance"], "confusion": True}, {"per_relation": True, "confusion": True}),
    ("deps", {"punct": "form"}, {"test": "ar", "ci": 95, "samples": 200, "seed": 3}),
    ("ud", {"by": ["upos"]}, {"per_relation": True, "ci": 95, "ci_samples": 200, "seed": 5}),
    ("relations", {}, {"test": "ar", "samples": 200, "seed": 9}),
]


@pytest.mark.parametrize("command,shard_opts,merge_opts", CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_merge_equals_the_cli_merge_and_one_run(tmp_path, command, shard_opts, merge_opts):
    wholes = [EX / "gold.conllu", EX / "sys.conllu", EX / "sys2.conllu"]
    shards = split(tmp_path, wholes, [1, 2])
    # the shards' systems named as the whole run names them (their files' names differ)
    shard_opts = {**shard_opts, "name": treeval.system_names(wholes[1:])}
    fn = getattr(treeval, command)
    reports = [fn(*files, keep_sentences=True, quiet=True, **shard_opts) for files in shards]
    merged = treeval.merge(reports, **merge_opts)
    # == `treeval merge STATE... --format json` on the states the CLI writes
    states = []
    for k, files in enumerate(shards):
        st = tmp_path / f"state.{k}.json"
        flags = cli_flags(shard_opts)
        subprocess.run(
            [sys.executable, "-c", "from treeval._cli import main; main()", command, "-q", *map(str, files),
             "--keep-sentences", "--emit-state", str(st), *flags],
            check=True,
            capture_output=True,
        )
        states.append(st)
    assert merged.to_dict() == cli_json("merge", *states, *cli_flags(merge_opts))
    # == one run on the whole files, but for the names and the merge's signature part
    single = fn(*wholes, quiet=True, **{**shard_opts, **merge_opts})
    assert normalised(merged.to_dict(), joined_names(shards, wholes)) == normalised(single.to_dict())
    assert merged.signature.endswith("|merged:3")
    assert merged.section()["rows"] and merged.section() == single.section()


def test_merged_states_merge_again(tmp_path):
    wholes = [EX / "gold.conllu", EX / "sys.conllu"]
    shards = split(tmp_path, wholes, [1, 2])
    r = [treeval.deps(*f, keep_sentences=True, by=["deprel"]) for f in shards]
    left = treeval.merge(r[:2], state=True)
    assert left.state is not None and left.state.shards == 2
    tree = treeval.merge([left, r[2]], ci=95, seed=1)
    flat = treeval.merge(r, ci=95, seed=1)
    assert tree.to_dict() == flat.to_dict()
    # State values and state files merge too
    path = tmp_path / "s2.json"
    r[2].state.write(path)
    assert treeval.merge([r[0].state, r[1], path], ci=95, seed=1).to_dict() == flat.to_dict()


def test_merge_errors_name_the_report_not_a_temporary_file(tmp_path):
    g, s = EX / "gold.conllu", EX / "sys.conllu"
    with pytest.raises(ValueError, match="needs the states"):
        treeval.merge([])
    with pytest.raises(ValueError, match=r"reports\[1\] carries no state; evaluate the shard with state=True"):
        treeval.merge([treeval.deps(g, s, state=True), treeval.deps(g, s)])
    with pytest.raises(TypeError, match=r"reports\[0\] is a dict"):
        treeval.merge([{"schema": "treeval.state/3"}])
    with pytest.raises(treeval.TreevalError) as e:
        treeval.merge([treeval.deps(g, s, state=True), treeval.ud(g, s, state=True)])
    assert "treeval-merge-" not in str(e.value), str(e.value)
    # different counting options do not merge: the error names the option
    with pytest.raises(treeval.TreevalError) as e:
        treeval.merge([treeval.deps(g, s, state=True), treeval.deps(g, s, state=True, punct="form")])
    assert "punct" in str(e.value) and "reports[1]" in str(e.value), str(e.value)


def test_a_shard_given_twice_is_refused_naming_both(tmp_path):
    """EWT dev cut in two, each half given as a str of its text: a shard given twice (the
    same report, its state again, or a copy of its state file) is a UsageError naming both
    positions or files, never counted twice."""
    data = shared_data()
    gold = data / "ud" / "UD_English-EWT" / "en_ewt-ud-dev.conllu"
    system = data / "nbest" / "en_ewt-dev.en_sm.greedy.conllu"
    g, s = sentences(gold), sentences(system)
    h = len(g) // 2
    halves = [treeval.deps("".join(g[a:b]), "".join(s[a:b]), state=True, quiet=True) for a, b in ((0, h), (h, len(g)))]
    # the two halves merge into the whole (LAS 19073 of 25147 words)
    assert treeval.merge(halves).scores["LAS"].counts == [19073, 25147]
    for again in ([halves[0], halves[1], halves[0]], [halves[0], halves[1], halves[0].state]):
        with pytest.raises(treeval.UsageError) as e:
            treeval.merge(again)
        message = str(e.value)
        assert message.startswith("reports[2] (deps state): expected the state of another shard, found the same state as reports[0] (deps state)"), message
        assert "counted twice" in message and "treeval-merge-" not in message, message
    # state files: the same content under two names
    first, copy = tmp_path / "first.json", tmp_path / "copy.json"
    halves[1].state.write(first)
    copy.write_bytes(first.read_bytes())
    with pytest.raises(treeval.UsageError) as e:
        treeval.merge([halves[0], first, copy])
    assert str(e.value).startswith(f"{copy}: expected the state of another shard, found the same state as {first}"), str(e.value)


def lines_split(tmp_path, paths, cuts):
    """Each file of one sentence per line cut after the same lines (`cuts`); per shard, its files."""
    texts = [Path(p).read_text(encoding="utf-8").splitlines(keepends=True) for p in paths]
    bounds = [0, *cuts, len(texts[0])]
    return [
        [write(tmp_path / f"f{i}.{k}", "".join(t[bounds[k] : bounds[k + 1]])) for i, t in enumerate(texts)]
        for k in range(len(bounds) - 1)
    ]


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "command,wholes,cuts,opts",
    [
        ("brackets", [TD / "brackets" / "debug" / "gold.txt", TD / "brackets" / "debug" / "test.txt"], [2], {"by": ["label", "length"]}),
        ("align", [TD / "align" / "hyp2.pharaoh", TD / "align" / "hyp.pharaoh", TD / "align" / "hyp2.pharaoh"], [1], {}),
    ],
    ids=["brackets", "align"],
)
def test_brackets_and_align_states_merge_into_one_run(tmp_path, command, wholes, cuts, opts):
    shards = lines_split(tmp_path, wholes, cuts)
    opts = {**opts, "name": [f"s{k}" for k in range(1, len(wholes))]}
    fn = getattr(treeval, command)
    reports = [fn(*files, keep_sentences=True, quiet=True, **opts) for files in shards]
    assert reports[0].state.family == command and reports[0].state.has_sentences
    ci = {"ci": 95, "ci_samples": 200, "seed": 4}
    merged = treeval.merge(reports, **ci)
    single = fn(*wholes, quiet=True, **opts, **ci)
    assert normalised(merged.to_dict(), joined_names(shards, wholes)) == normalised(single.to_dict())
    assert merged.signature.endswith(f"|merged:{len(shards)}")


@pytest.mark.parametrize("command", ["ted", "pts"])
def test_ted_and_pts_states_merge_into_one_run(tmp_path, command):
    """ted (two parses, its default test between them) and pts (two systems, with a test
    and intervals): the merged shards' report is one run's."""
    if command == "ted":
        wholes = [EX / "gold.conllu", EX / "sys.conllu", EX / "sys2.conllu"]
        shards = split(tmp_path, wholes, [1])
        run = lambda g, a, b, **kw: treeval.ted(gold=g, parse=[a, b], quiet=True, seed=4, name=["a", "b"], **kw)
        merged_opts = {"seed": 4}
    else:
        p = EX / "pts"
        names = ["gold.en.conllu", "gold.de.conllu", "parser.en.conllu", "parser.de.conllu"]
        wholes = [p / n for n in names]
        shards = split(tmp_path, wholes, [1])
        links = [(p / "gold.en-de.naacl"), (p / "aligner.en-de.pharaoh")]
        # the alignments cut at the same sentence pair: NAACL numbered from 1 in each shard
        gold_lines = links[0].read_text(encoding="utf-8").splitlines()
        sys_lines = links[1].read_text(encoding="utf-8").splitlines()
        for k, shard in enumerate(shards):
            keep = [l for l in gold_lines if (int(l.split()[0]) == 1) == (k == 0)]
            if k == 1:
                keep = [" ".join([str(int(l.split()[0]) - 1), *l.split()[1:]]) for l in keep]
            ga, sa = tmp_path / f"ga.{k}.naacl", tmp_path / f"sa.{k}.pharaoh"
            ga.write_text("".join(l + "\n" for l in keep), encoding="utf-8")
            sa.write_text("".join(l + "\n" for l in (sys_lines[:1] if k == 0 else sys_lines[1:])), encoding="utf-8")
            shard += [ga, sa]
        wholes += links

        def run(ga, gb, sa, sb, gal, sal, **kw):
            return treeval.pts(
                gold_a=ga, gold_b=gb, gold_align=gal, sys_a=[sa, sa], sys_b=[sb, sb], sys_align=[sal, sal],
                quiet=True, test="ar", ci=95, samples=200, seed=4, name=["s1", "s2"], **kw)

        merged_opts = {"test": "ar", "ci": 95, "samples": 200, "seed": 4}
    reports = [run(*files, keep_sentences=True) for files in shards]
    assert reports[0].state.family == command and reports[0].state.has_sentences
    merged = treeval.merge(reports, **merged_opts)
    single = run(*wholes)
    assert normalised(merged.to_dict(), joined_names(shards, wholes)) == normalised(single.to_dict())
    assert merged.signature.endswith(f"|merged:{len(shards)}")


# --- examples/dask_shards.py -------------------------------------------------------------


def example_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("dask_shards", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    "text,ends",
    [
        # a sentence ends after its blank lines; comments belong to the sentence after them
        ("1\ta\n\n2\tb\n\n", [2, 4]),
        ("# c\n\n\n1\ta\n\n\n# x\n2\tb\n\n# trailing\n", [6, 10]),
        # no final blank line; leading blank lines
        ("\n1\ta\n2\tb", [3]),
        ("", [0]),
    ],
)
def test_example_sentence_ends(text, ends):
    assert example_module().sentence_ends(text.splitlines(keepends=True)) == ends


def test_example_cuts_at_shared_sentence_ends():
    d = example_module()
    lines = lambda *paths: "".join(p.read_text(encoding="utf-8") for p in paths).splitlines(keepends=True)
    dt = TD / "ud" / "different-tokenization"
    gold, sys_ = lines(dt / "gold.conllu", EX / "gold.conllu"), lines(dt / "sys.conllu", EX / "sys.conllu")
    # gold's sentences end after 13 ("Thecatsleeps."), 28, 49, 74, 94 characters; the
    # system's first sentence holds gold's first two ("Thecatsleeps.Dogsbarkloudly.")
    assert d.text_offsets(gold, d.sentence_ends(gold)) == [13, 28, 49, 74, 94]
    assert d.text_offsets(sys_, d.sentence_ends(sys_)) == [28, 49, 74, 94]
    # 4 shards: after gold sentences 2, 3, 4 (nearest to 1.25, 2.5, 3.75 among the shared)
    assert d.cut_points("ud", [gold, sys_], 4) == [[0, 14, 21, 32, 45], [0, 9, 16, 27, 40]]
    # 5 shards asked: gold sentence 1 ends where the system has none, so 4 shards
    assert d.cut_points("relations", [gold, sys_], 5) == [[0, 14, 21, 32, 45], [0, 9, 16, 27, 40]]
    # deps cuts at the same sentences, and only files with as many
    with pytest.raises(SystemExit, match="5, 4 sentences"):
        d.cut_points("deps", [gold, sys_], 2)


def test_example_prints_each_cell_with_the_counts_it_is_computed_from():
    """A ratio's counts as a/b; F1's and a value's that is not their ratio named by the
    measure's reads; n/a with the count that is 0; a count without a percentage."""
    d = example_module()
    fraction = lambda *reads: {"kind": "fraction", "reads": list(reads)}
    las = {"measure": "LAS", "value": 16 / 21, "counts": [16, 21]}
    assert d.cell_text(las, fraction("las_correct", "words")) == "LAS 76.19 (16/21)"
    f1 = {"measure": "F1", "value": 2 * 1003452 / (1005956 + 1004000), "counts": [1003452, 1005956, 1004000]}
    assert d.cell_text(f1, fraction("correct", "gold", "system")) == "F1 99.85 (correct 1003452, gold 1005956, system 1004000)"
    aligned = {"measure": "aligned-accuracy", "value": None, "counts": [1003452, 0]}
    assert d.cell_text(aligned, fraction("correct", "aligned")) == "aligned-accuracy n/a (correct 1003452, aligned 0)"
    ca = {"measure": "CA", "value": 1 - 5 / 21, "counts": [5, 21]}
    assert d.cell_text(ca, fraction("ca_errors", "ca_max")) == "CA 76.19 (ca_errors 5, ca_max 21)"
    dt = {"measure": "Dt", "value": 21.0, "counts": [21]}
    assert d.cell_text(dt, {"kind": "count", "reads": ["gold_relations"]}) == "Dt 21"


def need_dask():
    """dask.distributed, or skip loudly (fail in CI, which installs it)."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        message = "SKIPPED LOUDLY: dask[distributed] is not installed (pip install 'dask[distributed]')"
        if os.environ.get("TREEVAL_REQUIRE_SHARED_DATA") == "1":
            pytest.fail(message)
        print(message, file=sys.stderr)
        pytest.skip(message)


def run_example(tmp_path, command, files, shards, options=()):
    """Run the example; the merged report (JSON), its stdout and stderr, and the shard files."""
    work, out = tmp_path / "work", tmp_path / "merged.json"
    p = subprocess.run(
        [sys.executable, str(EXAMPLE), *map(str, files), "--shards", str(shards), "--command", command,
         "--workdir", str(work), "--json", str(out), *[f"--option={o}" for o in options]],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert p.returncode == 0, p.stderr
    n = len(list(work.glob("gold.*.conllu")))
    names = ["gold"] + [f"sys{i}" for i in range(1, len(files))]
    parts = [[work / f"{name}.{k}.conllu" for name in names] for k in range(n)]
    return json.loads(out.read_text()), p.stdout, p.stderr, parts


def check_equal(merged, single, parts, wholes):
    """Every field of the merged report equals the single run's, but the file names (the
    shards' joined) and the warnings' positions, mapped back to the whole files' lines."""
    offsets = {}
    for i, whole in enumerate(wholes):
        first = 0
        for shard in parts:
            offsets[str(shard[i])] = (str(whole), first)
            first += len(shard[i].read_text(encoding="utf-8").splitlines())
    for w in merged.get("warnings", []):
        # `path` or `path:line[:column]`
        path, _, rest = w.get("position", "").partition(":")
        if path in offsets:
            whole, first = offsets[path]
            line, colon, column = rest.partition(":")
            line = str(int(line) + first) if line.isdigit() else line
            w["position"] = whole + (":" + line + colon + column if rest else "")
    m, s = normalised(merged, joined_names(parts, wholes)), normalised(single)
    for key in s:
        assert m.get(key) == s[key], f"`{key}` differs"
    assert set(m) == set(s)


def test_dask_example_on_the_repository_fixtures(tmp_path):
    need_dask()
    wholes = [EX / "gold.conllu", EX / "sys.conllu", EX / "sys2.conllu"]
    options = ["by=deprel", "confusion", "ci=95", "seed=4", "ci_samples=300", "per_relation"]
    merged, stdout, stderr, parts = run_example(tmp_path, "deps", wholes, 4, options)
    # 3 sentences: 3 shards, and the example says so
    assert len(parts) == 3 and "only 3 shards" in stderr
    single = treeval.deps(*wholes, by=["deprel"], confusion=True, ci=95, seed=4, ci_samples=300, per_relation=True)
    check_equal(merged, single.to_dict(), parts, wholes)
    assert merged["signature"].endswith("|merged:3")
    las = single.scores["LAS"]
    assert f"LAS {100 * las.score:.2f} ({las.counts[0]}/{las.counts[1]})" in stdout


def test_dask_example_cuts_ud_at_sentence_ends_both_texts_share(tmp_path):
    """gold and system split their sentences differently in the first part (one system
    sentence for two gold ones): no shard boundary may fall there."""
    need_dask()
    d = TD / "ud" / "different-tokenization"
    wholes = [tmp_path / "gold.conllu", tmp_path / "sys.conllu"]
    for whole, a, b in [(wholes[0], d / "gold.conllu", EX / "gold.conllu"), (wholes[1], d / "sys.conllu", EX / "sys.conllu")]:
        whole.write_text(a.read_text(encoding="utf-8") + b.read_text(encoding="utf-8"), encoding="utf-8")
    merged, _, _, parts = run_example(tmp_path, "ud", wholes, 4, ["per_relation", "ci=95", "seed=2", "ci_samples=200"])
    # gold's 5 sentences: the shared ends are after gold sentences 2, 3, 4 and 5
    assert [len(sentences(p[0])) for p in parts] == [2, 1, 1, 1]
    assert [len(sentences(p[1])) for p in parts] == [1, 1, 1, 1]
    single = treeval.ud(*wholes, per_relation=True, ci=95, seed=2, ci_samples=200)
    check_equal(merged, single.to_dict(), parts, wholes)


@pytest.mark.parametrize("command", ["deps", "ud"])
def test_dask_example_on_ewt_dev_equals_one_run(tmp_path, command):
    data = shared_data()
    wholes = [data / "ud" / "UD_English-EWT" / "en_ewt-ud-dev.conllu", data / "nbest" / "en_ewt-dev.en_sm.greedy.conllu"]
    need_dask()
    options = {"deps": ["by=deprel", "by=distance", "confusion", "ci=95", "seed=3", "per_relation"],
               "ud": ["by=upos", "per_relation", "ci=95", "seed=3"]}[command]
    merged, stdout, _, parts = run_example(tmp_path, command, wholes, 4, options)
    assert len(parts) == 4
    kw = {"by": ["deprel", "distance"], "confusion": True} if command == "deps" else {"by": ["upos"]}
    single = treeval.run(command, *wholes, ci=95, seed=3, per_relation=True, quiet=True, **kw)
    check_equal(merged, single.to_dict(), parts, wholes)
    if command == "deps":
        # the whole files' LAS as `deps` counts it (crates/treeval-cli/tests/shared_data.rs)
        assert single.scores["LAS"].counts[:2] == [19073, 25147]
        assert "LAS 75.85 (19073/25147)" in stdout


def test_dask_example_errors_name_the_whole_files_line_and_sentence(tmp_path):
    """A shard fails on a worker: the example reports the whole file's path, line and
    sentence number, as one run does, and exits 1."""
    need_dask()
    lines = (EX / "sys.conllu").read_text(encoding="utf-8").splitlines(keepends=True)
    # the last sentence's first word line: its HEAD becomes text
    k = max(i for i, l in enumerate(lines) if l[:1].isdigit() and (i == 0 or not lines[i - 1][:1].isdigit()))
    cols = lines[k].split("\t")
    cols[6] = "x"
    lines[k] = "\t".join(cols)
    bad = tmp_path / "bad.conllu"
    bad.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(treeval.TreevalError) as e:
        treeval.deps(EX / "gold.conllu", bad)
    assert e.value.line == k + 1 and "[sentence 3" in e.value.message
    p = subprocess.run(
        [sys.executable, str(EXAMPLE), str(EX / "gold.conllu"), str(bad), "--shards", "3", "--workdir", str(tmp_path / "w")],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert p.returncode == 1
    last = p.stderr.strip().splitlines()[-1]
    assert last.startswith(f"error: {e.value.message} (shard file {tmp_path / 'w' / 'sys1.2.conllu'}"), last
