"""Where a task's own code runs, and how startup rules word a need some serving workers lack.

The worker always re-imports the whole DAG file, so module-level imports are the worker's
business for every task. The task's callable is another matter (semantics §6.4): a
``@task.virtualenv`` body runs in a virtualenv built on the worker, ``@task.external_python`` in
another interpreter, ``@task.docker`` / ``@task.kubernetes`` in an image. Imports inside such a
function are never checked against the worker's runtime.
"""

from __future__ import annotations

import enum

from dagroute_lint.catalog import operator_traits as traits
from dagroute_lint.deployment.inventory import Worker
from dagroute_lint.resolve.tasks import ResolvedTask


class CodeRuns(enum.Enum):
    """Where the imports inside a task's callable execute."""

    ON_WORKER = "worker"
    IN_VIRTUALENV = "virtualenv"  # built on the worker from requirements=
    ELSEWHERE = "elsewhere"  # another interpreter, a container or a pod: not in the inventory


_VIRTUALENV_KINDS = frozenset({"virtualenv", "branch_virtualenv"})
# ``@task.kubernetes_cmd`` is not here on purpose: its function runs on the worker, in
# ``execute()``, to produce the command that the pod then runs (cncf.kubernetes 10.25,
# ``_KubernetesCmdDecoratedOperator._generate_cmds``).
_ELSEWHERE_KINDS = frozenset({"external_python", "branch_external_python", "docker", "kubernetes"})

# Classic operators, by class name under ``airflow.``: their ``python_callable`` (or, for the pod
# and container operators, anything they run) executes outside the worker's environment.
_VIRTUALENV_OPERATORS = frozenset({"PythonVirtualenvOperator", "BranchPythonVirtualenvOperator"})
_ELSEWHERE_OPERATORS = frozenset(
    {
        "ExternalPythonOperator",
        "BranchExternalPythonOperator",
        "KubernetesPodOperator",
        "DockerOperator",
        "DockerSwarmOperator",
    }
)


def code_runs(task: ResolvedTask) -> CodeRuns:
    kind = task.task.taskflow
    if kind is not None:
        if kind in _VIRTUALENV_KINDS:
            return CodeRuns.IN_VIRTUALENV
        if kind in _ELSEWHERE_KINDS:
            return CodeRuns.ELSEWHERE
        return CodeRuns.ON_WORKER
    operator = task.task.operator or ""
    if operator.startswith("airflow."):
        name = traits.class_name(operator)
        if name in _VIRTUALENV_OPERATORS:
            return CodeRuns.IN_VIRTUALENV
        if name in _ELSEWHERE_OPERATORS:
            return CodeRuns.ELSEWHERE
    return CodeRuns.ON_WORKER


def workers_lacking(lacking: list[Worker]) -> str:
    """``worker 'a' (runtime 'r')``, or several of them, comma-separated."""
    return "worker " + ", ".join(f"'{w.name}' (runtime '{w.runtime}')" for w in lacking)


def outcome(lacking: list[Worker], serving: tuple[Worker, ...], always: str) -> str:
    """The consequence: ``always`` when no serving worker has it, else that it fails sometimes."""
    if len(lacking) == len(serving):
        return f"; {always}"
    having = ", ".join(f"'{w.name}'" for w in serving if w not in lacking)
    return f" while {having} has it; it fails only when it lands on a worker without it"
