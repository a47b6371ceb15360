"""Turn the paths given into what to lint: the inventory or settings file stands for every DAG.

pre-commit passes the files a commit changed. A change to the inventory (or to the settings in
``pyproject.toml``) can break or fix any task of the repository, so when one of those files is
among the paths the whole DAG universe is linted instead: the ``dags`` folders, or the project
root when no ``dags`` setting names them. Other TOML files are not DAGs and are passed over.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from dagroute_lint.config import Settings
from dagroute_lint.errors import ConfigError
from dagroute_lint.sources.discovery import absolute, cwd_relative

STDIN = "-"


@dataclass(frozen=True)
class Targets:
    """Paths to lint, and the files given that were set aside (with the reason)."""

    paths: tuple[str, ...]
    whole_repository_because: str | None = None
    passed_over: tuple[str, ...] = ()


def lint_targets(given: Sequence[str], settings: Settings) -> Targets:
    """What ``dagroute-lint`` lints for the command-line ``given`` paths under ``settings``."""
    if not given:
        if not settings.dags:
            raise ConfigError("no paths given and no `dags` setting: nothing to lint")
        return Targets(tuple(_shown(folder) for folder in settings.dags))
    if STDIN in given:
        if list(given) != [STDIN]:
            raise ConfigError("`-` (stdin) cannot be combined with other paths")
        return Targets((STDIN,))
    # lexists: a symbolic link that loops or dangles is linted, and reported as unreadable
    missing = [path for path in given if not os.path.lexists(path)]
    if missing:
        raise ConfigError(f"no such file or directory: {', '.join(missing)}")
    deployment_files = _deployment_files(settings)
    paths: list[str] = []
    passed_over: list[str] = []
    trigger: str | None = None
    for path in given:
        resolved = absolute(Path(path))
        if resolved in deployment_files:
            trigger = trigger or path
        elif resolved.suffix == ".toml":
            passed_over.append(path)
        else:
            paths.append(path)
    if trigger is not None:
        everything = settings.dags or (settings.root,)
        paths = [_shown(folder) for folder in everything] + paths
    return Targets(tuple(paths), trigger, tuple(passed_over))


def _shown(folder: Path) -> str:
    """A configured folder as diagnostics should show it: relative to here when inside."""
    return str(cwd_relative(folder))


def _deployment_files(settings: Settings) -> frozenset[Path]:
    """The inventory in use and the settings file: a change to either concerns every task."""
    files = {settings.default_inventory(), settings.config_file}
    return frozenset(path.resolve() for path in files if path is not None)
