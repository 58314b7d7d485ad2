"""A drop-in for the CoNLL 2018 shared task's scorer, ``conll18_ud_eval.py`` (v1.2).

Switch a training loop by changing its import::

    from treeval import conll18 as conll18_ud_eval

    gold = conll18_ud_eval.load_conllu_file("dev.conllu")
    scores = conll18_ud_eval.evaluate(gold, conll18_ud_eval.load_conllu_file("pred.conllu"))
    scores["LAS"].f1

The functions, the metric names, the score objects' attributes and the exceptions are the
reference's: :func:`load_conllu` and :func:`load_conllu_file` raise :class:`UDError` for the
files the reference cannot load, :func:`evaluate` raises it when the two texts differ, and
every score is computed from the same integer counts by the same floating-point operations,
so the numbers are identical, not merely close. Reading and aligning the files is treeval's
Rust code (``treeval ud --compat conll18``): about a hundred times faster.

``python -m treeval.conll18 GOLD SYSTEM [-v] [-c]`` prints what ``conll18_ud_eval.py``
prints, byte for byte.

What differs: a loaded file is an opaque :class:`UDRepresentation` (the file read once, in
the form treeval scores; the reference's lists of characters, tokens and words are not
built), and the text of
an exception names the file, line and column (attributes ``path``, ``line``, ``column``)
instead of the reference's wording.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import IO, Dict, Optional, Sequence, Tuple, Union

from . import _native

__all__ = [
    "METRICS",
    "Score",
    "UDError",
    "UDRepresentation",
    "evaluate",
    "evaluate_wrapper",
    "load_conllu",
    "load_conllu_file",
    "main",
]

#: The 13 metrics, in the reference's order (the keys of :func:`evaluate`'s dictionary).
METRICS: Tuple[str, ...] = (
    "Tokens",
    "Sentences",
    "Words",
    "UPOS",
    "XPOS",
    "UFeats",
    "AllTags",
    "Lemmas",
    "UAS",
    "LAS",
    "CLAS",
    "MLAS",
    "BLEX",
)


class UDError(Exception):
    """A file the reference scorer cannot load, or two files it cannot compare.

    ``path``, ``line`` and ``column`` locate the first problem (``None`` when unknown).
    """

    def __init__(
        self,
        message: str,
        path: Optional[str] = None,
        line: Optional[int] = None,
        column: Optional[int] = None,
    ) -> None:
        super().__init__(message)
        self.path = path
        self.line = line
        self.column = column


class UDRepresentation:
    """A loaded CoNLL-U file: its name, and the file checked as the reference loads it and
    read (once) into the form :func:`evaluate` scores."""

    __slots__ = ("name", "_file")

    def __init__(self, file: "_native.Conll18File", name: str) -> None:
        self.name = name
        self._file = file

    def __repr__(self) -> str:
        return f"<UDRepresentation {self.name!r}: {self._file.size} bytes>"


class Score:
    """One metric: its counts and the reference's scores of them.

    ``aligned_total`` is ``None`` for Tokens, Sentences and Words, and so is
    ``aligned_accuracy``; elsewhere ``aligned_accuracy`` is ``correct / aligned_total``, or
    ``0`` when no word was aligned (an ``int``, as the reference gives).
    """

    __slots__ = (
        "correct",
        "gold_total",
        "system_total",
        "aligned_total",
        "precision",
        "recall",
        "f1",
        "aligned_accuracy",
    )

    def __init__(
        self,
        gold_total: int,
        system_total: int,
        correct: int,
        aligned_total: Optional[int] = None,
    ) -> None:
        self.correct = correct
        self.gold_total = gold_total
        self.system_total = system_total
        self.aligned_total = aligned_total
        # each score as the reference computes it, operation for operation: integer
        # numerators and denominators, one true division (correctly rounded)
        self.precision = correct / system_total if system_total else 0.0
        self.recall = correct / gold_total if gold_total else 0.0
        both = system_total + gold_total
        self.f1 = 2 * correct / both if both else 0.0
        self.aligned_accuracy: Optional[float] = (
            correct / aligned_total if aligned_total else aligned_total
        )

    def __repr__(self) -> str:
        return (
            f"Score(correct={self.correct}, gold_total={self.gold_total}, "
            f"system_total={self.system_total}, aligned_total={self.aligned_total}, "
            f"precision={self.precision!r}, recall={self.recall!r}, f1={self.f1!r}, "
            f"aligned_accuracy={self.aligned_accuracy!r})"
        )


def _raise(kind: str, problem: Tuple[str, str, int, int], data: bytes) -> None:
    message, path, line, column = problem
    if kind == "utf8":
        # the reference reads text: its decoding error, as Python raises it
        data.decode("utf-8")
    if kind == "value":
        # the reference's int() of a HEAD inside a multiword token
        raise ValueError(message)
    raise UDError(message, path or None, line or None, column or None)


def _load(data: bytes, name: str) -> UDRepresentation:
    file, found = _native.conll18_load(data, name)
    if found is not None:
        _raise(found[0], found[1], data)
    assert file is not None
    return UDRepresentation(file, name)


def load_conllu(file: IO) -> UDRepresentation:
    """Load a CoNLL-U file from an open file object (text, or bytes in UTF-8).

    Raises :class:`UDError` for the files the reference's ``load_conllu`` rejects.
    """
    text = file.read()
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    name = getattr(file, "name", None)
    return _load(data, name if isinstance(name, str) else "<stream>")


def load_conllu_file(path: Union[str, "os.PathLike[str]"]) -> UDRepresentation:
    """Load the CoNLL-U file at ``path`` (UTF-8, read as the reference reads it: any
    line ending, ``\\r\\n`` or ``\\r``, ends a line)."""
    with open(path, "rb") as f:
        data = f.read()
    if b"\r" in data:
        # the reference opens the file in text mode: universal newlines
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return _load(data, os.fspath(path))


def evaluate(gold_ud: UDRepresentation, system_ud: UDRepresentation) -> Dict[str, Score]:
    """Score ``system_ud`` against ``gold_ud``: metric name → :class:`Score`, the 13 metrics
    of :data:`METRICS` in that order.

    Raises :class:`UDError` when the concatenated tokens of the two files differ.
    """
    counts, failure = _native.conll18_evaluate(gold_ud._file, system_ud._file)
    if counts is None:
        assert failure is not None
        raise UDError(*failure[1])
    return {
        name: Score(gold, system, correct, aligned)
        for name, (correct, gold, system, aligned) in zip(METRICS, counts)
    }


def evaluate_wrapper(args: argparse.Namespace) -> Dict[str, Score]:
    """Load ``args.gold_file`` and ``args.system_file`` and evaluate them."""
    gold_ud = load_conllu_file(args.gold_file)
    system_ud = load_conllu_file(args.system_file)
    return evaluate(gold_ud, system_ud)


def _percent(x: float) -> str:
    return "{:10.2f}".format(100 * x)


def _table(evaluation: Dict[str, Score], verbose: bool, counts: bool) -> str:
    """The reference's printed table."""
    if not (verbose or counts):
        return "\n".join(
            "{} Score: {:.2f}".format(label, 100 * evaluation[metric].f1)
            for label, metric in (("LAS F1", "LAS"), ("MLAS", "MLAS"), ("BLEX", "BLEX"))
        )
    if counts:
        lines = ["Metric     | Correct   |      Gold | Predicted | Aligned"]
    else:
        lines = ["Metric     | Precision |    Recall |  F1 Score | AligndAcc"]
    lines.append("+".join(["-" * 11] * 5))
    for metric in METRICS:
        s = evaluation[metric]
        if counts:
            # the aligned column: the aligned total when non-zero, else Words' correct
            aligned = s.aligned_total or (s.correct if metric == "Words" else "")
            cells = [s.correct, s.gold_total, s.system_total, aligned]
            lines.append("{:11}|".format(metric) + " |".join("{:10}".format(c) for c in cells))
        else:
            cells = [_percent(s.precision), _percent(s.recall), _percent(s.f1)]
            accuracy = "" if s.aligned_accuracy is None else _percent(s.aligned_accuracy)
            lines.append("{:11}|".format(metric) + " |".join(cells) + " |" + accuracy)
    return "\n".join(lines)


def main(argv: Optional[Sequence[str]] = None) -> None:
    """``python -m treeval.conll18 GOLD SYSTEM [-v] [-c]``."""
    parser = argparse.ArgumentParser(
        prog="python -m treeval.conll18",
        description="The CoNLL 2018 shared task's scores (conll18_ud_eval.py), computed by treeval.",
    )
    parser.add_argument("gold_file", type=str, help="Name of the CoNLL-U file with the gold data.")
    parser.add_argument(
        "system_file", type=str, help="Name of the CoNLL-U file with the predicted data."
    )
    parser.add_argument(
        "--verbose", "-v", default=False, action="store_true", help="Print all metrics."
    )
    parser.add_argument(
        "--counts",
        "-c",
        default=False,
        action="store_true",
        help="Print raw counts of correct/gold/system/aligned words instead of prec/rec/F1 for all metrics.",
    )
    args = parser.parse_args(argv)
    print(_table(evaluate_wrapper(args), args.verbose, args.counts))


if __name__ == "__main__":
    main()
