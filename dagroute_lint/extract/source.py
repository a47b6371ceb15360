"""Decode and parse one file, turning every way it can fail into a ``SyntaxProblem``."""

from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings

import libcst as cst

from dagroute_lint.extract.anchors import Anchors, survey
from dagroute_lint.model import Position, SyntaxProblem
from dagroute_lint.noqa import read_comment
from dagroute_lint.records import record
from dagroute_lint.sources.files import MAX_FILE_BYTES

# Python's line breaks only: ``str.splitlines`` also breaks at form feeds and other separators,
# which would shift every later line number.
LINE_BREAK = re.compile(r"\r\n?|\n")


# Beyond these, libcst's native parser takes minutes and gigabytes (about 4 KB per syntax node)
# or overflows the C stack (a crash no ``except`` can catch), so such files are skipped with a
# message instead. Real DAG files stay far below: Airflow's own 3.3.2 sources nest at most 22
# levels, and a generated DAG of a thousand tasks has some 20,000 nodes.
MAX_DEPTH = 200
MAX_NODES = 100_000


def decode(data: bytes) -> str | SyntaxProblem:
    """Decode as CPython would: PEP 263 declaration or BOM, UTF-8 otherwise."""
    if len(data) > MAX_FILE_BYTES:
        return SyntaxProblem(
            f"file is larger than the {MAX_FILE_BYTES // (1024 * 1024)} MiB analysed",
            Position(1, 1),
            skipped=True,
        )
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        return data.decode(encoding)
    except (SyntaxError, UnicodeDecodeError, LookupError) as error:
        return SyntaxProblem(f"cannot decode file: {error}", Position(1, 1))


@record(frozen=False)
class Parsed:
    """A file's libcst tree, and where CPython's parser says its statements and calls start."""

    module: cst.Module
    anchors: Anchors


def parse(text: str) -> Parsed | SyntaxProblem:
    """Parse with libcst, but only what CPython's parser accepted first.

    CPython's parser is fast (a tenth of libcst's time), reports its own message and position
    (users compare our report with what ``python`` tells them), and refuses the pathological
    nesting that crashes libcst's. A file is therefore read with the grammar of the Python
    running the linter: run it on a Python at least as new as the one Airflow uses.
    """
    if "\0" in text:
        return SyntaxProblem("source code cannot contain null bytes", Position(1, 1))
    checked = _cpython_check(text)
    if isinstance(checked, SyntaxProblem):
        return checked
    try:
        return Parsed(cst.parse_module(text), checked)
    except cst.ParserSyntaxError as error:
        return SyntaxProblem(
            f"syntax error: {error.message}", Position(error.raw_line, error.raw_column + 1)
        )
    except RecursionError:
        return SyntaxProblem("too deeply nested to parse", Position(1, 1), skipped=True)


def _cpython_check(text: str) -> Anchors | SyntaxProblem:
    try:
        with warnings.catch_warnings():  # SyntaxWarnings about the user's code are not ours
            warnings.simplefilter("ignore")
            tree = ast.parse(text)
    except SyntaxError as error:
        line = error.lineno or 1
        column = error.offset or 1
        return SyntaxProblem(f"syntax error: {error.msg}", Position(line, max(column, 1)))
    except (RecursionError, MemoryError):
        return SyntaxProblem("syntax error: too deeply nested for Python to parse", Position(1, 1))
    height, nodes, anchors = survey(tree, None if text.isascii() else LINE_BREAK.split(text))
    if height > MAX_DEPTH:
        return SyntaxProblem(
            f"nested {height} levels deep, deeper than the {MAX_DEPTH} analysed",
            Position(1, 1),
            skipped=True,
        )
    if nodes > MAX_NODES:
        return SyntaxProblem(
            f"{nodes} syntax nodes, more than the {MAX_NODES} analysed",
            Position(1, 1),
            skipped=True,
        )
    return anchors


def noqa_comments(
    text: str,
) -> tuple[dict[int, frozenset[str] | None], dict[int, frozenset[str] | None]]:
    """Lines with a ``# noqa`` comment and their codes (``None``: all), and likewise the lines
    with a file-level ``# dagroute-lint: noqa`` (``: CODES`` scopes it to those codes), as
    ``noqa.read_comment`` reads each line."""
    lines: dict[int, frozenset[str] | None] = {}
    file_level: dict[int, frozenset[str] | None] = {}
    if "noqa" not in text and "NOQA" not in text:
        return lines, file_level
    for number, line in enumerate(LINE_BREAK.split(text), start=1):
        comment = read_comment(line)
        if comment is not None:
            (file_level if comment.file_level else lines)[number] = comment.codes
    return lines, file_level
