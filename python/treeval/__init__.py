"""treeval: evaluate syntactic parses against gold standards, from Python.

Each function calls the treeval library (the Rust crate the ``treeval`` command runs
too) in this process, with typed options built from its keyword arguments, and returns
its report, built from the library's value::

    import treeval

    r = treeval.deps("gold.conllu", "parser_a.conllu", "parser_b.conllu", ci=95, by=["deprel"])
    r.scores["LAS"].score, r.scores["LAS"].ci     # the first system's headline cells
    r.cell("LAS", system=1)                       # any cell
    r.to_dict()                                   # == `treeval deps ... --format json`
    r.to_pandas()                                 # every cell, with pandas installed

Options are keyword arguments named after the command's long options, dashes as
underscores: ``--per-relation`` is ``per_relation=True``, ``--by deprel --by distance`` is
``by=["deprel", "distance"]``, ``--test ar`` is ``test="ar"``; ``False`` or ``None`` leaves
an option out. An unknown keyword raises TypeError naming the valid ones. ``format`` is not
an option here (the report is the JSON one). Warnings are raised as
:class:`TreevalWarning` through Python's :mod:`warnings` module (shown once per calling line
by default, filterable); ``quiet=True`` raises none (they are in ``report.warnings`` either
way). Inputs are paths (``str`` or ``os.PathLike``), open
files with a name on disk, or in-memory data: a file-like object without one
(``io.StringIO``, ``io.BytesIO``), ``bytes``, a ``str`` of text (one with a line break, such
as a whole CoNLL-U file read into a ``str``: it is read as text, not taken as a path), or a
list of sentences (each a ``str`` block of CoNLL-U, CoNLL-X or one bracketed tree; a list
of anything else, such as token tuples, raises TypeError naming these shapes); in-memory
data is read from memory (never written to a file) and named ``<input N>`` in the report and in error messages, which quote at most a
short excerpt (80 characters) of any input.

Sharded evaluation: ``treeval.deps(gold, sys, state=True)`` (``keep_sentences=True`` for
tests and intervals after merging) returns a report carrying its :class:`State`, the summed
counts ``--emit-state`` writes; ``treeval.merge(reports, **options)`` sums the shards'
states into the report of the concatenated corpus, as ``treeval merge`` does (docs/python.md).

``treeval.table(manifest_or_reports, **options)`` makes one table of systems × treebanks
(``treeval table``); ``treeval.rerank_train(gold, nbest, ..., output=MODEL)`` and
``treeval.rerank_apply(model, nbest)`` train and apply a reranker (``treeval rerank``).

Errors: :class:`TreevalError` (an input that cannot be evaluated; ``path``, ``line``,
``column`` locate it) and :class:`UsageError` (a ``ValueError``: options the command
refuses). ``treeval.conll18`` is a drop-in for the CoNLL 2018 scorer conll18_ud_eval.py.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import warnings as _warnings
from functools import lru_cache
from collections.abc import Mapping
from typing import Any, Dict, Iterable, List, Optional, Tuple, Union

from . import _native
from ._report import Cell, Report, State, TreevalError, TreevalWarning, UsageError, locate

__version__: str = _native.__version__

__all__ = [
    "Cell",
    "Report",
    "State",
    "TreevalError",
    "TreevalWarning",
    "UsageError",
    "align",
    "brackets",
    "deps",
    "measures",
    "merge",
    "nbest",
    "options",
    "pts",
    "relations",
    "rerank_apply",
    "rerank_train",
    "run",
    "system_names",
    "table",
    "ted",
    "ud",
]

Input = Union[str, "os.PathLike[str]", Any]


@lru_cache(maxsize=None)
def _spec(command: str) -> Dict[str, Tuple[str, bool, bool]]:
    """keyword → (long option, takes a value, may repeat) of ``treeval COMMAND``."""
    return {
        long.replace("-", "_"): (long, takes, many)
        for long, takes, many, _accepted in _native.cli_options(command)
        if long and long != "format"
    }


@lru_cache(maxsize=None)
def _refused(command: str) -> Tuple[str, ...]:
    """The keywords of the options ``treeval COMMAND`` refuses (hidden from its help):
    still passed on, so that the refusal's own message explains it, but not listed."""
    return tuple(
        long.replace("-", "_")
        for long, _takes, _many, accepted in _native.cli_options(command.replace("_", " "))
        if long and not accepted
    )


