"""Variable interpolation as docker compose does it, in compose files and ``.env`` files.

The forms of the compose specification ("Interpolation"): ``$VAR`` and ``${VAR}``;
``${VAR:-default}`` (unset or empty) and ``${VAR-default}`` (unset); ``${VAR:?message}`` and
``${VAR?message}``, which stop compose with the message; ``${VAR:+other}`` and ``${VAR+other}``;
``$$`` for a literal ``$``. Defaults may hold further interpolations (``${A:-${B}}``). An unset
variable with no default becomes the empty string, as compose substitutes it (with a warning).
The caller hears of each variable used unset, and of each default taken, so it can say which
values the shell that starts compose could still change.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class InterpolationError(ValueError):
    """``${VAR:?message}`` with VAR unset, or a ``${`` that is never closed."""


Heard = Callable[[str, str | None], None]
# What ``unset`` hears for a variable that has its value (an identity, never a default).
VALUE_USED = "\x00value"


def interpolate(text: str, variables: Mapping[str, str], unset: Heard | None = None) -> str:
    """``text`` with every variable replaced; ``unset(name, default)`` is told of each variable
    used without a value: ``default`` is the text used in its place, ``None`` when there is
    none (the empty string is used). A variable used with its value is told as
    ``unset(name, VALUE_USED)``, so a caller can also say where values came from."""
    out: list[str] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char != "$":
            out.append(char)
            index += 1
            continue
        following = text[index + 1 : index + 2]
        if following == "$":
            out.append("$")
            index += 2
        elif following == "{":
            end = _closing(text, index + 2)
            out.append(_braced(text[index + 2 : end], variables, unset))
            index = end + 1
        else:
            match = _NAME.match(text, index + 1)
            if match is None:
                out.append("$")  # a lone `$` stays, as compose leaves it
                index += 1
                continue
            out.append(_value(match.group(), variables, unset))
            index = match.end()
    return "".join(out)


def _closing(text: str, start: int) -> int:
    depth = 1
    index = start
    while index < len(text):
        if text.startswith("${", index):
            depth += 1
            index += 2
            continue
        if text[index] == "}":
            depth -= 1
            if depth == 0:
                return index
        index += 1
    raise InterpolationError(f"{text!r}: '${{' is not closed by '}}'")


def _braced(body: str, variables: Mapping[str, str], unset: Heard | None) -> str:
    match = _NAME.match(body)
    if match is None:
        raise InterpolationError(f"'${{{body}}}' is not a variable name")
    name = match.group()
    rest = body[match.end() :]
    if not rest:
        return _value(name, variables, unset)
    for operator in (":-", "-", ":?", "?", ":+", "+"):
        if rest.startswith(operator):
            argument = rest[len(operator) :]
            break
    else:
        raise InterpolationError(f"'${{{body}}}': unknown form after {name!r}")
    present = name in variables
    empty = not variables.get(name, "")
    missing = empty if operator.startswith(":") else not present
    if operator in (":-", "-"):
        if not missing:
            return _value(name, variables, unset)
        default = interpolate(argument, variables, unset)
        if unset is not None:
            unset(name, default)
        return default
    if operator in (":?", "?"):
        if missing:
            message = interpolate(argument, variables, unset) or "it is not set"
            raise InterpolationError(f"required variable {name} is missing a value: {message}")
        return variables[name]
    return "" if missing else interpolate(argument, variables, unset)


def _value(name: str, variables: Mapping[str, str], unset: Heard | None) -> str:
    if name in variables:
        if unset is not None:
            unset(name, VALUE_USED)
        return variables[name]
    if unset is not None:
        unset(name, None)
    return ""
