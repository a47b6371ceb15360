"""``.airflowignore`` as Airflow's DAG processor reads it, so we lint the files Airflow loads.

Follows ``airflow._shared.module_loading.file_discovery`` (Airflow 3.3): every folder's
``.airflowignore`` adds patterns for that folder and everything below it; a matched folder is not
entered; ``#`` starts a comment. ``glob`` syntax (Airflow 3's default) is gitignore's, with
negation and order, matched by the same ``pathspec`` patterns Airflow uses; ``regexp`` syntax
(Airflow 2's default) searches each pattern in the path relative to the DAG folder.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from dagroute_lint.records import record

if TYPE_CHECKING:
    from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern

IGNORE_FILE = ".airflowignore"
SYNTAXES = ("glob", "regexp")
_COMMENT = re.compile(r"\s*#.*")


@record
class _RegexpRule:
    pattern: re.Pattern[str]
    base: Path

    def verdict(self, path: Path, is_dir: bool) -> bool | None:
        return True if self.pattern.search(str(path.relative_to(self.base))) else None


@record
class _GlobRule:
    pattern: GitIgnoreSpecPattern
    relative_to: Path | None
    dir_only: bool

    def verdict(self, path: Path, is_dir: bool) -> bool | None:
        """``True`` ignores, ``False`` re-includes (``!pattern``), ``None`` says nothing."""
        if (self.dir_only and not is_dir) or self.pattern.include is None:
            return None
        relative = path.relative_to(self.relative_to) if self.relative_to else Path(path.name)
        text = f"{relative.as_posix()}/" if is_dir else relative.as_posix()
        if self.pattern.match_file(text) is None:
            return None
        return self.pattern.include


_Rule = _RegexpRule | _GlobRule


class AirflowIgnore:
    """The ignore patterns in force under one DAG folder, read lazily, one folder at a time."""

    def __init__(self, dag_folder: Path, syntax: str = "glob") -> None:
        if syntax not in SYNTAXES:
            raise ValueError(f"unknown .airflowignore syntax {syntax!r}")
        self.dag_folder = dag_folder
        self.syntax = syntax
        self._rules: dict[Path, tuple[_Rule, ...]] = {}

    def ignores(self, path: Path) -> bool:
        """Whether Airflow skips ``path`` (a file or folder under the DAG folder)."""
        try:
            relative = path.relative_to(self.dag_folder)
        except ValueError:
            return False
        current = self.dag_folder
        for part in relative.parts:
            entry = current / part
            if self.ignores_entry(current, entry, entry.is_dir()):
                return True
            current = entry
        return False

    def ignores_entry(self, folder: Path, entry: Path, is_dir: bool) -> bool:
        """Whether ``entry``, directly in ``folder``, is skipped; its ancestors are not checked."""
        ignored = False
        for rule in self.rules_in(folder):
            verdict = rule.verdict(entry, is_dir)
            if verdict is None:
                continue
            if self.syntax == "regexp":
                return True
            ignored = verdict
        return ignored

    def rules_in(self, folder: Path) -> tuple[_Rule, ...]:
        """Rules for the entries of ``folder``: its own and its ancestors' in the DAG folder."""
        if folder in self._rules:
            return self._rules[folder]
        inherited: tuple[_Rule, ...] = ()
        if folder != self.dag_folder and folder.is_relative_to(self.dag_folder):
            inherited = self.rules_in(folder.parent)
        rules = (*inherited, *self._read(folder / IGNORE_FILE))
        self._rules[folder] = rules
        return rules

    def _read(self, ignore_file: Path) -> list[_Rule]:
        try:
            text = ignore_file.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return []
        rules: list[_Rule] = []
        for line in text.split("\n"):
            pattern = _COMMENT.sub("", line)
            if pattern:
                rule = self._compile(pattern, ignore_file)
                if rule is not None:
                    rules.append(rule)
        return rules

    def _compile(self, pattern: str, ignore_file: Path) -> _Rule | None:
        """One rule; patterns Airflow would reject with a warning are dropped, as it does."""
        if self.syntax == "regexp":
            try:
                return _RegexpRule(re.compile(pattern), self.dag_folder)
            except re.error:
                return None
        if pattern.strip() == "/":
            return None
        anchored = pattern.startswith("/") or "/" in pattern.rstrip("/")
        raw = pattern.lstrip("!")
        dir_only = raw.rstrip() != raw.rstrip().rstrip("/")
        from pathspec.patterns.gitignore.spec import GitIgnoreSpecPattern  # only when used

        try:
            compiled = GitIgnoreSpecPattern(pattern)
        except ValueError:
            return None
        return _GlobRule(compiled, ignore_file.parent if anchored else None, dir_only)