@lru_cache(maxsize=None)
def _library_keywords(command: str) -> Optional[Tuple[str, ...]]:
    """The keywords of ``treeval.COMMAND()`` when the library runs the family (else None)."""
    keywords = _native.library_keywords(command)
    return None if keywords is None else tuple(keywords)


def options(command: str) -> List[str]:
    """The keyword arguments ``treeval.COMMAND()`` accepts (its long options, ``_`` for ``-``)."""
    keywords = _library_keywords(command)
    refused = _refused(command)
    listed = keywords if keywords is not None else sorted(_spec(command))
    return [k for k in listed if k not in refused]


#: What an input may be, for the messages that refuse one.
_SHAPES = (
    "a path (str or os.PathLike), an open file, a file-like object (io.StringIO, io.BytesIO), "
    "bytes, a str of text (it has a line break: CoNLL-U, CoNLL-X, bracketed trees, alignments), "
    "or a list of sentences, each a str (a block of CoNLL-U or CoNLL-X lines, or one bracketed tree)"
)


def _is_text(x: Any) -> bool:
    """Whether a ``str`` input is text rather than a path: it has a line break (CoNLL-U text
    has tabs and newlines; no file name has a newline)."""
    return isinstance(x, str) and ("\n" in x or "\r" in x)


def _path(x: Input) -> str:
    if isinstance(x, (str, os.PathLike)):
        return os.fspath(x)
    name = getattr(x, "name", None)
    if isinstance(name, (str, os.PathLike)) and os.path.exists(os.fspath(name)):
        return os.fspath(name)
    raise TypeError(f"treeval cannot read a {type(x).__name__}: give {_SHAPES}")


def _not_sentences(i: int, x: Any) -> TypeError:
    """The error for a list (or tuple) input whose items are not sentences."""
    bad = next(k for k, b in enumerate(x) if not isinstance(b, str))
    item = x[bad]
    inner = ""
    if isinstance(item, (list, tuple)) and item:
        inner = f" of {type(item[0]).__name__}"
    return TypeError(
        f"input {i}: a {type(x).__name__} is read as a list of sentences, each a str, "
        f"and its item {bad} is a {type(item).__name__}{inner} (token tuples are not read); "
        f"give {_SHAPES}"
    )


def _argv(command: str, inputs: Tuple[Input, ...], opts: Dict[str, Any]) -> Tuple[List[str], List[str]]:
    """The command line of a call, and the paths it reads (to locate errors)."""
    spec = _spec(command)
    argv = ["treeval", command]
    paths = [_path(x) for x in inputs]
    for key, value in opts.items():
        if key not in spec:
            raise TypeError(
                f"treeval.{command}() got an unexpected keyword argument {key!r}; "
                f"its options are: {', '.join(sorted(spec))}"
            )
        long, takes, many = spec[key]
        if value is None or value is False:
            continue
        if not takes:
            if value is not True:
                raise TypeError(f"treeval.{command}(): {key} is a switch (--{long}); give True or False")
            argv.append("--" + long)
            continue
        values = list(value) if many and isinstance(value, (list, tuple)) else [value]
        for v in values:
            if v is True:
                # an option whose value may be left out (`--confusion[=N]`): its default
                argv.append("--" + long)
                continue
            if isinstance(v, os.PathLike) or hasattr(v, "read"):
                v = _path(v)
                paths.append(v)
            elif isinstance(v, bool):
                v = str(v).lower()
            elif isinstance(v, str) and os.path.isfile(v):
                paths.append(v)
            argv.append(f"--{long}={v}")
    argv += ["--format=json", "--", *paths[: len(inputs)]]
    return argv, paths


