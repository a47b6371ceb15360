"""Which imported modules the repository provides itself, found on Airflow's import path."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


class FirstParty:
    """Answers "is this module the repository's own?" from the import roots, with a cache.

    Only the top-level name is looked at: ``common.routing`` is first-party when ``common.py`` or
    a ``common`` folder (a package, or a namespace package without ``__init__.py``) sits on one of
    the roots. Whether the rest of the dotted path exists is not a question of installed packages.
    """

    def __init__(self, roots: Sequence[Path]) -> None:
        self.roots = tuple(dict.fromkeys(roots))
        self._known: dict[str, bool] = {}

    def __call__(self, module: str) -> bool:
        top = module.partition(".")[0]
        found = self._known.get(top)
        if found is None:
            found = any(
                (root / top).is_dir() or (root / f"{top}.py").is_file() for root in self.roots
            )
            self._known[top] = found
        return found


def no_first_party(module: str) -> bool:
    """For a context that knows no import roots: nothing is first-party."""
    return False
