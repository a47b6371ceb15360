"""The lint run: the analysed repository through the selected rules, then ``# noqa``."""

from __future__ import annotations

from collections.abc import Sequence

from dagroute_lint.config import Settings
from dagroute_lint.deployment.inventory import Inventory
from dagroute_lint.diagnostics import UNUSED_NOQA, Diagnostic, unsuppressed
from dagroute_lint.pipeline.analysis import Execution, analyse
from dagroute_lint.records import record
from dagroute_lint.resolve.repository import AnalysedFile, Repository
from dagroute_lint.resolve.tasks import ResolvedTask
from dagroute_lint.rules import AnyRule
from dagroute_lint.rules.registry import all_rules


@record
class Report:
    """What a lint run found, and the repository it found it in."""

    repository: Repository
    diagnostics: list[Diagnostic]

    @property
    def tasks(self) -> list[ResolvedTask]:
        return self.repository.tasks

    @property
    def files(self) -> int:
        return len(self.repository.files)


def selected_rules(settings: Settings) -> list[AnyRule]:
    """The rules ``select`` / ``ignore`` leave on, in registry order."""
    selected = settings.selected_codes()
    return [rule for rule in all_rules() if rule.code in selected]


def lint(repository: Repository, rules: Sequence[AnyRule], settings: Settings) -> list[Diagnostic]:
    """Every diagnostic of ``rules`` on the repository's files, minus ``per-file-ignores`` and
    ``# noqa``, in output order. Rules about the deployment run only with an inventory."""
    reported = [
        found for file in repository.files for found in lint_file(file, repository, rules, settings)
    ]
    reported.sort()
    return reported


def lint_file(
    file: AnalysedFile, repository: Repository, rules: Sequence[AnyRule], settings: Settings
) -> list[Diagnostic]:
    """The diagnostics of one file, minus ``per-file-ignores`` and ``# noqa``, unsorted."""
    ignored = settings.ignored_for(file.source.path)
    running = [
        rule for rule in rules if rule.code not in ignored and rule.runs_on(file, repository)
    ]
    found = [d for rule in running for d in rule.diagnostics(file, repository)]
    ran = frozenset(rule.code for rule in running)
    return unsuppressed(found, file.module, ran, report_unused=UNUSED_NOQA in ran)


def run(
    paths: Sequence[str],
    settings: Settings,
    inventory: Inventory | None,
    stdin: tuple[str, bytes] | None = None,
    execution: Execution | None = None,
) -> Report:
    """Lint ``paths`` (or one buffer from stdin, named as a file) with the selected rules."""
    repository = analyse(paths, settings, inventory, stdin, execution)
    return Report(repository, lint(repository, selected_rules(settings), settings))