def run(command: str, *inputs: Input, state: bool = False, **opts: Any) -> Report:
    """Run ``treeval COMMAND INPUTS... --OPTIONS --format json`` and return its report.

    With ``state=True`` (implied by ``keep_sentences=True`` and ``emit_state=PATH``) the
    report carries the evaluation's :class:`State` (``report.state``): the command writes
    it with ``--emit-state`` (to a temporary file unless ``emit_state`` names one) and it
    is read back. ``deps``, ``ud``, ``relations``, ``brackets``, ``align``, ``ted``,
    ``pts`` and ``merge`` have states."""
    if _library_keywords(command) is not None:
        return _library(command, inputs, state, opts)
    wanted = bool(state) or bool(opts.get("keep_sentences")) or opts.get("emit_state") not in (None, False)
    scratch = tempfile.mkdtemp(prefix="treeval-")
    if wanted and opts.get("emit_state") in (None, False):
        opts = {**opts, "emit_state": os.path.join(scratch, "state.json")}
    try:
        inputs, names = _in_memory(inputs, scratch)
        # the command would name the temporary files in its warnings on stderr: they are
        # printed here instead, under the inputs' own names, from the report
        echo = bool(names) and not opts.get("quiet") and "quiet" in _spec(command)
        if echo:
            opts = {**opts, "quiet": True}
        report = _run(command, inputs, opts, names)
        if echo:
            _warn(_warning_lines(report.to_dict().get("warnings", [])))
        if wanted:
            report.state = State.read(opts["emit_state"])
        return report
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def _library(command: str, inputs: Tuple[Input, ...], state: bool, opts: Dict[str, Any]) -> Report:
    """A family the library runs: inputs read from their paths or from memory, the report
    built from the library's value (no command line, no temporary file)."""
    items, names = _native_inputs(inputs)
    if command == "pts":
        opts = _pts_inputs(opts, len(items), names)
    # an input keyword's value keeps its shape (an experiment is a tuple): its paths are
    # read by _keyword_inputs
    input_keywords = _INPUT_KEYWORDS.get(command, ())
    kwargs = {k: (v if k in input_keywords else _fspaths(v)) for k, v in opts.items()}
    for key in input_keywords:
        if kwargs.get(key) is not None:
            kwargs[key] = _keyword_inputs(key, kwargs[key], names)
    return _native_report(command, items, names, kwargs, state)


def _native_report(command: str, items: List[Any], names: List[str], kwargs: Dict[str, Any], state: bool) -> Report:
    """The library's evaluation of ``items`` (paths or ``(name, bytes)``; ``names``: how
    messages name them) as a :class:`Report`, its warnings printed on stderr."""
    if state:
        kwargs["state"] = True
    try:
        data, state, warnings = _native.evaluate(command, items, kwargs)
    except ValueError as e:
        raise UsageError(str(e)) from None
    except RuntimeError as e:
        message = str(e)
        raise TreevalError(message, *locate(message, names)) from None
    _warn(warnings)
    return Report(data, State._known(*state) if state is not None else None)


def _fspaths(v: Any) -> Any:
    """A keyword's value with its paths (``os.PathLike``, also in a list) as ``str``."""
    if isinstance(v, os.PathLike):
        return os.fspath(v)
    if isinstance(v, (list, tuple)) and any(isinstance(x, os.PathLike) for x in v):
        return [os.fspath(x) if isinstance(x, os.PathLike) else x for x in v]
    return v


#: The keyword arguments of ``treeval.pts()`` that are its inputs (the systems' repeat).
_PTS_INPUTS = ("gold_a", "gold_b", "gold_align", "sys_a", "sys_b", "sys_align")


def _pts_inputs(opts: Dict[str, Any], n: int, names: List[str]) -> Dict[str, Any]:
    """``treeval.pts()``'s input keywords as the library reads them: each a path or
    ``(name, bytes)`` (in-memory data named ``<input N>`` in the order of the keywords),
    the systems' a list of them."""
    out = dict(opts)
    for key in _PTS_INPUTS:
        if key not in opts or opts[key] is None:
            continue
        value = opts[key]
        many = key.startswith("sys_")
        values = list(value) if many and isinstance(value, (list, tuple)) else [value]
        items = []
        for x in values:
            n += 1
            data = _content(x)
            items.append(_path(x) if data is None else (f"<input {n}>", data))
            names.append(items[-1] if isinstance(items[-1], str) else items[-1][0])
        out[key] = items if many else items[0]
    return out


#: The keywords that name inputs, of the functions whose inputs are options.
_INPUT_KEYWORDS = {
    "ted": ("gold", "parse", "exp", "label_equiv"),
    "nbest": ("alpino",),
    "align": ("tokens", "hyp_subwords"),
}


