"""Code as the user wrote it, for messages.

A message names ``config_path.exists()`` or ``(start - delta).isoformat()`` as they stand in the
file, never a name rebuilt from the tree (libcst's full-name helper drops calls and writes an
expression it cannot name as ``None``: ``datetime.now.timestamp``, ``None.isoformat``).
"""

from __future__ import annotations

import libcst as cst

LIMIT = 60  # characters of code in a message; longer code is cut with "..."
_RENDER = cst.Module(body=[])


def as_written(node: cst.CSTNode) -> str:
    """``node``'s code on one line, whitespace runs collapsed, cut at ``LIMIT`` characters."""
    text = " ".join(_RENDER.code_for_node(node).split())
    return text if len(text) <= LIMIT else f"{text[: LIMIT - 3]}..."
