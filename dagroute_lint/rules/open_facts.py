"""DRL902: a fact the inventory leaves open that a check needed, said once instead of assumed.

A runtime without ``providers`` or ``packages``, a ``[deployment]`` without ``triggerer`` or
``airflow_version``, a module that no table gives a distribution while the runtime lists one whose
requirements no table knows (it may come with it): the inventory does not say, so no rule may take
it as "none installed", "no triggerer" or "the newest Airflow" in silence. A rule that meets such a
fact judges nothing it would need the fact for, and reports the fact instead (``undecided``), under
this rule's code and at the inventory's table that leaves it open; the run merges the reports of one
fact made by any rule on any file into one line (``merged``), whose facts list every task left
unchecked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from dagroute_lint.deployment.inventory import Inventory, Runtime, Worker
from dagroute_lint.diagnostics import Diagnostic, Facts, Kind, TaskKey
from dagroute_lint.records import record, replace
from dagroute_lint.resolve.tasks import UNKNOWN_DAG, ResolvedTask
from dagroute_lint.rules.base import DeploymentContext, DeploymentRule
from dagroute_lint.sources.discovery import cwd_relative

OPEN_FACT = "DRL902"


@record
class OpenFact:
    """What the inventory leaves open: a runtime's ``providers`` or ``packages``, or
    ``[deployment]``'s ``triggerer`` or ``airflow_version``."""

    kind: Kind  # "provider", "package", "triggerer" or "airflow-version"
    runtime: str | None = None
    # A module the runtime's lists, though set, neither prove nor rule out: no table names its
    # distribution, and a listed distribution requires what no table knows.
    unproven: str | None = None

    @property
    def table(self) -> str:
        return f"runtimes.{self.runtime}" if self.runtime is not None else "deployment"

    @property
    def key(self) -> str:
        """The inventory key left unset, as its messages name keys: ``runtimes.base.providers``."""
        return f"{self.table}.{_KEYS[self.kind]}"


_KEYS = {
    "provider": "providers",
    "package": "packages",
    "triggerer": "triggerer",
    "airflow-version": "airflow_version",
}


def open_fact(runtime: Runtime, kind: Kind, module: str | None = None) -> OpenFact:
    """What a runtime leaves open that decides a ``provider`` or ``package`` need (``module``:
    the import name a package need is for)."""
    if kind == "package" and runtime.packages is not None:
        if runtime.providers is not None:  # both listed: the lists do not prove ``module``
            return OpenFact(kind, runtime.name, module)
        kind = "provider"  # the package may come with a provider the runtime does not list
    return OpenFact(kind, runtime.name)


class Undecided:
    """The open facts one rule meets on one file, with the tasks each leaves unchecked."""

    def __init__(self, context: DeploymentContext, kind: Kind) -> None:
        self._context = context
        self._kind = kind
        self._tasks: dict[OpenFact, list[ResolvedTask]] = {}

    def lacking(
        self,
        task: ResolvedTask,
        serving: Iterable[Worker],
        has: Callable[[Runtime], bool | None],
        module: str | None = None,
    ) -> list[Worker]:
        """The serving workers whose runtime ``has`` says lack what ``task`` needs (``module``:
        the import name it needs, for a package); those whose runtime does not say are noted,
        not counted as lacking."""
        runtimes = self._context.inventory.runtimes
        found = []
        for worker in serving:
            runtime = runtimes[worker.runtime]
            verdict = has(runtime)
            if verdict is None:
                self._tasks.setdefault(open_fact(runtime, self._kind, module), []).append(task)
            elif not verdict:
                found.append(worker)
        return found

    def reports(self) -> Iterator[Diagnostic]:
        for fact, tasks in self._tasks.items():
            yield undecided(self._context, fact, tasks)


def undecided(
    context: DeploymentContext, fact: OpenFact, tasks: Sequence[ResolvedTask] = ()
) -> Diagnostic:
    """The report that the rule ``context`` is bound to could not judge ``tasks`` (none: the
    file) for want of ``fact``."""
    keys = tuple(dict.fromkeys((task.dag_id, task.task_id) for task in tasks))
    needed_by = () if context.code == OPEN_FACT else (context.code,)
    return _report(context.inventory, fact, needed_by, keys)


def _report(
    inventory: Inventory, fact: OpenFact, needed_by: Sequence[str], tasks: tuple[TaskKey, ...]
) -> Diagnostic:
    where = str(cwd_relative(Path(inventory.path)))
    facts = _report_facts(fact, tasks)
    return Diagnostic(
        where,
        inventory.line_of(fact.table),
        1,
        OPEN_FACT,
        _message(fact, needed_by, tasks),
        severity="warning",
        cause=",".join(needed_by),
        facts=facts,
    )