def _keyword_input(x: Input, name: str, names: List[str]) -> Any:
    """An input given as a keyword: a ``str`` or ``os.PathLike`` is a path (an option's
    value always names a file, as on the command line), an open file with a name on disk
    is read from there, anything else in-memory is read from memory as ``name``."""
    if isinstance(x, (str, os.PathLike)):
        names.append(os.fspath(x))
        return os.fspath(x)
    if isinstance(x, (list, tuple)) and not all(isinstance(b, str) for b in x):
        raise _not_sentences(name, x)
    data = _content(x)
    if data is None:
        names.append(_path(x))
        return names[-1]
    names.append(name)
    return (name, data)


def _keyword_inputs(key: str, value: Any, names: List[str]) -> Any:
    """The inputs of keyword ``key`` (``parse=`` and ``exp=`` take one or a list; an
    experiment is ``"NAME:GOLD:PARSE"`` or ``(name, gold, parse)``)."""
    if key == "exp":
        exps = [value] if isinstance(value, str) or _is_exp_tuple(value) else list(value)
        return [
            e if isinstance(e, str) else (
                e[0],
                _keyword_input(e[1], f"<exp {e[0]} gold>", names),
                _keyword_input(e[2], f"<exp {e[0]} parse>", names),
            )
            for e in exps
        ]
    if key in ("parse", "tokens", "hyp_subwords") and isinstance(value, (list, tuple)):
        return [_keyword_input(x, f"<{key} {i}>", names) for i, x in enumerate(value, 1)]
    return _keyword_input(value, f"<{key}>", names)


def _is_exp_tuple(x: Any) -> bool:
    """A ``(name, gold, parse)`` tuple (a spelled-out experiment has ``:`` in it, a name not)."""
    return isinstance(x, tuple) and len(x) == 3 and isinstance(x[0], str) and ":" not in x[0]


def _warning_lines(warnings: List[Dict[str, Any]]) -> List[str]:
    """The report's warnings as the command prints them on stderr: one entry per kind,
    with its count and first positions (each with its file when they are in several)."""
    lines = []
    for w in warnings:
        where = f"{w['position']}: " if w.get("position") else ""
        line = f"warning: {where}{w['message']}"
        if w.get("shards", 0) > 1:
            # a merged report's warning about a whole file that many shards gave
            line += f" (in {w['shards']} shards)"
        if w.get("hint"):
            line += f"\n  hint: {w['hint']}"
        count = w.get("count", 1)
        if count > 1:
            line += f"\n  {count} warnings of this kind"
            distinct = list(dict.fromkeys(w.get("positions", [])))
            if len(distinct) > 1:
                path = _path_of(w["position"])
                if all(_path_of(p) == path for p in distinct):
                    distinct = [p[len(path) + 1:] if p.startswith(path + ":") else p for p in distinct]
                more = ", …" if len(distinct) < count else ""
                line += f" (at {', '.join(distinct)}{more})"
        lines.append(line)
    return lines


#: This package's folder: frames of files in it are treeval's, not the caller's.
_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _caller_level() -> int:
    """The ``stacklevel`` of the first frame outside this package, seen from ``_warn``'s
    call of :func:`warnings.warn`: the user's line that called treeval."""
    frame = sys._getframe(1)
    level = 1
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == _PACKAGE_DIR:
        frame = frame.f_back
        level += 1
    return level


def _warn(lines: List[str]) -> None:
    """Each warning line (``warning: …``, as the command prints it) raised as a
    :class:`TreevalWarning` attributed to the caller's line (so the filters of the
    :mod:`warnings` module apply: once per calling line by default)."""
    if not lines:
        return
    level = _caller_level()
    for line in lines:
        text = line[len("warning: "):] if line.startswith("warning: ") else line
        _warnings.warn(text, TreevalWarning, stacklevel=level)


def _path_of(position: str) -> str:
    """The file of a position ``path:line:column`` or ``path:line`` (or a bare path)."""
    rest = position
    for _ in range(2):
        head, sep, n = rest.rpartition(":")
        if not (sep and head and n.isdigit()):
            break
        rest = head
    return rest


