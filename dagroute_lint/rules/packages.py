"""DRL203: third-party packages a task imports that a worker serving it (or its venv) lacks.

What counts (semantics §6.4, §8): the file's module-level imports for every task of the file,
because the worker re-imports the whole file; imports inside the task's callable for that task
only, unless the callable runs in its own runtime (``rules/runtimes.py``). Never counted: imports
that cannot fail (``try``/``except ImportError``, ``if TYPE_CHECKING:``), the standard library,
the repository's own modules, Airflow and its providers (DRL201/DRL202), and whatever installing
Airflow itself brings (pendulum, requests, PyYAML...). A runtime also has what its listed
providers and packages require, transitively, as the shipped tables from real wheels record it
(``humanize`` comes with ``flower``); when a runtime lists a distribution whose requirements the
tables do not know, a report says so, since the import may come with it.

``@task.virtualenv`` and ``PythonVirtualenvOperator`` bodies are checked against their literal
``requirements=`` instead; with ``system_site_packages=True`` (Airflow's default) the worker's
packages are visible in the venv too, so an import is missing only when neither has it.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from dagroute_lint.catalog.distributions import (
    ImportNeed,
    brought_by,
    import_need,
    imported_modules,
    is_airflow,
    is_stdlib,
)
from dagroute_lint.catalog.providers import canonical_name
from dagroute_lint.deployment.inventory import Inventory, Worker
from dagroute_lint.deployment.requirements import parse_requirement
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.model import Const, Expr, ImportSite, SeqExpr
from dagroute_lint.records import record
from dagroute_lint.resolve.tasks import ResolvedTask
from dagroute_lint.rules.base import DeploymentContext, DeploymentRule
from dagroute_lint.rules.broken_tasks import BrokenTask, grouped_outcome
from dagroute_lint.rules.open_facts import Undecided
from dagroute_lint.rules.parse_boundary import (
    caveat_for,
    failing_at_parse,
    has_package,
    listed_distributions,
    off_roots,
)
from dagroute_lint.rules.runtimes import CodeRuns, code_runs, outcome, workers_lacking

_AIRFLOW_DISTRIBUTIONS = ("apache-airflow", "apache-airflow-core", "apache-airflow-task-sdk")


def nowhere(module: str) -> None:
    """For a caller that does not look for the repository's modules off the import roots."""
    return None


@record
class PackageImport:
    """An import that needs an installed third-party distribution."""

    site: ImportSite
    need: ImportNeed

    @property
    def where(self) -> str:
        scope = "module-level import" if self.site.scope == "module" else "import in the task"
        return f"'{self.site.module}' ({scope}, line {self.site.position.line})"


@record
class Virtualenv:
    """What a virtualenv task declares.

    ``requirements`` are canonical distribution names. ``system_site_packages`` says whether the
    worker's packages are visible in the venv; it is also ``True`` when that cannot be known,
    because assuming so can only silence a report, never invent one.
    """

    requirements: frozenset[str]
    system_site_packages: bool

    def has(self, need: ImportNeed) -> bool:
        # pip installs what the requirements require too.
        if need.met_by(self.requirements | brought_by(self.requirements)):
            return True
        # pip installing Airflow into the venv brings Airflow's own dependencies too.
        listed_airflow = not self.requirements.isdisjoint(_AIRFLOW_DISTRIBUTIONS)
        return listed_airflow and need.airflow_brings_it


def package_imports(
    sites: Sequence[ImportSite],
    first_party: Callable[[str], bool],
    off_roots: Callable[[str], object] = nowhere,
) -> list[PackageImport]:
    """The imports among ``sites`` that need a third-party distribution, one per distribution.

    ``off_roots`` says whether the repository holds a module in a folder on no import root: a
    name no table gives a distribution is then that module, which fails for want of a root
    (DRL206), never for want of a package."""
    found: dict[str, PackageImport] = {}
    for site in sites:
        module = site.module
        if site.guarded or is_stdlib(module) or is_airflow(module) or first_party(module):
            continue
        for needed in imported_modules(module, site.names):
            need = import_need(needed)
            if need is None or need.key in found:
                continue
            if not need.known and off_roots(module):
                continue
            found[need.key] = PackageImport(site, need)
    return list(found.values())


def workers_without(
    need: ImportNeed, serving: tuple[Worker, ...], task: ResolvedTask, undecided: Undecided
) -> list[Worker]:
    """The serving workers whose runtime cannot satisfy ``need`` (those whose runtime does not
    list its packages are noted in ``undecided``).

    A runtime has what its ``packages`` and ``providers`` list, and everything Airflow brings.
    """
    return undecided.lacking(task, serving, lambda runtime: has_package(runtime, need), need.key)