def _report_facts(fact: OpenFact, tasks: tuple[TaskKey, ...]) -> Facts:
    """The facts of a report: the one task, or the DAG every task belongs to, named too."""
    task_id = tasks[0][1] if len(tasks) == 1 else None
    dags = {dag_id for dag_id, _ in tasks}
    dag_id = next(iter(dags)) if len(dags) == 1 else None
    return Facts(fact.kind, fact.unproven or fact.key, dag_id, task_id, tasks, (), fact.runtime)


def _message(fact: OpenFact, needed_by: Sequence[str], tasks: Sequence[TaskKey]) -> str:
    rules = ", ".join(needed_by)
    checked = _tasks(tasks)
    if fact.unproven is not None:
        return (
            f"the packages and providers runtime '{fact.runtime}' lists do not prove that it has "
            f"'{fact.unproven}': no table names the distribution providing it, and what some of "
            f"them require is not known (it may come with them), so {rules} could not check "
            f"{checked} for it; list the distribution under `{fact.key}`, or the import name "
            f'under `imports` (`imports = ["{fact.unproven}"]`) when the image has it'
        )
    if fact.kind in ("provider", "package"):
        key = "providers" if fact.kind == "provider" else "packages"
        return (
            f"runtime '{fact.runtime}' does not list its {key} (`{fact.key}` is not set), "
            f"so {rules} could not check whether {checked} can import what {_it(tasks)} there; "
            f"list them (`{key} = [...]`, `[]` for none), or let `inventory init` read the image"
        )
    if fact.kind == "triggerer":
        return (
            f"the inventory does not say whether a triggerer runs (`{fact.key}` is not set), "
            f"so {rules} could not check whether {checked}, which "
            f"{'defers' if len(tasks) == 1 else 'defer'}, can resume; set "
            '`triggerer = { runtime = "..." }`, or `triggerer = false` when none runs'
        )
    return (
        f"the inventory names no Airflow version (`{fact.key}` is not set), so which "
        "imports of Airflow work was not judged (only imports that fail on every release "
        "the tool knows are reported), and what else depends on it (which providers Airflow "
        "bundles, how .airflowignore is read) was taken for the newest Airflow 3; set "
        '`airflow_version = "X.Y"` to judge the DAG files against the deployment\'s'
    )


def _tasks(tasks: Sequence[TaskKey]) -> str:
    """``task 'make' in dag 'buckets' and 2 more tasks``: the first named, the rest counted."""
    if not tasks:
        return "the DAG files"
    dag_id, task_id = tasks[0]
    dag = f"dag '{dag_id}'" if dag_id else UNKNOWN_DAG
    first = f"task '{task_id or '<unknown id>'}' in {dag}"
    more = len(tasks) - 1
    return first if not more else f"{first} and {more} more task{'' if more == 1 else 's'}"


def _it(tasks: Sequence[TaskKey]) -> str:
    return "it needs" if len(tasks) == 1 else "they need"


def merged(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics with every report of one open fact made one: the rules that needed it
    and the tasks left unchecked, from every file."""
    kept: list[Diagnostic] = []
    groups: dict[tuple[str, int, str, str | None, str | None], list[Diagnostic]] = {}
    for diagnostic in diagnostics:
        if diagnostic.code != OPEN_FACT:
            kept.append(diagnostic)
            continue
        facts = diagnostic.facts
        key = (diagnostic.path, diagnostic.line, facts.kind, facts.runtime, facts.item)
        groups.setdefault(key, []).append(diagnostic)
    for reports in groups.values():
        first = reports[0]
        rules = sorted({code for r in reports for code in (r.cause or "").split(",") if code})
        tasks = tuple(dict.fromkeys(task for report in reports for task in report.facts.tasks))
        fact = OpenFact(first.facts.kind, first.facts.runtime)
        if first.facts.item != fact.key:  # the item of a fact about one module is the module
            fact = OpenFact(fact.kind, fact.runtime, first.facts.item)
        kept.append(
            replace(
                first,
                message=_message(fact, rules, tasks),
                cause=",".join(rules),
                facts=_report_facts(fact, tasks),
            )
        )
    return kept


def check_airflow_version(context: DeploymentContext) -> Iterator[Diagnostic]:
    """``airflow_version`` decides which imports work and which providers Airflow bundles: a
    file that imports Airflow was judged on an assumed version when the inventory names none."""
    if context.inventory.airflow_version is not None:
        return
    if any(site.module.split(".")[0] == "airflow" for site in context.module.imports):
        yield undecided(context, OpenFact("airflow-version"))


OPEN_FACTS = DeploymentRule(
    code=OPEN_FACT,
    name="inventory-leaves-open",
    summary="a fact a check needed that the inventory leaves open (a runtime's providers or "
    "packages, the triggerer, airflow_version)",
    boundary="inventory",
    check=check_airflow_version,
    severity="warning",
)