def _content(x: Input) -> Optional[bytes]:
    """The bytes of an in-memory input (None for a path or a file with a name on disk)."""
    if _is_text(x):
        return x.encode("utf-8")
    if isinstance(x, (str, os.PathLike)):
        return None
    if isinstance(x, (bytes, bytearray)):
        return bytes(x)
    if hasattr(x, "read"):
        name = getattr(x, "name", None)
        if isinstance(name, (str, os.PathLike)) and os.path.exists(os.fspath(name)):
            return None
        data = x.read()
        return data.encode("utf-8") if isinstance(data, str) else bytes(data)
    if isinstance(x, (list, tuple)) and all(isinstance(b, str) for b in x):
        return "".join(b.strip("\n") + "\n\n" for b in x).encode("utf-8")
    return None


def _in_memory(inputs: Tuple[Input, ...], scratch: str) -> Tuple[Tuple[Input, ...], Dict[str, str]]:
    """In-memory inputs written to files in ``scratch``, and those files' names (``<input N>``)."""
    out: List[Input] = []
    names: Dict[str, str] = {}
    for i, x in enumerate(inputs, 1):
        if isinstance(x, (list, tuple)) and not all(isinstance(b, str) for b in x):
            raise _not_sentences(i, x)
        data = _content(x)
        if data is None:
            out.append(x)
            continue
        path = os.path.join(scratch, f"input-{i}")
        with open(path, "wb") as f:
            f.write(data)
        names[path] = f"<input {i}>"
        out.append(path)
    return tuple(out), names


def _run(
    command: str, inputs: Tuple[Input, ...], opts: Dict[str, Any], names: Optional[Dict[str, str]] = None
) -> Report:
    argv, paths = _argv(command, inputs, opts)
    names = names or {}

    def named(text: str, escape: bool = False) -> str:
        for path, name in names.items():
            text = text.replace(json.dumps(path)[1:-1] if escape else path, name)
        return text

    try:
        out = _native.run_capture(argv).decode("utf-8")
    except ValueError as e:
        raise UsageError(named(str(e))) from None
    except RuntimeError as e:
        message = named(str(e))
        shown = [names.get(p, p) for p in paths]
        raise TreevalError(message, *locate(message, shown)) from None
    return Report(json.loads(named(out, escape=True)))


Mergeable = Union[Report, State, str, "os.PathLike[str]"]


def merge(reports: Iterable[Mergeable], *, state: bool = False, **options: Any) -> Report:
    """The report of the concatenated corpus from the states of its shards (``treeval merge``).

    ``reports`` are, in corpus order, reports that carry a state (``treeval.deps(...,
    state=True)``; ``keep_sentences=True`` for ``test=``/``ci=`` and exact macro averages
    over sentences), :class:`State` values, or paths of state files (``--emit-state``).
    ``options`` are ``treeval merge``'s (``treeval.options("merge")``: ``per_relation``,
    ``confusion``, ``test``, ``ci``, ``seed``, …). The result's ``to_dict()`` equals
    ``treeval merge STATE... --format json``; its ``state`` is the merged state with
    ``state=True`` (states merge again, in a tree)."""
    items = list(reports)
    if not items:
        raise ValueError("treeval.merge() needs the states of one or more shards; got none")
    inputs: List[Any] = []
    for i, item in enumerate(items):
        if isinstance(item, (str, os.PathLike)):
            inputs.append(os.fspath(item))
            continue
        st = item.state if isinstance(item, Report) else item
        if not isinstance(st, State):
            raise _no_state(i, item)
        # read from memory, named as the caller gave it
        inputs.append((f"reports[{i}] ({st.family} state)", st.text.encode("utf-8")))
    names = [x if isinstance(x, str) else x[0] for x in inputs]
    kwargs = {k: _fspaths(v) for k, v in options.items()}
    return _native_report("merge", inputs, names, kwargs, state)


def _no_state(i: int, item: Any) -> Exception:
    if isinstance(item, Report):
        return ValueError(
            f"treeval.merge(): reports[{i}] carries no state; evaluate the shard with state=True "
            "(keep_sentences=True for test= and ci=)"
        )
    return TypeError(
        f"treeval.merge(): reports[{i}] is a {type(item).__name__}; give reports with a state, "
        "treeval.State values or paths of state files"
    )


def _named(systems: Tuple[Any, ...], options: Dict[str, Any]) -> Tuple[Tuple[Any, ...], Dict[str, Any]]:
    """Systems given as one mapping ``{"A": a, "B": b}``: its values, named by its keys
    (``name=["A", "B"]``, as ``--name A --name B``). Other systems as they are."""
    if len(systems) == 1 and isinstance(systems[0], Mapping):
        if options.get("name") is not None:
            raise TypeError("systems given as a dict are named by its keys: drop name=")
        named = systems[0]
        bad = [k for k in named if not isinstance(k, str)]
        if bad:
            raise TypeError(f"a dict of systems is keyed by their names (str), found {bad[0]!r}")
        return tuple(named.values()), {**options, "name": list(named)}
    return systems, options


