"""Write TOML text: strings, keys, arrays and comments, escaped so any value reads back unchanged.

Only what generated inventories need (no dates, floats or inline tables of tables). Values may hold
anything a user's environment or ``airflow.cfg`` holds (quotes, backslashes, newlines, control
characters, non-ASCII), so every string goes through ``string`` and every comment through
``comment``; ``tests/test_toml_writer.py`` reads the results back with ``tomllib``.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Iterable

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
# TOML basic strings may not hold U+0000-U+001F or U+007F raw; these have short escapes.
_SHORT_ESCAPES = {"\b": "\\b", "\t": "\\t", "\n": "\\n", "\f": "\\f", "\r": "\\r"}
# Comments may hold tab but no other control character, and end at a newline.
# Lone surrogates (undecodable bytes from ``os.environ``) cannot be written as UTF-8 at all.
_COMMENT_UNSAFE = re.compile(r"[\x00-\x08\x0a-\x1f\x7f\ud800-\udfff]")


def string(value: str) -> str:
    """A TOML basic string (``"..."``) holding exactly ``value``.

    Raises ``ValueError`` for a lone surrogate, which no TOML (UTF-8) document can hold.
    """
    out = []
    for char in value:
        if "\ud800" <= char <= "\udfff":
            raise ValueError(f"{value!r} is not valid Unicode text (lone surrogate)")
        if char in ('"', "\\"):
            out.append("\\" + char)
        elif char in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[char])
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def key(name: str) -> str:
    """A key: bare when TOML allows it (``default_pool``), quoted otherwise (``"my pool"``)."""
    return name if _BARE_KEY.fullmatch(name) else string(name)


def array(values: Iterable[str]) -> str:
    """An array of strings: inline when short, otherwise one item a line."""
    items = [string(value) for value in values]
    inline = "[" + ", ".join(items) + "]"
    if len(inline) <= 80 and len(items) <= 8:
        return inline
    return "[\n" + "".join(f"    {item},\n" for item in items) + "]"


def json_value(value: object) -> str:
    """A JSON value (a Variable's) as TOML: arrays and tables inline. JSON's ``null`` has no
    TOML form: ``ValueError``."""
    if isinstance(value, str):
        return string(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)  # inf, -inf, nan and 1e+100 are TOML's spellings too
    if isinstance(value, list):
        return "[" + ", ".join(json_value(item) for item in value) + "]"
    if isinstance(value, dict):
        items = ", ".join(f"{key(str(name))} = {json_value(item)}" for name, item in value.items())
        return "{ " + items + " }" if items else "{}"
    raise ValueError(f"{value!r} has no TOML form")


def comment(text: str) -> str:
    """``# text``, with line breaks and other control characters shown as escapes."""
    safe = _COMMENT_UNSAFE.sub(lambda match: repr(match.group())[1:-1], text)
    return f"# {safe}" if safe else "#"


def comment_lines(text: str, width: int = 99) -> list[str]:
    """``comment(text)`` wrapped at spaces to ``width`` (a long word, a path say, stays whole)."""
    single = comment(text)
    if len(single) <= width:
        return [single]
    indent = " " * (len(single[2:]) - len(single[2:].lstrip(" ")))
    wrapped = textwrap.wrap(
        single[2:],
        width - 2,
        subsequent_indent=indent + "  ",
        break_long_words=False,
        break_on_hyphens=False,
    )
    return [f"# {line}" for line in wrapped]
