"""Glob patterns as ruff matches ``per-file-ignores``: globset syntax, anchored at the project.

A pattern matches a file when it matches the file's path joined to the project root (so
``dags/*.py`` means the ``dags`` folder of the project, never a ``dags`` folder deeper down), or
when it matches the file's name alone (so ``test_*.py`` matches such files anywhere). As in
globset, ``*`` and ``?`` also match ``/``, ``**/`` matches any number of folders (none
included: ``dags/**/*.py`` matches ``dags/top.py``), ``[...]`` and ``[!...]`` are character
classes and ``{a,b}`` alternatives.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from dagroute_lint.errors import ConfigError
from dagroute_lint.records import record


@record
class ProjectGlob:
    """One pattern, compiled for the absolute path and for the file name."""

    pattern: str
    absolute: re.Pattern[str]
    basename: re.Pattern[str]

    def matches(self, path: Path) -> bool:
        return bool(self.absolute.fullmatch(path.as_posix()) or self.basename.fullmatch(path.name))


def project_glob(pattern: str, root: Path, where: str) -> ProjectGlob:
    """``pattern`` anchored at ``root`` (an absolute pattern is kept as it is)."""
    if PurePosixPath(pattern).is_absolute():
        absolute = translate(_normal(pattern), where)
    else:
        absolute = re.escape(f"{root.as_posix().rstrip('/')}/") + translate(_normal(pattern), where)
    return ProjectGlob(pattern, re.compile(absolute), re.compile(translate(pattern, where)))


def _normal(pattern: str) -> str:
    """``./`` and doubled slashes removed, as paths are compared normalised."""
    parts = [part for part in pattern.split("/") if part not in ("", ".")]
    return ("/" if pattern.startswith("/") else "") + "/".join(parts)


def translate(pattern: str, where: str) -> str:
    """A regular expression matching what globset's default matcher matches for ``pattern``."""
    out: list[str] = []
    i, n = 0, len(pattern)
    depth = 0  # open ``{`` alternatives
    while i < n:
        char = pattern[i]
        if pattern.startswith("**", i) and (i == 0 or pattern[i - 1] == "/"):
            end = i + 2
            if end == n:
                out.append(".*")
                i = end
                continue
            if pattern[end] == "/":
                out.append("(?:.*/)?")
                i = end + 1
                continue
        if char == "*":
            while i < n and pattern[i] == "*":
                i += 1
            out.append(".*")
            continue
        if char == "?":
            out.append(".")
        elif char == "[":
            close = pattern.find("]", i + 2 if pattern[i + 1 : i + 2] in ("!", "^") else i + 1)
            if close == -1:
                raise ConfigError(f"{where}: unclosed character class in glob '{pattern}'")
            body = pattern[i + 1 : close]
            negated = body[:1] in ("!", "^")
            body = body[1:] if negated else body
            escaped = body.replace("\\", "\\\\").replace("^", "\\^")
            out.append(f"[{'^' if negated else ''}{escaped}]")
            i = close + 1
            continue
        elif char == "{":
            depth += 1
            out.append("(?:")
        elif char == "}" and depth:
            depth -= 1
            out.append(")")
        elif char == "," and depth:
            out.append("|")
        elif char == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(pattern[i]))
        else:
            out.append(re.escape(char))
        i += 1
    if depth:
        raise ConfigError(f"{where}: unclosed '{{' in glob '{pattern}'")
    return "".join(out)