def check_package_on_worker(context: DeploymentContext) -> Iterator[Diagnostic]:
    inventory = context.inventory
    # A file that does not load sends no task to a worker: DRL205 has those already.
    at_parse = failing_at_parse(context, "package")

    def elsewhere(module: str) -> Path | None:
        return off_roots(context, module)

    module_imports = [
        item
        for item in package_imports(context.module.imports, context.first_party, elsewhere)
        if item.need.key not in at_parse
    ]
    # A module-level import breaks every task of the file alike: one report lists them.
    at_imports: dict[str, tuple[PackageImport, list[BrokenTask]]] = {}
    undecided = Undecided(context, "package")
    for task, placement in context.placed:
        serving = placement.workers
        if not serving:
            continue
        runs = code_runs(task)
        task_imports = [
            item
            for item in package_imports(task.task.imports, context.first_party, elsewhere)
            if item.need.key not in at_parse
        ]
        for item in module_imports:
            lacking = workers_without(item.need, serving, task, undecided)
            if lacking:
                broken = BrokenTask(task, tuple(lacking), serving)
                at_imports.setdefault(item.need.key, (item, []))[1].append(broken)
        if runs is CodeRuns.ON_WORKER:
            keys = {item.need.key for item in module_imports}
            for item in task_imports:
                if item.need.key not in keys:
                    yield from _on_workers(context, task, item, serving, undecided)
        if runs is CodeRuns.IN_VIRTUALENV:
            venv = virtualenv_of(task)
            if venv is not None:
                for item in task_imports:
                    yield from _in_virtualenv(context, task, item, venv, serving, undecided)

    for item, broken_tasks in at_imports.values():
        lacking = [worker for broken in broken_tasks for worker in broken.lacking]
        yield context.report(
            item.site.position,
            f"module-level import of '{item.site.module}' needs {item.need.display}, which "
            f"{grouped_outcome(broken_tasks)}" + _caveat(lacking, inventory),
            kind="package",
            item=item.need.distribution,
            tasks=[broken.task for broken in broken_tasks],
            workers=lacking,
        )
    yield from undecided.reports()


def _on_workers(
    context: DeploymentContext,
    task: ResolvedTask,
    item: PackageImport,
    serving: tuple[Worker, ...],
    undecided: Undecided,
) -> Iterator[Diagnostic]:
    inventory = context.inventory
    lacking = workers_without(item.need, serving, task, undecided)
    if not lacking:
        return
    yield context.report(
        task.task.position,
        f"{task.label} imports {item.where}, which needs {item.need.display}; "
        f"{workers_lacking(lacking)} lacks it"
        + outcome(lacking, serving, "it will fail when the import runs")
        + _caveat(lacking, inventory),
        kind="package",
        item=item.need.distribution,
        task=task,
        workers=lacking,
    )


def _caveat(lacking: Iterable[Worker], inventory: Inventory) -> str:
    """What the lacking workers' runtimes list whose dependencies are not known."""
    return caveat_for(itertools.chain.from_iterable(listed(inventory, w) for w in lacking))


def listed(inventory: Inventory, worker: Worker) -> frozenset[str]:
    return listed_distributions(inventory.runtimes[worker.runtime])


def _in_virtualenv(
    context: DeploymentContext,
    task: ResolvedTask,
    item: PackageImport,
    venv: Virtualenv,
    serving: tuple[Worker, ...],
    undecided: Undecided,
) -> Iterator[Diagnostic]:
    inventory = context.inventory
    if venv.has(item.need):
        return
    head = (
        f"{task.label} imports '{item.site.module}' in its virtualenv "
        f"(line {item.site.position.line}), but requirements= does not list {item.need.display}"
    )
    if not venv.system_site_packages:
        yield context.report(
            task.task.position,
            f"{head} and system_site_packages=False hides the worker's packages; "
            "it will fail when the import runs" + caveat_for(venv.requirements),
            kind="package",
            item=item.need.distribution,
            task=task,
        )
        return
    lacking = workers_without(item.need, serving, task, undecided)
    if lacking:
        yield context.report(
            task.task.position,
            f"{head}, and {workers_lacking(lacking)}, whose packages the venv sees "
            "(system_site_packages=True), lacks it"
            + outcome(lacking, serving, "it will fail when the import runs")
            + caveat_for(
                itertools.chain(venv.requirements, *(listed(inventory, w) for w in lacking))
            ),
            kind="package",
            item=item.need.distribution,
            task=task,
            workers=lacking,
        )


def virtualenv_of(task: ResolvedTask) -> Virtualenv | None:
    """The venv a task declares, or ``None`` when its requirements cannot be known statically.

    ``requirements=`` may be a list of requirement strings or one string (Airflow splits it into
    lines); pip options (``-r file``), URLs and templated values make it unknown. Values taken
    from ``**kwargs`` or ``default_args`` are not followed: a task whose call spreads keywords
    is left alone, and one relying on ``default_args`` alone is judged as if it had none.
    """
    arguments = task.task.arguments
    named = arguments.named
    if arguments.spreads and not {"requirements", "system_site_packages"} <= named.keys():
        return None
    requirements = _requirement_names(named.get("requirements"))
    site_packages = named.get("system_site_packages")
    if requirements is None:
        return None
    sees_worker = not (isinstance(site_packages, Const) and site_packages.value is False)
    return Virtualenv(requirements, sees_worker)


def _requirement_names(value: Expr | None) -> frozenset[str] | None:
    if value is None or (isinstance(value, Const) and value.value is None):
        return frozenset()
    if isinstance(value, Const) and isinstance(value.value, str):
        lines: list[str] = value.value.splitlines()
    elif isinstance(value, SeqExpr) and all(
        isinstance(item, Const) and isinstance(item.value, str) for item in value.items
    ):
        lines = [str(item.value) for item in value.items if isinstance(item, Const)]
    else:
        return None
    names = set()
    for line in lines:
        text = line.split("#", 1)[0].strip()
        if not text:
            continue
        if text.startswith("-") or "{{" in text:
            return None
        try:
            names.add(canonical_name(parse_requirement(text).name))
        except ValueError:
            return None
    return frozenset(names)


PACKAGE_MISSING_ON_WORKER = DeploymentRule(
    code="DRL203",
    name="package-missing-on-worker",
    summary="a third-party package a task imports is missing from a worker serving it",
    boundary="startup",
    check=check_package_on_worker,
)
