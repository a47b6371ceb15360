"""DRL202: providers that a worker serving a task lacks (DRL201, at parse: ``parse_boundary``)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from dagroute_lint.catalog.providers import provider_for_decorator, provider_for_module
from dagroute_lint.deployment.inventory import Runtime, Worker
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.model import Module
from dagroute_lint.resolve.parse_imports import reached_imports
from dagroute_lint.resolve.tasks import ResolvedTask
from dagroute_lint.rules.base import DeploymentContext, DeploymentRule
from dagroute_lint.rules.broken_tasks import BrokenTask, grouped_outcome
from dagroute_lint.rules.open_facts import Undecided
from dagroute_lint.rules.parse_boundary import Need, failing_at_parse, has_provider
from dagroute_lint.rules.runtimes import CodeRuns, code_runs, outcome, workers_lacking


def parse_needs(
    module: Module, airflow_major: int, lookup: Callable[[str], Module | None] | None = None
) -> list[Need]:
    """Providers the file needs wherever it is loaded, a worker included: module-level imports,
    through the repository's own modules too when ``lookup`` finds them, and TaskFlow
    decorators."""
    needs: dict[str, Need] = {}
    for reached in reached_imports(module, lookup or _no_module):
        distribution = provider_for_module(reached.target.module, airflow_major)
        if distribution is not None and distribution not in needs:
            why = f"module-level import of '{reached.site.module}'{reached.chain}"
            imported = reached.target.module
            needs[distribution] = Need(distribution, why, reached.site.position, True, imported)
    for task in module.tasks:
        if task.taskflow is None:
            continue
        distribution = provider_for_decorator(task.taskflow, airflow_major)
        if distribution is not None and distribution not in needs:
            needs[distribution] = Need(
                distribution, f"the @task.{task.taskflow} decorator", task.position
            )
    return list(needs.values())


def _no_module(name: str) -> Module | None:
    return None


def task_needs(task: ResolvedTask, file_needs: list[Need], airflow_major: int) -> list[Need]:
    """Providers a worker needs to run the task: the file's, its operator's and its imports'."""
    needs: dict[str, Need] = {need.distribution: need for need in file_needs}
    if task.provider is not None and task.provider not in needs:
        what = task.operator or "operator"
        needs[task.provider] = Need(task.provider, f"operator {what}", task.task.position)
    # A body that runs in a virtualenv, another interpreter, a pod or a container takes its
    # providers from there, not from the worker.
    if code_runs(task) is CodeRuns.ON_WORKER:
        for site in task.task.imports:
            distribution = provider_for_module(site.module, airflow_major)
            if distribution is not None and not site.guarded and distribution not in needs:
                why = f"import of '{site.module}' in the task"
                needs[distribution] = Need(distribution, why, site.position, module=site.module)
    return list(needs.values())


def check_provider_on_worker(context: DeploymentContext) -> Iterator[Diagnostic]:
    """Per task for what the task itself needs; once per module-level import for the tasks it
    breaks (listed in the message)."""
    # A file that does not load sends no task to a worker: DRL201 has those already.
    at_parse = failing_at_parse(context, "provider")
    file_needs = parse_needs(context.module, context.airflow_major, context.repository.lookup)
    at_imports: dict[str, tuple[Need, list[BrokenTask]]] = {}
    undecided = Undecided(context, "provider")
    for task, placement in context.placed:
        if not placement.workers:
            continue
        for need in task_needs(task, file_needs, context.airflow_major):
            if need.distribution in at_parse:
                continue

            def has(runtime: Runtime, need: Need = need) -> bool | None:
                major = context.airflow_major
                return has_provider(runtime, need.distribution, major, need.module)

            lacking = undecided.lacking(task, placement.workers, has)
            if not lacking:
                continue
            if need.at_import:
                broken = BrokenTask(task, tuple(lacking), placement.workers)
                at_imports.setdefault(need.distribution, (need, []))[1].append(broken)
                continue
            yield context.report(
                task.task.position,
                _worker_message(task, need, lacking, placement.workers),
                kind="provider",
                item=need.distribution,
                task=task,
                workers=lacking,
            )
    for need, broken_tasks in at_imports.values():
        yield context.report(
            need.position,
            f"{need.why} needs {need.distribution}, which {grouped_outcome(broken_tasks)}",
            kind="provider",
            item=need.distribution,
            tasks=[broken.task for broken in broken_tasks],
            workers=[worker for broken in broken_tasks for worker in broken.lacking],
        )
    yield from undecided.reports()


def _worker_message(
    task: ResolvedTask, need: Need, lacking: list[Worker], serving: tuple[Worker, ...]
) -> str:
    lacks = workers_lacking(lacking)
    head = f"{task.label} needs {need.distribution} ({need.why}), which {lacks} lacks"
    return head + outcome(lacking, serving, "it will fail at startup, before its first line runs")


PROVIDER_MISSING_ON_WORKER = DeploymentRule(
    code="DRL202",
    name="provider-missing-on-worker",
    summary="a task's operator or imports need a provider that a worker serving it lacks",
    boundary="startup",
    check=check_provider_on_worker,
)
