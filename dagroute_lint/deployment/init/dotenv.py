"""``.env`` and ``env_file`` files as docker compose reads them.

One ``NAME=value`` a line; ``export NAME=value`` too, and the YAML-like ``NAME: value`` that
compose's parser (compose-go ``dotenv``) takes as well; ``#`` starts a comment line, and after
an unquoted value a `` #`` starts a trailing one. Single quotes keep the text as it is; double
quotes take ``\\n``-style escapes and interpolation; an unquoted value is interpolated and
trimmed. A line holding only ``NAME`` passes the shell's variable through, so its value is
``None`` here: only the shell that starts compose knows it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from dagroute_lint.deployment.init.interpolation import Heard, InterpolationError, interpolate
from dagroute_lint.errors import ConfigError, read_user_file

_LINE = re.compile(r"^\s*(?:export\s+)?(?P<name>[A-Za-z_][A-Za-z0-9_.-]*)\s*(?:[=:](?P<raw>.*))?$")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "$": "$"}


def read_dotenv(
    path: Path,
    variables: Mapping[str, str],
    unset: Heard | None = None,
) -> dict[str, str | None]:
    """The variables ``path`` sets, in order; earlier lines are visible to later ones."""
    text = read_user_file(path)
    found: dict[str, str | None] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        match = _LINE.match(line)
        if match is None:
            raise ConfigError(f"{path}:{number}: expected NAME=value, got {line.strip()!r}")
        name, raw = match.group("name"), match.group("raw")
        if raw is None:
            found[name] = variables.get(name)
            continue
        seen = {**variables, **{k: v for k, v in found.items() if v is not None}}
        try:
            found[name] = _value(raw, seen, unset)
        except InterpolationError as error:
            raise ConfigError(f"{path}:{number}: {name}: {error}") from None
    return found


def _value(raw: str, variables: Mapping[str, str], unset: Heard | None) -> str:
    text = raw.strip()
    if text.startswith("'") and text.count("'") >= 2:
        return text[1 : text.index("'", 1)]
    if text.startswith('"') and _closing_quote(text) > 0:
        inner = text[1 : _closing_quote(text)]
        unescaped = re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group()), inner)
        return interpolate(unescaped, variables, unset)
    comment = re.search(r"\s#", text)
    if comment is not None:
        text = text[: comment.start()]
    return interpolate(text.strip(), variables, unset)


def _closing_quote(text: str) -> int:
    index = 1
    while index < len(text):
        if text[index] == "\\":
            index += 2
            continue
        if text[index] == '"':
            return index
        index += 1
    return -1
