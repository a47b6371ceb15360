"""DRL101-DRL103: tasks that reach no worker because of their queue or executor."""

from __future__ import annotations

from collections.abc import Iterator

from dagroute_lint.diagnostics import Diagnostic, KeywordFix
from dagroute_lint.resolve.placement import served_queues, variant_placements, workers_of
from dagroute_lint.resolve.tasks import ResolvedTask
from dagroute_lint.rules.base import Context, DeploymentContext, DeploymentRule, Rule
from dagroute_lint.rules.causes import causes, message, related
from dagroute_lint.rules.choices import one_of, when
from dagroute_lint.rules.hybrid_executors import KUBERNETES_QUEUE, hybrid_fixes, is_hybrid


def _listing(items: list[str]) -> str:
    return ", ".join(items) if items else "none"


def _hybrid_fix(context: DeploymentContext, task: ResolvedTask, keyword: str) -> KeywordFix | None:
    """The rewrite for a task written for Airflow 2's hybrid executors, if it has one that
    rewrites ``keyword`` (worked out once per file for the three rules that offer it)."""
    fixes = context.repository.derive(
        "hybrid-fixes", context.file, lambda: hybrid_fixes(context.tasks, context.inventory)
    )
    fix: KeywordFix | None = fixes.get(id(task))
    return fix if fix is not None and fix.keyword == keyword else None


def check_unserved_queue(context: DeploymentContext) -> Iterator[Diagnostic]:
    """Each candidate queue and executor is checked: any that no worker serves is reported."""
    inventory = context.inventory
    for placed in context.placed:
        task = placed.task
        said: set[str] = set()
        for _, chosen, placement in variant_placements(placed, inventory):
            executor = placement.executor
            if executor is None or executor.honours_queue is not True or placement.queue is None:
                continue
            if placement.workers:
                continue
            served = served_queues(inventory, executor)
            if not workers_of(inventory, executor):
                detail = f"no {executor.display_name} worker is declared"
            else:
                detail = f"no {executor.display_name} worker serves it (served: {_listing(served)})"
            message = (
                f"{task.label} routes to queue '{placement.queue}'"
                f"{one_of(task, 'queue', chosen)}{when(task, chosen, 'queue')}, but {detail}; "
                "it will stay queued and never start"
            )
            if message not in said:
                said.add(message)
                fix = _hybrid_fix(context, task, "queue") if not chosen else None
                yield context.report(
                    task.task.position,
                    message,
                    kind="queue",
                    item=placement.queue,
                    task=task,
                    cause=f"queue '{placement.queue}'",
                    routing=("queue",),
                    fix=fix if placement.queue == KUBERNETES_QUEUE else None,
                )


def check_queue_ignored(context: DeploymentContext) -> Iterator[Diagnostic]:
    inventory = context.inventory
    for placed in context.placed:
        task = placed.task
        for variant, chosen, placement in variant_placements(placed, inventory):
            queue = variant.fields["queue"]
            if not queue.known or not queue.explicit or queue.value is None:
                continue
            if queue.value == inventory.default_queue:
                continue
            executor = placement.executor
            if executor is None or executor.honours_queue is not False:
                continue
            fix = _hybrid_fix(context, task, "queue") if not chosen else None
            yield context.report(
                task.task.position,
                f"{task.label} sets queue '{queue.value}'{one_of(task, 'queue', chosen)} "
                f"({queue.origin}){when(task, chosen, 'queue')}, but its executor "
                f"{executor.display_name} ignores queues; the queue does not decide where it runs",
                kind="queue",
                item=str(queue.value),
                task=task,
                fix=fix if queue.value == KUBERNETES_QUEUE else None,
                routing=("queue",),
            )


def check_unknown_executor(context: DeploymentContext) -> Iterator[Diagnostic]:
    inventory = context.inventory
    configured = _listing([entry.written for entry in inventory.executors])
    for task in context.tasks:
        for variant, chosen in task.variants(("executor",)):
            executor = variant.fields["executor"]
            if not executor.known or not isinstance(executor.value, str):
                continue
            if inventory.resolve_executor(executor.value) is not None:
                continue
            hybrid = ""
            if is_hybrid(executor.value) and inventory.airflow_major != 2:
                hybrid = (
                    "; Airflow 3 removed the hybrid executors: name the configured executor of "
                    "the side the task ran on instead"
                )
            yield context.report(
                task.task.position,
                f"{task.label} names executor '{executor.value}'"
                f"{one_of(task, 'executor', chosen)} ({executor.origin}), which the "
                f"deployment does not configure (configured: {configured}); Airflow rejects the "
                f"whole DAG at parse time with UnknownExecutorException{hybrid}",
                kind="executor",
                item=executor.value,
                task=task,
                fix=_hybrid_fix(context, task, "executor") if not chosen else None,
                routing=("executor",),
            )


def check_unresolved_routing(context: Context) -> Iterator[Diagnostic]:
    """One diagnostic per cause, naming the fields it makes unknown and every task it reaches
    (see ``causes``): where it is written when that is in this file, else at its first task."""
    path = context.module.path
    for cause in causes(path, context.tasks):
        yield context.report(
            cause.position,
            message(cause),
            kind="routing",
            item=", ".join(cause.fields),
            tasks=cause.reached,
            related=related(path, cause),
        )


UNSERVED_QUEUE = DeploymentRule(
    code="DRL101",
    name="unserved-queue",
    summary="queue-honouring executor and no worker of it serves the task's queue",
    boundary="dispatch",
    check=check_unserved_queue,
)
QUEUE_IGNORED = DeploymentRule(
    code="DRL102",
    name="queue-ignored",
    summary="explicit queue on a task whose executor ignores queues",
    boundary="dispatch",
    check=check_queue_ignored,
)
UNKNOWN_EXECUTOR = DeploymentRule(
    code="DRL103",
    name="unknown-executor",
    summary="executor= matches no configured executor",
    boundary="parse",
    check=check_unknown_executor,
)
UNRESOLVED_ROUTING = Rule(
    code="DRL105",
    name="unresolved-routing",
    summary="a routing value that cannot be known statically: coverage unproven",
    boundary="dispatch",
    check=check_unresolved_routing,
    severity="warning",
)
