"""Shared fixtures: the repository's ../shared/data (tests that need it skip loudly
without it, and fail instead when TREEVAL_REQUIRE_SHARED_DATA=1, as in CI)."""

import os
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))


def shared_data() -> Path:
    """../shared/data beside the repository root, or skip (fail in CI) without it."""
    data = (ROOT.parent / "shared" / "data").resolve()
    if not data.is_dir():
        message = f"SKIPPED LOUDLY: {data} is missing (the real-data tests need ../shared/data)"
        if os.environ.get("TREEVAL_REQUIRE_SHARED_DATA") == "1":
            pytest.fail(message)
        print(message, file=sys.stderr)
        pytest.skip(message)
    return data


@pytest.fixture
def data() -> Path:
    return shared_data()


def refuse_files_and_argv(monkeypatch, what: str) -> None:
    """From now on, a temporary folder or a command-line run fails the test: ``what`` (the
    functions under test) must call the library in memory."""
    import tempfile

    import treeval

    def refuse(*a, **k):
        raise AssertionError(f"{what} wrote a temporary file or ran a command line")

    monkeypatch.setattr(tempfile, "mkdtemp", refuse)
    monkeypatch.setattr(treeval._native, "run_capture", refuse)
