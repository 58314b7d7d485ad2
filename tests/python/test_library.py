"""The library mirror: treeval.deps/ud/… run the CLI's code; to_dict() is the CLI's JSON."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

import treeval

ROOT = Path(__file__).resolve().parents[2]
EX = ROOT / "examples"
TD = ROOT / "testdata"


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
    assert r.systems == [str(EX / "sys.conllu"), str(EX / "sys2.conllu")]


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
    p = EX / "pts"
    kw = dict(
        gold_a=p / "gold.en.conllu",
        gold_b=p / "gold.de.conllu",
        gold_align=p / "gold.en-de.naacl",
        sys_a=p / "parser.en.conllu",
        sys_b=p / "parser.de.conllu",
        sys_align=p / "aligner.en-de.pharaoh",
    )
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


def test_in_memory_warnings_on_stderr_name_the_input(capfd):
    sys_text = (EX / "sys.conllu").read_text()
    treeval.deps(EX / "gold.conllu", io.StringIO(sys_text))
    err = capfd.readouterr().err
    assert "warning: <input 2>: label subtypes in one file only" in err, err
    assert "/tmp" not in err and "input-2" not in err, err
