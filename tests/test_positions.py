"""Our one-pass positions agree with libcst's own PositionProvider on every node we report."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, WhitespaceInclusivePositionProvider

from dagroute_lint.extract.positions import node_positions

REPO = Path(__file__).resolve().parents[1]


def test_positions_match_libcst_on_the_examples() -> None:
    checked = 0
    for path in sorted((REPO / "examples").rglob("*.py")):
        wrapper = MetadataWrapper(cst.parse_module(path.read_text(encoding="utf-8")))
        expected = wrapper.resolve(WhitespaceInclusivePositionProvider)
        nodes = [
            node
            for node in expected
            if isinstance(node, (cst.Call, cst.Import, cst.ImportFrom, cst.Arg))
        ]
        ours = node_positions(wrapper.module, nodes)
        for node in nodes:
            start = expected[node].start
            assert (ours[id(node)].line, ours[id(node)].column) == (start.line, start.column + 1)
            checked += 1
    assert checked > 50
