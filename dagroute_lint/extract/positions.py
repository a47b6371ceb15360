"""Line and column of a chosen few nodes, computed in one code-generation pass.

libcst's ``PositionProvider`` records a range for every node of the tree, which costs more than
the parse itself (see the measurements in the project's benchmarks). A linter reports the start of
a handful of calls and imports per file, so this records a token index for the wanted nodes only
and turns indexes into line and column once, at the end. It hooks into libcst's code generation
the way libcst's own ``PositionProvider`` does, through the private ``CodegenState``: pyproject
bounds libcst to the releases ``tests/test_positions.py`` was run against.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field

import libcst as cst
from libcst._nodes.internal import CodegenState

from dagroute_lint.extract.source import LINE_BREAK
from dagroute_lint.model import Position


@dataclass
class _MarkingState(CodegenState):
    """Codegen state that remembers how many tokens preceded each wanted node."""

    wanted: frozenset[int] = frozenset()
    marks: dict[int, int] = field(default_factory=dict)

    def before_codegen(self, node: cst.CSTNode) -> None:
        key = id(node)
        if key in self.wanted and key not in self.marks:
            self.marks[key] = len(self.tokens)

    def record_syntactic_position(  # type: ignore[override]
        self,
        node: cst.CSTNode,
        *,
        start_node: cst.CSTNode | None = None,
        end_node: cst.CSTNode | None = None,
    ) -> AbstractContextManager[None]:
        """Nothing to record: one shared empty context instead of a generator per node (the
        base class's ``@contextmanager`` costs a fifth of code generation). libcst only enters
        what this returns (``with``), so a plain context manager stands in for its type."""
        return _NOTHING


_NOTHING: AbstractContextManager[None] = nullcontext()


def node_positions(module: cst.Module, nodes: list[cst.CSTNode]) -> dict[int, Position]:
    """Map ``id(node)`` to the 1-based start position of each node in ``nodes``."""
    if not nodes:
        return {}
    state = _MarkingState(
        default_indent=module.default_indent,
        default_newline=module.default_newline,
        wanted=frozenset(id(node) for node in nodes),
    )
    module._codegen(state)
    by_index = sorted((index, key) for key, index in state.marks.items())
    positions: dict[int, Position] = {}
    line, column, consumed = 1, 0, 0
    tokens = state.tokens
    for index, key in by_index:
        if index > consumed:  # the text between two marks, split at line breaks once
            pieces = LINE_BREAK.split("".join(tokens[consumed:index]))
            if len(pieces) == 1:
                column += len(pieces[0])
            else:
                line += len(pieces) - 1
                column = len(pieces[-1])
        consumed = index
        positions[key] = Position(line, column + 1)
    return positions
