"""The facts an inventory still leaves to fill in: its ``# FILL IN`` comments.

``inventory init`` writes a ``# FILL IN KEY: why`` comment for each fact no source established
(wrapped comment lines continue indented); ``inventory check`` lists them, and ``--strict``
fails while any is left, so a pipeline cannot take a half-made inventory for a finished one.
"""

from __future__ import annotations

import re
from pathlib import Path

from dagroute_lint.errors import read_user_file

_FILL_IN = re.compile(r"^\s*#\s*FILL IN\b\s*(?P<text>.*)$")
_CONTINUED = re.compile(r"^\s*#\s{3,}(?P<text>\S.*)$")


def open_facts(path: Path) -> list[tuple[int, str]]:
    """``(line, text)`` of each ``# FILL IN`` comment, its wrapped lines joined."""
    found: list[tuple[int, str]] = []
    lines = read_user_file(path).splitlines()
    for number, line in enumerate(lines, start=1):
        match = _FILL_IN.match(line)
        if match is None:
            continue
        parts = [match.group("text")]
        for following in lines[number:]:
            continued = _CONTINUED.match(following)
            if continued is None:
                break
            parts.append(continued.group("text"))
        found.append((number, " ".join(parts)))
    return found
