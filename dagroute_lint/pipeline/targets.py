"""Turn the paths given into what to lint: the inventory or settings file stands for every DAG.

pre-commit passes the files a commit changed. A change to the inventory (or to the settings in
``pyproject.toml``) can break or fix any task of the repository, so when one of those files is
among the paths the whole DAG universe is linted instead: the ``dags`` folders, or the project
root when no ``dags`` setting names them. Other TOML files are not DAGs and are passed over.

Each path belongs to its own project (the nearest settings or inventory up from it), so one
command line may lint several projects, each under its own settings and inventory.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path

from dagroute_lint.config import (
    Project,
    Settings,
    find_project,
    load_settings,
    nested_projects,
    settings_of,
)
from dagroute_lint.errors import ConfigError
from dagroute_lint.records import record, replace
from dagroute_lint.sources.discovery import absolute, cwd_relative

STDIN = "-"


@record
class Targets:
    """Paths to lint, and the files given that were set aside (with the reason)."""

    paths: tuple[str, ...]
    whole_repository_because: str | None = None
    passed_over: tuple[str, ...] = ()


def lint_targets(given: Sequence[str], settings: Settings) -> Targets:
    """What ``dagroute-lint`` lints for the command-line ``given`` paths under ``settings``.

    With no paths, the ``dags`` folders, else the working directory (as ruff lints ``.``).
    """
    if not given:
        return Targets(tuple(_shown(folder) for folder in settings.dags) or (".",))
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


@record
class ProjectRun:
    """The share of a command line one project governs: its settings and its paths."""

    settings: Settings
    targets: Targets


def plan(
    given: Sequence[str],
    config: Path | None,
    stdin_filename: str | None,
    flags: Callable[[Settings], Settings],
) -> list[ProjectRun]:
    """Group ``given`` by the project each path belongs to, each with its settings and flags.

    ``--config`` makes one project of everything. Stdin belongs to the project of
    ``stdin_filename``; no paths, to the project of the working directory.
    """
    if config is not None:
        settings = flags(load_settings(config, Path.cwd()))
        return [ProjectRun(settings, lint_targets(given, settings))]
    found: dict[Path, Project] = {}  # pre-commit passes many files of few folders

    def project_of(path: str) -> Project:
        if path == STDIN:
            raise ConfigError("`-` (stdin) cannot be combined with other paths")
        where = Path(path)
        folder = where if where.is_dir() else where.parent
        if folder not in found:
            found[folder] = find_project(folder)
        return found[folder]

    # Projects in order of appearance, each with its paths; a folder that holds another project
    # hands that project's folder over to it, as ruff gives each file its nearest settings.
    groups: list[tuple[Project, list[str]]] = []
    if list(given) == [STDIN] or not given:
        start = Path(stdin_filename).parent if given and stdin_filename else Path.cwd()
        groups.append((find_project(start), list(given)))
    else:
        for path in given:
            _add(groups, project_of(path), path)
    runs = []
    done = 0
    while done < len(groups):
        project, paths = groups[done]
        done += 1
        settings = flags(settings_of(project))
        targets = lint_targets(paths, settings)
        skipped: list[Path] = []
        for shown in targets.paths:
            if Path(shown).is_dir():
                for inner in nested_projects(Path(shown)):
                    skipped.append(absolute(inner))
                    _add(groups[done:], project_of(str(inner)), str(inner), groups)
        runs.append(ProjectRun(replace(settings, skip_folders=tuple(skipped)), targets))
    return runs


def _add(
    pending: list[tuple[Project, list[str]]],
    project: Project,
    path: str,
    into: list[tuple[Project, list[str]]] | None = None,
) -> None:
    """``path`` to the first group of ``project`` still ``pending``, else a new group at the end
    of ``into`` (``pending`` itself when not given)."""
    for group, paths in pending:
        if group == project:
            if path not in paths:
                paths.append(path)
            return
    (pending if into is None else into).append((project, [path]))


def _shown(folder: Path) -> str:
    """A configured folder as diagnostics should show it: relative to here when inside."""
    return str(cwd_relative(folder))


def _deployment_files(settings: Settings) -> frozenset[Path]:
    """The inventory in use and the settings files (the one found and those it extends): a
    change to any concerns every task."""
    files = {settings.default_inventory(), settings.config_file, *settings.extends}
    return frozenset(path.resolve() for path in files if path is not None)
