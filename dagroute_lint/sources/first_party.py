"""Which imported modules the repository provides itself, found on Airflow's import path."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from dagroute_lint.catalog.stdlib_first import found_before_roots
from dagroute_lint.sources.project_modules import ProjectModules


class FirstParty:
    """Answers "is this module the repository's own?" from the import roots, with a cache.

    Only the top-level name is looked at: ``common.routing`` is first-party when ``common.py`` or
    a ``common`` folder (a package, or a namespace package without ``__init__.py``) sits on one of
    the roots. Whether the rest of the dotted path exists is not a question of installed packages.
    A name the standard library holds on every supported Python is never first-party, whatever
    the roots hold: Airflow appends them to ``sys.path``, after the standard library
    (``shadowed`` says where the repository's module of that name lies).
    """

    def __init__(self, roots: Sequence[Path], project: ProjectModules | None = None) -> None:
        self.roots = tuple(dict.fromkeys(roots))
        self.project = project
        self._known: dict[str, bool] = {}

    def __call__(self, module: str) -> bool:
        top = module.partition(".")[0]
        found = self._known.get(top)
        if found is None:
            found = not found_before_roots(top) and self._on_roots(top) is not None
            self._known[top] = found
        return found

    def shadowed(self, module: str) -> Path | None:
        """The repository's module or package named like the standard-library module that
        ``import module`` finds instead (``dags/queue.py`` for ``queue``); ``None`` when the
        name is not the standard library's or the roots hold no such module."""
        top = module.partition(".")[0]
        return self._on_roots(top) if found_before_roots(top) else None

    def _on_roots(self, top: str) -> Path | None:
        for root in self.roots:
            if (root / top).is_dir():
                return root / top
            if (root / f"{top}.py").is_file():
                return root / f"{top}.py"
        return None

    def missing_part(self, module: str) -> str | None:
        """The first dotted prefix of a first-party ``module`` that Python cannot find, or ``None``.

        Below a regular package (a folder with ``__init__.py``) or a module file, Python looks in
        that one place, so every further part must be a folder or a ``.py`` file there. A
        top-level namespace package (a folder without ``__init__.py``) may take parts from
        anywhere on ``sys.path``, installed distributions included: nothing under one is called
        missing.
        """
        parts = module.split(".")
        place = self._regular(parts[0])
        if place is None:
            return None
        for end in range(1, len(parts)):
            step = place / parts[end]
            if place.suffix == ".py":
                return ".".join(parts[: end + 1])
            if step.is_dir():
                place = step
            elif step.with_suffix(".py").is_file():
                place = step.with_suffix(".py")
            else:
                return ".".join(parts[: end + 1])
        return None

    def _regular(self, top: str) -> Path | None:
        """The package folder or module file Python imports for ``top``, if not a namespace."""
        for root in self.roots:
            if (root / top / "__init__.py").is_file():
                return root / top
            if (root / f"{top}.py").is_file():
                return root / f"{top}.py"
        return None

    def stray(self, module: str, importer: Path) -> Path | None:
        """Where the top-level name of ``module`` lies beside ``importer`` but off the roots.

        The usual mistake: ``dags/team/report.py`` imports ``helpers`` written as
        ``dags/team/helpers.py``, but Airflow puts ``dags/`` on ``sys.path``, not ``dags/team/``.
        The folders searched are the importer's own and those between it and the root it lies
        under; ``None`` when the name is on a root (then it is first-party) or is not there.
        """
        if self(module) or not any(importer.is_relative_to(root) for root in self.roots):
            return None
        top = module.partition(".")[0]
        folder = importer.parent
        while folder not in self.roots and folder.parent != folder:
            for candidate in (folder / f"{top}.py", folder / top / "__init__.py"):
                if candidate.is_file():
                    return candidate
            folder = folder.parent
        return None

    def off_roots(self, module: str) -> Path | None:
        """The folder of the project, on no import root, that holds ``module`` (``common.helpers``
        as ``plugins/common/helpers.py``: ``plugins``), or ``None``: the folder whose addition
        to the roots would let Python find it. Only the project folder is searched (once per
        run, see ``ProjectModules``), and only for a name found on no root."""
        if self.project is None or self(module):
            return None
        found = self.project.folder_for(module)
        return None if found is None or found in self.roots else found


def no_first_party(module: str) -> bool:
    """For a context that knows no import roots: nothing is first-party."""
    return False
