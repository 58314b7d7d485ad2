"""The report a treeval function returns: the CLI's ``--format json`` object
(``treeval.report/3``, docs/json-schema.md) with accessors."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Iterator, List, Mapping, Optional, Tuple, Union


class TreevalError(Exception):
    """An input treeval cannot evaluate (the CLI's exit code 1).

    ``path``, ``line`` and ``column`` locate the first problem when the message names one
    of the command's inputs (``None`` otherwise); the message is the CLI's, hints included.
    """

    def __init__(
        self,
        message: str,
        path: Optional[str] = None,
        line: Optional[int] = None,
        column: Optional[int] = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.column = column

    def __reduce__(self) -> Tuple[Any, ...]:
        # raised on a worker, re-raised where the results are gathered (Dask, Spark)
        return (type(self), (self.message, self.path, self.line, self.column))


class UsageError(TreevalError, ValueError):
    """Options the command refuses (the CLI's exit code 2)."""


class TreevalWarning(UserWarning):
    """A warning of an evaluation (the CLI's ``warning:`` lines on stderr).

    treeval raises each through Python's :mod:`warnings` module, attributed to the line
    of your code that called treeval, so the usual filters apply: by default a warning is
    shown once per calling line (a loop calling ``treeval.deps`` 100 times shows it
    once), ``warnings.simplefilter("ignore", treeval.TreevalWarning)`` silences them,
    ``"error"`` raises them. ``quiet=True`` raises none. Every warning is also on the
    report, whatever the filters: ``report.warnings`` (dicts with ``kind``, ``position``,
    ``message``, ``hint``, ``count``, ``positions``).
    """


def locate(message: str, inputs: List[str]) -> Tuple[Optional[str], Optional[int], Optional[int]]:
    """The ``path:line[:column]`` that starts ``message`` when ``path`` is one of ``inputs``."""
    for path in sorted(inputs, key=len, reverse=True):
        if not message.startswith(path + ":"):
            continue
        numbers = message[len(path) + 1 :].split(":", 2)
        line = int(numbers[0]) if numbers and numbers[0].isdigit() else None
        column = int(numbers[1]) if line is not None and len(numbers) > 1 and numbers[1].isdigit() else None
        return path, line, column
    return None, None, None


class State:
    """The summed counts of an evaluation: the ``treeval.state/3`` JSON that ``--emit-state``
    writes (docs/json-schema.md), kept as the text treeval wrote. A state of another schema
    version is a ValueError naming both versions.

    ``treeval.merge()`` sums states into the report of the concatenated corpus. A state is
    picklable (it pickles as its text), so workers of Dask, Spark or multiprocessing can
    send it back to the process that merges.
    """

    def __init__(self, text: str) -> None:
        from . import _native

        # read by the library: the schema version checked, the family's options and counts typed
        self._set(*_native.state_info(text, "state"))

    @classmethod
    def _known(cls, text: str, family: str, shards: int, rows: bool) -> "State":
        """A state the library has just written, with what it says of it (not read again)."""
        s = cls.__new__(cls)
        s._set(text, family, shards, rows)
        return s

    def _set(self, text: str, family: str, shards: int, rows: bool) -> None:
        self.text: str = text
        self.family: str = family
        self.shards: int = shards
        self._has_sentences: bool = rows
        self._data: Optional[Dict[str, Any]] = None

    @classmethod
    def read(cls, path: Union[str, "os.PathLike[str]"]) -> "State":
        """The state in a file written by ``--emit-state``."""
        with open(path, encoding="utf-8") as f:
            return cls(f.read())

    def write(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Write the state to ``path`` as ``--emit-state`` writes it (``treeval merge`` reads it)."""
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.text)

    def to_dict(self) -> Dict[str, Any]:
        """The state as a JSON object (fields in docs/json-schema.md)."""
        if self._data is None:
            self._data = json.loads(self.text)
        return self._data

    @property
    def has_sentences(self) -> bool:
        """Whether every sentence's counts are kept (``keep_sentences=True``, ``test=``,
        ``ci=``): ``treeval.merge()`` can then run tests and intervals, and deps' macro
        averages over sentences are exactly those of one run."""
        return self._has_sentences

    def __reduce__(self) -> Tuple[Any, ...]:
        return (State, (self.text,))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and other.text == self.text

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<treeval State {self.family}, {self.shards} shard(s), {len(self.text)} bytes>"


class Cell:
    """One cell of a report table: a measure's ``score`` (a fraction in [0, 1] for
    fractions, ``None`` when there is nothing to measure), its ``counts`` and ``ci``.

    ``beside`` holds the other cells of its row where a row is one metric (``ud``:
    ``Report.scores["LAS"]`` is LAS's F1 cell, and ``beside`` its ``precision``,
    ``recall`` and ``aligned-accuracy`` cells, whose scores ``precision``, ``recall`` and
    ``aligned_accuracy`` give); it is empty, and those three ``None``, elsewhere."""

    __slots__ = ("measure", "score", "counts", "ci", "mark", "beside")

    def __init__(self, cell: Mapping[str, Any], beside: Optional[Dict[str, "Cell"]] = None) -> None:
        self.measure: str = cell["measure"]
        self.score: Optional[float] = cell.get("value")
        self.counts: List[Any] = list(cell.get("counts", []))
        ci = cell.get("ci")
        self.ci: Optional[Tuple[float, float]] = (ci[0], ci[1]) if ci else None
        self.mark: Optional[str] = cell.get("mark")
        self.beside: Dict[str, "Cell"] = beside or {}

    def _beside(self, measure: str) -> Optional[float]:
        cell = self.beside.get(measure)
        return cell.score if cell is not None else None

    @property
    def precision(self) -> Optional[float]:
        """The score of the ``precision`` cell beside this one (``None`` without one)."""
        return self._beside("precision")

    @property
    def recall(self) -> Optional[float]:
        """The score of the ``recall`` cell beside this one (``None`` without one)."""
        return self._beside("recall")

    @property
    def aligned_accuracy(self) -> Optional[float]:
        """The score of the ``aligned-accuracy`` cell beside this one (``None`` without one,
        or when there is nothing to measure)."""
        return self._beside("aligned-accuracy")

    def __repr__(self) -> str:
        ci = f", ci={self.ci}" if self.ci else ""
        beside = "".join(f", {m}={c.score!r}" for m, c in self.beside.items())
        return f"Cell({self.measure}={self.score!r}, counts={self.counts}{ci}{beside})"


class Report(Mapping[str, Any]):
    """A treeval report: ``to_dict()`` is exactly the CLI's ``--format json`` output;
    ``scores["LAS"].score`` and ``.ci`` read the first system's headline cells;
    ``cell()`` any other; ``to_pandas()`` every cell as a data frame. The report is
    also a read-only mapping of its JSON fields (``report["signature"]``).

    ``state`` is the evaluation's :class:`State` when it was asked for (``state=True``,
    ``keep_sentences=True`` or ``emit_state=PATH`` of ``deps``, ``ud``, ``relations`` and
    ``merge``), ``None`` otherwise; ``treeval.merge()`` sums the states of reports. A
    report pickles with its state."""

    def __init__(self, data: Dict[str, Any], state: Optional[State] = None) -> None:
        self._data = data
        self.state: Optional[State] = state

    def to_dict(self) -> Dict[str, Any]:
        """The report as the CLI's ``--format json`` prints it (the object itself)."""
        return self._data

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    @property
    def command(self) -> str:
        return self._data["command"]

    @property
    def signature(self) -> str:
        return self._data["signature"]

    @property
    def systems(self) -> List[str]:
        """The systems' names, in order (system 0 first)."""
        return [s["name"] for s in self._data.get("systems", [])]

    @property
    def warnings(self) -> List[Dict[str, Any]]:
        return self._data.get("warnings", [])

    @property
    def notes(self) -> List[str]:
        return self._data.get("notes", [])

    def section(self, id: str = "scores") -> Dict[str, Any]:
        """The section (table) ``id``; KeyError naming the report's sections otherwise."""
        for s in self._data.get("sections", []):
            if s["id"] == id:
                return s
        ids = [s["id"] for s in self._data.get("sections", [])]
        raise KeyError(f"no section {id!r} in this report; it has {ids}")

    def cells(self, system: int = 0, section: str = "scores", key: Optional[str] = None) -> Dict[str, Cell]:
        """The cells of ``system``'s row (of the row ``key`` in a breakdown), by measure."""
        for row in self.section(section)["rows"]:
            if row.get("system") == system and row.get("key") == key:
                return {c["measure"]: Cell(c) for c in row["cells"]}
        raise KeyError(f"no row for system {system} and key {key!r} in section {section!r}")

    def cell(self, measure: str, system: int = 0, section: str = "scores", key: Optional[str] = None) -> Cell:
        """One cell; KeyError naming the row's measures when ``measure`` is not one."""
        row = self.cells(system, section, key)
        if measure not in row:
            raise KeyError(f"no measure {measure!r} in that row; it has {list(row)}")
        return row[measure]

    @property
    def scores(self) -> Dict[str, Cell]:
        """The first system's headline cells, by measure name, for every command: the row
        of section ``scores``; for ``ud``, whose rows there are its metrics, each metric's
        ``F1`` cell with its precision, recall and aligned accuracy ``beside`` it
        (``scores["LAS"].score``, ``scores["LAS"].precision``); for ``brackets``, which has
        no section ``scores``, section ``all`` (every sentence length)."""
        ids = [s["id"] for s in self._data.get("sections", [])]
        if "scores" not in ids and "all" in ids:
            return self.cells(0, "all", None)
        rows = [r for r in self.section("scores")["rows"] if r.get("system") == 0]
        if not rows or any(r.get("key") is None for r in rows):
            return self.cells(0, "scores", None)
        return dict(_metric_rows(rows))

    def to_pandas(self) -> Any:
        """Every cell of every section as a pandas DataFrame: one row per section, system,
        key and measure, with ``value``, ``ci_low``, ``ci_high`` and ``counts``."""
        try:
            import pandas
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("Report.to_pandas() needs pandas: pip install pandas") from e
        names = self.systems
        records = []
        for s in self._data.get("sections", []):
            for row in s["rows"]:
                k = row.get("system")
                for c in row["cells"]:
                    ci = c.get("ci") or (None, None)
                    records.append(
                        {
                            "section": s["id"],
                            "system": names[k] if isinstance(k, int) and k < len(names) else k,
                            "key": row.get("key"),
                            "measure": c["measure"],
                            "value": c.get("value"),
                            "ci_low": ci[0],
                            "ci_high": ci[1],
                            "counts": c.get("counts"),
                        }
                    )
        return pandas.DataFrame.from_records(
            records, columns=["section", "system", "key", "measure", "value", "ci_low", "ci_high", "counts"]
        )

    def __repr__(self) -> str:
        head = ", ".join(f"{m}={c.score!r}" for m, c in list(self.scores.items())[:4]) if self._has_scores() else ""
        return f"<treeval Report {self.command} {self.systems}: {head}>"

    def _has_scores(self) -> bool:
        try:
            self.scores
            return True
        except KeyError:
            return False


def _metric_rows(rows: List[Dict[str, Any]]) -> Iterator[Tuple[str, Cell]]:
    """(metric, its headline cell) of rows keyed by metric (``ud``'s section ``scores``):
    the ``F1`` cell (the row's first cell without one), the row's other cells beside it."""
    for row in rows:
        cells = list(row["cells"])
        if not cells:
            continue
        head = next((c for c in cells if c["measure"] == "F1"), cells[0])
        beside = {c["measure"]: Cell(c) for c in cells if c is not head}
        yield str(row["key"]), Cell(head, beside)
