"""treeval.conll18 against conll18_ud_eval.py v1.2: the official test files and outputs,
the official alignment cases (restated), malformed files and real parser outputs (expected
values from running the reference: fixtures/, see make_fixtures.py)."""

import gzip
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from make_fixtures import scores  # the scores as the fixtures record them
from malformed_cases import CASES, GOLD, GOLDS
from real_pairs import real_pairs
from treeval import conll18

HERE = Path(__file__).resolve().parent
FIXTURES = HERE / "fixtures"


# -- the official test files (../shared/data/reference/conll18-tests) ------------------

OFFICIAL = [
    ("gold.conllu", "sys1.conllu", "-v", "sys1-expected.results"),
    ("gold.conllu", "sys2.conllu", "-v", "sys2-expected.results"),
    ("gold.conllu", "sys-space.conllu", "-v", "sys-space-expected.results"),
    ("case-gold.conllu", "case-sys.conllu", "-v", "case-expected.results"),
    ("func-gold.conllu", "func-sys.conllu", "-c", "func-expected.counts"),
]


@pytest.mark.parametrize("gold,system,flag,expected", OFFICIAL)
def test_official_outputs_byte_identical(data, gold, system, flag, expected):
    d = data / "reference" / "conll18-tests"
    out = subprocess.run(
        [sys.executable, "-m", "treeval.conll18", str(d / gold), str(d / system), flag],
        check=True,
        capture_output=True,
    ).stdout
    assert out == (d / expected).read_bytes()


def test_default_output_is_three_lines(data):
    d = data / "reference" / "conll18-tests"
    out = subprocess.run(
        [sys.executable, "-m", "treeval.conll18", str(d / "gold.conllu"), str(d / "sys1.conllu")],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    # the F1 column of the -v table, as the default output rounds it
    table = (d / "sys1-expected.results").read_text().splitlines()
    f1 = {line.split("|")[0].strip(): line.split("|")[3].strip() for line in table[2:]}
    assert out == "LAS F1 Score: {}\nMLAS Score: {}\nBLEX Score: {}\n".format(f1["LAS"], f1["MLAS"], f1["BLEX"])


def big1m_gold(data):
    """The big1m gold file, built in memory as its README says: UD English-EWT dev + test,
    20 times."""
    ewt = data / "ud" / "UD_English-EWT"
    return ((ewt / "en_ewt-ud-dev.conllu").read_bytes() + (ewt / "en_ewt-ud-test.conllu").read_bytes()) * 20


def test_big1m_counts_and_table(data):
    """The 1M-word pair: -c and -v tables equal the reference's outputs."""
    d = data / "reference" / "big1m"
    gold = conll18.load_conllu(io.BytesIO(big1m_gold(data)))
    with gzip.open(d / "sys1m.conllu.gz", "rb") as f:
        system = conll18.load_conllu(f)
    evaluation = conll18.evaluate(gold, system)
    for counts, name in ((True, "conll18-counts.txt"), (False, "conll18-v.txt")):
        # conll18-v.txt ends with the line "rc=0" (the reference's exit code), not printed
        expected = (d / "expected" / name).read_text()
        if expected.endswith("\nrc=0\n"):
            expected = expected[: -len("rc=0\n")]
        assert conll18._table(evaluation, not counts, counts) + "\n" == expected


# -- the reference's alignment cases (its TestAlignment), restated ---------------------


def words_file(words):
    """A CoNLL-U text of one sentence: each item is a word, or "TOKEN w1 w2 …" for a
    multiword token; word 1 is the root, every other word depends on word 1."""
    lines, n = [], 0
    for item in words:
        parts = item.split(" ")
        if len(parts) > 1:
            lines.append(f"{n + 1}-{n + len(parts) - 1}\t{parts[0]}" + "\t_" * 8)
            parts = parts[1:]
        for form in parts:
            n += 1
            lines.append(f"{n}\t{form}\t_\t_\t_\t_\t{0 if n == 1 else 1}\t_\t_\t_")
    return conll18.load_conllu(io.StringIO("\n".join(lines) + "\n\n"))


def word_count(words):
    return sum(max(1, len(w.split(" ")) - 1) for w in words)


ALIGNMENT = [
    # (gold, system, aligned words)
    (["a"], ["a"], 1),
    (["a", "b", "c"], ["a", "b", "c"], 3),
    (["abc a b c"], ["a", "b", "c"], 3),
    (["a", "bc b c", "d"], ["a", "b", "c", "d"], 4),
    (["abcd a b c d"], ["ab a b", "cd c d"], 4),
    (["abc a b c", "de d e"], ["a", "bcd b c d", "e"], 5),
    (["abcd"], ["a", "b", "c", "d"], 0),
    (["abc", "d"], ["a", "b", "c", "d"], 1),
    (["a", "bc", "d"], ["a", "b", "c", "d"], 2),
    (["a", "bc b c", "d"], ["a", "b", "cd"], 2),
    (["abc a BX c", "def d EX f"], ["ab a b", "cd c d", "ef e f"], 4),
    (["ab a b", "cd bc d"], ["a", "bc", "d"], 2),
    (["a", "bc b c", "d"], ["ab AX BX", "cd CX a"], 1),
]


@pytest.mark.parametrize("gold,system,aligned", ALIGNMENT)
def test_alignment_cases(gold, system, aligned):
    words = conll18.evaluate(words_file(gold), words_file(system))["Words"]
    g, s = word_count(gold), word_count(system)
    assert (words.correct, words.gold_total, words.system_total) == (aligned, g, s)
    assert (words.precision, words.recall, words.f1) == (aligned / s, aligned / g, 2 * aligned / (g + s))


def test_alignment_different_text_fails_in_evaluate():
    gold, system = words_file(["a"]), words_file(["b"])  # both load
    with pytest.raises(conll18.UDError):
        conll18.evaluate(gold, system)


# -- malformed and edge-case files: same exception from the same call -------------------

MALFORMED = json.loads((FIXTURES / "conll18_malformed.json").read_text())


def outcome(fn, *args):
    try:
        return "ok", fn(*args)
    except Exception as e:
        return type(e).__name__, e


@pytest.mark.parametrize("name", sorted(CASES))
def test_malformed_same_exception_same_call(name, tmp_path):
    expected = MALFORMED[name]
    text = CASES[name]
    path = tmp_path / (name + ".conllu")
    path.write_bytes(text.encode("utf-8"))
    load, _ = outcome(conll18.load_conllu, io.StringIO(text, newline=""))
    load_file, system = outcome(conll18.load_conllu_file, path)
    assert (load, load_file) == (expected["load"], expected["load_file"])
    if load_file == "UDError":
        e = system
        assert e.path == str(path) and e.line >= 1, (e.path, e.line, str(e))
    if expected["evaluate"] is not None:
        gold = conll18.load_conllu(io.StringIO(GOLDS.get(name, GOLD)))
        state, evaluation = outcome(conll18.evaluate, gold, system)
        assert state == expected["evaluate"], evaluation
        if state == "ok":
            assert scores(evaluation) == expected["scores"]


def test_not_utf8_raises_the_decoding_error(tmp_path):
    path = tmp_path / "latin1.conllu"
    path.write_bytes(GOLD.replace("\ta\ta\t", "\t\xe9\t\xe9\t").encode("latin-1"))
    with pytest.raises(UnicodeDecodeError):
        conll18.load_conllu_file(path)


# -- real parser outputs ---------------------------------------------------------------

REAL = json.loads((FIXTURES / "conll18_real.json").read_text())


def load_any(path):
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="utf-8") as f:
            return conll18.load_conllu(f)
    return conll18.load_conllu_file(path)


