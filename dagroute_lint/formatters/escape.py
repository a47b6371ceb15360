"""Make user-controlled text (file names, task ids, messages quoting the source) safe to print.

A file name may contain a newline, which would forge a second diagnostic line for the editor or
CI matcher reading our output, or an ANSI escape, which would recolour or rewrite the terminal.
Every control character, Unicode line separator and bidirectional override is shown as a Python
escape instead (``\\n``, ``\\x1b``, ``\\u202e``); everything else, backslashes included (Windows
paths), is printed as is.
"""

from __future__ import annotations

import re

_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    character = match.group()
    if character in _NAMED:
        return _NAMED[character]
    code = ord(character)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str) -> str:
    """``text`` on one line, with nothing a terminal or a line-based reader would interpret."""
    return _UNPRINTABLE.sub(_escape, text)
