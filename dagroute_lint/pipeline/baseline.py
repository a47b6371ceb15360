"""The baseline: the diagnostics a repository had when it adopted the linter, accepted.

A diagnostic is known by its fingerprint: its code, its file (relative to its project, so that
the baseline holds from any working directory), and the DAG, task and item its facts name;
never its line, which any edit above it moves, nor its message, which may be reworded. A
baseline lists how many diagnostics of each fingerprint a file had, and accepts that many.
When more occur, every one of them is reported: nothing tells the new one from the old ones
(ESLint's and Stylelint's bulk suppressions do the same).

The step runs after ``# noqa``, on each project's diagnostics; ``api.lint`` applies it.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.records import record
from dagroute_lint.sources.discovery import absolute


@record
class Fingerprint:
    """What a baseline knows a diagnostic by (``None`` where its facts name nothing)."""

    file: str  # relative to the project folder, with ``/``
    code: str
    dag_id: str | None = None
    task_id: str | None = None
    item: str | None = None

    def sort_key(self) -> tuple[str, ...]:
        return (self.file, self.code, *(value or "" for value in self.named()))

    def named(self) -> tuple[str | None, str | None, str | None]:
        return (self.dag_id, self.task_id, self.item)


# How many diagnostics of each fingerprint one project's files had.
Counts = dict[Fingerprint, int]


@record
class Baseline:
    """A baseline file's content. ``projects`` are keyed by the project folder relative to the
    file's folder (``"."`` for a baseline in its project's folder), so that one file can serve
    every project of a run."""

    path: Path  # absolute
    projects: dict[str, Counts]

    def of(self, root: Path) -> Counts:
        """The entries of the project whose folder is ``root``."""
        return self.projects.get(project_key(self.path, root), {})


def project_key(baseline: Path, root: Path) -> str:
    return Path(os.path.relpath(root, baseline.parent)).as_posix()


def project_file(real: str, root: Path) -> str:
    """A file's path relative to its project folder, as the baseline names it."""
    return Path(os.path.relpath(real, root)).as_posix()


def fingerprint(diagnostic: Diagnostic, file: str) -> Fingerprint:
    facts = diagnostic.facts
    return Fingerprint(file, diagnostic.code, facts.dag_id, facts.task_id, facts.item)


def counts(diagnostics: Iterable[Diagnostic], root: Path, linted: Mapping[str, str]) -> Counts:
    """The fingerprints of one project's diagnostics, counted (what ``--write-baseline``
    records); ``linted`` maps each file the run linted, as shown, to its real path."""
    found: Counts = {}
    for key in _fingerprints(diagnostics, root, linted):
        found[key] = found.get(key, 0) + 1
    return found


def _fingerprints(
    diagnostics: Iterable[Diagnostic], root: Path, linted: Mapping[str, str]
) -> Iterable[Fingerprint]:
    for diagnostic in diagnostics:
        real = linted.get(diagnostic.path) or str(absolute(Path(diagnostic.path)))
        yield fingerprint(diagnostic, project_file(real, root))


@record
class Stale:
    """An entry of the baseline file ``baseline`` that no longer occurs: ``count`` of its
    fingerprint are gone from ``file``."""

    baseline: Path
    file: Path  # absolute
    fingerprint: Fingerprint
    count: int


@record
class Filtered:
    """What a baseline leaves of one project's diagnostics: those ``reported``, how many it
    ``accepted``, and its entries that no longer occur."""

    reported: list[Diagnostic]
    accepted: int
    stale: list[Stale]


def apply_baseline(
    baseline: Baseline, root: Path, diagnostics: list[Diagnostic], linted: Mapping[str, str]
) -> Filtered:
    """The diagnostics of the project at ``root`` that ``baseline`` does not accept.

    An entry no longer occurs when its file was linted (``linted``: each file of the run, as
    shown, to its real path) and has fewer diagnostics of its fingerprint, or when its file is
    gone. Entries of other files are left alone: a run over some files (pre-commit's) knows
    nothing about the rest.
    """
    accepted = baseline.of(root)
    groups: dict[Fingerprint, list[Diagnostic]] = {}
    for diagnostic, key in zip(diagnostics, _fingerprints(diagnostics, root, linted)):
        groups.setdefault(key, []).append(diagnostic)
    reported: list[Diagnostic] = []
    hidden = 0
    for key, found in groups.items():
        if len(found) <= accepted.get(key, 0):
            hidden += len(found)
        else:
            reported += found
    files = {project_file(real, root) for real in linted.values()}
    stale = [
        Stale(baseline.path, root / key.file, key, allowed - len(groups.get(key, ())))
        for key, allowed in accepted.items()
        if len(groups.get(key, ())) < allowed
        and (key.file in files or not (root / key.file).exists())
    ]
    stale.sort(key=lambda entry: entry.fingerprint.sort_key())
    return Filtered(sorted(reported), hidden, stale)


def rewritten(
    path: Path,
    previous: Baseline | None,
    found: Mapping[str, Counts],
    linted: Mapping[str, set[str]],
) -> Baseline:
    """The baseline ``--write-baseline`` writes to ``path``: what the run found (``found``, by
    project key), and the previous file's entries of files the run did not lint
    (``linted``: the project files of each key) that still exist. A run over some files thus
    leaves the others' entries as they were, and a file deleted or renamed drops out."""
    projects: dict[str, Counts] = {key: dict(entries) for key, entries in found.items()}
    for key, entries in previous.projects.items() if previous is not None else ():
        for entry, count in entries.items():
            if entry.file in linted.get(key, set()):
                continue
            if (path.parent / key / entry.file).exists():
                projects.setdefault(key, {})[entry] = count
    return Baseline(path, {key: entries for key, entries in projects.items() if entries})
