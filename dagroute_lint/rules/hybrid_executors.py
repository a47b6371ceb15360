"""The ``executor=`` a task written for Airflow 2's hybrid executors needs under Airflow 3.

CeleryKubernetesExecutor and LocalKubernetesExecutor sent a task to their Kubernetes side when
its queue was ``[celery_kubernetes_executor] kubernetes_queue`` (``[local_kubernetes_executor]``
for the other; ``"kubernetes"`` by default), and to their Celery or Local side otherwise. Airflow
3 removed them (their constructors raise): the deployment configures both executors side by
side and a task picks one with ``executor=`` (airflow-semantics §3.4). So, under an Airflow 3
inventory, the rewrite is mechanical:

- ``executor="CeleryKubernetesExecutor", queue="kubernetes"`` becomes
  ``executor="KubernetesExecutor"``, the queue dropped (KubernetesExecutor ignores it);
- ``executor="CeleryKubernetesExecutor"`` with any other queue becomes
  ``executor="CeleryExecutor"``, its side for that queue (``LocalExecutor`` for the Local
  hybrid): naming Kubernetes there would move the task;
- ``queue="kubernetes"`` with no ``executor=`` (the hybrid was the default executor) becomes
  ``executor="KubernetesExecutor"``.

The executor is written as the inventory configures it (its alias, else its class name), and
only when the inventory configures exactly one of its kind. A fix is offered only for keywords
written as string literals on the task's own call (``Arguments.literal``), never for a value
that comes through a variable, ``default_args`` or a ``functools.partial``, and only when every
task built at that call would get the same rewrite (a call in a loop or a function builds
several). The fixes assume the hybrids' default ``kubernetes_queue``; the Airflow 3 inventory no
longer says what an Airflow 2 deployment had set it to.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from dagroute_lint.deployment.executors import ExecutorEntry
from dagroute_lint.deployment.inventory import Inventory
from dagroute_lint.diagnostics import KeywordFix
from dagroute_lint.model import Const
from dagroute_lint.resolve.tasks import ResolvedTask

# Each hybrid, and the kind of executor that ran the tasks not sent to Kubernetes.
HYBRID_OTHER_SIDE = {"CeleryKubernetesExecutor": "celery", "LocalKubernetesExecutor": "local"}
# Both hybrids' default ``kubernetes_queue``.
KUBERNETES_QUEUE = "kubernetes"
# A name written into a string literal as it is: no quote, backslash or line break to escape.
_PLAIN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")


def is_hybrid(name: str) -> bool:
    """Whether an ``executor=`` value names a hybrid executor (by class name or module path)."""
    return name.rsplit(".", 1)[-1] in HYBRID_OTHER_SIDE


def hybrid_fixes(tasks: Sequence[ResolvedTask], inventory: Inventory) -> dict[int, KeywordFix]:
    """The rewrite of each task (by ``id``) that has one, under an Airflow 3 inventory: only
    those that every task sharing one of its keywords agrees on."""
    if inventory.airflow_major != 3:
        return {}
    proposed = {id(task): _fix(task, inventory) for task in tasks}
    # Each written keyword the fixes touch, and every fix (or None) proposed for the tasks
    # built with it.
    by_keyword: dict[tuple[int, int], set[KeywordFix | None]] = {}
    for task in tasks:
        arguments = task.task.arguments
        for name in ("executor", "queue"):
            if name in arguments.literal:
                where = arguments.positions[name]
                by_keyword.setdefault((where.line, where.column), set()).add(proposed[id(task)])
    agreed: dict[int, KeywordFix] = {}
    for key, fix in proposed.items():
        if fix is None:
            continue
        touched = [(fix.line, fix.column), *((line, column) for line, column, _, _ in fix.drop)]
        if all(by_keyword.get(where) == {fix} for where in touched):
            agreed[key] = fix
    return agreed


def _fix(task: ResolvedTask, inventory: Inventory) -> KeywordFix | None:
    if task.task.constructed:  # the class's own code may have changed what the call gave
        return None
    executor = _literal(task, "executor")
    queue = _literal(task, "queue")
    if executor is not None:
        if not is_hybrid(executor):
            return None
        queue_field = task.fields["queue"]
        if not queue_field.known:
            return None
        effective = inventory.default_queue if queue_field.value is None else queue_field.value
        if effective == KUBERNETES_QUEUE:
            if queue != KUBERNETES_QUEUE:  # the queue comes from elsewhere: cannot drop it
                return None
            return _rewrite(task, "executor", executor, "kubernetes", inventory, drop="queue")
        side = HYBRID_OTHER_SIDE[executor.rsplit(".", 1)[-1]]
        return _rewrite(task, "executor", executor, side, inventory)
    if queue == KUBERNETES_QUEUE and not task.fields["executor"].explicit:
        return _rewrite(task, "queue", queue, "kubernetes", inventory)
    return None


def _literal(task: ResolvedTask, name: str) -> str | None:
    """The value of keyword ``name`` when the task's own call writes it as a string literal and
    nothing of higher precedence (an assignment after construction) replaces it."""
    arguments = task.task.arguments
    written = arguments.named.get(name)
    if name not in arguments.literal or not isinstance(written, Const):
        return None
    found = task.fields[name]
    if found.origin != "argument" or found.value != written.value:
        return None
    return written.value if isinstance(written.value, str) else None


def _rewrite(
    task: ResolvedTask,
    keyword: str,
    value: str,
    kind: str,
    inventory: Inventory,
    drop: str | None = None,
) -> KeywordFix | None:
    entry = _only_entry(inventory, kind)
    if entry is None:
        return None
    name = entry.alias or entry.class_name
    if not _PLAIN_NAME.fullmatch(name) or inventory.resolve_executor(name) != entry:
        return None
    positions = task.task.arguments.positions
    where = positions[keyword]
    dropped: tuple[tuple[int, int, str, str], ...] = ()
    if drop is not None:
        at = positions[drop]
        dropped = ((at.line, at.column, drop, KUBERNETES_QUEUE),)
    return KeywordFix(where.line, where.column, keyword, value, "executor", name, dropped)


def _only_entry(inventory: Inventory, kind: str) -> ExecutorEntry | None:
    """The configured executor of ``kind``, when there is exactly one."""
    found = [entry for entry in inventory.executors if entry.kind == kind]
    return found[0] if len(found) == 1 else None
