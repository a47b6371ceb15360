"""The pipeline: discover → extract → resolve across the repository → rules → diagnostics."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from dagroute_lint.config import Settings
from dagroute_lint.diagnostics import Diagnostic, unsuppressed
from dagroute_lint.discovery import (
    SourceFile,
    absolute,
    discover,
    module_candidates,
    module_name,
)
from dagroute_lint.extract import extract_module
from dagroute_lint.extract.source import MAX_FILE_BYTES
from dagroute_lint.files import read_source
from dagroute_lint.first_party import FirstParty
from dagroute_lint.inventory import Inventory
from dagroute_lint.model import Expr, Module, Position, Ref, SyntaxProblem
from dagroute_lint.resolve import ResolvedTask, Resolver
from dagroute_lint.rules import RULES, Context
from dagroute_lint.symbols import Known, SymbolTable, as_expr

DEFAULT_QUEUE = "default"
DEFAULT_AIRFLOW_MAJOR = 3


class ModuleIndex:
    """Extracted modules by name; files outside the report set are read only when referenced.

    pre-commit passes only changed files, so a constant imported from ``common/`` must still be
    found on disk: ``lookup`` searches the import roots as Python would, and remembers misses.
    """

    def __init__(self, roots: Sequence[Path]) -> None:
        self.roots = list(dict.fromkeys(roots))
        self._by_name: dict[str, Module | None] = {}

    def load(
        self,
        source: SourceFile,
        data: bytes | None = None,
        symbols: SymbolTable | None = None,
    ) -> Module:
        """Extract a file; with ``symbols``, again with the values of names it loops over."""
        name, is_package = module_name(source.path, self.roots)
        module = _extract(source, name, is_package, data)
        if module.loop_refs and symbols is not None:
            externals: dict[str, Expr] = {}
            for qualname in module.loop_refs:
                resolved = symbols.evaluate(Ref(qualname))
                if isinstance(resolved, Known):
                    externals[qualname] = as_expr(resolved.value)
            if externals:
                module = _extract(source, name, is_package, data, externals)
        self._by_name.setdefault(name, module)
        return module

    def lookup(self, name: str) -> Module | None:
        if name in self._by_name:
            return self._by_name[name]
        found: Module | None = None
        for candidate in module_candidates(name, self.roots):
            if candidate.is_file():
                found = self.load(SourceFile(str(candidate), absolute(candidate)))
                break
        self._by_name[name] = found
        return found


def _extract(
    source: SourceFile,
    name: str,
    is_package: bool,
    data: bytes | None = None,
    externals: dict[str, Expr] | None = None,
) -> Module:
    if data is None:
        try:
            data = read_source(source.path, MAX_FILE_BYTES + 1)
        except OSError as error:
            reason = error.strerror or type(error).__name__
            problem = SyntaxProblem(f"cannot read file: {reason}", Position(1, 1), skipped=True)
            return Module(path=source.display, module_name=name, syntax_error=problem)
    return extract_module(data, source.display, name, is_package, externals)


@dataclass
class Report:
    diagnostics: list[Diagnostic] = field(default_factory=list)
    tasks: list[ResolvedTask] = field(default_factory=list)
    files: int = 0


def import_roots(paths: Sequence[str], settings: Settings) -> list[Path]:
    """What Airflow puts on ``sys.path``: the DAG folders, then the repository root and extras.

    A file passed alone (as pre-commit does) outside any configured DAG folder counts its own
    folder as one, since that is the folder Airflow would be pointed at.
    """
    roots = list(settings.dags)
    for given in paths:
        path = absolute(Path(given))
        if path.is_dir():
            roots.append(path)
        elif not any(path.is_relative_to(root) for root in settings.dags):
            roots.append(path.parent)
    return [*roots, *settings.roots, settings.root]


def run(
    paths: Sequence[str],
    settings: Settings,
    inventory: Inventory | None,
    stdin: tuple[str, bytes] | None = None,
) -> Report:
    """Lint ``paths`` (or one buffer from stdin, named as a file) and collect what is reported."""
    index = ModuleIndex(import_roots([stdin[0]] if stdin else paths, settings))
    symbols = SymbolTable(index.lookup)
    if stdin is not None:
        display, data = stdin
        sources = [SourceFile(display, absolute(Path(display)))]
        modules = [index.load(sources[0], data, symbols)]
    else:
        sources = discover(paths, settings.exclude)
        modules = [index.load(source, symbols=symbols) for source in sources]
    resolver = Resolver(
        symbols,
        inventory.default_queue if inventory is not None else DEFAULT_QUEUE,
        _airflow_major(inventory),
    )
    first_party = FirstParty(index.roots)
    selected = settings.selected_codes()
    rules = [rule for rule in RULES if rule.code in selected]
    report = Report(files=len(modules))
    for source, module in zip(sources, modules):
        tasks = tuple(resolver.tasks(module))
        report.tasks.extend(tasks)
        context = Context(module, tasks, inventory, resolver.airflow_major, first_party)
        ignored = settings.ignored_for(source.path)
        found: list[Diagnostic] = []
        for rule in rules:
            if rule.code in ignored or (rule.needs_inventory and inventory is None):
                continue
            if module.syntax_error is not None and rule.needs_inventory:
                continue
            found.extend(rule.check(context))
        report.diagnostics.extend(unsuppressed(found, module))
    report.diagnostics.sort()
    return report


def _airflow_major(inventory: Inventory | None) -> int:
    if inventory is None or inventory.airflow_major is None:
        return DEFAULT_AIRFLOW_MAJOR
    return inventory.airflow_major
