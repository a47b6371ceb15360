"""DRL301-DRL302: pools a task can never get a slot in (airflow-semantics §4)."""

from __future__ import annotations

from collections.abc import Iterator

from dagroute_lint.diagnostics import Diagnostic
from dagroute_lint.resolve.tasks import ResolvedTask
from dagroute_lint.rules.base import Context, DeploymentContext, DeploymentRule, Rule
from dagroute_lint.wording import did_you_mean

# ``models/pool.py``: a pool of -1 slots is unlimited.
UNLIMITED = -1


def _slots(task: ResolvedTask) -> int | None:
    slots = task.fields["pool_slots"]
    if not slots.known or isinstance(slots.value, bool) or not isinstance(slots.value, int):
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
        pool = _pool(task)
        if pool is None or pool in inventory.pools:
            continue
        origin = task.fields["pool"].origin
        yield context.report(
            task.task.arguments.positions.get("pool", task.task.position),
            f"{task.label} uses pool '{pool}' ({origin}), which the deployment does not declare "
            f"(pools: {', '.join(sorted(inventory.pools))}); the scheduler never schedules it "
            f"and it stays SCHEDULED forever{did_you_mean(pool, inventory.pools)}",
        )


def check_pool_slots(context: Context) -> Iterator[Diagnostic]:
    """Slots no pool can give: below 1 (a parse error) or more than the pool holds."""
    inventory = context.inventory
    for task in context.tasks:
        slots = _slots(task)
        if slots is None:
            continue
        position = task.task.arguments.positions.get("pool_slots", task.task.position)
        origin = task.fields["pool_slots"].origin
        if slots < 1:
            yield context.report(
                position,
                f"{task.label} asks for pool_slots={slots} ({origin}); Airflow rejects pool_slots "
                "below 1 when it parses the file (ValueError), so the DAG does not load",
            )
            continue
        pool = _pool(task)
        if inventory is None or inventory.pools is None or pool is None or not task.dispatched:
            continue
        size = inventory.pools.get(pool)
        if size is None or size == UNLIMITED or slots <= size:
            continue
        yield context.report(
            position,
            f"{task.label} asks for {slots} slots ({origin}) of pool '{pool}', which has only "
            f"{size}; the scheduler never finds room and it stays SCHEDULED forever",
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