def deps(gold: Input, *systems: Input, **options: Any) -> Report:
    """Dependency scores (``treeval deps``): LAS, UAS, LA, … of each system against ``gold``.
    Systems are named by their paths' shortest distinguishing ends, by ``name=[...]``, or by
    the keys of one dict: ``treeval.deps(gold, {"A": a, "B": b})``."""
    systems, options = _named(systems, options)
    return run("deps", gold, *systems, **options)


def ud(gold: Input, *systems: Input, **options: Any) -> Report:
    """The CoNLL 2018 UD metrics (``treeval ud``), tokenizations may differ. Systems may be one
    dict of named systems, as in :func:`deps`."""
    systems, options = _named(systems, options)
    return run("ud", gold, *systems, **options)


def relations(gold: Input, *systems: Input, **options: Any) -> Report:
    """Set-of-relations accuracy (``treeval relations``). Systems may be one dict of named
    systems, as in :func:`deps`."""
    systems, options = _named(systems, options)
    return run("relations", gold, *systems, **options)


def brackets(gold: Input, *systems: Input, **options: Any) -> Report:
    """Constituency brackets as EVALB computes them (``treeval brackets``). Systems may be one
    dict of named systems, as in :func:`deps`."""
    systems, options = _named(systems, options)
    return run("brackets", gold, *systems, **options)


def align(gold: Input, *systems: Input, **options: Any) -> Report:
    """Word-alignment scores (``treeval align``): precision, recall, AER, F. Systems (the
    hypothesized alignments) may be one dict of named systems, as in :func:`deps`."""
    systems, options = _named(systems, options)
    return run("align", gold, *systems, **options)


def nbest(gold: Optional[Input] = None, *nbest_lists: Input, **options: Any) -> Report:
    """``treeval nbest GOLD NBEST...``: first, best, worst and chosen candidates of n-best lists
    (``model=PATH`` chooses with a ``treeval rerank train`` model); ``alpino=LINES`` without
    ``gold`` reads evaluate.pl's lines. The lists may be one dict of named lists."""
    nbest_lists, options = _named(nbest_lists, options)
    inputs = () if gold is None else (gold, *nbest_lists)
    return run("nbest", *inputs, **options)


def ted(**options: Any) -> Report:
    """TedEval (``treeval ted``); its inputs are options: ``gold=`` with ``system=`` (one or a
    list; ``parse=`` is the same), ``exp=`` (``"NAME:GOLD:PARSE"`` or ``(name, gold, parse)``,
    one or a list), ``label_equiv=``. A ``str`` there is a path; bytes, a file-like object or
    a list of sentences is read from memory (named ``<gold>``, ``<parse N>``, ``<exp NAME
    gold>``, …)."""
    if "system" in options:
        if "parse" in options:
            raise TypeError("give system= or parse= (the same), not both")
        options["parse"] = options.pop("system")
    return run("ted", **options)


def pts(**options: Any) -> Report:
    """The parallel treebank score (``treeval pts``); inputs are options (``gold_a=``,
    ``gold_b=``, ``gold_align=``, and per system ``sys_a=``, ``sys_b=``, ``sys_align=``, a
    list for several systems), each a path or in-memory data as the other functions take."""
    return run("pts", **options)


def _native_inputs(inputs: Tuple[Input, ...]) -> Tuple[List[Any], List[str]]:
    """Inputs as the native module reads them (a path, or ``(name, bytes)`` in memory,
    named ``<input N>``), and their names (to locate errors)."""
    items: List[Any] = []
    names: List[str] = []
    for i, x in enumerate(inputs, 1):
        if isinstance(x, (list, tuple)) and not all(isinstance(b, str) for b in x):
            raise _not_sentences(i, x)
        data = _content(x)
        items.append(_path(x) if data is None else (f"<input {i}>", data))
        names.append(items[-1] if isinstance(items[-1], str) else items[-1][0])
    return items, names


