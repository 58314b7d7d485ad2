#!/usr/bin/env python3
"""List functions longer than a limit in crates/*/src (test modules excluded).

Usage: scripts/long-functions.py [LIMIT] (default 80). Exits 1 when any is found.
A function's length runs from its `fn` line to its closing brace. `#[cfg(test)]`
modules are skipped. Braces inside string and char literals and comments are
ignored by a small lexer, enough for this code base.
"""
import pathlib
import re
import sys

FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s+(\w+)")


def strip(line, state):
    """Remove strings, chars and comments; state carries block comments / raw strings."""
    out = []
    i = 0
    while i < len(line):
        if state["block"]:
            j = line.find("*/", i)
            if j < 0:
                return "".join(out)
            state["block"] = False
            i = j + 2
            continue
        if state["raw"]:
            j = line.find('"' + "#" * state["raw_hashes"], i)
            if j < 0:
                return "".join(out)
            state["raw"] = False
            i = j + 1 + state["raw_hashes"]
            continue
        if state["str"]:
            while i < len(line):
                c = line[i]
                if c == "\\":
                    i += 2
                    continue
                if c == '"':
                    state["str"] = False
                    i += 1
                    break
                i += 1
            continue
        c = line[i]
        if line.startswith("//", i):
            break
        if line.startswith("/*", i):
            state["block"] = True
            i += 2
            continue
        m = re.match(r'r(#*)"', line[i:])
        if m and (i == 0 or not (line[i - 1].isalnum() or line[i - 1] == "_")):
            state["raw"] = True
            state["raw_hashes"] = len(m.group(1))
            i += len(m.group(0))
            continue
        if c == '"':
            state["str"] = True
            i += 1
            continue
        m = re.match(r"'(\\.|[^\\'])'|'\\u\{[0-9a-fA-F]+\}'", line[i:])
        if m:
            i += len(m.group(0))
            continue
        out.append(c)
        i += 1
    return "".join(out)


def scan(path, limit):
    lines = path.read_text().splitlines()
    state = {"block": False, "raw": False, "raw_hashes": 0, "str": False}
    found = []
    stack = []  # (kind, name, start, depth)
    depth = 0
    pending = None  # (kind, name, start) waiting for its opening brace
    cfg_test = False
    for no, raw in enumerate(lines, 1):
        code = strip(raw, state)
        if re.match(r"^\s*#\[cfg\(test\)\]", code):
            cfg_test = True
            continue
        m = FN.match(code)
        if m and pending is None:
            pending = ("fn", m.group(6), no)
        elif cfg_test and re.match(r"^\s*(pub\s+)?mod\s+\w+", code):
            pending = ("testmod", "", no)
        if cfg_test and not code.strip().startswith("#"):
            if pending is None or pending[0] != "testmod":
                cfg_test = False if "mod " not in code else cfg_test
        for ch in code:
            if ch == "{":
                depth += 1
                if pending is not None:
                    stack.append((pending[0], pending[1], pending[2], depth))
                    pending = None
            elif ch == "}":
                if stack and stack[-1][3] == depth:
                    kind, name, start, _ = stack.pop()
                    if kind == "fn" and not any(k == "testmod" for k, *_ in stack):
                        n = no - start + 1
                        if n > limit:
                            found.append((n, f"{path}:{start}", name))
                    if kind == "testmod":
                        cfg_test = False
                depth -= 1
            elif ch == ";" and pending is not None and pending[0] == "fn":
                pending = None  # a declaration without a body
    return found


def main():
    limit = int(sys.argv[1]) if len(sys.argv) > 1 else 80
    root = pathlib.Path(__file__).resolve().parent.parent
    found = []
    for path in sorted(root.glob("crates/*/src/**/*.rs")):
        found += scan(path.relative_to(root), limit)
    for n, where, name in sorted(found, reverse=True):
        print(f"{n:5} {where} {name}")
    print(f"{len(found)} functions over {limit} lines", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
