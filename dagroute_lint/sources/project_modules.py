"""Where the repository's own modules lie in the project folder, on an import root or not.

An import of ``common.helpers`` written as ``plugins/common/helpers.py`` fails when ``plugins/``
is on no import root, and the fix is a setting (``roots``), not a distribution: the question
"which folder of the project would make this module importable?" is asked for such imports
only (a name no table knows, on no root), and the project is walked once, the first time it is
asked, never per import. The walk passes over what discovery passes over (``DEFAULT_EXCLUDES``
and the ``exclude`` settings), projects of their own inside this one, links to folders, and
virtual environments (a folder holding ``pyvenv.cfg``, whatever its name), whose packages are
installed distributions, not the repository's modules.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from dagroute_lint.sources.discovery import excluded_by

_VENV_MARKER = "pyvenv.cfg"


class ProjectModules:
    """The folders of a project from which each top-level module name would be imported: for
    ``plugins/common/helpers.py``, ``common`` from ``plugins`` and ``helpers`` from
    ``plugins/common`` (and ``plugins`` from the project folder itself)."""

    def __init__(self, root: Path, exclude: Sequence[str] = (), skip: Sequence[Path] = ()) -> None:
        self.root = root
        self._excluded = excluded_by(exclude)
        self._skip = frozenset(str(path) for path in skip)
        self._folders: dict[str, list[str]] | None = None

    def folder_for(self, module: str) -> Path | None:
        """The shallowest folder of the project (then the first by name) that holds ``module``
        whole, as a module file or a package folder; ``None`` when none does."""
        parts = module.split(".")
        for folder in self._index().get(parts[0], ()):
            place = self.root.joinpath(folder, *parts)
            if place.is_dir() or place.with_name(place.name + ".py").is_file():
                return self.root / folder
        return None

    def _index(self) -> dict[str, list[str]]:
        if self._folders is None:
            found: dict[str, set[str]] = {}
            self._walk(str(self.root), (), found)
            self._folders = {
                name: sorted(folders, key=lambda text: (text.count("/"), text))
                for name, folders in found.items()
            }
        return self._folders

    def _walk(self, directory: str, parts: tuple[str, ...], found: dict[str, set[str]]) -> bool:
        """Record each module file and each folder holding one below ``directory`` (``parts``:
        its path below the project) under its name, with the folder it is imported from;
        whether ``directory`` holds a module file at any depth."""
        try:
            with os.scandir(directory) as listing:
                entries = list(listing)
        except OSError:
            return False
        if any(entry.name == _VENV_MARKER for entry in entries):
            return False
        excluded = self._excluded
        prefix = "/".join(parts)
        holds = False
        for entry in entries:
            name = entry.name
            try:
                is_folder = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            if is_folder:
                path = f"{prefix}/{name}" if prefix else name
                if excluded(name) or excluded(path) or entry.path in self._skip:
                    continue
                if self._walk(entry.path, (*parts, name), found):
                    holds = True
                    if name.isidentifier():
                        found.setdefault(name, set()).add(prefix)
            elif name.endswith(".py"):
                holds = True
                if name[:-3].isidentifier():
                    found.setdefault(name[:-3], set()).add(prefix)
        return holds
