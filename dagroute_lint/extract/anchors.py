"""What CPython's syntax tree says about where statements and calls start.

The syntax check (``source.parse``) already builds CPython's tree of every file and walks it once
to measure its depth. CPython records a start for every statement and expression, which libcst
does not; collecting the statements and calls during that same walk lets ``positions`` place the
nodes a linter reports without generating the module's code again (which cost a sixth of a cold
run). Calls inside f-strings are left out on both sides: before Python 3.12 CPython places the
expressions of an f-string only approximately.
"""

from __future__ import annotations

import ast
from dataclasses import field

from dagroute_lint.records import record

_STATEMENTS = frozenset(ast.stmt.__subclasses__())


@record(frozen=False)
class Anchors:
    """The file's statements and calls, each list in the order they start in the source."""

    statements: list[ast.stmt] = field(default_factory=list)
    calls: list[ast.Call] = field(default_factory=list)
    lines: list[str] | None = None  # the source's lines, kept only when a column needs converting

    def column(self, line: int, offset: int) -> int:
        """The 1-based character column of CPython's UTF-8 byte ``offset`` on ``line``."""
        if self.lines is None:
            return offset + 1
        return len(self.lines[line - 1].encode("utf-8")[:offset].decode("utf-8", "replace")) + 1


def survey(tree: ast.Module, lines: list[str] | None) -> tuple[int, int, Anchors]:
    """Height and node count of the tree (level by level, no recursion: it may be deep), and its
    anchors. ``lines`` are the source's lines when it is not all ASCII (columns then differ from
    CPython's byte offsets)."""
    height = nodes = 0
    anchors = Anchors(lines=lines)
    statements, calls = anchors.statements, anchors.calls
    node_type, call_type, fstring_type = ast.AST, ast.Call, ast.JoinedStr
    level: list[ast.AST] = [tree]
    muted: list[ast.AST] = []  # inside an f-string: counted, not collected
    while level or muted:
        height += 1
        nodes += len(level) + len(muted)
        below: list[ast.AST] = []
        below_muted: list[ast.AST] = []
        for node in level:
            kind = type(node)
            if kind is call_type:
                calls.append(node)  # type: ignore[arg-type]
            elif kind in _STATEMENTS:
                statements.append(node)  # type: ignore[arg-type]
            _children(node, below_muted if kind is fstring_type else below, node_type)
        for node in muted:
            _children(node, below_muted, node_type)
        level, muted = below, below_muted
    statements.sort(key=_start)
    calls.sort(key=_start_outer_first)
    return height, nodes, anchors


def _children(node: ast.AST, into: list[ast.AST], node_type: type[ast.AST]) -> None:
    """What ``ast.iter_child_nodes`` yields, without its generators."""
    for name in node._fields:
        value = getattr(node, name, None)
        if isinstance(value, node_type):
            into.append(value)
        elif isinstance(value, list):
            into.extend(item for item in value if isinstance(item, node_type))


def _start(node: ast.stmt) -> tuple[int, int]:
    return node.lineno, node.col_offset


def _start_outer_first(node: ast.Call) -> tuple[int, int, int, int]:
    """Calls that start together (``f(a)(b)``) nest: the one that ends later encloses the other,
    and comes first, as a walk from the root meets them."""
    return node.lineno, node.col_offset, -(node.end_lineno or 0), -(node.end_col_offset or 0)
