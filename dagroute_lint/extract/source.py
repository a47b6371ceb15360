"""Decode and parse one file, turning every way it can fail into a ``SyntaxProblem``."""

from __future__ import annotations

import ast
import io
import re
import tokenize

import libcst as cst

from dagroute_lint.model import Position, SyntaxProblem

_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[A-Z]+[0-9]+(?:[,\s]+[A-Z]+[0-9]+)*))?", re.I)
_FILE_NOQA = re.compile(r"#\s*dagroute-lint\s*:\s*noqa\b", re.I)


def decode(data: bytes) -> str | SyntaxProblem:
    """Decode as CPython would: PEP 263 declaration or BOM, UTF-8 otherwise."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding)
    except (SyntaxError, UnicodeDecodeError, LookupError) as error:
        return SyntaxProblem(f"cannot decode file: {error}", Position(1, 1))


def parse(text: str) -> cst.Module | SyntaxProblem:
    """Parse with libcst; on failure report CPython's own message and position.

    libcst places some errors elsewhere than CPython does (2:1 against 1:7 for one input), and
    users compare our report with what ``python`` tells them, so CPython's wins when it has one.
    """
    if "\0" in text:
        return SyntaxProblem("source code cannot contain null bytes", Position(1, 1))
    try:
        return cst.parse_module(text)
    except cst.ParserSyntaxError as error:
        fallback = SyntaxProblem(
            f"syntax error: {error.message}", Position(error.raw_line, error.raw_column + 1)
        )
    except RecursionError:
        fallback = SyntaxProblem("too deeply nested to parse", Position(1, 1))
    return _cpython_problem(text) or fallback


def _cpython_problem(text: str) -> SyntaxProblem | None:
    try:
        ast.parse(text)
    except SyntaxError as error:
        line = error.lineno or 1
        column = error.offset or 1
        return SyntaxProblem(f"syntax error: {error.msg}", Position(line, max(column, 1)))
    except (RecursionError, MemoryError, ValueError):
        return None
    return None


def noqa_comments(text: str) -> tuple[dict[int, frozenset[str] | None], bool]:
    """Lines with a ``# noqa`` comment and their codes (``None``: all), and the file-level flag.

    Scans raw lines as flake8 did before it tokenized: a ``# noqa`` inside a string literal also
    counts, which errs towards silence only where the user wrote the marker themselves.
    """
    lines: dict[int, frozenset[str] | None] = {}
    file_noqa = False
    if "noqa" not in text and "NOQA" not in text:
        return lines, file_noqa
    for number, line in enumerate(text.splitlines(), start=1):
        if "noqa" not in line.lower():
            continue
        if _FILE_NOQA.search(line):
            file_noqa = True
            continue
        match = _NOQA.search(line)
        if match is None:
            continue
        codes = match.group("codes")
        lines[number] = (
            frozenset(code.upper() for code in re.split(r"[,\s]+", codes) if code)
            if codes
            else None
        )
    return lines, file_noqa
