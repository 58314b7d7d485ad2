"""treeval.table, treeval.rerank_train and treeval.rerank_apply: the library called from
Python equals the command line's JSON and output, in-memory inputs included."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import treeval

ROOT = Path(__file__).resolve().parents[2]


def cli(*args: str) -> str:
    """The output of `treeval ARGS` run through the command line's code."""
    return subprocess.run(
        [sys.executable, "-m", "treeval._cli", *args], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout


def manifest() -> str:
    rows = ["treebank\tgold\tsystem\tfile\toptions"]
    for tb, gold, a, b, opts in [
        ("examples", "examples/gold.conllu", "examples/sys.conllu", "examples/sys2.conllu", ""),
        ("news", "testdata/table/news-gold.conllu", "testdata/table/news-a.conllu",
         "testdata/table/news-b.conllu", "--labels universal"),
    ]:
        for sys_name, f in (("sysA", a), ("sysB", b)):
            rows.append(f"{tb}\t{ROOT / gold}\t{sys_name}\t{ROOT / f}\t{opts}")
    return "\n".join(rows) + "\n"


def test_a_table_from_an_in_memory_manifest_equals_the_cli_json(tmp_path):
    path = tmp_path / "manifest.tsv"
    path.write_text(manifest())
    want = json.loads(cli("table", str(path), "--baseline", "sysA", "--samples", "300", "--format", "json"))
    got = treeval.table(manifest(), baseline="sysA", samples=300)
    assert got.to_dict() == want
    assert treeval.table(path, baseline="sysA", samples=300).to_dict() == want
    assert want["sections"][0]["columns"] == ["examples", "news", "macro-avg"]


def test_table_of_saved_reports_and_its_errors(tmp_path):
    saved = cli("deps", "examples/gold.conllu", "examples/sys.conllu", "examples/sys2.conllu", "--format", "json")
    # a report alone names no treebank and no system: refused, with the manifest to write
    with pytest.raises(treeval.UsageError) as e:
        treeval.table(saved.encode())
    assert "TREEBANK\t<input 1>\tSYSTEM\texamples/sys.conllu" in str(e.value)
    (tmp_path / "ex.json").write_text(saved)
    named = "treebank\treport\tsystem\tfile\nex\tex.json\tA\tsys.conllu\nex\tex.json\tB\tsys2.conllu\n"
    (tmp_path / "reports.tsv").write_text(named)
    r = treeval.table(tmp_path / "reports.tsv").to_dict()
    assert r["sections"][0]["columns"] == ["ex", "macro-avg"]
    assert [s["name"] for s in r["systems"]] == ["A", "B"]
    with pytest.raises(TypeError) as e:
        treeval.table(manifest(), bogus=1)
    assert "baseline" in str(e.value) and "measure" in str(e.value)
    with pytest.raises(TypeError):
        treeval.table(manifest(), one_sided=True)  # not an option of a table
    with pytest.raises(treeval.UsageError):
        treeval.table(manifest(), baseline="nobody")
    bad = manifest().replace("--labels universal", "--labels nope")
    with pytest.raises(treeval.TreevalError) as e:
        treeval.table(bad)
    assert "<input 1>:4: treebank news: labels: unknown variant" in str(e.value)
    assert "command" in treeval.options("table")


def test_table_rank_by_and_ci_keywords_equal_the_cli(tmp_path):
    """rank_by= and ci= / ci_samples= are --rank-by, --ci and --ci-samples."""
    path = tmp_path / "manifest.tsv"
    path.write_text(manifest())
    want = json.loads(cli("table", str(path), "--rank-by", "UAS", "--ci", "95", "--ci-samples", "300",
                          "--format", "json"))
    got = treeval.table(manifest(), rank_by="UAS", ci=95, ci_samples=300).to_dict()
    assert got == want
    rows = got["sections"][0]["rows"]
    assert [got["systems"][r["system"]]["name"] for r in rows] == ["sysB", "sysA"]
    assert all(len(c["ci"]) == 2 for r in rows for c in r["cells"][:2])
    assert any(n.startswith("Ranked by mean UAS over the 2 treebanks") for n in got["notes"])
    assert "rank_by" in treeval.options("table") and "ci" in treeval.options("table")


def test_rerank_train_then_apply_round_trip(tmp_path):
    gold, nbest = ROOT / "testdata/rerank/gold.conllu", ROOT / "testdata/rerank/nbest.conllu"
    model = tmp_path / "model.json"
    report = treeval.rerank_train(gold, nbest, output=model, target="best", sigma2=10)
    d = report.to_dict()
    assert d["command"] == "rerank-train" and "|target:best|" in d["signature"]
    cli_model = tmp_path / "cli-model.json"
    want = json.loads(cli("rerank", "train", str(gold), str(nbest), "-o", str(cli_model),
                          "--target", "best", "--sigma2", "10", "--format", "json"))
    # the same report but the model's path in its note
    assert json.dumps(d, sort_keys=True).replace(str(model), "M") == json.dumps(want, sort_keys=True).replace(str(cli_model), "M")
    assert model.read_text() == cli_model.read_text()
    chosen = treeval.rerank_apply(model, nbest)
    assert chosen == cli("rerank", "apply", str(model), str(nbest))
    ranks = [l.split("= ")[1] for l in chosen.splitlines() if l.startswith("# rerank_rank = ")]
    assert ranks == ["2", "2", "1"]
    # in memory: the model's text and the n-best list's bytes
    assert treeval.rerank_apply(model.read_bytes(), nbest.read_bytes()) == chosen
    # the model may not overwrite an input; options are checked
    with pytest.raises(treeval.UsageError, match="would overwrite the input"):
        treeval.rerank_train(gold, nbest, output=gold)
    with pytest.raises(treeval.UsageError, match="expected GOLD NBEST pairs"):
        treeval.rerank_train(gold, output=tmp_path / "x.json")
    with pytest.raises(TypeError) as e:
        treeval.rerank_train(gold, nbest, output=tmp_path / "x.json", bogus=True)
    assert "hash_bits" in str(e.value) and "sigma2" in str(e.value)
    assert "sigma2" in treeval.options("rerank_train")


def test_run_table_is_treeval_table():
    manifest = ROOT / "testdata" / "table" / "manifest.tsv"
    via_run = treeval.run("table", manifest, measure="LAS", quiet=True)
    assert via_run.to_dict() == treeval.table(manifest, measure="LAS", quiet=True).to_dict()