def test_every_real_pair_has_a_fixture(data):
    assert sorted(name for name, _, _ in real_pairs(data)) == sorted(REAL)


@pytest.mark.parametrize("name", sorted(REAL))
def test_real_pairs_equal_the_reference(data, name):
    expected = REAL[name]
    gold, system = load_any(data / expected["gold"]), load_any(data / expected["system"])
    evaluation = conll18.evaluate(gold, system)
    assert expected["evaluate"] == "ok"
    assert list(evaluation) == list(conll18.METRICS)
    assert scores(evaluation) == expected["scores"]


def test_evaluate_wrapper(data):
    d = data / "reference" / "conll18-tests"

    class Args:
        gold_file = str(d / "gold.conllu")
        system_file = str(d / "sys2.conllu")

    evaluation = conll18.evaluate_wrapper(Args())
    assert conll18._table(evaluation, True, False) + "\n" == (d / "sys2-expected.results").read_text()


def test_a_bad_head_is_one_line_per_problem(data):
    """HEAD `foo` in EWT dev: the reference raises UDError; treeval.conll18 raises it with
    one line for the one problem (not "found '_'" and then "found 'foo'")."""
    text = (data / "ud" / "UD_English-EWT" / "en_ewt-ud-dev.conllu").read_text(encoding="utf-8")
    lines = text.split("\n")
    k = next(i for i, l in enumerate(lines) if l[:1].isdigit() and l.split("\t")[6] != "0")
    cols = lines[k].split("\t")
    cols[6] = "foo"
    lines[k] = "\t".join(cols)
    with pytest.raises(conll18.UDError) as e:
        conll18.load_conllu(io.StringIO("\n".join(lines)))
    message = str(e.value)
    assert message.count("\n") == 0, message
    head = f"<stream>:{k + 1}:{e.value.column}: expected HEAD to be a non-negative integer or '_', found 'foo' [sentence "
    assert message.startswith(head), message
    assert e.value.line == k + 1 and e.value.column == len("\t".join(cols[:6])) + 2
    # two bad HEADs: two lines, one each
    cols = lines[k + 1].split("\t")
    cols[6] = "bar"
    lines[k + 1] = "\t".join(cols)
    with pytest.raises(conll18.UDError) as e:
        conll18.load_conllu(io.StringIO("\n".join(lines)))
    shown = str(e.value).split("\n")
    assert len(shown) == 2 and "found 'foo' [" in shown[0] and "found 'bar' [" in shown[1], shown
    # `_` is still "expected a HEAD, found '_'"
    cols[6] = "_"
    lines[k + 1] = "\t".join(cols)
    lines[k] = text.split("\n")[k]
    with pytest.raises(conll18.UDError) as e:
        conll18.load_conllu(io.StringIO("\n".join(lines)))
    assert "expected a HEAD, found '_' [" in str(e.value) and "\n" not in str(e.value), str(e.value)
