"""Find the files to lint, and name each one as a module the way Airflow's ``sys.path`` does."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

# Folders no DAG repository wants linted.
DEFAULT_EXCLUDES = (
    ".git",
    ".hg",
    ".venv",
    "venv",
    ".tox",
    ".nox",
    "__pycache__",
    "node_modules",
    "build",
    "dist",
    ".dagroute_cache",
    ".mypy_cache",
    ".ruff_cache",
    ".pytest_cache",
)


@dataclass(frozen=True)
class SourceFile:
    """A file to lint: the path as shown to the user, and its absolute path."""

    display: str
    path: Path


def discover(paths: Sequence[str], exclude: Sequence[str]) -> list[SourceFile]:
    """Files named directly are always linted; folders contribute every ``*.py`` not excluded."""
    found: dict[Path, SourceFile] = {}
    patterns = (*DEFAULT_EXCLUDES, *exclude)
    for given in paths:
        path = Path(given)
        if path.is_dir():
            for file in _walk(path, patterns):
                found.setdefault(absolute(file), SourceFile(str(file), absolute(file)))
        else:
            found.setdefault(absolute(path), SourceFile(given, absolute(path)))
    return sorted(found.values(), key=lambda source: source.display)


def absolute(path: Path) -> Path:
    """``path`` with symlinks resolved, or only made absolute when it is a symlink loop.

    A loop is reported when the file is read (``cannot read file``), not crashed on here.
    """
    try:
        return path.resolve()
    except (OSError, RuntimeError):  # RuntimeError: symlink loops before Python 3.13
        return Path(os.path.abspath(path))


def _walk(folder: Path, patterns: Sequence[str]) -> Iterable[Path]:
    for directory, subdirectories, files in os.walk(folder):
        subdirectories[:] = sorted(d for d in subdirectories if not _excluded(d, patterns))
        for name in sorted(files):
            if name.endswith(".py") and not _excluded(name, patterns):
                path = Path(directory) / name
                if not _excluded(str(path), patterns):
                    yield path


def _excluded(name: str, patterns: Sequence[str]) -> bool:
    return any(fnmatch.fnmatch(name, pattern) for pattern in patterns)


def module_name(path: Path, roots: Sequence[Path]) -> tuple[str, bool]:
    """Dotted name of ``path`` under the innermost root holding it, and whether it is a package."""
    best: Path | None = None
    for root in roots:
        if path.is_relative_to(root) and (best is None or len(root.parts) > len(best.parts)):
            best = root
    relative = path.relative_to(best) if best is not None else Path(path.name)
    parts = list(relative.with_suffix("").parts)
    is_package = bool(parts) and parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    return ".".join(parts), is_package


def module_candidates(name: str, roots: Sequence[Path]) -> Iterable[Path]:
    """Where a module of that name would be found on an import path made of ``roots``."""
    relative = Path(*name.split("."))
    for root in roots:
        yield root / relative.with_suffix(".py")
        yield root / relative / "__init__.py"


def walk_excludes(path: str, exclude: Sequence[str]) -> bool:
    """Whether linting a folder would pass over ``path``: for tools that hand files one by one.

    The same patterns as the folder walk, matched against each folder and the file name below
    the working directory, and against the path as given.
    """
    patterns = (*DEFAULT_EXCLUDES, *exclude)
    given = Path(path)
    if given.is_absolute() and given.is_relative_to(Path.cwd()):
        given = given.relative_to(Path.cwd())
    return any(_excluded(part, patterns) for part in given.parts) or _excluded(path, patterns)
