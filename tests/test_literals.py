"""String literals read without ``ast.literal_eval`` have the value CPython gives them."""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterator
from pathlib import Path

import libcst as cst
import pytest

from dagroute_lint.extract.literals import string_literal
from dagroute_lint.extract.source import Parsed, decode, parse

REPO = Path(__file__).resolve().parents[1]

TRICKY = [
    '""',
    "''",
    '""""""',
    "''''''",
    '"""a "quoted" word"""',
    "'''it''s'''",
    '"tab\\there"',
    'r"C:\\new"',
    'R"raw"',
    'u"unicode ☃"',
    'U"x"',
    'b"bytes"',
    'rb"\\d+"',
    'Br"x"',
    '"line \\\ncontinued"',
    '"""two\r\nlines"""',
    'r"""raw\r\nlines"""',
    '"\\N{SNOWMAN}"',
    '"é" "concatenated" \'pieces\'',
    'b"a" b"b"',
    '"a" f"{x}"',
    '"""""quote at the start"""',
]


def _literals() -> Iterator[cst.SimpleString | cst.ConcatenatedString]:
    class Collect(cst.CSTVisitor):
        def __init__(self) -> None:
            self.found: list[cst.SimpleString | cst.ConcatenatedString] = []

        def visit_SimpleString(self, node: cst.SimpleString) -> None:
            self.found.append(node)

        def visit_ConcatenatedString(self, node: cst.ConcatenatedString) -> None:
            self.found.append(node)

    for path in sorted([*(REPO / "examples").rglob("*.py"), *(REPO / "tests").rglob("*.py")]):
        text = decode(path.read_bytes())
        parsed = parse(text) if isinstance(text, str) else text
        if not isinstance(parsed, Parsed):
            continue
        module = parsed.module
        collect = Collect()
        module.visit(collect)
        yield from collect.found


@pytest.mark.parametrize("source", TRICKY)
def test_tricky_literals_read_as_libcst_and_cpython_read_them(source: str) -> None:
    node = cst.parse_expression(source)
    assert isinstance(node, (cst.SimpleString, cst.ConcatenatedString))
    assert string_literal(node) == node.evaluated_value
    if "f" not in source:
        assert string_literal(node) == ast.literal_eval(source)


def test_every_literal_in_the_repository_reads_as_libcst_reads_it() -> None:
    checked = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # invalid escapes in test data
        for node in _literals():
            assert string_literal(node) == node.evaluated_value, cst.Module([]).code_for_node(node)
            checked += 1
    assert checked > 10_000
