"""DRL201-DRL202: providers that are missing where the DAG file is parsed or the task runs."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from dagroute_lint.catalog.providers import provider_for_decorator, provider_for_module
from dagroute_lint.deployment.inventory import Runtime, Worker
from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.model import Module, Position
from dagroute_lint.resolve.tasks import ResolvedTask
from dagroute_lint.rules.base import DeploymentContext, DeploymentRule
from dagroute_lint.rules.runtimes import CodeRuns, code_runs, outcome, workers_lacking

# ``apache-airflow-core`` 3.x hard-depends on these (semantics §6.2): any Airflow 3 runtime has
# them even when the inventory does not list them.
AIRFLOW3_BUNDLED_PROVIDERS = frozenset(
    "apache-airflow-providers-" + name
    for name in ("standard", "smtp", "common-sql", "common-io", "common-compat")
)


@dataclass(frozen=True)
class Need:
    """A provider distribution a task or file needs, and the first reason why."""

    distribution: str
    why: str
    position: Position


def has_provider(runtime: Runtime, distribution: str, airflow_major: int) -> bool:
    if airflow_major >= 3 and distribution in AIRFLOW3_BUNDLED_PROVIDERS:
        return True
    return any(requirement.name == distribution for requirement in runtime.providers)


def provider_names(runtime: Runtime) -> str:
    names = sorted(r.name.removeprefix("apache-airflow-providers-") for r in runtime.providers)
    return ", ".join(names) if names else "none"


def parse_needs(module: Module, airflow_major: int) -> list[Need]:
    """Providers the file needs wherever it is parsed: module-level imports and decorators."""
    needs: dict[str, Need] = {}
    for site in module.imports:
        if site.scope != "module" or site.guarded:
            continue
        distribution = provider_for_module(site.module, airflow_major)
        if distribution is not None and distribution not in needs:
            needs[distribution] = Need(
                distribution, f"module-level import of '{site.module}'", site.position
            )
    for task in module.tasks:
        if task.taskflow is None:
            continue
        distribution = provider_for_decorator(task.taskflow, airflow_major)
        if distribution is not None and distribution not in needs:
            needs[distribution] = Need(
                distribution, f"the @task.{task.taskflow} decorator", task.position
            )
    return list(needs.values())


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
                needs[distribution] = Need(
                    distribution, f"import of '{site.module}' in the task", site.position
                )
    return list(needs.values())


def check_provider_at_parse(context: DeploymentContext) -> Iterator[Diagnostic]:
    inventory = context.inventory
    module = context.module
    runtime_name = inventory.dag_processor_runtime
    if not module.dags or runtime_name is None:
        return
    runtime = inventory.runtimes[runtime_name]
    dags = ", ".join(sorted({task.dag_id for task in context.tasks if task.dag_id})) or "?"
    for need in parse_needs(module, context.airflow_major):
        if has_provider(runtime, need.distribution, context.airflow_major):
            continue
        yield context.report(
            need.position,
            f"{need.why} needs {need.distribution}, which the DAG processor runtime "
            f"'{runtime_name}' lacks (has: {provider_names(runtime)}); the file fails to import "
            f"and its DAGs ({dags}) never load",
        )


def check_provider_on_worker(context: DeploymentContext) -> Iterator[Diagnostic]:
    inventory = context.inventory
    file_needs = parse_needs(context.module, context.airflow_major)
    for task, placement in context.placed:
        if not placement.workers:
            continue
        for need in task_needs(task, file_needs, context.airflow_major):
            lacking = [
                worker
                for worker in placement.workers
                if not has_provider(
                    inventory.runtimes[worker.runtime], need.distribution, context.airflow_major
                )
            ]
            if not lacking:
                continue
            yield context.report(
                task.task.position, _worker_message(task, need, lacking, placement.workers)
            )


def _worker_message(
    task: ResolvedTask, need: Need, lacking: list[Worker], serving: tuple[Worker, ...]
) -> str:
    lacks = workers_lacking(lacking)
    head = f"{task.label} needs {need.distribution} ({need.why}), which {lacks} lacks"
    return head + outcome(lacking, serving, "it will fail at startup, before its first line runs")


PROVIDER_MISSING_AT_PARSE = DeploymentRule(
    code="DRL201",
    name="provider-missing-at-parse",
    summary="module-level import of a provider the DAG processor runtime lacks",
    boundary="parse",
    check=check_provider_at_parse,
)
PROVIDER_MISSING_ON_WORKER = DeploymentRule(
    code="DRL202",
    name="provider-missing-on-worker",
    summary="a task's operator or imports need a provider that a worker serving it lacks",
    boundary="startup",
    check=check_provider_on_worker,
)
