"""DRL501: ``executor_config`` that the executor ignores or rejects (airflow-semantics §7)."""

from __future__ import annotations

from collections.abc import Iterator

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.resolve.tasks import ResolvedTask, Setting
from dagroute_lint.rules.base import DeploymentContext, DeploymentRule

# Executors whose code never reads executor_config.
_IGNORING_KINDS = frozenset({"celery", "local", "edge"})
_LEGACY_KEY = "KubernetesExecutor"
_POD_OVERRIDE = "pod_override"


def _problem(setting: Setting, kind: str | None, executor: str) -> str | None:
    config = setting.value
    if not isinstance(config, dict) or not config:
        return None
    if kind in _IGNORING_KINDS:
        return (
            f"sets executor_config ({setting.origin}), which its executor {executor} ignores; "
            "only Kubernetes and AWS executors read it"
        )
    if kind == "kubernetes" and config.get(_LEGACY_KEY):
        if config.get(_POD_OVERRIDE):
            return (
                f"sets executor_config ({setting.origin}) with both 'KubernetesExecutor' and "
                "'pod_override'; KubernetesExecutor rejects it (AirflowConfigException) when it "
                "queues the task"
            )
        return (
            f"sets executor_config ({setting.origin}) in the legacy "
            "{'KubernetesExecutor': {...}} form, which KubernetesExecutor rejects ('Invalid "
            "executor_config passed'): the task fails when it is queued; use "
            "{'pod_override': k8s.V1Pod(...)}"
        )
    return None


def check_executor_config_ignored(context: DeploymentContext) -> Iterator[Diagnostic]:
    # default_args reach every task of a DAG: one finding per place and executor, naming a task.
    found: dict[tuple[int, int, str], list[ResolvedTask]] = {}
    problems: dict[tuple[int, int, str], tuple[Setting, str]] = {}
    for task, placement in context.placed:
        setting = task.setting("executor_config")
        if setting is None:
            continue
        executor = placement.executor
        if executor is None:
            continue
        problem = _problem(setting, executor.kind, executor.display_name)
        if problem is None:
            continue
        key = (setting.position.line, setting.position.column, problem)
        found.setdefault(key, []).append(task)
        problems.setdefault(key, (setting, problem))
    for key, tasks in found.items():
        setting, problem = problems[key]
        others = len(tasks) - 1
        more = f" (and {others} more task{'s' if others > 1 else ''})" if others else ""
        yield context.report(
            setting.position, f"{tasks[0].label}{more} {problem}", kind="executor", tasks=tasks
        )


EXECUTOR_CONFIG_IGNORED = DeploymentRule(
    code="DRL501",
    name="executor-config-ignored",
    summary="executor_config that the task's executor ignores (or rejects, legacy K8s form)",
    boundary="dispatch",
    check=check_executor_config_ignored,
)
