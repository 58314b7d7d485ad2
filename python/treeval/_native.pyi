"""Type stubs of treeval._native, the Rust extension (crates/treeval-py)."""

from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

__version__: str

# (message, path, line, column) of a problem
_Problem = Tuple[str, str, int, int]
# correct, gold, system, aligned (None for Tokens, Sentences, Words)
_Counts = Tuple[int, int, int, Optional[int]]

def run_cli(argv: Sequence[str]) -> int:
    """Run a treeval command line (argv[0] is the program name) as the binary does; the exit code."""

def run_capture(argv: Sequence[str]) -> bytes:
    """Run a treeval command line and return its output; ValueError for a usage error,
    RuntimeError for an evaluation error."""

# a state: its text, family, shards, whether it kept the per-sentence rows
_StateInfo = Tuple[str, str, int, bool]

def evaluate(
    command: str, inputs: Sequence[Union[str, Tuple[str, bytes]]], options: Dict[str, Any]
) -> Tuple[Dict[str, Any], Optional[_StateInfo], List[str]]:
    """Run the library's family ``command`` on inputs (paths, or (name, bytes) in memory,
    gold first) with keyword options: (the report as --format json has it, the state when
    asked, the warning lines to print). ValueError for a usage error,
    RuntimeError for an evaluation error, TypeError for an unknown keyword."""

def table(
    inputs: Sequence[Union[str, Tuple[str, bytes]]], options: Dict[str, Any]
) -> Tuple[Dict[str, Any], None, List[str]]:
    """treeval table of a manifest or saved reports: (the report, None, the warning lines)."""

def rerank_train(
    inputs: Sequence[Union[str, Tuple[str, bytes]]], options: Dict[str, Any]
) -> Tuple[Dict[str, Any], None, List[str]]:
    """treeval rerank train (GOLD NBEST pairs; options["output"] is the model written):
    (the report, None, the warning lines)."""

def rerank_apply(
    model: Union[str, Tuple[str, bytes]], nbest: Union[str, Tuple[str, bytes]], quiet: bool = False
) -> Tuple[str, List[str]]:
    """treeval rerank apply: (the chosen candidates as CoNLL-U, the warning lines)."""

def library_keywords(command: str) -> Optional[List[str]]:
    """The keywords of treeval.COMMAND() when the library runs it (None otherwise)."""

def cli_options(command: str) -> List[Tuple[str, bool, bool, bool]]:
    """(long name, takes a value, may repeat, accepted) of every option ("" for
    positionals); an option the command refuses (hidden from its help) is not accepted."""

class Conll18File:
    """A CoNLL-U file read and prepared by conll18_load (opaque)."""

    size: int  # bytes of the text

def conll18_load(
    data: bytes, name: str
) -> Tuple[Optional[Conll18File], Optional[Tuple[str, _Problem]]]:
    """(file, None) when conll18_ud_eval.py's load_conllu loads the text; else
    (None, (kind, problem)), kind "utf8", "value" (ValueError) or "invalid" (UDError)."""

def conll18_evaluate(
    gold: Conll18File, sys: Conll18File
) -> Tuple[Optional[List[_Counts]], Optional[Tuple[str, _Problem]]]:
    """The 13 metrics' counts, or (kind, problem): "mismatch" or "invalid"."""
def state_info(text: str, name: str) -> _StateInfo: ...
def measures(format: str) -> str: ...
def system_names(paths: List[str]) -> List[str]: ...
