"""Each open document's settings and inventory, found as the command line finds them for a path."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from dagroute_lint.api import BufferProject, buffer_project
from dagroute_lint.config import Settings
from dagroute_lint.errors import ConfigError

# Files whose change can change what any open document reports.
CONFIG_NAMES = frozenset({"pyproject.toml", "dagroute.toml"})


class Projects:
    """Projects by document folder, read once and kept until a configuration file changes.

    Reading ``pyproject.toml`` and the inventory on every keystroke would cost more than linting
    the buffer; keeping them past a change would lint against a stale deployment, so the server
    calls ``forget`` whenever a TOML file or a project's inventory or baseline changes, and
    ``keep`` when a document closes (a session that opens files all over a repository would
    otherwise hold a project for every folder it ever visited).
    """

    def __init__(self) -> None:
        self._by_folder: dict[Path, BufferProject | ConfigError] = {}

    def for_document(self, path: Path) -> BufferProject | ConfigError:
        """The project of the file at ``path``, or the configuration error that prevents it."""
        folder = path.parent
        if folder not in self._by_folder:
            self._by_folder[folder] = _load(folder)
        return self._by_folder[folder]

    def concerns(self, path: Path) -> bool:
        """Whether a change of ``path`` can change a project: a config file, an inventory or a
        baseline.

        A project that failed to load may have failed on any TOML file it names, so while one
        is broken every TOML file counts.
        """
        if path.name in CONFIG_NAMES:
            return True
        return any(
            path.suffix == ".toml"
            if isinstance(project, ConfigError)
            else path in _own_files(project.settings)
            for project in self._by_folder.values()
        )

    def forget(self) -> None:
        self._by_folder.clear()

    def keep(self, documents: Iterable[Path]) -> None:
        """Drop the projects of folders where none of ``documents`` (the open ones) is."""
        folders = {path.parent for path in documents}
        for folder in list(self._by_folder):  # a copy: a lint in its thread may add one meanwhile
            if folder not in folders:
                self._by_folder.pop(folder, None)


def _load(folder: Path) -> BufferProject | ConfigError:
    try:
        return buffer_project(folder)
    except ConfigError as error:
        return error


def _own_files(settings: Settings) -> set[Path]:
    files = {
        settings.config_file,
        *settings.extends,
        settings.default_inventory(),
        settings.inventory,
        settings.baseline,
    }
    return {path.resolve() for path in files if path is not None}
