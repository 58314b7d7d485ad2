"""The ``treeval`` command installed by ``pip install .``: the Rust binary's code."""

from __future__ import annotations

import os
import sys

from . import _native


def main() -> None:
    """Run ``treeval`` with this process's arguments and exit with its exit code."""
    sys.stdout.flush()
    argv = ["treeval", *sys.argv[1:]]
    code = _native.run_cli(argv)
    sys.stdout.flush()
    # the binary ends quietly on a closed pipe; so does the entry point
    try:
        sys.stdout.close()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(code)


if __name__ == "__main__":
    main()
