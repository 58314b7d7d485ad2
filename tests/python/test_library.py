"""The library mirror: treeval.deps/ud/… run the CLI's code; to_dict() is the CLI's JSON."""

import io
import warnings
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import treeval
from conftest import refuse_files_and_argv

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples"
TD = ROOT / "testdata"
# the inputs of examples/pts, as treeval.pts() takes them
PTS_FILES = {
    "gold_a": EX / "pts" / "gold.en.conllu",
    "gold_b": EX / "pts" / "gold.de.conllu",
    "gold_align": EX / "pts" / "gold.en-de.naacl",
    "sys_a": EX / "pts" / "parser.en.conllu",
    "sys_b": EX / "pts" / "parser.de.conllu",
    "sys_align": EX / "pts" / "aligner.en-de.pharaoh",
}


def cli_json(*args):
    """The `treeval` command's --format json output (the entry point installed by pip)."""
    out = subprocess.run(
        [sys.executable, "-c", "from treeval._cli import main; main()", *args, "--format", "json"],
        check=True,
        capture_output=True,
        cwd=ROOT,
    ).stdout
    return json.loads(out)


def test_version_and_command():
    out = subprocess.run(
        [sys.executable, "-c", "from treeval._cli import main; main()", "--version"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert out == f"treeval {treeval.__version__}\n"


def test_deps_to_dict_equals_cli_json():
    gold, sys_ = "examples/gold.conllu", "examples/sys.conllu"
    r = treeval.deps(ROOT / gold, ROOT / sys_, by=["deprel"])
    expected = cli_json("deps", "--by", "deprel", str(ROOT / gold), str(ROOT / sys_))
    assert r.to_dict() == expected


def test_deps_headline_cells_and_ci():
    r = treeval.deps(EX / "gold.conllu", EX / "sys.conllu", EX / "sys2.conllu", ci=95, quiet=True)
    las = r.scores["LAS"]
    # the value is the counts' fraction; the interval contains it
    correct, total = las.counts[0], las.counts[1]
    assert las.score == correct / total
    assert las.ci is not None and las.ci[0] <= las.score <= las.ci[1]
    assert r.cell("LAS", system=1).score is not None
    assert r.systems == ["sys", "sys2"]


def test_ud_and_relations_and_brackets_and_align_match_cli():
    d = TD / "ud" / "different-tokenization"
    cases = [
        (treeval.ud, "ud", [d / "gold.conllu", d / "sys.conllu"], {"per_relation": True}, ["--per-relation"]),
        (treeval.relations, "relations", [d / "gold.conllu", d / "sys.conllu"], {}, []),
        (
            treeval.brackets,
            "brackets",
            [TD / "brackets" / "words-300" / "gold.txt", TD / "brackets" / "words-300" / "test.txt"],
            {},
            [],
        ),
        (treeval.align, "align", [TD / "align" / "gold.naacl", TD / "align" / "hyp.pharaoh"], {}, []),
    ]
    for fn, command, inputs, kw, flags in cases:
        assert fn(*inputs, **kw).to_dict() == cli_json(command, *flags, *map(str, inputs)), command


def test_pts_and_ted_take_their_inputs_as_options():
    kw = dict(PTS_FILES)
    r = treeval.pts(**kw)
    flags = [f"--{k.replace('_', '-')}={v}" for k, v in kw.items()]
    assert r.to_dict() == cli_json("pts", *flags)
    t = TD / "ted"
    r = treeval.ted(gold=t / "functional-gold.conllu", parse=t / "functional-parse.conllu")
    assert r.to_dict() == cli_json("ted", "--gold", str(t / "functional-gold.conllu"), "--parse", str(t / "functional-parse.conllu"))


def test_file_objects_with_a_name_are_read_from_their_path():
    with open(EX / "gold.conllu") as g, open(EX / "sys.conllu") as s:
        assert treeval.deps(g, s).to_dict() == treeval.deps(EX / "gold.conllu", EX / "sys.conllu").to_dict()


def test_unknown_keyword_names_the_valid_ones():
    with pytest.raises(TypeError) as e:
        treeval.deps(EX / "gold.conllu", EX / "sys.conllu", per_relations=True)
    assert "per_relations" in str(e.value) and "per_relation" in str(e.value) and "labels" in str(e.value)
    assert "format" not in treeval.options("deps")


def test_usage_error_is_a_value_error():
    with pytest.raises(treeval.UsageError) as e:
        treeval.deps(EX / "gold.conllu", EX / "sys.conllu", test="no-such-test")
    assert isinstance(e.value, ValueError)


def test_errors_carry_path_line_and_column(tmp_path):
    bad = tmp_path / "bad.conllu"
    lines = (EX / "sys.conllu").read_text().splitlines(keepends=True)
    # the first word line's HEAD becomes text
    k = next(i for i, l in enumerate(lines) if l[:1].isdigit())
    cols = lines[k].split("\t")
    cols[6] = "x"
    lines[k] = "\t".join(cols)
    bad.write_text("".join(lines))
    with pytest.raises(treeval.TreevalError) as e:
        treeval.deps(EX / "gold.conllu", bad)
    assert e.value.path == str(bad)
    assert e.value.line == k + 1
    assert e.value.column is not None and e.value.column > 1
    assert str(e.value).startswith(f"{bad}:{k + 1}:")


def test_to_pandas():
    pandas = pytest.importorskip("pandas")
    r = treeval.deps(EX / "gold.conllu", EX / "sys.conllu")
    df = r.to_pandas()
    assert isinstance(df, pandas.DataFrame)
    row = df[(df.section == "scores") & (df.measure == "LAS")].iloc[0]
    assert row.value == r.scores["LAS"].score


def entry_point(*args):
    """The installed `treeval` entry point's exit code, stdout and stderr."""
    p = subprocess.run(
        [sys.executable, "-c", "from treeval._cli import main; main()", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return p.returncode, p.stdout, p.stderr


def test_entry_point_exit_codes_and_messages_are_the_binarys():
    # success: the report on stdout
    code, out, _ = entry_point("deps", "examples/gold.conllu", "examples/sys.conllu")
    assert code == 0 and out.startswith(f"treeval {treeval.__version__}|deps|")
    # evaluation error: exit code 1, `error: path: …` on stderr, nothing on stdout
    code, out, err = entry_point("deps", "examples/gold.conllu", "no/such/file.conllu")
    assert (code, out) == (1, "") and err.startswith("error: no/such/file.conllu: cannot read the file")
    # usage error (clap): exit code 2
    code, out, err = entry_point("deps", "--no-such-option", "a", "b")
    assert (code, out) == (2, "") and "unexpected argument '--no-such-option'" in err
    # the hints quote the command line as typed, `treeval` first
    args = ("deps", "--per-sentence", "examples/sys2.conllu", "examples/gold.conllu", "examples/sys.conllu")
    code, _, err = entry_point(*args)
    meant = "treeval deps --per-sentence FILE examples/sys2.conllu examples/gold.conllu examples/sys.conllu"
    assert code == 2 and f"did you mean `{meant}`?" in err, err


def test_conll18_compat_of_the_command_equals_the_module(tmp_path):
    d = TD / "ud" / "different-tokenization"
    code, out, _ = entry_point("ud", "--compat", "conll18", "-v", str(d / "gold.conllu"), str(d / "sys.conllu"))
    module = subprocess.run(
        [sys.executable, "-m", "treeval.conll18", "-v", str(d / "gold.conllu"), str(d / "sys.conllu")],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert code == 0 and out == module


def test_in_memory_inputs_give_the_files_report_under_their_own_names():
    gold_text = (EX / "gold.conllu").read_text()
    sys_text = (EX / "sys.conllu").read_text()
    from_files = treeval.deps(EX / "gold.conllu", EX / "sys.conllu").to_dict()
    sentences = [b for b in sys_text.split("\n\n") if b.strip()]
    for gold, sys_ in [
        (io.StringIO(gold_text), io.StringIO(sys_text)),
        (gold_text.encode("utf-8"), io.BytesIO(sys_text.encode("utf-8"))),
        (io.StringIO(gold_text), sentences),
    ]:
        r = treeval.deps(gold, sys_).to_dict()
        assert r["sections"] == from_files["sections"]
        assert [i["path"] for i in r["inputs"]] == ["<input 1>", "<input 2>"]
        assert r["systems"][0]["name"] == "<input 2>"


def test_in_memory_errors_are_located_in_the_named_input():
    lines = (EX / "sys.conllu").read_text().splitlines(keepends=True)
    k = next(i for i, l in enumerate(lines) if l[:1].isdigit())
    cols = lines[k].split("\t")
    cols[6] = "x"
    lines[k] = "\t".join(cols)
    with pytest.raises(treeval.TreevalError) as e:
        treeval.deps(EX / "gold.conllu", io.StringIO("".join(lines)))
    assert e.value.path == "<input 2>"
    assert e.value.line == k + 1
    assert str(e.value).startswith(f"<input 2>:{k + 1}:")


def test_nbest_matches_the_cli():
    d = TD / "nbest" / "alpino-example"
    gold, nbest = d / "example.gold.conllu", d / "example.nbest.conllu"
    r = treeval.nbest(gold, nbest, test="ar", samples=200)
    assert r.to_dict() == cli_json("nbest", "--test", "ar", "--samples", "200", str(gold), str(nbest))
    assert "nbest" in treeval.__all__


def raised(call):
    """The TreevalWarning texts ``call()`` raises (every one recorded, none filtered) and
    its result."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    texts = [str(w.message) for w in caught if issubclass(w.category, treeval.TreevalWarning)]
    assert all(issubclass(w.category, treeval.TreevalWarning) for w in caught), caught
    return texts, result


def test_in_memory_warnings_name_the_input(capfd):
    sys_text = (EX / "sys.conllu").read_text()
    texts, _ = raised(lambda: treeval.deps(EX / "gold.conllu", io.StringIO(sys_text)))
    assert any(t.startswith("<input 2>: label subtypes in one file only") for t in texts), texts
    assert not any("/tmp" in t or "input-2" in t for t in texts), texts
    # raised through the warnings module, not printed
    assert capfd.readouterr().err == ""


def test_warnings_are_raised_once_per_calling_line_and_kept_on_the_report(capfd):
    """A training loop calling treeval 100 times: the warning is a TreevalWarning attributed
    to the caller's line, shown once by Python's default filter (not 100 times), filterable,
    an error under "error", and on every report whatever the filters."""
    gold, system = EX / "gold.conllu", EX / "sys.conllu"
    with warnings.catch_warnings(record=True) as caught:
        warnings.resetwarnings()
        warnings.simplefilter("default")
        reports = [treeval.deps(gold, system) for _ in range(100)]
    ours = [w for w in caught if issubclass(w.category, treeval.TreevalWarning)]
    assert len(ours) == 1, [str(w.message) for w in ours]
    assert ours[0].filename == __file__, ours[0].filename
    assert "label subtypes in one file only" in str(ours[0].message)
    assert all([w["kind"] for w in r.warnings] == ["label_subtypes"] for r in reports)
    assert capfd.readouterr().err == ""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", treeval.TreevalWarning)
        r = treeval.deps(gold, system)
    assert capfd.readouterr().err == "" and r.warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error", treeval.TreevalWarning)
        with pytest.raises(treeval.TreevalWarning, match="label subtypes"):
            treeval.deps(gold, system)
    texts, r = raised(lambda: treeval.deps(gold, system, quiet=True))
    assert texts == [] and r.warnings
    # another family: one raised warning per report warning, positions included
    d = TD / "brackets" / "extra-paren"
    texts, r = raised(lambda: treeval.brackets(d / "gold.txt", d / "test.txt"))
    assert len(texts) == len(r.warnings) >= 2, (texts, r.warnings)
    assert texts[0].startswith(f"{d / 'test.txt'}:2:41: "), texts


def test_warnings_carry_their_kind():
    """Every warning dict has its kind, as the CLI's JSON; two CR LF inputs saying the same
    are one entry naming each, one CR LF file given as gold and as system one warning;
    resync windows are a warning."""
    texts, r = raised(lambda: treeval.deps(EX / "gold.conllu", EX / "sys.conllu"))
    assert [w["kind"] for w in r.warnings] == ["label_subtypes"]
    assert r.to_dict()["warnings"] == cli_json("deps", str(EX / "gold.conllu"), str(EX / "sys.conllu"))["warnings"]
    crlf = (EX / "gold.conllu").read_text().replace("\n", "\r\n").encode()
    texts, r = raised(lambda: treeval.deps(crlf, crlf))
    # two inputs that say the same word for word: one entry naming each
    crlf_warnings = [w for w in r.warnings if w["kind"] == "crlf_line_endings"]
    assert len(crlf_warnings) == 1 and crlf_warnings[0]["count"] == 2, r.warnings
    assert sorted(crlf_warnings[0]["positions"]) == ["<input 1>:1:1", "<input 2>:1:1"]
    err = "\n".join(texts)
    assert err.count("found CR LF") == 1, err
    assert "2 warnings of this kind (at <input 2>:1:1, <input 1>:1:1)" in err or "2 warnings of this kind (at <input 1>:1:1, <input 2>:1:1)" in err, err
    # one file given as gold and as system: one warning
    p = Path(tempfile.mkdtemp()) / "crlf.conllu"
    p.write_bytes(crlf)
    texts, r = raised(lambda: treeval.deps(p, p))
    assert [w["count"] for w in r.warnings if w["kind"] == "crlf_line_endings"] == [1], r.warnings
    assert not any("warnings of this kind" in t for t in texts), texts
    d = TD / "ud" / "resync-missing-sentence"
    texts, r = raised(lambda: treeval.ud(d / "gold.conllu", d / "sys.conllu", align="resync", quiet=True))
    resync = [w for w in r.warnings if w["kind"] == "tokenization_resync"]
    assert len(resync) == 1 and resync[0]["position"].endswith("sys.conllu:10"), r.warnings
    assert texts == []


# --- inputs, messages and Report.scores on real data ---------------------------------------


def ewt_dev(data):
    """EWT dev (gold) and spaCy's greedy parse of it, each read into a str."""
    gold = data / "ud" / "UD_English-EWT" / "en_ewt-ud-dev.conllu"
    system = data / "nbest" / "en_ewt-dev.en_sm.greedy.conllu"
    return gold, system, gold.read_text(encoding="utf-8"), system.read_text(encoding="utf-8")


def test_a_str_of_conllu_text_is_read_as_text_not_as_a_path(data):
    gold, system, gold_text, sys_text = ewt_dev(data)
    assert len(gold_text) > 600_000 and "\t" in gold_text and "\n" in gold_text
    from_files = treeval.deps(gold, system, quiet=True).to_dict()
    r = treeval.deps(gold_text, sys_text, quiet=True).to_dict()
    assert r["sections"] == from_files["sections"]
    assert [i["path"] for i in r["inputs"]] == ["<input 1>", "<input 2>"]
    # a str of text mixes with paths and the other in-memory shapes
    u = treeval.ud(gold, sys_text, quiet=True)
    assert u.to_dict()["sections"] == treeval.ud(gold, system, quiet=True).to_dict()["sections"]
    assert u.systems == ["<input 2>"]


def test_no_error_message_echoes_more_than_a_short_excerpt_of_its_input(data):
    gold, system, gold_text, sys_text = ewt_dev(data)
    # the whole file on one line is no text (no line break): taken as a path, it cannot be
    # opened, and the message names it by an excerpt and its length
    flat = gold_text.replace("\n", " ")
    with pytest.raises(treeval.TreevalError) as e:
        treeval.deps(gold, flat)
    message = str(e.value)
    assert len(message) < 400, message[:500]
    assert f"… ({len(flat)} characters)" in message and "cannot read the file" in message
    # text given where an option takes a path (ted's inputs are options): an excerpt too,
    # its tabs and line breaks escaped, on one line
    with pytest.raises(treeval.TreevalError) as e:
        treeval.ted(gold=gold_text, parse=system)
    message = str(e.value)
    assert len(message) < 400 and f"… ({len(gold_text)} characters)" in message, message[:500]
    assert message.startswith(gold_text[:40]) and "\n" not in message, message
    # a value the reader quotes (a HEAD of 100,000 characters): an excerpt and its length
    lines = sys_text.split("\n")
    k = next(i for i, l in enumerate(lines) if l[:1].isdigit())
    cols = lines[k].split("\t")
    cols[6] = "x" * 100_000
    lines[k] = "\t".join(cols)
    with pytest.raises(treeval.TreevalError) as e:
        treeval.deps(gold_text, "\n".join(lines))
    message = str(e.value)
    assert message.startswith(f"<input 2>:{k + 1}:") and e.value.line == k + 1, message[:300]
    assert "… (100000 characters)" in message and len(message) < 600, message[:700]


def test_a_list_of_token_tuples_names_the_accepted_shapes(data):
    gold, _, gold_text, _ = ewt_dev(data)
    blocks = [b for b in gold_text.split("\n\n") if b.strip()]
    tokens = [
        [tuple(line.split("\t")[1:4]) for line in b.splitlines() if line[:1].isdigit()]
        for b in blocks[:50]
    ]
    for shape in (tokens, tokens[0], tuple(tokens)):
        with pytest.raises(TypeError) as e:
            treeval.deps(gold, shape)
        message = str(e.value)
        assert message.startswith("input 2: a ") and "list of sentences, each a str" in message, message
        for accepted in ("a path", "bytes", "a str of text", "io.StringIO", "bracketed tree"):
            assert accepted in message, message
        assert len(message) < 600 and "DET" not in message, message
    # a list of sentence blocks is still read
    assert treeval.deps(blocks[:50], blocks[:50], quiet=True).scores["LAS"].score == 1.0


def test_report_scores_works_for_every_family(data):
    gold, system, _, _ = ewt_dev(data)
    # ud: keyed rows, one per metric; scores["LAS"] is the F1 cell, its row beside it
    u = treeval.ud(gold, system, quiet=True)
    row = u.cells(0, "scores", "LAS")
    las = u.scores["LAS"]
    assert (las.measure, las.score, las.counts) == ("F1", row["F1"].score, row["F1"].counts)
    assert las.precision == row["precision"].score and las.recall == row["recall"].score
    assert las.aligned_accuracy == row["aligned-accuracy"].score
    assert set(las.beside) == {"precision", "recall", "aligned-accuracy"}
    # EWT dev against the greedy parse: every metric of the CoNLL 2018 scorer is a key
    assert {"Tokens", "Words", "UPOS", "UAS", "LAS", "CLAS", "MLAS", "BLEX"} <= set(u.scores)
    assert "Tokens=" in repr(u) and repr(las).startswith("Cell(F1=") and "recall=" in repr(las)
    # the same figure as the drop-in of conll18_ud_eval.py computes
    from treeval import conll18

    ref = conll18.evaluate(conll18.load_conllu_file(gold), conll18.load_conllu_file(system))
    assert las.score == pytest.approx(ref["LAS"].f1) and las.precision == pytest.approx(ref["LAS"].precision)
    # brackets: no section "scores"; its all-lengths section
    mrg = data / "ptb-sample" / "treebank" / "combined"
    trees = "\n".join((mrg / f"wsj_{k:04}.mrg").read_text() for k in range(1, 21))
    b = treeval.brackets(trees, trees.replace("(NP ", "(XP "), quiet=True)
    assert list(b.scores) == list(b.cells(0, "all"))
    assert b.scores["F"].score == b.cell("F", section="all").score and 0 < b.scores["F"].score < 1
    assert b.scores["recall"].beside == {} and b.scores["recall"].precision is None
    # and every other family's section "scores"
    d = TD / "ud" / "different-tokenization"
    others = [
        treeval.deps(gold, system, quiet=True),
        treeval.relations(d / "gold.conllu", d / "sys.conllu", quiet=True),
        treeval.align(TD / "align" / "gold.naacl", TD / "align" / "hyp.pharaoh", quiet=True),
        treeval.ted(gold=TD / "ted" / "functional-gold.conllu", parse=TD / "ted" / "functional-parse.conllu"),
        treeval.nbest(TD / "nbest" / "alpino-example" / "example.gold.conllu", TD / "nbest" / "alpino-example" / "example.nbest.conllu"),
        treeval.pts(**PTS_FILES),
    ]
    for r in others:
        headline = r.cells(0, "scores")
        assert r.scores and list(r.scores) == list(headline), r.command
        assert [c.score for c in r.scores.values()] == [c.score for c in headline.values()], r.command


def test_deps_runs_the_library_in_memory_without_a_command_line_or_a_file(monkeypatch, tmp_path):
    # the library reads in-memory inputs from memory: no temporary file, no argv
    refuse_files_and_argv(monkeypatch, "treeval.deps")
    gold = (EX / "gold.conllu").read_text(encoding="utf-8")
    system = (EX / "sys.conllu").read_bytes()
    r = treeval.deps(gold, io.BytesIO(system), quiet=True, test_metrics="las,uas", by="deprel,distance")
    assert r.scores["LAS"].counts == [16, 21]
    assert [i["path"] for i in r["inputs"]] == ["<input 1>", "<input 2>"]
    # the keywords are the library's options, with the CLI's value shapes
    assert r.cell("LAS", system=0).score == pytest.approx(16 / 21)
    on_disk = treeval.deps(EX / "gold.conllu", EX / "sys.conllu", quiet=True, by=["deprel", "distance"])
    assert [s["id"] for s in r["sections"]] == [s["id"] for s in on_disk["sections"]]


def test_align_and_pts_run_the_library_in_memory_without_a_command_line_or_a_file(monkeypatch):
    refuse_files_and_argv(monkeypatch, "treeval.align/pts")
    gold = (TD / "align" / "gold.naacl").read_text(encoding="utf-8")
    hyp = (TD / "align" / "hyp.pharaoh").read_bytes()
    r = treeval.align(gold, io.BytesIO(hyp), quiet=True, test_metrics="aer")
    # 9 hypothesis links, 5 sure gold links, 5 of them found, 7 sure or possible
    assert r.cell("AER", system=0).counts == [9, 5, 5, 7]
    assert r.cell("AER", system=0).score == pytest.approx(1 - 12 / 14)
    assert [i["path"] for i in r["inputs"]] == ["<input 1>", "<input 2>"]
    on_disk = treeval.align(TD / "align" / "gold.naacl", TD / "align" / "hyp.pharaoh", quiet=True)
    assert r["sections"] == on_disk["sections"]
    # the words of both sides are inputs too: read from memory as from their files
    src, tgt = TD / "align" / "tokens.src", TD / "align" / "tokens.tgt"
    words = (src.read_bytes(), io.StringIO(tgt.read_text(encoding="utf-8")))
    lengths = dict(min_len=2, quiet=True)
    in_memory = treeval.align(gold, io.BytesIO(hyp), tokens=words, **lengths)
    from_files = treeval.align(TD / "align" / "gold.naacl", TD / "align" / "hyp.pharaoh", tokens=[src, tgt], **lengths)
    assert in_memory["sections"] == from_files["sections"]
    assert [n.replace("<input 2>", str(TD / "align" / "hyp.pharaoh")) for n in in_memory["notes"]] == from_files["notes"]
    assert any("source words" in n for n in in_memory["notes"]), in_memory["notes"]
    files = dict(PTS_FILES)
    memory = {k: (v.read_text(encoding="utf-8") if k.startswith("gold") else [io.BytesIO(v.read_bytes())]) for k, v in files.items()}
    m = treeval.pts(**memory, quiet=True)
    d = treeval.pts(**files, quiet=True)
    assert m["sections"] == d["sections"]
    # the aligner: 17 links, 15 of the 15 sure gold links, 16 sure or possible
    assert m.cell("AER", system=0).score == pytest.approx(1 / 32)
    assert [i["path"] for i in m["inputs"]][:3] == ["<input 1>", "<input 2>", "<input 3>"]
    with pytest.raises(TypeError) as e:
        treeval.pts(**files, weight="1,1,1")
    assert "gold_align" in str(e.value) and "weights" in str(e.value)
    assert "sys_align" in treeval.options("pts") and "hyp_subwords" in treeval.options("align")


def test_library_options_are_checked_with_the_cli_rules():
    g, s = EX / "gold.conllu", EX / "sys.conllu"
    with pytest.raises(treeval.UsageError) as e:
        treeval.deps(g, s, test_metrics="LAS,nope")
    assert "expected one of LAS, UAS" in str(e.value)
    with pytest.raises(treeval.UsageError) as e:
        treeval.deps(g, s, s, test="ar", alpha=2)
    assert "--alpha" in str(e.value)
    with pytest.raises(treeval.UsageError):
        treeval.deps(g, s, punct="xpos=")
    assert "confusion" in treeval.options("deps") and "format" not in treeval.options("deps")
    r = treeval.deps(g, s, confusion=True, ci=95, ci_samples=50, quiet=True)
    assert r["matrices"] and r["significance"]["ci_level"] == 0.95


def test_an_option_a_command_refuses_is_refused_and_not_listed():
    # `where` selects words: align, relations, pts, ted and nbest cannot, and the library
    # refuses it as the command line does (it was silently ignored), with the same words
    al = TD / "align"
    with pytest.raises(treeval.UsageError) as e:
        treeval.align(al / "gold.naacl", al / "hyp.pharaoh", where="gold.deprel=nsubj")
    assert "--where is not available for `treeval align`" in str(e.value)
    with pytest.raises(treeval.UsageError) as e:
        treeval.relations(EX / "gold.conllu", EX / "sys.conllu", where="gold.deprel=nsubj")
    assert "`treeval relations`" in str(e.value)
    for command in ["align", "relations", "pts", "ted", "nbest"]:
        assert "where" not in treeval.options(command), command
    for command in ["deps", "ud", "brackets"]:
        assert "where" in treeval.options(command), command


def test_brackets_error_sentences_keyword_is_the_command_lines_option():
    gold = "(S (NP (DT the) (NN cat)) (VP (VBD sat)))\n(S (NP (DT a) (NN dog)) (VP (VBD ran)))\n"
    system = gold.replace("(VBD ran)))", "(VBD ran))")
    # by hand: the unbalanced second tree is an empty parse, its 3 gold brackets missed
    # (recall 3 of 6), or left out as EVALB does (3 of 3)
    missed = treeval.brackets(gold, system, quiet=True)
    excluded = treeval.brackets(gold, system, quiet=True, error_sentences="excluded")
    assert missed.scores["recall"].counts == [3, 6]
    assert excluded.scores["recall"].counts == [3, 3]
    assert "error_sentences" in treeval.options("brackets")


def test_brackets_runs_the_library_in_memory_without_a_command_line_or_a_file(monkeypatch):
    # the library reads in-memory inputs from memory: no temporary file, no argv
    refuse_files_and_argv(monkeypatch, "treeval.brackets")
    paper = TD / "brackets" / "careful-paper"
    gold = (paper / "gold.txt").read_text(encoding="utf-8")
    test = (paper / "test.txt").read_bytes()
    r = treeval.brackets(gold, io.BytesIO(test), quiet=True, by="label,length")
    # hand-checked: 5 of the 7 gold brackets matched by 5 of the 9 test brackets
    assert r.cell("recall", section="all").counts == [5, 7]
    assert r.cell("precision", section="all").counts == [5, 9]
    assert [i["path"] for i in r["inputs"]] == ["<input 1>", "<input 2>"]
    on_disk = treeval.brackets(paper / "gold.txt", paper / "test.txt", quiet=True, by=["label", "length"])
    assert [s["id"] for s in r["sections"]] == [s["id"] for s in on_disk["sections"]]
    assert r["sections"] == on_disk["sections"]
    # a list of trees is read from memory too
    trees = treeval.brackets(gold.splitlines(), test.decode("utf-8").splitlines(), quiet=True, layout="multi-line")
    assert trees.cell("F", section="all").counts == [5, 7, 9]
    assert "careful" in treeval.options("brackets") and "format" not in treeval.options("brackets")

def test_ud_and_relations_run_the_library_in_memory_without_a_command_line_or_a_file(monkeypatch):
    # the library reads in-memory inputs from memory: no temporary file, no argv
    refuse_files_and_argv(monkeypatch, "treeval.ud or treeval.relations")
    d = TD / "ud" / "different-tokenization"
    gold = (d / "gold.conllu").read_text(encoding="utf-8")
    system = (d / "sys.conllu").read_bytes()

    def cell(r, metric, measure):
        row = next(row for s in r["sections"] for row in s["rows"] if row.get("key") == metric)
        return next(c for c in row["cells"] if c["measure"] == measure)

    # hand-checked: 5 of 8 words align, 2 of them keep head and label
    r = treeval.ud(gold, io.BytesIO(system), quiet=True, per_relation=True, test_metrics="las,blex", enhancements=0)
    assert cell(r, "LAS", "F1")["counts"] == [2, 8, 8]
    assert cell(r, "Words", "F1")["counts"] == [5, 8, 8]
    assert [i["path"] for i in r["inputs"]] == ["<input 1>", "<input 2>"]
    on_disk = treeval.ud(d / "gold.conllu", d / "sys.conllu", quiet=True, per_relation=True)
    assert r["sections"] == on_disk["sections"]
    # a list of sentences and a text stream; CA = 1 - 7/9 (Dt ∩ Ds 1 of 4/3, 1 of 4/5)
    blocks = [b for b in gold.split("\n\n") if b.strip()]
    rel = treeval.relations(blocks, io.StringIO(system.decode("utf-8")), quiet=True)
    assert rel.scores["CA"].counts == [7, 9]
    assert rel.to_dict()["sections"] == treeval.relations(d / "gold.conllu", d / "sys.conllu", quiet=True).to_dict()["sections"]
    # the keywords are the library's options, checked with the command line's rules
    with pytest.raises(TypeError) as e:
        treeval.ud(gold, system, per_relations=True)
    assert "per_relation" in str(e.value) and "empty_nodes" in str(e.value)
    assert "graph" in treeval.options("relations") and "format" not in treeval.options("ud")
    with pytest.raises(treeval.UsageError) as e:
        treeval.relations(gold, system, system, test="mcnemar")
    assert "--test mcnemar" in str(e.value)
    with pytest.raises(treeval.UsageError) as e:
        treeval.ud(gold, system, enhancements="9")
    assert "--enhancements" in str(e.value)


def test_ted_and_nbest_run_the_library_in_memory_without_a_command_line_or_a_file(monkeypatch):
    # ted's inputs are keywords: bytes and file-like objects are read from memory; nbest's
    # positional inputs as deps'; neither writes a temporary file or runs a command line
    refuse_files_and_argv(monkeypatch, "treeval")
    t = TD / "ted"
    gold, parse = (t / "functional-gold.conllu"), (t / "functional-parse.conllu")
    r = treeval.ted(gold=gold.read_bytes(), parse=[io.StringIO(parse.read_text()), gold.read_bytes()], samples=100)
    # one head moved: δ_new = 2 of ι = 10 + 11 nodes; the gold against itself 0 of 22
    assert r.cell("TedEval", system=0).counts == [2, 21]
    assert r.cell("TedEval", system=1).counts == [0, 22]
    assert [i["path"] for i in r["inputs"]][:2] == ["<gold>", "<parse 1>"]
    assert r["comparisons"], "two parses are tested by default"
    on_disk = treeval.ted(gold=gold, parse=[parse, gold], samples=100)
    assert r["sections"][0]["rows"][0]["cells"] == on_disk["sections"][0]["rows"][0]["cells"]
    exp = treeval.ted(exp=("fn", gold.read_bytes(), parse), quiet=True)
    assert exp.cell("TedEval", system=0).counts == [2, 21] and exp.systems == ["fn"]
    with pytest.raises(TypeError) as e:
        treeval.ted(gold=gold, parse=parse, golds=gold)
    assert "golds" in str(e.value) and "label_equiv" in str(e.value) and "parse" in str(e.value)
    d = TD / "nbest" / "alpino-example"
    n = treeval.nbest(
        (d / "example.gold.conllu").read_text(), io.BytesIO((d / "example.nbest.conllu").read_bytes()), quiet=True
    )
    assert n.cell("LAS", system=0).counts == [16, 17]  # first
    assert n.cell("LAS", system=2).counts == [11, 17]  # worst
    lines = treeval.nbest(alpino=io.BytesIO((d / "example.parser.alpino.txt").read_bytes()), quiet=True)
    assert lines["inputs"][0]["path"] == "<alpino>"
    assert lines.cell("CA", system=0).counts == n.cell("CA", system=0).counts
    with pytest.raises(treeval.UsageError) as e:
        treeval.nbest(alpino=d / "example.parser.alpino.txt", state=True)
    assert "does not write a mergeable state" in str(e.value)


def test_measures_lists_every_family_as_the_command_does():
    out = subprocess.run(
        [sys.executable, "-c", "from treeval._cli import main; main()", "measures", "--format", "json"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    listed = treeval.measures()
    assert listed == json.loads(out)
    assert "deps" in [f["family"] for f in listed["families"]]
    assert treeval.measures("markdown") == (ROOT / "docs" / "measures.md").read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="expected json, markdown or text"):
        treeval.measures("html")


def test_systems_are_named_by_a_dict_by_name_or_by_their_paths_ends():
    g, s, s2 = EX / "gold.conllu", EX / "sys.conllu", EX / "sys2.conllu"
    assert treeval.deps(g, {"A": s, "B": s2}).systems == ["A", "B"]
    assert treeval.ud(g, s, s2, name=["A", "B"]).systems == ["A", "B"]
    # the default: the shortest ends of the paths that tell them apart, as the CLI
    assert treeval.deps(g, s, s2).systems == ["sys", "sys2"] == treeval.system_names([s, s2])
    # the inputs keep the paths
    paths = [i["path"] for i in treeval.deps(g, {"A": s}).to_dict()["inputs"]]
    assert paths == [str(g), str(s)]
    # in memory: <input N> unless named
    text = s.read_text(encoding="utf-8")
    assert treeval.deps(g, text.encode()).systems == ["<input 2>"]
    assert treeval.deps(g, {"mine": text.encode()}).systems == ["mine"]
    with pytest.raises(TypeError, match="named by its keys"):
        treeval.deps(g, {"A": s}, name=["B"])
    with pytest.raises(treeval.UsageError, match="one name per system"):
        treeval.deps(g, s, s2, name=["A"])
    assert treeval.system_names(["runs/a/e20/pred.conllu", "runs/b/e20/pred.conllu"]) == ["a/…/pred", "b/…/pred"]
    r = treeval.ted(gold=EX / "gold.conllu", system=[s, s2])
    assert r.systems == ["sys", "sys2"]