def _call(names: List[str], f: Any, *args: Any) -> Any:
    """``f(*args)`` of the native module, its errors raised as treeval's."""
    try:
        return f(*args)
    except ValueError as e:
        raise UsageError(str(e)) from None
    except RuntimeError as e:
        message = str(e)
        raise TreevalError(message, *locate(message, names)) from None


def _reported(names: List[str], f: Any, *args: Any) -> Report:
    """The report of a native call that returns ``(report, state, warning lines)``."""
    data, _, warnings = _call(names, f, *args)
    _warn(warnings)
    return Report(data)


def table(*manifest_or_reports: Input, **options: Any) -> Report:
    """One table of systems × treebanks for one measure (``treeval table``).

    Give one manifest (a path, or its text in memory: a ``str`` with a line break, bytes
    or a file-like object; an in-memory manifest's paths are relative to the current
    folder): of files to evaluate, or of saved JSON reports of ``treeval deps``/``treeval
    ud`` (header ``treebank<TAB>report<TAB>system[<TAB>file]``; reports given without one
    are refused, as nothing names their treebank and systems). ``options`` are the
    command's (``treeval.options("table")``): ``measure`` (``"LAS"``), ``command``
    (``"deps"`` or ``"ud"``), ``baseline``, ``rank_by``, ``test`` (``"ar"`` or
    ``"bootstrap"``), ``samples``, ``seed``, ``alpha``, ``ci``, ``ci_samples``,
    ``sent_id``, ``min_len``, ``max_len``, ``quiet``. The result's ``to_dict()`` equals ``treeval table ... --format
    json``."""
    if not manifest_or_reports:
        raise TypeError("treeval.table() needs a manifest or one or more JSON reports")
    items, names = _native_inputs(manifest_or_reports)
    return _reported(names, _native.table, items, {k: _fspaths(v) for k, v in options.items()})


def rerank_train(*files: Input, **options: Any) -> Report:
    """Train a reranker on GOLD NBEST pairs and write it to ``output=`` (``treeval rerank
    train FILES... -o MODEL``); returns the cross-validation report.

    ``files`` are gold files and n-best lists, alternately (paths or in-memory data, as
    the other functions take). ``options`` are the command's (``treeval.options(
    "rerank_train")``): ``output`` (required; it may not be an input, and an existing file
    is replaced only if it is a treeval model unless ``force=True``), ``metric``,
    ``target``, ``beta``, ``sigma2`` (a number or ``"cv"``), ``folds``, ``features``,
    ``hash_bits``, ``top_features``, ``profile``, ``punct``, ``labels``, ``quiet``."""
    items, names = _native_inputs(files)
    opts = {k: _fspaths(v) for k, v in options.items()}
    if opts.get("output") is None:
        raise TypeError("treeval.rerank_train() needs output=, the file the model is written to")
    return _reported(names, _native.rerank_train, items, opts)


def rerank_apply(model: Input, nbest: Input, *, quiet: bool = False) -> str:
    """The candidate a model chooses for each sentence of ``nbest``, as CoNLL-U text
    (``treeval rerank apply MODEL NBEST``): comments kept but ``# rank`` and ``#
    parser_score``, ``# rerank_rank`` and ``# rerank_score`` added. ``model`` and
    ``nbest`` are paths or in-memory data."""
    (m, n), names = _native_inputs((model, nbest))
    text, warnings = _call(names, _native.rerank_apply, m, n, bool(quiet))
    _warn(warnings)
    return text


def system_names(paths: Iterable[Union[str, "os.PathLike[str]"]]) -> List[str]:
    """The names treeval gives systems read from ``paths`` when they are not named (the
    shortest ends of the paths that tell them apart, their shared extension left out:
    ``runs/a/e20/pred.conllu`` and ``runs/b/e20/pred.conllu`` are ``a/…/pred`` and
    ``b/…/pred``). Name the shards of one system alike with ``name=``."""
    return list(_native.system_names([os.fspath(p) for p in paths]))


def measures(format: str = "json") -> Any:
    """Every family's measures (``treeval measures``): name, formula, source and the
    reference tool whose number each equals. ``format="json"`` (the default) gives the
    ``treeval.measures/1`` object as Python values; ``"markdown"`` (docs/measures.md is
    this text) and ``"text"`` give the text."""
    text = _native.measures(format)
    return json.loads(text) if format == "json" else text
