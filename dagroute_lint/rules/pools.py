"""DRL301-DRL302: pools a task can never get a slot in (airflow-semantics §4)."""

from __future__ import annotations

from collections.abc import Iterator

from dagroute_lint.diagnostics import Diagnostic, Kind
from dagroute_lint.resolve.tasks import ResolvedTask
from dagroute_lint.rules.base import Context, DeploymentContext, DeploymentRule, Rule
from dagroute_lint.rules.choices import one_of
from dagroute_lint.wording import did_you_mean

# ``models/pool.py``: a pool of -1 slots is unlimited.
UNLIMITED = -1


def _slots(task: ResolvedTask) -> int | None:
    """The slots asked for; a bool is an int to ``BaseOperator`` (``False`` is below 1)."""
    slots = task.fields["pool_slots"]
    if not slots.known or not isinstance(slots.value, int):
        return None
    return slots.value


def _pool(task: ResolvedTask) -> str | None:
    pool = task.fields["pool"]
    return pool.value if pool.known and isinstance(pool.value, str) else None


def check_unknown_pool(context: DeploymentContext) -> Iterator[Diagnostic]:
    inventory = context.inventory
    if inventory.pools is None:
        return
    for task, _ in context.placed:
        for variant, chosen in task.variants(("pool",)):
            pool = _pool(variant)
            if pool is None or pool in inventory.pools:
                continue
            origin = task.fields["pool"].origin
            yield context.report(
                task.task.arguments.positions.get("pool", task.task.position),
                f"{task.label} uses pool '{pool}'{one_of(task, 'pool', chosen)} ({origin}), "
                f"which the deployment does not declare (pools: "
                f"{', '.join(sorted(inventory.pools))}); the scheduler never schedules it "
                f"and it stays SCHEDULED forever{did_you_mean(pool, inventory.pools)}",
                kind="pool",
                item=pool,
                task=task,
                routing=("pool",),
            )


def check_pool_slots(context: Context) -> Iterator[Diagnostic]:
    """Slots no pool can give: below 1 (a parse error) or more than the pool holds."""
    for task in context.tasks:
        said: set[str] = set()
        for variant, chosen in task.variants(("pool_slots", "pool")):
            problem = _slots_problem(context, task, variant, chosen)
            if problem is None or problem[0] in said:
                continue
            message, kind, item = problem
            said.add(message)
            position = task.task.arguments.positions.get("pool_slots", task.task.position)
            routing = ("pool_slots",) if kind == "parse" else ("pool_slots", "pool")
            yield context.report(
                position, message, kind=kind, item=item, task=task, routing=routing
            )


def _slots_problem(
    context: Context, task: ResolvedTask, variant: ResolvedTask, chosen: dict[str, object]
) -> tuple[str, Kind, str] | None:
    """What is wrong with the slots of one variant of the task, if anything: the message, and
    what it is about (slots below 1 fail the parse; more than a pool holds, that pool)."""
    inventory = context.inventory
    slots = _slots(variant)
    if slots is None:
        return None
    origin = task.fields["pool_slots"].origin
    asked = one_of(task, "pool_slots", chosen)
    if slots < 1:
        return (
            f"{task.label} asks for pool_slots={slots}{asked} ({origin}); Airflow rejects "
            "pool_slots below 1 when it parses the file (ValueError), so the DAG does not load",
            "parse",
            "pool_slots",
        )
    pool = _pool(variant)
    if inventory is None or inventory.pools is None or pool is None or not task.dispatched:
        return None
    size = inventory.pools.get(pool)
    if size is None or size == UNLIMITED or slots <= size:
        return None
    return (
        f"{task.label} asks for {int(slots)} slots{asked} ({origin}) of pool '{pool}'"
        f"{one_of(task, 'pool', chosen)}, which has only {size}; the scheduler never finds "
        "room and it stays SCHEDULED forever",
        "pool",
        pool,
    )


UNKNOWN_POOL = DeploymentRule(
    code="DRL301",
    name="unknown-pool",
    summary="pool not declared in [pools] (when [pools] is present)",
    boundary="dispatch",
    check=check_unknown_pool,
)
POOL_SLOTS_EXCEED_POOL = Rule(
    code="DRL302",
    name="pool-slots-exceed-pool",
    summary="pool_slots larger than the pool's size, or below 1",
    boundary="dispatch",
    check=check_pool_slots,
)
